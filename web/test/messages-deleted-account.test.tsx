// @vitest-environment jsdom
/**
 * A conversation whose other person deleted their account: their messages stay, sent by
 * 'Compte supprimé' with a plain silhouette, no profile to open, a removed photo said so, and a
 * composer that says « Ce compte a été supprimé. » instead of taking text. A request from them
 * can be kept or deleted, not blocked. An open chat turns so as soon as the socket says it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Outlet } from 'react-router';
import type { ConversationSummaryDto, MessageDto } from '@moodmap/core';
import { MessagesScreen } from '../src/features/messages/MessagesScreen.tsx';
import { useMessaging } from '../src/features/messages/messages-realtime.ts';
import { useOpenConversation } from '../src/features/messages/messages-store.ts';
import { stopRealtime } from '../src/lib/realtime.ts';
import { useUiStore } from '../src/lib/ui-store.ts';
import { fakeApi, json } from './support/auth-fixtures.ts';
import { FakeWebSocket, installFakeWebSocket } from './support/fake-websocket.ts';
import { messagingViewerEachTest } from './support/messaging-viewer.ts';
import { renderRoutes } from './support/render-routes.tsx';

const ME = 'me';
const GONE = { id: null, nickname: 'Compte supprimé', profilePhotoUrl: null };
const LEA = { id: 'lea-id', nickname: 'Léa', profilePhotoUrl: '/media/lea.webp' };
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

function message(over: Partial<MessageDto>): MessageDto {
  return {
    id: 'm',
    conversationId: 'c-1',
    senderId: null,
    content: '',
    imageUrl: null,
    read: true,
    createdAt: ago(60_000),
    ...over,
  };
}

/** Léa's side of the thread before and after her account went: her photo is removed, her text stays. */
const before = [
  message({ id: 'a', senderId: ME, content: 'Salut Léa', createdAt: ago(300_000) }),
  message({ id: 'b', senderId: 'lea-id', imageUrl: '/media/plage.webp', createdAt: ago(200_000) }),
  message({ id: 'c', senderId: 'lea-id', content: 'Je pars, au revoir', createdAt: ago(100_000) }),
];
const after = [
  before[0]!,
  message({ id: 'b', createdAt: ago(200_000) }),
  message({ id: 'c', content: 'Je pars, au revoir', read: false, createdAt: ago(100_000) }),
];

function summary(
  other: ConversationSummaryDto['otherParticipant'],
  last: MessageDto,
  over: Partial<ConversationSummaryDto> = {},
): ConversationSummaryDto {
  return {
    id: 'c-1',
    participant1Id: ME,
    participant2Id: other.id,
    createdAt: ago(86_400_000),
    updatedAt: last.createdAt,
    otherParticipant: other,
    lastMessage: last,
    unread: false,
    request: false,
    ...over,
  };
}

/** The shell's messaging hook around the routes, as the app mounts it. */
function Host() {
  useMessaging();
  return <Outlet />;
}

function renderMessages(path = '/messages') {
  return renderRoutes([{ element: <Host />, children: [{ path: '/messages', element: <MessagesScreen /> }] }], path);
}

const socket = () => FakeWebSocket.sockets[FakeWebSocket.sockets.length - 1]!;
const bubbles = () => screen.queryAllByTestId('message-bubble');
const composer = () => screen.getByTestId('message-composer');

messagingViewerEachTest(ME);
beforeEach(() => {
  installFakeWebSocket();
  useOpenConversation.setState({ openId: null });
});
afterEach(() => stopRealtime());

