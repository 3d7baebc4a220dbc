// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ConversationSummaryDto, MessageDto } from '@moodmap/core';
import { useSessionStore } from '../src/features/auth/session-store.ts';
import { MessagesScreen } from '../src/features/messages/MessagesScreen.tsx';
import { useMessagesSelection } from '../src/features/messages/messages-store.ts';
import { useToastStore } from '../src/ui/toasts/toast-store.ts';
import { deferred, fakeApi, json } from './support/auth-fixtures.ts';
import { messagingViewerEachTest } from './support/messaging-viewer.ts';
import { renderRoutes } from './support/render-routes.tsx';

// Local wall-clock times, so 'HH:mm' does not depend on the machine's time zone.
const NOW = new Date('2026-03-10T12:00:00');
const at = (local: string) => new Date(local).toISOString();
const ME = 'me';

function message(over: Partial<MessageDto> = {}): MessageDto {
  return {
    id: 'm-1',
    conversationId: 'c-1',
    senderId: 'lea',
    content: 'Salut !',
    imageUrl: null,
    read: false,
    createdAt: at('2026-03-10T09:05:00'),
    ...over,
  };
}

function conversation(
  id: string,
  nickname: string,
  last: Partial<MessageDto> | null,
  over: Partial<ConversationSummaryDto> = {},
): ConversationSummaryDto {
  const other = `${nickname.toLowerCase()}-id`;
  const lastMessage = last ? message({ id: `${id}-last`, conversationId: id, senderId: other, ...last }) : null;
  return {
    id,
    participant1Id: ME,
    participant2Id: other,
    createdAt: at('2026-01-01T10:00:00'),
    updatedAt: lastMessage?.createdAt ?? at('2026-01-01T10:00:00'),
    otherParticipant: { id: other, nickname, profilePhotoUrl: null },
    lastMessage,
    unread: false,
    request: false,
    ...over,
  };
}

const toasts = () => useToastStore.getState().toasts.map((t) => t.message);
const items = () => screen.getAllByTestId('conversation-item');
const item = (id: string) => items().find((el) => el.getAttribute('data-conversation-id') === id)!;
const input = () => screen.getByTestId('message-input') as HTMLTextAreaElement;
const send = () => screen.getByTestId('message-send') as HTMLButtonElement;
const bubbles = () => screen.queryAllByTestId('message-bubble');

function renderMessages(path = '/messages', state?: unknown) {
  const [pathname, search] = path.split('?');
  return renderRoutes(
    [
      { path: '/', element: <div data-testid="home" /> },
      { path: '/messages', element: <MessagesScreen /> },
    ],
    { pathname, search: search === undefined ? '' : `?${search}`, state },
  );
}

/** A thread of `n` messages alternating between Léa and me, one minute apart, today. */
function thread(n: number, conversationId = 'c-1'): MessageDto[] {
  return Array.from({ length: n }, (_, i) =>
    message({
      id: `t-${i + 1}`,
      conversationId,
      senderId: i % 2 ? ME : 'lea-id',
      content: `Message ${i + 1}`,
      createdAt: at(`2026-03-10T10:${String(i).padStart(2, '0')}:00`),
      read: true,
    }),
  );
}

const LEA = conversation(
  'c-1',
  'Léa',
  { senderId: 'léa-id', content: 'Salut !', createdAt: at('2026-03-10T09:05:00') },
  { unread: true },
);

messagingViewerEachTest(ME);
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});

