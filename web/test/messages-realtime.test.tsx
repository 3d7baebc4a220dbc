// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Outlet } from 'react-router';
import type { ConversationSummaryDto, MessageCreatedEvent, MessageDto } from '@moodmap/core';
import { BottomNav } from '../src/app/BottomNav.tsx';
import { ShellMessaging } from '../src/app/messaging.tsx';
import { useSessionStore } from '../src/features/auth/session-store.ts';
import { MessagesScreen } from '../src/features/messages/MessagesScreen.tsx';
import { MessageToast } from '../src/features/messages/MessageToast.tsx';
import { resetMessageToastForTests, useMessageToast } from '../src/features/messages/message-toast-store.ts';
import { LIST_KEY } from '../src/features/messages/messages-cache.ts';
import { useMessaging } from '../src/features/messages/messages-realtime.ts';
import { useMessagesSelection, useOpenConversation } from '../src/features/messages/messages-store.ts';
import { stopRealtime } from '../src/lib/realtime.ts';
import { deferred, fakeApi, json } from './support/auth-fixtures.ts';
import { FakeWebSocket, installFakeWebSocket } from './support/fake-websocket.ts';
import { messagingViewerEachTest } from './support/messaging-viewer.ts';
import { renderRoutes } from './support/render-routes.tsx';

const socket = () => FakeWebSocket.sockets[FakeWebSocket.sockets.length - 1]!;

const ME = 'me';
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

function message(over: Partial<MessageDto> = {}): MessageDto {
  return {
    id: 'm-1',
    conversationId: 'c-1',
    senderId: 'lea-id',
    content: 'Salut !',
    imageUrl: null,
    read: false,
    createdAt: ago(60_000),
    ...over,
  };
}

function conversation(id: string, nickname: string, last: MessageDto | null, unread = false): ConversationSummaryDto {
  return {
    id,
    participant1Id: ME,
    participant2Id: `${id}-other`,
    createdAt: ago(86_400_000),
    updatedAt: last?.createdAt ?? ago(86_400_000),
    otherParticipant: { id: `${id}-other`, nickname, profilePhotoUrl: null },
    lastMessage: last,
    unread,
    request: false,
  };
}

function created(
  msg: MessageDto,
  sender: Partial<MessageCreatedEvent['sender']> = {},
): { type: string; data: MessageCreatedEvent } {
  return {
    type: 'message.created',
    data: { message: msg, sender: { id: msg.senderId, nickname: 'Léa', profilePhotoUrl: null, ...sender } },
  };
}

/** The shell's part of messaging: the hook, the bottom navigation and the toast, around the routes. */
function Host() {
  useMessaging();
  return (
    <>
      <Outlet />
      <BottomNav />
      <MessageToast />
    </>
  );
}

function renderApp(path = '/') {
  return renderRoutes(
    [
      {
        element: <Host />,
        children: [
          { path: '/', element: <div data-testid="home" /> },
          { path: '/messages', element: <MessagesScreen /> },
        ],
      },
    ],
    path,
  );
}

const badge = () => screen.queryByTestId('unread-badge')?.textContent ?? null;
const bubbles = () => screen.queryAllByTestId('message-bubble');
const ids = (n: number, prefix = 'c') => Array.from({ length: n }, (_, i) => `${prefix}-${i + 1}`);

messagingViewerEachTest(ME);
beforeEach(() => {
  installFakeWebSocket();
  useOpenConversation.setState({ openId: null });
  resetMessageToastForTests();
});
afterEach(() => {
  stopRealtime();
});

