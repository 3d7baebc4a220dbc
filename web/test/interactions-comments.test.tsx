// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useSessionStore } from '../src/features/auth/session-store.ts';
import { useUiStore } from '../src/lib/ui-store.ts';
import { useToastStore } from '../src/ui/toasts/toast-store.ts';
import { deferred, fakeApi, json } from './support/auth-fixtures.ts';
import { cachedPost, makeComment, makePost, renderPopup } from './support/interactions.tsx';
import { popupViewerEachTest } from './support/popup-viewer.ts';

const ME = { id: 'me', email: 'me@x.fr', nickname: 'Moi', isPlus: true };
const toasts = () => useToastStore.getState().toasts;
const items = () => screen.queryAllByTestId('comment');
const byId = (id: string) => screen.getAllByTestId('comment').find((el) => el.getAttribute('data-comment-id') === id)!;

const SERVER_COMMENTS = [
  makeComment({
    id: 'c-1',
    userId: 'marc',
    content: 'Premier !',
    createdAt: '2026-03-01T10:01:00.000Z',
    author: { username: 'Marc', isPlus: true, isMulti: true },
  }),
  makeComment({
    id: 'c-2',
    userId: 'me',
    content: 'Je passe ce soir',
    createdAt: '2026-03-01T10:02:00.000Z',
    author: { username: 'Moi' },
  }),
  makeComment({
    id: 'c-3',
    userId: 'ines',
    content: 'Belle photo',
    createdAt: '2026-03-01T10:03:00.000Z',
    isEdited: true,
    author: { username: 'Inès', isPremium: true },
  }),
];

function open(post = makePost({ commentsCount: 3 })) {
  const view = renderPopup(post, [{ path: '/user/:userId', element: <div data-testid="profile-page" /> }]);
  fireEvent.click(screen.getByTestId('post-comment'));
  return view;
}

popupViewerEachTest(ME);