describe('/messages: the conversation list', () => {
  it('shows each conversation with its photo or fallback, nickname, list time and preview, and a blue dot for unread ones', async () => {
    const list = [
      conversation(
        'c-1',
        'Léa',
        { content: '  Salut !\n  ça va ?', createdAt: at('2026-03-10T09:05:00') },
        { unread: true, otherParticipant: { id: 'lea-id', nickname: 'Léa', profilePhotoUrl: '/media/lea.webp' } },
      ),
      conversation('c-2', 'Marc', { senderId: ME, content: 'À demain', createdAt: at('2026-03-09T20:00:00') }),
      conversation(
        'c-3',
        'Zoé',
        { content: '', imageUrl: '/media/a.webp', createdAt: at('2026-03-07T08:00:00') },
        { unread: true },
      ),
      conversation('c-4', 'Hugo', {
        senderId: ME,
        content: 'Regarde ça',
        imageUrl: '/media/b.webp',
        createdAt: at('2026-02-26T08:00:00'),
      }),
      conversation('c-5', 'Inès', null, { updatedAt: at('2026-01-05T08:00:00') }),
    ];
    fakeApi({ 'GET /api/conversations': () => json(200, { conversations: list, nextCursor: null }) });
    renderMessages();
    await waitFor(() => expect(items()).toHaveLength(5));

    const rows = items().map((el) => [
      within(el).getByTestId('conversation-nickname').textContent,
      within(el).getByTestId('conversation-time').textContent,
      within(el).getByTestId('conversation-preview').textContent,
      el.getAttribute('data-unread'),
    ]);
    expect(rows).toEqual([
      ['Léa', '09:05', 'Salut ! ça va ?', 'true'],
      ['Marc', 'Hier', 'Vous: À demain', 'false'],
      ['Zoé', '3j', '📷 Photo', 'true'],
      ['Hugo', '26/02', 'Vous: 📷 Photo', 'false'],
      ['Inès', '01/26', 'Commencez votre conversation avec Inès', 'false'],
    ]);
    expect(within(item('c-1')).getByRole('img', { name: 'Message non lu' })).toBeTruthy();
    expect(within(item('c-2')).queryByTestId('unread-dot')).toBeNull();
    expect(screen.getAllByTestId('unread-dot')).toHaveLength(2);
    // The photo, or the fallback (the initial) when there is none.
    expect(item('c-1').querySelector('img')?.getAttribute('src')).toBe('/media/lea.webp');
    expect(item('c-2').querySelector('img')).toBeNull();
    expect(item('c-2').querySelector('span[aria-hidden="true"]')?.textContent).toBe('M');
    expect(screen.getByTestId('messages-chat').textContent).toBe(
      'Sélectionnez une conversation pour commencer à discuter',
    );
  });

  it("says 'Aucun message' with the hint when there is no conversation", async () => {
    fakeApi({ 'GET /api/conversations': () => json(200, { conversations: [], nextCursor: null }) });
    renderMessages();
    const empty = await screen.findByTestId('messages-empty');
    expect(empty.textContent).toBe(
      "Aucun messageCommencez une conversation en cliquant sur 'Contacter' sur une publication",
    );
    expect(screen.getByTestId('messages-chat').textContent).toBe(
      'Sélectionnez une conversation pour commencer à discuter',
    );
  });

  it('asks a visitor to sign in, without calling the server', () => {
    useSessionStore.setState({ user: null });
    const api = fakeApi({});
    renderMessages();
    expect(screen.getByText('Veuillez vous connecter pour voir vos messages')).toBeTruthy();
    expect(screen.queryByTestId('messages-screen')).toBeNull();
    expect(api.calls).toHaveLength(0);
  });
});

