// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { PostDto } from '@moodmap/core';
import { PostCard } from '../src/features/posts/PostCard.tsx';
import { useSessionStore } from '../src/features/auth/session-store.ts';
import { useUiStore } from '../src/lib/ui-store.ts';
import { useToastStore } from '../src/ui/toasts/toast-store.ts';
import { POSTS_KEY } from '../src/features/posts/posts-query.ts';
import { fakeApi } from './support/auth-fixtures.ts';
import { popupViewerEachTest } from './support/popup-viewer.ts';

function post(over: Partial<PostDto> = {}): PostDto {
  return {
    id: 'p-1',
    userId: 'author-1',
    category: 'angry',
    content: 'Encore en retard ce matin',
    isVoiceOnly: false,
    latitude: 48.85,
    longitude: 2.35,
    nickname: 'Marc',
    createdAt: '2026-03-01T10:00:00.000Z',
    imageUrl: '/media/photo.webp',
    thumbnailUrl: '/media/photo-thumb.webp',
    mediaUrls: [],
    audioUrl: null,
    audioDuration: null,
    hasPulseEffect: true,
    commentsCount: 2,
    likesCount: 0,
    isLikedByUser: false,
    approximate: false,
    author: { username: 'Marc', photoUrl: null, isPremium: false, isPro: false, isPlus: false, isMulti: false },
    ...over,
  };
}

const NOW = new Date('2026-03-01T10:05:00.000Z');

function renderCard(p: PostDto, onClose = vi.fn()) {
  const client = new QueryClient();
  client.setQueryData(POSTS_KEY, { posts: [p], serverTime: NOW.toISOString() });
  const router = createMemoryRouter(
    [
      { path: '/', element: <PostCard post={p} now={NOW} onClose={onClose} /> },
      { path: '*', element: <div data-testid="elsewhere" /> },
    ],
    { initialEntries: ['/'] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, client, onClose };
}

const toasts = () => useToastStore.getState().toasts.map((t) => t.message);

popupViewerEachTest(null);

describe('single post popup', () => {
  it('shows author, relative time, mood badge, pulse, image and text', () => {
    renderCard(post());
    const card = screen.getByTestId('post-popup');
    expect(card.textContent).toContain('Marc');
    expect(card.textContent).toContain('il y a 5 minutes');
    expect(screen.getByTestId('mood-badge').textContent).toContain('En colère');
    expect(card.textContent).toContain('Pulse');
    expect(screen.getByTestId('post-text').textContent).toBe('Encore en retard ce matin');
    expect(screen.getByTestId('post-image').querySelector('img')?.getAttribute('src')).toBe('/media/photo.webp');
  });

  it('enlarges the image, and a backdrop click closes it', () => {
    renderCard(post());
    fireEvent.click(screen.getByTestId('post-image'));
    fireEvent.click(screen.getByTestId('image-preview-img'));
    expect(screen.getByTestId('image-preview')).toBeTruthy();
    fireEvent.click(screen.getByTestId('image-preview-backdrop'));
    expect(screen.queryByTestId('image-preview')).toBeNull();
  });

  it("never shows the 'Message vocal' placeholder of a voice-only post, but plays its audio", () => {
    renderCard(
      post({
        isVoiceOnly: true,
        content: 'Message vocal',
        imageUrl: null,
        audioUrl: '/media/v.webm',
        audioDuration: 12,
      }),
    );
    expect(screen.queryByTestId('post-text')).toBeNull();
    expect(screen.getByTestId('post-audio')).toBeTruthy();
    expect(screen.getByTestId('post-audio-duration').textContent).toBe('0:12');
  });

  it('asks a visitor to sign in to contact, and to comment', () => {
    renderCard(post());
    fireEvent.click(screen.getByTestId('post-contact'));
    expect(toasts()).toContain('Veuillez vous connecter pour contacter cet utilisateur');
    expect(useUiStore.getState().authMode).toBe('login');
    fakeApi({ 'GET /api/posts/p-1/comments': () => new Response(JSON.stringify({ comments: [] }), { status: 200 }) });
    fireEvent.click(screen.getByTestId('post-comment'));
    const comments = screen.getByTestId('post-comments');
    expect(comments.textContent).toContain('2 commentaires');
    expect(comments.textContent).toContain('Veuillez vous connecter pour commenter');
  });

  it('takes a signed-in reader to the conversation in Messages, and the name to the profile', async () => {
    useSessionStore.setState({ user: { id: 'me', email: 'me@x.fr', nickname: 'Moi' } });
    fakeApi({
      'POST /api/conversations': () =>
        new Response(
          JSON.stringify({
            conversation: {
              id: 'c-1',
              participant1Id: 'u-a',
              participant2Id: 'u-b',
              createdAt: '2026-11-24T10:00:00.000Z',
              updatedAt: '2026-11-24T10:00:00.000Z',
            },
          }),
          { status: 200 },
        ),
    });
    const { router } = renderCard(post());
    fireEvent.click(screen.getByTestId('post-contact'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/messages'));
    expect(router.state.location.search).toBe('?conversation=c-1');
    act(() => void router.navigate('/'));
    fireEvent.click(screen.getByTestId('post-author'));
    expect(useUiStore.getState().profileModalUserId).toBe('author-1');
  });

  it('lets the author delete their post after a confirmation', async () => {
    useSessionStore.setState({ user: { id: 'author-1', email: 'marc@x.fr', nickname: 'Marc' } });
    const api = fakeApi({ 'DELETE /api/posts/p-1': () => new Response(null, { status: 204 }) });
    const { client, onClose } = renderCard(post());
    expect(screen.queryByTestId('post-contact')).toBeNull();
    fireEvent.click(screen.getByTestId('post-delete'));
    expect(api.calls).toHaveLength(0);
    await act(async () => fireEvent.click(within(screen.getByTestId('post-popup')).getByTestId('post-delete-confirm')));
    expect(api.callsTo('DELETE /api/posts/p-1')).toHaveLength(1);
    expect(client.getQueryData<{ posts: PostDto[] }>(POSTS_KEY)?.posts).toEqual([]);
    expect(toasts()).toContain('Publication supprimée');
    expect(onClose).toHaveBeenCalled();
  });
});
