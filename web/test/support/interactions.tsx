/** Posts, comments and a rendered popup for the interaction tests (likes, comments, report, contact). */
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import type { CommentDto, PostDto } from '@moodmap/core';
import { PostCard } from '../../src/features/posts/PostCard.tsx';
import { POSTS_KEY } from '../../src/features/posts/posts-query.ts';
import type { PostsFeed } from '../../src/features/posts/post-types.ts';
import { makeAuthor, makePost } from './posts.ts';

export { makePost };

export const NOW = new Date('2026-03-01T10:05:00.000Z');

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
    author: makeAuthor('Marc', author),
  };
}

export const feedOf = (...posts: PostDto[]): PostsFeed => ({ posts, serverTime: NOW.toISOString() });

/** The popup as the map shows it: the card follows the cached copy of its post. */
function CachedCard({ id }: { id: string }) {
  const { data } = useQuery<PostsFeed>({
    queryKey: POSTS_KEY,
    queryFn: () => new Promise<PostsFeed>(() => undefined),
    staleTime: Infinity,
  });
  const post = data?.posts.find((p) => p.id === id);
  return post ? <PostCard post={post} now={NOW} onClose={() => undefined} /> : <p data-testid="popup-gone" />;
}

export function renderPopup(post: PostDto, extraRoutes: RouteObject[] = []) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(POSTS_KEY, feedOf(post));
  const router = createMemoryRouter(
    [
      { path: '/', element: <CachedCard id={post.id} /> },
      ...extraRoutes,
      { path: '*', element: <div data-testid="elsewhere" /> },
    ],
    { initialEntries: ['/'] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { client, router };
}

export const cachedPost = (client: QueryClient, id = 'p-1') =>
  client.getQueryData<PostsFeed>(POSTS_KEY)?.posts.find((p) => p.id === id);