describe('/messages: the chat', () => {
  function threadApi(messages: MessageDto[], extra: Parameters<typeof fakeApi>[0] = {}) {
    return fakeApi({
      'GET /api/conversations': () => json(200, { conversations: [LEA], nextCursor: null }),
      'GET /api/conversations/c-1/messages': () => json(200, { messages, hasMore: false }),
      'POST /api/conversations/c-1/read': () => json(200, { updated: 1 }),
      ...extra,
    });
  }

  it('selects ?conversation=, rewrites the address to /messages, shows the thread and marks it read', async () => {
    const messages = [
      message({ id: 'a', senderId: 'lea-id', content: 'Coucou', createdAt: at('2026-03-09T18:30:00'), read: true }),
      message({
        id: 'b',
        senderId: ME,
        content: 'Hello !',
        imageUrl: '/media/photo.webp',
        createdAt: at('2026-03-10T09:00:00'),
        read: true,
      }),
      message({ id: 'c', senderId: 'lea-id', content: 'On se voit ?', createdAt: at('2026-03-10T09:05:00') }),
    ];
    const api = threadApi(messages);
    const { router } = renderMessages('/messages?conversation=c-1');
    await waitFor(() => expect(bubbles()).toHaveLength(3));
    expect(router.state.location.pathname).toBe('/messages');
    expect(router.state.location.search).toBe('');
    expect(screen.getByTestId('messages-screen').getAttribute('data-conversation-id')).toBe('c-1');
    expect(screen.getByTestId('chat-nickname').textContent).toBe('Léa');

    expect(bubbles().map((b) => [b.getAttribute('data-mine'), b.textContent])).toEqual([
      ['false', 'CoucouHier 18:30'],
      ['true', 'Hello !09:00'],
      ['false', 'On se voit ?09:05'],
    ]);
    const link = within(bubbles()[1]!).getByRole('link', { name: "Ouvrir l'image dans un nouvel onglet" });
    expect(link.getAttribute('href')).toBe('/media/photo.webp');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');

    // The open conversation loses its dot; its messages are marked read on the server.
    await waitFor(() => expect(api.callsTo('POST /api/conversations/c-1/read').length).toBeGreaterThan(0));
    await waitFor(() => expect(item('c-1').getAttribute('data-unread')).toBe('false'));
    expect(input().placeholder).toBe('Écrivez votre message...');
  });

  it('opens a conversation from the list, and the back button returns to the list', async () => {
    threadApi(thread(2));
    renderMessages();
    await waitFor(() => expect(items()).toHaveLength(1));
    fireEvent.click(item('c-1'));
    await waitFor(() => expect(bubbles()).toHaveLength(2));
    expect(item('c-1').getAttribute('aria-current')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Retour aux conversations' }));
    expect(useMessagesSelection.getState().conversationId).toBeNull();
    expect(screen.getByTestId('messages-chat').textContent).toBe(
      'Sélectionnez une conversation pour commencer à discuter',
    );
  });

  it("opens an empty conversation from 'Contacter' with the draft, asking the server for it when the list lacks it", async () => {
    const fresh = conversation('c-9', 'Nina', null);
    const api = fakeApi({
      'GET /api/conversations': () => json(200, { conversations: [], nextCursor: null }),
      'GET /api/conversations/c-9': () => json(200, { conversation: fresh }),
      'GET /api/conversations/c-9/messages': () => json(200, { messages: [], hasMore: false }),
      'POST /api/conversations/c-9/read': () => json(200, { updated: 0 }),
    });
    renderMessages('/messages?conversation=c-9', { prefill: 'Bonjour !', nickname: 'Nina' });
    expect((await screen.findByTestId('conversation-empty')).textContent).toContain(
      'Commencez votre conversation avec Nina',
    );
    expect(input().value).toBe('Bonjour !');
    expect(input().placeholder).toBe('Écrivez votre premier message...');
    expect(api.callsTo('GET /api/conversations/c-9')).toHaveLength(1);
    // It shows in the list too.
    await waitFor(() => expect(item('c-9')).toBeTruthy());
  });

  it("says 'Conversation introuvable' for a conversation that is not mine", async () => {
    fakeApi({
      'GET /api/conversations': () => json(200, { conversations: [], nextCursor: null }),
      'GET /api/conversations/x': () =>
        json(404, { error: { code: 'conversation_not_found', message: 'Conversation introuvable' } }),
    });
    renderMessages('/messages?conversation=x');
    expect((await screen.findByTestId('conversation-not-found')).textContent).toContain('Conversation introuvable');
  });

  it("loads the previous page with 'Afficher les messages précédents'", async () => {
    const latest = thread(3).map((m, i) => ({ ...m, id: `new-${i}` }));
    const older = [
      message({
        id: 'old-1',
        senderId: 'lea-id',
        content: 'Tout premier',
        createdAt: at('2026-03-01T08:00:00'),
        read: true,
      }),
    ];
    const api = fakeApi({
      'GET /api/conversations': () => json(200, { conversations: [LEA], nextCursor: null }),
      'GET /api/conversations/c-1/messages': (call) =>
        call.url.includes('before=')
          ? json(200, { messages: older, hasMore: false })
          : json(200, { messages: latest, hasMore: true }),
      'POST /api/conversations/c-1/read': () => json(200, { updated: 0 }),
    });
    renderMessages('/messages?conversation=c-1');
    fireEvent.click(await screen.findByRole('button', { name: 'Afficher les messages précédents' }));
    await waitFor(() => expect(bubbles()).toHaveLength(4));
    expect(
      api
        .callsTo('GET /api/conversations/c-1/messages')
        .map((c) => new URL(c.url, 'http://x').searchParams.get('before')),
    ).toEqual([null, 'new-0']);
    expect(bubbles()[0]!.textContent).toContain('Tout premier');
    expect(screen.queryByTestId('messages-load-older')).toBeNull();
  });
});

describe('/messages: the composer, its image and its sending', () => {
  const SENT = message({ id: 'sent-1', senderId: ME, content: 'Bonjour Léa', createdAt: at('2026-03-10T11:59:00') });

  async function openChat(post: (call: { body: unknown }) => Response | Promise<Response>) {
    const api = fakeApi({
      'GET /api/conversations': () => json(200, { conversations: [LEA], nextCursor: null }),
      'GET /api/conversations/c-1/messages': () => json(200, { messages: thread(2), hasMore: false }),
      'POST /api/conversations/c-1/read': () => json(200, { updated: 0 }),
      'POST /api/conversations/c-1/messages': post,
    });
    renderMessages('/messages?conversation=c-1');
    await waitFor(() => expect(bubbles()).toHaveLength(2));
    return api;
  }

  it('is disabled with neither text nor image, and while sending; success clears the text and shows the message once', async () => {
    const answer = deferred<Response>();
    const api = await openChat(() => answer.promise);
    expect(send().disabled).toBe(true);
    fireEvent.change(input(), { target: { value: '   \n ' } });
    expect(send().disabled).toBe(true);
    fireEvent.change(input(), { target: { value: '  Bonjour Léa  ' } });
    expect(send().disabled).toBe(false);

    fireEvent.click(send());
    await waitFor(() => expect(send().disabled).toBe(true));
    expect(send().getAttribute('aria-busy')).toBe('true');
    expect(api.callsTo('POST /api/conversations/c-1/messages')[0]!.body).toEqual({ content: 'Bonjour Léa' });
    await act(async () => answer.resolve(json(201, { message: SENT })));

    await waitFor(() => expect(input().value).toBe(''));
    expect(bubbles()).toHaveLength(3);
    expect(bubbles()[2]!.getAttribute('data-mine')).toBe('true');
    expect(bubbles()[2]!.textContent).toContain('Bonjour Léa');
    expect(send().disabled).toBe(true);
    // The list shows it as my last message.
    expect(within(item('c-1')).getByTestId('conversation-preview').textContent).toBe('Vous: Bonjour Léa');
  });

  it("keeps the text when sending fails, and says why (the server's French message)", async () => {
    await openChat(() =>
      json(429, { error: { code: 'rate_limited', message: 'Trop de messages. Veuillez patienter.' } }),
    );
    fireEvent.change(input(), { target: { value: 'Encore un' } });
    fireEvent.click(send());
    await waitFor(() => expect(toasts()).toContain('Trop de messages. Veuillez patienter.'));
    expect(input().value).toBe('Encore un');
    expect(send().disabled).toBe(false);
    expect(bubbles()).toHaveLength(2);
  });

  it('sends with Enter, and Shift+Enter does not send', async () => {
    const api = await openChat(() => json(201, { message: SENT }));
    fireEvent.change(input(), { target: { value: 'Bonjour Léa' } });
    fireEvent.keyDown(input(), { key: 'Enter', shiftKey: true });
    expect(api.callsTo('POST /api/conversations/c-1/messages')).toHaveLength(0);
    fireEvent.keyDown(input(), { key: 'Enter' });
    await waitFor(() => expect(api.callsTo('POST /api/conversations/c-1/messages')).toHaveLength(1));
    await waitFor(() => expect(input().value).toBe(''));
  });

  it('refuses a file that is not an image and an image over 5 MB; sends an image alone as multipart, kept on failure', async () => {
    let fail = true;
    const api = await openChat(() =>
      fail
        ? json(400, {
            error: {
              code: 'image_type_invalid',
              message: 'Type de fichier non autorisé. Utilisez JPEG, PNG, GIF ou WebP.',
            },
          })
        : json(201, { message: { ...SENT, content: '', imageUrl: '/media/x.webp' } }),
    );
    const picker = screen.getByTestId('message-image-input') as HTMLInputElement;
    expect(picker.accept).toBe('image/*');

    fireEvent.change(picker, { target: { files: [new File(['x'], 'notes.pdf', { type: 'application/pdf' })] } });
    expect(toasts()).toContain('Seules les images sont acceptées');
    expect(screen.queryByTestId('message-image-preview')).toBeNull();

    const big = new File([new Uint8Array(5_242_881)], 'big.jpg', { type: 'image/jpeg' });
    fireEvent.change(picker, { target: { files: [big] } });
    expect(toasts()).toContain("La taille de l'image ne doit pas dépasser 5MB");
    expect(screen.queryByTestId('message-image-preview')).toBeNull();
    expect(send().disabled).toBe(true);

    const photo = new File([new Uint8Array(5_242_880)], 'photo.jpg', { type: 'image/jpeg' });
    fireEvent.change(picker, { target: { files: [photo] } });
    expect(screen.getByTestId('message-image-preview')).toBeTruthy();
    expect(send().disabled).toBe(false);

    // Removed, then chosen again.
    fireEvent.click(screen.getByRole('button', { name: "Retirer l'image" }));
    expect(screen.queryByTestId('message-image-preview')).toBeNull();
    expect(send().disabled).toBe(true);
    fireEvent.change(picker, { target: { files: [photo] } });

    fireEvent.click(send());
    await waitFor(() => expect(toasts()).toContain('Type de fichier non autorisé. Utilisez JPEG, PNG, GIF ou WebP.'));
    expect(screen.getByTestId('message-image-preview')).toBeTruthy();
    const init = api.fetchMock.mock.calls.find(
      ([url, options]) => String(url) === '/api/conversations/c-1/messages' && options?.method === 'POST',
    )![1]!;
    const form = init.body as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect((form.get('file') as File).name).toBe('photo.jpg');
    expect(form.get('content')).toBeNull();

    fail = false;
    fireEvent.click(send());
    await waitFor(() => expect(screen.queryByTestId('message-image-preview')).toBeNull());
    expect(bubbles()).toHaveLength(3);
    expect(within(item('c-1')).getByTestId('conversation-preview').textContent).toBe('Vous: 📷 Photo');
  });
});
