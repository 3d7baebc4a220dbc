// @vitest-environment jsdom
/**
 * Notices of illegal content in the browser (DSA Art. 16): the card's link for a visitor, the
 * public form with its four elements and good-faith box, and the confirmation link's page.
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { MESSAGES, type PostDto } from '@moodmap/core';
import { DsaConfirmScreen } from '../src/features/dsa/DsaConfirmScreen.tsx';
import { DsaNoticeScreen } from '../src/features/dsa/DsaNoticeScreen.tsx';
import { PostCard } from '../src/features/posts/PostCard.tsx';
import { fakeApi } from './support/auth-fixtures.ts';
import { popupViewerEachTest } from './support/popup-viewer.ts';

const POST: PostDto = {
  id: '5b0c7d2e-1f3a-4b5c-8d9e-0a1b2c3d4e5f',
  userId: 'author-1',
  category: 'angry',
  content: 'Texte',
  isVoiceOnly: false,
  latitude: 48.85,
  longitude: 2.35,
  nickname: 'Marc',
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
  approximate: false,
  author: { username: 'Marc', photoUrl: null, isPremium: false, isPro: false, isPlus: false, isMulti: false },
};

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/', element: <PostCard post={POST} now={new Date('2026-03-01T10:05:00.000Z')} onClose={vi.fn()} /> },
      { path: '/signalement-illicite', element: <DsaNoticeScreen /> },
      { path: '/signalement-illicite/confirmer', element: <DsaConfirmScreen /> },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

popupViewerEachTest(null);

describe('notice of illegal content', () => {
  it("shows a visitor the card's link to the public form, with the post's location filled in", async () => {
    const router = renderAt('/');
    fireEvent.click(screen.getByTestId('post-dsa-notice'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/signalement-illicite'));
    expect(router.state.location.search).toBe(`?post=${POST.id}`);
    expect(await screen.findByTestId('dsa-location')).toHaveProperty('value', POST.id);
  });

  it('sends the four elements and the good-faith statement, then asks to confirm by e-mail', async () => {
    const api = fakeApi({ 'POST /api/dsa-notices': () => json(201, { status: 'confirm' }) });
    renderAt(`/signalement-illicite?post=${POST.id}`);
    fireEvent.change(await screen.findByTestId('dsa-explanation'), { target: { value: 'Incitation à la haine' } });
    fireEvent.change(screen.getByTestId('dsa-name'), { target: { value: 'Camille Durand' } });
    fireEvent.change(screen.getByTestId('dsa-email'), { target: { value: 'camille@example.fr' } });
    fireEvent.click(screen.getByTestId('dsa-good-faith'));
    fireEvent.click(screen.getByTestId('dsa-submit'));
    expect((await screen.findByTestId('dsa-sent')).textContent).toBe(MESSAGES.dsa_sent_confirm);
    expect(api.callsTo('POST /api/dsa-notices')[0]?.body).toEqual({
      explanation: 'Incitation à la haine',
      location: POST.id,
      name: 'Camille Durand',
      email: 'camille@example.fr',
      goodFaith: true,
    });
  });

  it("shows the server's French refusal", async () => {
    fakeApi({
      'POST /api/dsa-notices': () =>
        json(400, { error: { code: 'dsa_good_faith_required', message: MESSAGES.dsa_good_faith_required } }),
    });
    renderAt(`/signalement-illicite?post=${POST.id}`);
    fireEvent.click(await screen.findByTestId('dsa-submit'));
    expect((await screen.findByTestId('dsa-error')).textContent).toBe(MESSAGES.dsa_good_faith_required);
  });

  it('confirms the notice once from the mailed link', async () => {
    const api = fakeApi({ 'POST /api/dsa-notices/confirm': () => json(200, { status: 'received' }) });
    renderAt('/signalement-illicite/confirmer?token=abc');
    expect((await screen.findByTestId('dsa-confirmed')).textContent).toBe(MESSAGES.dsa_confirmed);
    expect(api.callsTo('POST /api/dsa-notices/confirm').map((c) => c.body)).toEqual([{ token: 'abc' }]);
  });
});