describe('unread badge in the bottom navigation', () => {
  it("counts unread conversations, '9+' above 9 and '99+' above 99", async () => {
    let unread = ids(7);
    fakeApi({ 'GET /api/conversations/unread': () => json(200, { conversationIds: unread }) });
    const { client } = renderApp();
    await waitFor(() => expect(badge()).toBe('7'));
    expect(screen.getByTestId('unread-badge').getAttribute('aria-label')).toBe('7 conversations non lues');
    unread = ids(12);
    await act(() => client.refetchQueries({ queryKey: ['conversations', 'unread'] }));
    await waitFor(() => expect(badge()).toBe('9+'));
    unread = ids(100);
    await act(() => client.refetchQueries({ queryKey: ['conversations', 'unread'] }));
    await waitFor(() => expect(badge()).toBe('99+'));
  });

  it('leaves out the conversation open on /messages, and counts it again once /messages is left', async () => {
    const last = message({ id: 'l-1' });
    fakeApi({
      'GET /api/conversations/unread': () => json(200, { conversationIds: ids(10) }),
      'GET /api/conversations': () =>
        json(200, { conversations: [conversation('c-1', 'Léa', last, true)], nextCursor: null }),
      'GET /api/conversations/c-1/messages': () => json(200, { messages: [last], hasMore: false }),
      // The read mark fails here, so only the open state leaves it out.
      'POST /api/conversations/c-1/read': () => json(500, { error: { code: 'internal_error', message: 'x' } }),
    });
    const { router } = renderApp('/');
    await waitFor(() => expect(badge()).toBe('9+'));
    await act(() => router.navigate('/messages?conversation=c-1'));
    await waitFor(() => expect(badge()).toBe('9'));
    await act(() => router.navigate('/'));
    await waitFor(() => expect(badge()).toBe('9+'));
  });

  it('counts a message pushed while the unread conversations were being fetched', async () => {
    const first = deferred<Response>();
    let asked = 0;
    const yo = message({ id: 'n-1', conversationId: 'c-2', senderId: 'marc-id', content: 'Yo' });
    fakeApi({
      // The first answer was computed before the message; the server knows it from then on.
      'GET /api/conversations/unread': () => (++asked === 1 ? first.promise : json(200, { conversationIds: ['c-2'] })),
      'GET /api/conversations': () => json(200, { conversations: [], nextCursor: null }),
      'GET /api/conversations/c-2': () => json(200, { conversation: conversation('c-2', 'Marc', yo, true) }),
    });
    renderApp('/');
    await waitFor(() => expect(asked).toBe(1));
    socket().open();
    socket().receive(created(yo));
    await act(async () => first.resolve(json(200, { conversationIds: [] })));
    await waitFor(() => expect(badge()).toBe('1'));
  });

  it('goes up with a message from someone else, and down once the conversation is read in the open chat', async () => {
    const read = deferred<Response>();
    const api = fakeApi({
      'GET /api/conversations/unread': () => json(200, { conversationIds: [] }),
      'GET /api/conversations': () =>
        json(200, { conversations: [conversation('c-1', 'Léa', message({ read: true }))], nextCursor: null }),
      'GET /api/conversations/c-2': () =>
        json(200, {
          conversation: conversation(
            'c-2',
            'Marc',
            message({ id: 'n-1', conversationId: 'c-2', senderId: 'marc-id', content: 'Yo' }),
            true,
          ),
        }),
      'GET /api/conversations/c-2/messages': () =>
        json(200, {
          messages: [message({ id: 'n-1', conversationId: 'c-2', senderId: 'marc-id', content: 'Yo' })],
          hasMore: false,
        }),
      'POST /api/conversations/c-2/read': () => read.promise,
    });
    const { router } = renderApp('/');
    await waitFor(() => expect(api.callsTo('GET /api/conversations/unread')).toHaveLength(1));
    socket().open();
    socket().receive(created(message({ id: 'n-1', conversationId: 'c-2', senderId: 'marc-id', content: 'Yo' })));
    await waitFor(() => expect(badge()).toBe('1'));
    // Messages of my own (another tab) do not count.
    socket().receive(created(message({ id: 'n-2', conversationId: 'c-3', senderId: ME })));
    expect(badge()).toBe('1');

    await act(() => router.navigate('/messages?conversation=c-2'));
    await waitFor(() => expect(badge()).toBeNull());
    await waitFor(() => expect(api.callsTo('POST /api/conversations/c-2/read')).toHaveLength(1));
    await act(async () => read.resolve(json(200, { updated: 1 })));
    await act(() => router.navigate('/'));
    expect(badge()).toBeNull();
  });
});