describe('comments in the popup', () => {
  it('lists them oldest first with name, tier, relative time and the edited mark; only mine can be edited or deleted', async () => {
    fakeApi({ 'GET /api/posts/p-1/comments': () => json(200, { comments: SERVER_COMMENTS }) });
    open();
    await waitFor(() => expect(items()).toHaveLength(3));
    expect(screen.getByTestId('comments-count').textContent).toBe('3 commentaires');
    expect(items().map((el) => within(el).getByTestId('comment-text').textContent)).toEqual([
      'Premier !',
      'Je passe ce soir',
      'Belle photo',
    ]);
    // Multi wins over Plus (multi, plus, pro, premium).
    expect(within(byId('c-1')).getByTestId('tier-badge').textContent).toBe('Multi');
    expect(within(byId('c-3')).getByTestId('tier-badge').textContent).toBe('Premium');
    expect(within(byId('c-2')).queryByTestId('tier-badge')).toBeNull();
    expect(byId('c-1').textContent).toContain('il y a 4 minutes');
    expect(within(byId('c-3')).getByTestId('comment-edited').textContent).toBe('(modifié)');
    expect(within(byId('c-1')).queryByTestId('comment-edited')).toBeNull();
    // Edit and delete on my comment only.
    expect(within(byId('c-2')).getByTestId('comment-edit')).toBeTruthy();
    expect(within(byId('c-2')).getByTestId('comment-delete')).toBeTruthy();
    for (const other of ['c-1', 'c-3']) {
      expect(within(byId(other)).queryByTestId('comment-edit')).toBeNull();
      expect(within(byId(other)).queryByTestId('comment-delete')).toBeNull();
    }
    // The name opens the author's profile modal.
    fireEvent.click(within(byId('c-3')).getByTestId('comment-author'));
    expect(useUiStore.getState().profileModalUserId).toBe('ines');
  });

  it('edits my comment in place: shown at once with the edited mark, then saved', async () => {
    const saved = deferred<Response>();
    const api = fakeApi({
      'GET /api/posts/p-1/comments': () => json(200, { comments: SERVER_COMMENTS }),
      'PATCH /api/comments/c-2': () => saved.promise,
    });
    open();
    await waitFor(() => expect(items()).toHaveLength(3));
    fireEvent.click(within(byId('c-2')).getByTestId('comment-edit'));
    const input = within(byId('c-2')).getByTestId('comment-edit-form-input') as HTMLTextAreaElement;
    expect(input.value).toBe('Je passe ce soir');
    fireEvent.change(input, { target: { value: 'Je passe demain finalement' } });
    fireEvent.click(within(byId('c-2')).getByTestId('comment-edit-form-submit'));
    await waitFor(() =>
      expect(within(byId('c-2')).getByTestId('comment-text').textContent).toBe('Je passe demain finalement'),
    );
    expect(within(byId('c-2')).getByTestId('comment-edited')).toBeTruthy();
    expect(api.callsTo('PATCH /api/comments/c-2')[0]!.body).toEqual({ content: 'Je passe demain finalement' });
    saved.resolve(
      json(200, { comment: { ...SERVER_COMMENTS[1], content: 'Je passe demain finalement', isEdited: true } }),
    );
    await waitFor(() => expect(within(byId('c-2')).getByTestId('comment-edited')).toBeTruthy());
  });

  it('rolls an edit back when the server refuses it, and refetches', async () => {
    const api = fakeApi({
      'GET /api/posts/p-1/comments': () => json(200, { comments: SERVER_COMMENTS }),
      'PATCH /api/comments/c-2': () =>
        json(403, { error: { code: 'forbidden', message: 'Accès refusé : permissions insuffisantes' } }),
      'GET /api/posts/p-1': () => json(200, { post: makePost({ commentsCount: 3 }) }),
    });
    open();
    await waitFor(() => expect(items()).toHaveLength(3));
    fireEvent.click(within(byId('c-2')).getByTestId('comment-edit'));
    fireEvent.change(within(byId('c-2')).getByTestId('comment-edit-form-input'), { target: { value: 'Autre chose' } });
    fireEvent.click(within(byId('c-2')).getByTestId('comment-edit-form-submit'));
    await waitFor(() => expect(toasts().map((t) => t.message)).toContain('Accès refusé : permissions insuffisantes'));
    await waitFor(() => expect(within(byId('c-2')).getByTestId('comment-text').textContent).toBe('Je passe ce soir'));
    await waitFor(() => expect(api.callsTo('GET /api/posts/p-1/comments').length).toBeGreaterThanOrEqual(2));
  });

  it('deletes my comment after a confirmation, and the post count follows', async () => {
    const api = fakeApi({
      'GET /api/posts/p-1/comments': () => json(200, { comments: SERVER_COMMENTS }),
      'DELETE /api/comments/c-2': () => json(200, { commentsCount: 2 }),
    });
    const { client } = open();
    await waitFor(() => expect(items()).toHaveLength(3));
    fireEvent.click(within(byId('c-2')).getByTestId('comment-delete'));
    expect(api.callsTo('DELETE /api/comments/c-2')).toHaveLength(0);
    expect(byId('c-2').textContent).toContain('Supprimer ce commentaire ?');
    fireEvent.click(within(byId('c-2')).getByTestId('comment-delete-confirm'));
    await waitFor(() => expect(items().map((el) => el.getAttribute('data-comment-id'))).toEqual(['c-1', 'c-3']));
    expect(api.callsTo('DELETE /api/comments/c-2')).toHaveLength(1);
    await waitFor(() => expect(screen.getByTestId('comments-count').textContent).toBe('2 commentaires'));
    expect(cachedPost(client)?.commentsCount).toBe(2);
    expect(screen.getByTestId('post-comment-count').textContent).toBe('2');
  });

  it('adds a comment at once with a counter, and takes it back (text restored) when the server refuses', async () => {
    const first = deferred<Response>();
    const mine = makeComment({ id: 'c-9', userId: 'me', content: 'On arrive !', author: { username: 'Moi' } });
    let stored: unknown[] = [];
    let calls = 0;
    const api = fakeApi({
      'GET /api/posts/p-1/comments': () => json(200, { comments: stored }),
      'POST /api/posts/p-1/comments': () => {
        calls += 1;
        return calls === 1
          ? first.promise
          : json(429, {
              error: { code: 'comment_rate_limited', message: 'Trop de commentaires. Veuillez patienter.' },
            });
      },
      'GET /api/posts/p-1': () => json(200, { post: makePost({ commentsCount: 1 }) }),
    });
    const { client } = open(makePost({ commentsCount: 0 }));
    await waitFor(() =>
      expect(screen.getByTestId('comments-empty').textContent).toBe('Aucun commentaire pour le moment.'),
    );
    const input = screen.getByTestId('comment-form-input') as HTMLTextAreaElement;
    const submit = screen.getByTestId('comment-form-submit') as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    fireEvent.change(input, { target: { value: '   ' } });
    expect(submit.disabled).toBe(true);
    fireEvent.change(input, { target: { value: 'On arrive !' } });
    expect(screen.getByTestId('comment-form-counter').textContent).toBe('11/500');
    expect(submit.disabled).toBe(false);
    fireEvent.change(input, { target: { value: 'x'.repeat(501) } });
    expect(screen.getByTestId('comment-form-counter').textContent).toBe('501/500');
    expect(submit.disabled).toBe(true);
    fireEvent.change(input, { target: { value: 'On arrive !' } });
    fireEvent.keyDown(input, { key: 'Enter' });

    await waitFor(() => expect(items()).toHaveLength(1));
    expect(input.value).toBe('');
    expect(within(items()[0]!).getByTestId('comment-text').textContent).toBe('On arrive !');
    expect(within(items()[0]!).getByTestId('comment-author').textContent).toBe('Moi');
    await waitFor(() => expect(cachedPost(client)?.commentsCount).toBe(1));
    expect(api.callsTo('POST /api/posts/p-1/comments')[0]!.body).toEqual({ content: 'On arrive !' });
    stored = [mine];
    first.resolve(json(201, { comment: mine, commentsCount: 1 }));
    await waitFor(() => expect(items()[0]!.getAttribute('data-comment-id')).toBe('c-9'));
    expect(within(items()[0]!).getByTestId('comment-edit')).toBeTruthy();

    fireEvent.change(input, { target: { value: 'Encore un' } });
    fireEvent.click(submit);
    await waitFor(() => expect(toasts().map((t) => t.message)).toContain('Trop de commentaires. Veuillez patienter.'));
    await waitFor(() => expect(input.value).toBe('Encore un'));
    expect(items().map((el) => el.getAttribute('data-comment-id'))).toEqual(['c-9']);
    await waitFor(() => expect(cachedPost(client)?.commentsCount).toBe(1));
  });

  it('asks a visitor to sign in to comment, while still showing the comments', async () => {
    useSessionStore.setState({ user: null });
    fakeApi({ 'GET /api/posts/p-1/comments': () => json(200, { comments: SERVER_COMMENTS }) });
    open();
    await waitFor(() => expect(items()).toHaveLength(3));
    expect(screen.queryByTestId('comment-form')).toBeNull();
    expect(screen.queryAllByTestId('comment-edit')).toHaveLength(0);
    const prompt = screen.getByTestId('comments-signed-out');
    expect(prompt.textContent).toContain('Veuillez vous connecter pour commenter');
    fireEvent.click(within(prompt).getByRole('button', { name: 'Se connecter' }));
    expect(useUiStore.getState().authMode).toBe('login');
  });
});
