// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useSessionStore } from '../src/features/auth/session-store.ts';
import { useUiStore } from '../src/lib/ui-store.ts';
import { useToastStore } from '../src/ui/toasts/toast-store.ts';
import { MessagesScreen } from '../src/features/messages/MessagesScreen.tsx';
import { contactPrefill } from '../src/features/messages/contact.ts';
import { useMessagesSelection } from '../src/features/messages/messages-store.ts';
import { fakeApi, json } from './support/auth-fixtures.ts';
import { makePost, renderPopup } from './support/interactions.tsx';
import { popupViewerEachTest } from './support/popup-viewer.ts';

const toasts = () => useToastStore.getState().toasts.map((t) => t.message);
const CONVERSATION = {
  id: 'c0nv-1',
  participant1Id: 'author-1',
  participant2Id: 'me',
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-01T10:00:00.000Z',
};

popupViewerEachTest(null);
beforeEach(() => useMessagesSelection.getState().clear());

describe("'Contacter' on a post", () => {
  it('asks a visitor to sign in, without calling the server', () => {
    const api = fakeApi({});
    renderPopup(makePost());
    fireEvent.click(screen.getByTestId('post-contact'));
    expect(toasts()).toContain('Veuillez vous connecter pour contacter cet utilisateur');
    expect(useUiStore.getState().authMode).toBe('login');
    expect(api.calls).toHaveLength(0);
  });

  it('opens the conversation with the author, lands on /messages with a draft quoting 50 characters, and /messages keeps it', async () => {
    useSessionStore.setState({ user: { id: 'me', email: 'me@x.fr', nickname: 'Moi' } });
    const summary = {
      ...CONVERSATION,
      otherParticipant: { id: 'author-1', nickname: 'Léa', profilePhotoUrl: null },
      lastMessage: null,
      unread: false,
    };
    const api = fakeApi({
      'POST /api/conversations': () => json(201, { conversation: CONVERSATION }),
      'GET /api/conversations': () => json(200, { conversations: [], nextCursor: null }),
      'GET /api/conversations/c0nv-1': () => json(200, { conversation: summary }),
      'GET /api/conversations/c0nv-1/messages': () => json(200, { messages: [], hasMore: false }),
    });
    const { router } = renderPopup(makePost(), [{ path: '/messages', element: <MessagesScreen /> }]);
    fireEvent.click(screen.getByTestId('post-contact'));
    await waitFor(() => expect(screen.getByTestId('messages-screen')).toBeTruthy());
    expect(api.callsTo('POST /api/conversations')[0]!.body).toEqual({ userId: 'author-1' });

    // The address is rewritten to plain /messages; the selection and the draft stay.
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(router.state.location.pathname).toBe('/messages');
    expect(router.state.location.state).toBeNull();
    const draft =
      'Bonjour, je vous contacte au sujet de votre publication : "Grand soleil sur la plage de Boucan Canot, venez p..."';
    expect(useMessagesSelection.getState()).toMatchObject({ conversationId: 'c0nv-1', draft, otherNickname: 'Léa' });
    expect(screen.getByTestId('messages-screen').getAttribute('data-conversation-id')).toBe('c0nv-1');
    // The new, empty conversation opens with the draft in the composer.
    const input = (await screen.findByTestId('message-input')) as HTMLTextAreaElement;
    expect(input.value).toBe(draft);
    expect((await screen.findByTestId('conversation-empty')).textContent).toContain(
      'Commencez votre conversation avec Léa',
    );
  });

  it("says 'Erreur: {message}' with the server's reason when it fails, and stays on the map", async () => {
    useSessionStore.setState({ user: { id: 'me', email: 'me@x.fr', nickname: 'Moi' } });
    fakeApi({
      'POST /api/conversations': () =>
        json(404, { error: { code: 'profile_not_found', message: 'Profil introuvable' } }),
    });
    const { router } = renderPopup(makePost());
    fireEvent.click(screen.getByTestId('post-contact'));
    await waitFor(() => expect(toasts()).toContain('Erreur: Profil introuvable'));
    expect(router.state.location.pathname).toBe('/');
  });

  it("says 'Impossible de créer la conversation' when there is no reason to give (contact from the map)", async () => {
    useSessionStore.setState({ user: { id: 'me', email: 'me@x.fr', nickname: 'Moi' } });
    fakeApi({
      'POST /api/conversations': () =>
        json(500, { error: { code: 'internal_error', message: 'Une erreur est survenue. Veuillez réessayer.' } }),
    });
    renderPopup(makePost());
    fireEvent.click(screen.getByTestId('post-contact'));
    await waitFor(() => expect(toasts()).toContain('Impossible de créer la conversation'));
  });

  it('quotes at most 50 characters, and nothing for a voice message', () => {
    expect(contactPrefill({ content: 'Court', isVoiceOnly: false })).toBe(
      'Bonjour, je vous contacte au sujet de votre publication : "Court"',
    );
    const quote = /"(.*)\.\.\."$/.exec(contactPrefill({ content: 'é'.repeat(80), isVoiceOnly: false }))![1]!;
    expect(Array.from(quote)).toHaveLength(50);
    expect(contactPrefill({ content: 'Message vocal', isVoiceOnly: true })).toBe(
      'Bonjour, je vous contacte au sujet de votre publication.',
    );
  });
});
