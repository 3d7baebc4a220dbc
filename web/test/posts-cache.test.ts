import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { findCachedPost, putPostInCache, updateCachedPost, updatePostIn } from '../src/features/posts/posts-cache.ts';
import {
  EXTRA_POSTS_KEY,
  MY_ACTIVE_POST_KEY,
  POSTS_KEY,
  cardKey,
  findCachedMarker,
  resetPostsRealtimeForTests,
} from '../src/features/posts/posts-query.ts';
import type { PostsFeed } from '../src/features/posts/post-types.ts';
import { feedOf, makePost } from './support/interactions.tsx';

describe('every cached copy of a post, whatever the cache shape', () => {
  it('updates feeds, viewport points, changes and single posts, and leaves the rest untouched', () => {
    const a = makePost({ id: 'a' });
    const b = makePost({ id: 'b' });
    const like = (p: typeof a) => ({ ...p, likesCount: 9 });
    const feed = feedOf(a, b);
    const next = updatePostIn(feed, 'a', like) as PostsFeed;
    expect(next.posts.map((p) => p.likesCount)).toEqual([9, 0]);
    expect(next.posts[1]).toBe(b);
    expect(updatePostIn(feed, 'zzz', like)).toBe(feed);
    const viewport = { points: [a], clusters: [{ id: 'k', count: 3 }], cursor: 'c' };
    expect((updatePostIn(viewport, 'a', like) as typeof viewport).points[0]!.likesCount).toBe(9);
    expect((updatePostIn(viewport, 'a', like) as typeof viewport).clusters).toBe(viewport.clusters);
    expect(
      (updatePostIn({ created: [a], deleted: [] }, 'a', like) as { created: (typeof a)[] }).created[0]!.likesCount,
    ).toBe(9);
    expect((updatePostIn(a, 'a', like) as typeof a).likesCount).toBe(9);
    expect(updatePostIn(null, 'a', like)).toBeNull();
  });

  it('finds and puts a post: the map feed gets it when only my active post held it', () => {
    resetPostsRealtimeForTests();
    const client = new QueryClient();
    client.setQueryData(POSTS_KEY, feedOf(makePost({ id: 'other' })));
    client.setQueryData(MY_ACTIVE_POST_KEY, makePost({ id: 'mine' }));
    client.setQueryData(['comments', 'mine'], [{ id: 'c' }]);
    expect(findCachedPost(client, 'mine')?.id).toBe('mine');
    expect(findCachedPost(client, 'mine', { listsOnly: true })).toBeUndefined();

    putPostInCache(client, makePost({ id: 'mine', likesCount: 2 }));
    // The map draws its marker (pinned beside the viewport) and the card is cached for its popup.
    expect(findCachedMarker(client, 'mine')).toMatchObject({ id: 'mine', photoUrl: null });
    expect(
      client
        .getQueryData<{ posts: { id: string; likesCount?: number }[] }>(EXTRA_POSTS_KEY)
        ?.posts.map((p) => [p.id, p.likesCount]),
    ).toEqual([['mine', undefined]]);
    expect(client.getQueryData<{ likesCount: number }>(cardKey('mine'))?.likesCount).toBe(2);
    expect(client.getQueryData<{ likesCount: number }>(MY_ACTIVE_POST_KEY)?.likesCount).toBe(2);

    updateCachedPost(client, 'mine', (p) => ({ ...p, commentsCount: 4 }));
    expect(client.getQueryData<{ commentsCount: number }>(cardKey('mine'))?.commentsCount).toBe(4);
    expect(client.getQueryData<{ commentsCount: number }>(MY_ACTIVE_POST_KEY)?.commentsCount).toBe(4);
    expect(client.getQueryData(['comments', 'mine'])).toEqual([{ id: 'c' }]);
    resetPostsRealtimeForTests();
  });
});
