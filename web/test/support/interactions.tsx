/** Posts, comments and a rendered popup for the interaction tests (likes, comments, report, contact). */
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import type { CommentDto, PostDto } from '@moodmap/core';
import { PostCard } from '../../src/features/posts/PostCard.tsx';
import { POSTS_KEY } from '../../src/features/posts/posts-query.ts';
import type { PostsFeed } from '../../src/features/posts/post-types.ts';

export const NOW = new Date('2026-03-01T10:05:00.000Z');

export function makePost(over: Partial<PostDto> = {}): PostDto {
  return {
    id: 'p-1',
    userId: 'author-1',
    category: 'happy',
    content: 'Grand soleil sur la plage de Boucan Canot, venez profiter de la mer avant ce soir !',
    isVoiceOnly: false,
    latitude: -21.0667,
    longitude: 55.2167,
    nickname: 'Léa',
    createdAt: '2026-03-01T10:00:00.000Z',
    imageUrl: null,
    thumbnailUrl: null,
    mediaUrls: [],
    audioUrl: null,
    audioDuration: null,
    hasPulseEffect: false,
    commentsCount: 0,
    likesCount: 0,
    isLikedByUser: false,
    author: { username: 'Léa', photoUrl: null, isPremium: false, isPro: false, isPlus: false, isMulti: false },
    ...over,
  };
}

type CommentOverrides = Omit<Partial<CommentDto>, 'author'> & { author?: Partial<CommentDto['author']> };

export function makeComment({ author, ...over }: CommentOverrides = {}): CommentDto {
  return {
    id: 'c-1',
    postId: 'p-1',
    userId: 'someone',
    content: 'Trop beau !',
    createdAt: '2026-03-01T10:01:00.000Z',
    updatedAt: '2026-03-01T10:01:00.000Z',
    isEdited: false,
    ...over,
    author: { username: 'Marc', photoUrl: null, isPremium: false, isPro: false, isPlus: false, isMulti: false, ...author },
  };
}

export const feedOf = (...posts: PostDto[]): PostsFeed => ({ posts, serverTime: NOW.toISOString() });

/** The popup as the map shows it: the card follows the cached copy of its post. */
function CachedCard({ id }: { id: string }) {
  const { data } = useQuery<PostsFeed>({ queryKey: POSTS_KEY, queryFn: () => new Promise<PostsFeed>(() => undefined), staleTime: Infinity });
  const post = data?.posts.find((p) => p.id === id);
  return post ? <PostCard post={post} now={NOW} onClose={() => undefined} /> : <p data-testid="popup-gone" />;
}

export function renderPopup(post: PostDto, extraRoutes: RouteObject[] = []) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(POSTS_KEY, feedOf(post));
  const router = createMemoryRouter(
    [{ path: '/', element: <CachedCard id={post.id} /> }, ...extraRoutes, { path: '*', element: <div data-testid="elsewhere" /> }],
    { initialEntries: ['/'] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { client, router };
}

export const cachedPost = (client: QueryClient, id = 'p-1') => client.getQueryData<PostsFeed>(POSTS_KEY)?.posts.find((p) => p.id === id);