describe('realtime in the open chat', () => {
  it('appends a new message once, even when both the send answer and the event carry it, and moves the conversation to the top', async () => {
    const mine = message({ id: 'mine-1', senderId: ME, content: 'Me voilà', createdAt: new Date().toISOString() });
    const api = fakeApi({
      'GET /api/conversations/unread': () => json(200, { conversationIds: [] }),
      'GET /api/conversations': () =>
        json(200, {
          conversations: [
            conversation('c-2', 'Marc', message({ id: 'x', conversationId: 'c-2', createdAt: ago(1000) })),
            conversation('c-1', 'Léa', message()),
          ],
          nextCursor: null,
        }),
      'GET /api/conversations/c-1/messages': () => json(200, { messages: [message()], hasMore: false }),
      'POST /api/conversations/c-1/read': () => json(200, { updated: 1 }),
      'POST /api/conversations/c-1/messages': () => json(201, { message: mine }),
    });
    renderApp('/messages?conversation=c-1');
    socket().open();
    await waitFor(() => expect(bubbles()).toHaveLength(1));

    // The event arrives before the answer to my own send.
    socket().receive(created(mine, { nickname: 'Moi' }));
    fireEvent.change(screen.getByTestId('message-input'), { target: { value: 'Me voilà' } });
    fireEvent.click(screen.getByTestId('message-send'));
    await waitFor(() => expect(api.callsTo('POST /api/conversations/c-1/messages')).toHaveLength(1));
    await waitFor(() => expect((screen.getByTestId('message-input') as HTMLTextAreaElement).value).toBe(''));
    socket().receive(created(mine, { nickname: 'Moi' }));

    // Léa answers: one more bubble, no toast (the chat is in front of me), and it is marked read.
    const reads = api.callsTo('POST /api/conversations/c-1/read').length;
    socket().receive(
      created(message({ id: 'lea-2', content: 'Super', createdAt: new Date(Date.now() + 1000).toISOString() })),
    );
    socket().receive(
      created(message({ id: 'lea-2', content: 'Super', createdAt: new Date(Date.now() + 1000).toISOString() })),
    );
    await waitFor(() => expect(bubbles()).toHaveLength(3));
    expect(bubbles().map((b) => b.getAttribute('data-message-id'))).toEqual(['m-1', 'mine-1', 'lea-2']);
    expect(screen.queryByTestId('message-toast')).toBeNull();
    await waitFor(() => expect(api.callsTo('POST /api/conversations/c-1/read').length).toBeGreaterThan(reads));
    const list = screen.getAllByTestId('conversation-item');
    expect(list.map((el) => el.getAttribute('data-conversation-id'))).toEqual(['c-1', 'c-2']);
    expect(within(list[0]!).getByTestId('conversation-preview').textContent).toBe('Super');
    expect(within(list[0]!).queryByTestId('unread-dot')).toBeNull();
  });

  it("brings in a conversation the list does not show yet ('conversation.updated', or a first message), asking for it once", async () => {
    const first = message({
      id: 'z-1',
      conversationId: 'c-new',
      senderId: 'c-new-other',
      content: 'Enchantée !',
      createdAt: new Date().toISOString(),
    });
    const later = new Date(Date.now() + 1000).toISOString();
    const api = fakeApi({
      'GET /api/conversations/unread': () => json(200, { conversationIds: [] }),
      'GET /api/conversations': () =>
        json(200, { conversations: [conversation('c-1', 'Léa', message())], nextCursor: null }),
      'GET /api/conversations/c-new': () =>
        json(200, { conversation: { ...conversation('c-new', 'Zoé', null), updatedAt: new Date().toISOString() } }),
      'GET /api/conversations/c-2': () =>
        json(200, {
          conversation: conversation(
            'c-2',
            'Marc',
            { ...first, id: 'y-1', conversationId: 'c-2', senderId: 'c-2-other', content: 'Coucou', createdAt: later },
            true,
          ),
        }),
    });
    renderApp('/messages');
    socket().open();
    await waitFor(() => expect(screen.getAllByTestId('conversation-item')).toHaveLength(1));
    socket().receive({
      type: 'conversation.updated',
      data: { conversationId: 'c-new', updatedAt: new Date().toISOString() },
    });
    await waitFor(() =>
      expect(screen.getAllByTestId('conversation-item').map((el) => el.getAttribute('data-conversation-id'))).toEqual([
        'c-new',
        'c-1',
      ]),
    );
    // Its first message: applied to the entry now known, no new request.
    socket().receive(created(first, { nickname: 'Zoé' }));
    await waitFor(() =>
      expect(
        within(screen.getAllByTestId('conversation-item')[0]!).getByTestId('conversation-preview').textContent,
      ).toBe('Enchantée !'),
    );
    expect(api.callsTo('GET /api/conversations/c-new')).toHaveLength(1);
    // A message in a conversation never seen: fetched, shown on top with its dot.
    socket().receive(
      created(
        { ...first, id: 'y-1', conversationId: 'c-2', senderId: 'c-2-other', content: 'Coucou', createdAt: later },
        { nickname: 'Marc' },
      ),
    );
    await waitFor(() => expect(screen.getAllByTestId('conversation-item')).toHaveLength(3));
    const top = screen.getAllByTestId('conversation-item')[0]!;
    expect(top.getAttribute('data-conversation-id')).toBe('c-2');
    expect(top.getAttribute('data-unread')).toBe('true');
    await waitFor(() => expect(badge()).toBe('2'));
  });

  it("shows 'Vu' under my last message once the other person has read it", async () => {
    const mine = message({ id: 'mine-1', senderId: ME, content: 'Tu as vu ?', createdAt: ago(5_000) });
    fakeApi({
      'GET /api/conversations/unread': () => json(200, { conversationIds: [] }),
      'GET /api/conversations': () =>
        json(200, { conversations: [conversation('c-1', 'Léa', mine)], nextCursor: null }),
      'GET /api/conversations/c-1/messages': () =>
        json(200, { messages: [message({ read: true }), mine], hasMore: false }),
      'POST /api/conversations/c-1/read': () => json(200, { updated: 0 }),
    });
    renderApp('/messages?conversation=c-1');
    socket().open();
    await waitFor(() => expect(bubbles()).toHaveLength(2));
    expect(screen.queryByTestId('message-seen')).toBeNull();
    socket().receive({
      type: 'message.read',
      data: { conversationId: 'c-1', readerId: 'c-1-other', upTo: new Date().toISOString() },
    });
    await waitFor(() => expect(within(bubbles()[1]!).getByTestId('message-seen').textContent).toBe('Vu'));
  });

  it('catches up the open thread after a reconnect with after=<last id>, page after page, and refetches the list and the badge', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const first = [
      message({ id: 'a', createdAt: ago(60_000), read: true }),
      message({ id: 'b', createdAt: ago(50_000), read: true }),
    ];
    const api = fakeApi({
      'GET /api/conversations/unread': () => json(200, { conversationIds: [] }),
      'GET /api/conversations': () =>
        json(200, { conversations: [conversation('c-1', 'Léa', first[1]!)], nextCursor: null }),
      'GET /api/conversations/c-1/messages': (call) => {
        const after = new URL(call.url, 'http://x').searchParams.get('after');
        if (after === 'b')
          return json(200, { messages: [message({ id: 'c', createdAt: ago(40_000), read: true })], hasMore: true });
        if (after === 'c')
          return json(200, { messages: [message({ id: 'd', createdAt: ago(30_000), read: true })], hasMore: false });
        return json(200, { messages: first, hasMore: false });
      },
      'POST /api/conversations/c-1/read': () => json(200, { updated: 0 }),
    });
    renderApp('/messages?conversation=c-1');
    socket().open();
    await waitFor(() => expect(bubbles()).toHaveLength(2));
    const listCalls = api.callsTo('GET /api/conversations').length;
    const unreadCalls = api.callsTo('GET /api/conversations/unread').length;

    act(() => socket().close());
    await waitFor(() => expect(FakeWebSocket.sockets).toHaveLength(2));
    act(() => socket().open());
    await waitFor(() => expect(bubbles().map((b) => b.getAttribute('data-message-id'))).toEqual(['a', 'b', 'c', 'd']));
    const afters = api
      .callsTo('GET /api/conversations/c-1/messages')
      .map((c) => new URL(c.url, 'http://x').searchParams.get('after'));
    expect(afters).toEqual([null, 'b', 'c']);
    await waitFor(() => expect(api.callsTo('GET /api/conversations').length).toBe(listCalls + 1));
    expect(api.callsTo('GET /api/conversations/unread').length).toBe(unreadCalls + 1);
  });
  async function reconnectWith(last: MessageDto) {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    fakeApi({
      'GET /api/conversations/unread': () => json(200, { conversationIds: ['c-2'] }),
      'GET /api/conversations': () =>
        json(200, { conversations: [conversation('c-2', 'Noa', last, true)], nextCursor: null }),
    });
    const { client } = renderApp('/');
    socket().open();
    act(() => socket().close());
    await waitFor(() => expect(FakeWebSocket.sockets).toHaveLength(2));
    act(() => socket().open());
    // The list the reconnect fetched is in the cache: what it announces was decided as it arrived.
    await waitFor(() => expect(client.getQueryState(LIST_KEY)?.dataUpdateCount).toBe(1));
  }

  it('after a reconnect, announces the latest message missed during the cut when it is under 60 s old', async () => {
    await reconnectWith(
      message({ id: 'missed', conversationId: 'c-2', content: 'Tu es là ?', createdAt: ago(20_000) }),
    );
    const toast = await screen.findByTestId('message-toast');
    expect(toast.getAttribute('data-conversation-id')).toBe('c-2');
    expect(within(toast).getByTestId('message-toast-sender').textContent).toBe('Noa');
    expect(within(toast).getByTestId('message-toast-content').textContent).toBe('Tu es là ?');
  });

  it('after a reconnect, does not announce a missed message older than 60 s', async () => {
    await reconnectWith(
      message({ id: 'old', conversationId: 'c-2', content: 'Il y a longtemps', createdAt: ago(61_000) }),
    );
    expect(screen.queryByTestId('message-toast')).toBeNull();
  });
});