describe("a conversation with a deleted account ('Compte supprimé')", () => {
  it('keeps their messages, without profile link, and says the conversation cannot be answered', async () => {
    const api = fakeApi({
      'GET /api/conversations': () =>
        json(200, { conversations: [summary(GONE, after[2]!, { unread: true })], nextCursor: null }),
      'GET /api/conversations/unread': () => json(200, { conversationIds: ['c-1'] }),
      'GET /api/conversations/requests': () => json(200, { conversations: [], nextCursor: null }),
      'GET /api/conversations/c-1/messages': () => json(200, { messages: after, hasMore: false }),
      'POST /api/conversations/c-1/read': () => json(200, { updated: 2 }),
    });
    renderMessages();
    const entry = await screen.findByTestId('conversation-item');
    expect(within(entry).getByTestId('conversation-nickname').textContent).toBe('Compte supprimé');
    expect(within(entry).getByTestId('conversation-preview').textContent).toBe('Je pars, au revoir');
    expect(entry.getAttribute('data-unread')).toBe('true');
    expect(within(entry).getByTestId('deleted-account-avatar')).toBeTruthy();
    expect(entry.querySelector('img')).toBeNull();

    fireEvent.click(entry);
    await waitFor(() => expect(bubbles()).toHaveLength(3));
    // The header names nobody to open.
    const header = screen.getByTestId('chat-header');
    expect(within(header).getByTestId('chat-nickname').textContent).toBe('Compte supprimé');
    expect(within(header).queryByTestId('chat-profile')).toBeNull();
    fireEvent.click(within(header).getByTestId('chat-nickname'));
    expect(useUiStore.getState().profileModalUserId).toBeNull();
    // Their messages on their side; the removed photo said so.
    expect(bubbles().map((b) => b.getAttribute('data-mine'))).toEqual(['true', 'false', 'false']);
    expect(within(bubbles()[1]!).getByTestId('message-removed').textContent).toBe('Photo supprimée');
    expect(within(bubbles()[1]!).queryByRole('link')).toBeNull();
    expect(within(bubbles()[2]!).getByTestId('message-text').textContent).toBe('Je pars, au revoir');
    // Nothing to type into, nothing to send; the reason where the text would go.
    expect(within(composer()).getByTestId('composer-closed').textContent).toBe('Ce compte a été supprimé.');
    expect(within(composer()).queryByTestId('message-input')).toBeNull();
    expect((screen.getByTestId('message-send') as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByTestId('message-attach') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.submit(composer());
    // What they sent is still read: the unread mark goes as for anyone.
    await waitFor(() => expect(api.callsTo('POST /api/conversations/c-1/read').length).toBeGreaterThan(0));
    await waitFor(() => expect(screen.getByTestId('conversation-item').getAttribute('data-unread')).toBe('false'));
    expect(api.callsTo('POST /api/conversations/c-1/messages')).toEqual([]);
  });

  it("shows the last message's removed photo in the list preview", async () => {
    fakeApi({
      'GET /api/conversations': () => json(200, { conversations: [summary(GONE, after[1]!)], nextCursor: null }),
      'GET /api/conversations/unread': () => json(200, { conversationIds: [] }),
      'GET /api/conversations/requests': () => json(200, { conversations: [], nextCursor: null }),
    });
    renderMessages();
    const entry = await screen.findByTestId('conversation-item');
    expect(within(entry).getByTestId('conversation-preview').textContent).toBe('Photo supprimée');
  });

  it("lets a request from them be accepted or deleted in 'Demandes', not blocked", async () => {
    const request = summary(GONE, message({ id: 'r', content: 'On se connaît ?', read: false }), { request: true });
    fakeApi({
      'GET /api/conversations': () => json(200, { conversations: [], nextCursor: null }),
      'GET /api/conversations/unread': () => json(200, { conversationIds: [] }),
      'GET /api/conversations/requests': () => json(200, { conversations: [request], nextCursor: null }),
      'GET /api/conversations/c-1': () => json(200, { conversation: request }),
      'GET /api/conversations/c-1/messages': () => json(200, { messages: [request.lastMessage], hasMore: false }),
    });
    renderMessages();
    fireEvent.click(await screen.findByTestId('box-requests'));
    fireEvent.click(await screen.findByTestId('conversation-item'));
    const actions = await screen.findByTestId('request-actions');
    expect(within(actions).getByTestId('request-intro').textContent).toBe('Ce compte a été supprimé.');
    expect(within(actions).getByTestId('request-accept')).toBeTruthy();
    expect(within(actions).getByTestId('request-delete')).toBeTruthy();
    expect(within(actions).queryByTestId('request-block')).toBeNull();
    expect(screen.queryByTestId('message-composer')).toBeNull();
  });

  it("turns the open chat as soon as the socket says the account was deleted ('conversation.closed')", async () => {
    let gone = false;
    const api = fakeApi({
      'GET /api/conversations': () =>
        json(200, { conversations: [summary(gone ? GONE : LEA, before[2]!)], nextCursor: null }),
      'GET /api/conversations/unread': () => json(200, { conversationIds: [] }),
      'GET /api/conversations/requests': () => json(200, { conversations: [], nextCursor: null }),
      'GET /api/conversations/c-1': () => json(200, { conversation: summary(GONE, after[2]!) }),
      'GET /api/conversations/c-1/messages': () => json(200, { messages: gone ? after : before, hasMore: false }),
      'POST /api/conversations/c-1/read': () => json(200, { updated: 0 }),
    });
    renderMessages('/messages?conversation=c-1');
    socket().open();
    await waitFor(() => expect(bubbles()).toHaveLength(3));
    expect(screen.getByTestId('chat-profile').textContent).toBe('Léa');
    expect(screen.getByTestId('message-input')).toBeTruthy();
    expect(within(bubbles()[1]!).getByRole('link')).toBeTruthy();

    gone = true;
    socket().receive({ type: 'conversation.closed', data: { conversationId: 'c-1' } });
    await waitFor(() => expect(screen.getByTestId('chat-deleted-account').textContent).toBe('Compte supprimé'));
    expect(screen.queryByTestId('chat-profile')).toBeNull();
    expect(within(composer()).getByTestId('composer-closed').textContent).toBe('Ce compte a été supprimé.');
    expect(within(screen.getByTestId('conversation-item')).getByTestId('conversation-nickname').textContent).toBe(
      'Compte supprimé',
    );
    // The thread is read again whole: her photo is gone from it.
    await waitFor(() =>
      expect(within(bubbles()[1]!).getByTestId('message-removed').textContent).toBe('Photo supprimée'),
    );
    expect(api.callsTo('GET /api/conversations/c-1')).toHaveLength(1);
  });
});