describe("'Nouveau message' toast", () => {
  /** On the fake clock: the toast stays a millisecond short of `ms` from now, and starts its exit at `ms`. */
  function startsLeavingAfter(ms: number) {
    const leaving = () => screen.getByTestId('message-toast').getAttribute('data-leaving');
    act(() => vi.advanceTimersByTime(ms - 1));
    expect(leaving()).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(leaving()).toBe('true');
  }

  /** The home screen with nothing unread and its socket open, ready for messages to arrive. */
  function openHome() {
    fakeApi({ 'GET /api/conversations/unread': () => json(200, { conversationIds: [] }) });
    const view = renderApp('/');
    socket().open();
    return view;
  }

  it('shows the sender, the content cut to 60 characters, and opens the conversation on click', async () => {
    const { router } = openHome();
    const long = 'Bonjour ! Je passe à la plage de Boucan Canot cet après-midi, tu viens avec nous ?';
    socket().receive(
      created(message({ id: 't-1', conversationId: 'c-7', content: long }), {
        nickname: 'Léa',
        profilePhotoUrl: '/media/lea.webp',
      }),
    );
    const toast = screen.getByTestId('message-toast');
    expect(within(toast).getByTestId('message-toast-title').textContent).toBe('Nouveau message');
    expect(within(toast).getByTestId('message-toast-sender').textContent).toBe('Léa');
    expect(within(toast).getByTestId('message-toast-content').textContent).toBe(
      `${Array.from(long).slice(0, 60).join('').trimEnd()}...`,
    );
    expect(
      Array.from(
        within(toast)
          .getByTestId('message-toast-content')
          .textContent!.replace(/\.\.\.$/, ''),
      ),
    ).toHaveLength(60);
    expect(toast.textContent).toContain("À l'instant");
    expect(toast.textContent).toContain('Cliquez pour répondre');
    expect(within(toast).getByTestId('message-toast-avatar').getAttribute('src')).toBe('/media/lea.webp');

    fireEvent.click(within(toast).getByTestId('message-toast-open'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/messages'));
    expect(useMessagesSelection.getState().conversationId).toBe('c-7');
    expect(router.state.location.search).toBe('');
  });

  it("reads '📷 Photo' for an image alone and 'Utilisateur' without a name, with the default icon; a newer message replaces it; none for my own", () => {
    openHome();
    socket().receive(created(message({ id: 't-1', content: 'Premier' })));
    socket().receive(
      created(message({ id: 't-2', conversationId: 'c-8', content: '', imageUrl: '/media/p.webp' }), { nickname: '' }),
    );
    expect(screen.getAllByTestId('message-toast')).toHaveLength(1);
    const toast = screen.getByTestId('message-toast');
    expect(toast.getAttribute('data-conversation-id')).toBe('c-8');
    expect(within(toast).getByTestId('message-toast-content').textContent).toBe('📷 Photo');
    expect(within(toast).getByTestId('message-toast-sender').textContent).toBe('Utilisateur');
    expect(within(toast).getByTestId('message-toast-default-icon')).toBeTruthy();
    act(() => useMessageToast.getState().clear());
    socket().receive(created(message({ id: 't-3', senderId: ME })));
    expect(screen.queryByTestId('message-toast')).toBeNull();
    // A short text is not cut.
    socket().receive(created(message({ id: 't-4', content: 'Court' })));
    expect(screen.getByTestId('message-toast-content').textContent).toBe('Court');
  });

  it('hides after 6 s and is removed after the 300 ms exit animation; the close button hides it too', () => {
    openHome();
    vi.useFakeTimers();
    socket().receive(created(message({ id: 't-1' })));
    startsLeavingAfter(6_000);
    act(() => vi.advanceTimersByTime(299));
    expect(screen.getByTestId('message-toast')).toBeTruthy();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByTestId('message-toast')).toBeNull();

    socket().receive(created(message({ id: 't-2' })));
    fireEvent.click(screen.getByRole('button', { name: 'Fermer' }));
    act(() => vi.advanceTimersByTime(300));
    expect(screen.queryByTestId('message-toast')).toBeNull();
  });

  it('waits while the pointer is on it or the focus is in it, then hides after the time that was left', () => {
    openHome();
    vi.useFakeTimers();
    socket().receive(created(message({ id: 't-1' })));
    const toast = screen.getByTestId('message-toast');
    act(() => vi.advanceTimersByTime(4_000));
    fireEvent.pointerEnter(toast);
    act(() => vi.advanceTimersByTime(20_000));
    expect(toast.getAttribute('data-leaving')).toBeNull();
    // Keyboard focus inside keeps it while the pointer leaves.
    fireEvent.focus(within(toast).getByTestId('message-toast-close'));
    fireEvent.pointerLeave(toast);
    act(() => vi.advanceTimersByTime(20_000));
    expect(toast.getAttribute('data-leaving')).toBeNull();
    // A newer message replacing it while held waits too.
    socket().receive(created(message({ id: 't-2', content: 'Encore là ?' })));
    act(() => vi.advanceTimersByTime(20_000));
    expect(screen.getByTestId('message-toast-content').textContent).toBe('Encore là ?');
    expect(screen.getByTestId('message-toast').getAttribute('data-leaving')).toBeNull();
    fireEvent.blur(within(screen.getByTestId('message-toast')).getByTestId('message-toast-close'));
    startsLeavingAfter(6_000);
    act(() => vi.advanceTimersByTime(300));
    expect(screen.queryByTestId('message-toast')).toBeNull();

    // Held for 2 s out of 6: 4 s are left once the pointer goes.
    socket().receive(created(message({ id: 't-3' })));
    act(() => vi.advanceTimersByTime(2_000));
    fireEvent.pointerEnter(screen.getByTestId('message-toast'));
    act(() => vi.advanceTimersByTime(10_000));
    fireEvent.pointerLeave(screen.getByTestId('message-toast'));
    startsLeavingAfter(4_000);
  });

  it('goes away with the badge on sign-out', async () => {
    fakeApi({ 'GET /api/conversations/unread': () => json(200, { conversationIds: ['c-1', 'c-2'] }) });
    renderApp('/');
    socket().open();
    await waitFor(() => expect(badge()).toBe('2'));
    socket().receive(created(message({ id: 't-1' })));
    expect(screen.getByTestId('message-toast')).toBeTruthy();
    act(() => useSessionStore.setState({ user: null }));
    expect(screen.queryByTestId('message-toast')).toBeNull();
    expect(badge()).toBeNull();
    // No more events are applied.
    useSessionStore.setState({ user: null });
    socket().receive(created(message({ id: 't-2' })));
    expect(screen.queryByTestId('message-toast')).toBeNull();
  });
});

describe("the shell's messaging, a chunk fetched once someone is signed in", () => {
  /** As the shell mounts it (app/messaging.tsx): the lazily loaded bridge, toast and badge. */
  function ShellHost() {
    return (
      <>
        <Outlet />
        <BottomNav />
        <ShellMessaging />
      </>
    );
  }

  it('keeps the badge and the toast live, and forgets them on sign-out', async () => {
    fakeApi({ 'GET /api/conversations/unread': () => json(200, { conversationIds: ['c-1'] }) });
    renderRoutes([{ element: <ShellHost />, children: [{ path: '/', element: <div data-testid="home" /> }] }], '/');
    await waitFor(() => expect(badge()).toBe('1'));
    await waitFor(() => expect(FakeWebSocket.sockets.length).toBeGreaterThan(0));
    act(() => socket().open());
    act(() => socket().receive(created(message({ id: 't-1', conversationId: 'c-2' }))));
    expect((await screen.findByTestId('message-toast')).getAttribute('data-conversation-id')).toBe('c-2');
    await waitFor(() => expect(badge()).toBe('2'));
    act(() => useSessionStore.setState({ user: null }));
    expect(screen.queryByTestId('message-toast')).toBeNull();
    expect(badge()).toBeNull();
  });

  it('asks nothing about messages for a visitor', async () => {
    act(() => useSessionStore.setState({ user: null }));
    const api = fakeApi({});
    renderRoutes([{ element: <ShellHost />, children: [{ path: '/', element: <div data-testid="home" /> }] }], '/');
    expect(await screen.findByTestId('home')).toBeTruthy();
    // The shell's effects have run: a member's badge would have been asked for by now.
    await act(async () => {});
    expect(api.callsTo('GET /api/conversations/unread')).toHaveLength(0);
    expect(screen.queryByTestId('unread-badge')).toBeNull();
  });
});
