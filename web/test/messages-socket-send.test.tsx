// @vitest-environment jsdom
/**
 * A text message goes over the tab's realtime socket once the server has taken the socket as
 * signed in with the session's token: the composer behaves as with HTTP (the message shown once,
 * the text cleared; on a refusal the text kept and the reason said). Without a signed-in socket,
 * with an image, or when the socket's identity lapsed (a 401 reply), it goes over HTTP.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { ConversationSummaryDto, MessageDto } from '@moodmap/core';
import { MessagesScreen } from '../src/features/messages/MessagesScreen.tsx';
import { onApiRefusal } from '../src/lib/api.ts';
import { applySession, resetTokenStateForTests } from '../src/lib/auth-tokens.ts';
import { startRealtime, stopRealtime } from '../src/lib/realtime.ts';
import { useToastStore } from '../src/ui/toasts/toast-store.ts';
import { apiUser, fakeApi, json, sessionBody } from './support/auth-fixtures.ts';
import { FakeWebSocket, installFakeWebSocket } from './support/fake-websocket.ts';
import { messagingViewerEachTest } from './support/messaging-viewer.ts';
import { renderRoutes } from './support/render-routes.tsx';

const ME = 'me';
const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();

function message(over: Partial<MessageDto> = {}): MessageDto {
  return {
    id: 'm-1',
    conversationId: 'c-1',
    senderId: 'lea-id',
    content: 'Salut !',
    imageUrl: null,
    read: true,
    createdAt: at(30),
    ...over,
  };
}

const LEA: ConversationSummaryDto = {
  id: 'c-1',
  participant1Id: ME,
  participant2Id: 'lea-id',
  createdAt: at(600),
  updatedAt: at(30),
  otherParticipant: { id: 'lea-id', nickname: 'Léa', profilePhotoUrl: null },
  lastMessage: message(),
  unread: false,
  request: false,
};
const SENT = message({ id: 'sent-1', senderId: ME, content: 'Bonjour Léa', createdAt: at(1) });

const socket = () => FakeWebSocket.sockets[FakeWebSocket.sockets.length - 1]!;
const input = () => screen.getByTestId('message-input') as HTMLTextAreaElement;
const bubbles = () => screen.queryAllByTestId('message-bubble');
const toasts = () => useToastStore.getState().toasts.map((t) => t.message);
const sendRequests = () =>
  socket().sent.filter((f): f is { type: string; ref: string } => (f as { type?: string }).type === 'message.send');

async function openChat(post: () => Response = () => json(201, { message: SENT })) {
  const api = fakeApi({
    'GET /api/conversations': () => json(200, { conversations: [LEA], nextCursor: null }),
    'GET /api/conversations/c-1/messages': () => json(200, { messages: [message()], hasMore: false }),
    'POST /api/conversations/c-1/read': () => json(200, { updated: 0 }),
    'POST /api/conversations/c-1/messages': post,
  });
  renderRoutes([{ path: '/messages', element: <MessagesScreen /> }], '/messages?conversation=c-1');
  await waitFor(() => expect(bubbles()).toHaveLength(1));
  return api;
}

/** The tab's socket, open, and taken by the server as signed in with the session's token. */
function signedInSocket() {
  startRealtime();
  socket().open();
  expect(socket().sent).toContainEqual({ type: 'auth', token: 'A1' });
  socket().receive({ type: 'ready', userId: null });
  socket().receive({ type: 'ready', userId: ME });
}

function type(text: string) {
  fireEvent.change(input(), { target: { value: text } });
  fireEvent.click(screen.getByTestId('message-send'));
}

messagingViewerEachTest(ME);
beforeEach(() => {
  installFakeWebSocket();
  resetTokenStateForTests();
  applySession(sessionBody(1, apiUser({ id: ME }, { id: ME })));
});
afterEach(() => {
  stopRealtime();
  resetTokenStateForTests();
});

describe('sending a text over the signed-in socket', () => {
  it('sends a message.send request instead of a POST, and shows the stored message once when it is answered', async () => {
    const api = await openChat();
    signedInSocket();
    type('  Bonjour Léa  ');
    await waitFor(() => expect(sendRequests()).toHaveLength(1));
    const [request] = sendRequests();
    expect(request).toEqual({ type: 'message.send', ref: request!.ref, conversationId: 'c-1', content: 'Bonjour Léa' });
    expect(api.callsTo('POST /api/conversations/c-1/messages')).toHaveLength(0);

    socket().receive({ type: 'reply', ref: request!.ref, data: { message: SENT } });
    await waitFor(() => expect(input().value).toBe(''));
    expect(bubbles()).toHaveLength(2);
    expect(bubbles()[1]!.getAttribute('data-mine')).toBe('true');
    // Its own copy from the server's event is the same message: still shown once.
    socket().receive({
      type: 'message.created',
      data: { message: SENT, sender: { id: ME, nickname: 'Moi', profilePhotoUrl: null } },
    });
    expect(bubbles()).toHaveLength(2);
  });

  it("keeps the text and says the server's reason when the request is refused", async () => {
    await openChat();
    signedInSocket();
    type('Encore un');
    await waitFor(() => expect(sendRequests()).toHaveLength(1));
    socket().receive({
      type: 'reply',
      ref: sendRequests()[0]!.ref,
      status: 429,
      error: { code: 'message_rate_limited', message: 'Trop de messages. Veuillez patienter.' },
      retryAfter: 60,
    });
    await waitFor(() => expect(toasts()).toContain('Trop de messages. Veuillez patienter.'));
    expect(input().value).toBe('Encore un');
    expect(bubbles()).toHaveLength(1);
  });

  it('tells the app-wide refusal listeners of a 403 on the socket, as of one over HTTP (the terms to accept)', async () => {
    await openChat();
    signedInSocket();
    const heard: string[] = [];
    const stop = onApiRefusal((error) => heard.push(error.code));
    type('Bonjour Léa');
    await waitFor(() => expect(sendRequests()).toHaveLength(1));
    socket().receive({
      type: 'reply',
      ref: sendRequests()[0]!.ref,
      status: 403,
      error: { code: 'terms_not_accepted', message: "Veuillez accepter les conditions d'utilisation." },
    });
    await waitFor(() => expect(heard).toEqual(['terms_not_accepted']));
    expect(input().value).toBe('Bonjour Léa');
    stop();
  });

  it('keeps the text when the socket is lost before the answer', async () => {
    const api = await openChat();
    signedInSocket();
    type('Tu es là ?');
    await waitFor(() => expect(sendRequests()).toHaveLength(1));
    socket().close();
    await waitFor(() => expect(toasts()).toHaveLength(1));
    expect(input().value).toBe('Tu es là ?');
    // Maybe stored, maybe not: it is not sent again behind the person's back.
    expect(api.callsTo('POST /api/conversations/c-1/messages')).toHaveLength(0);
  });

  it('goes over HTTP when the socket answers that its session lapsed', async () => {
    const api = await openChat();
    signedInSocket();
    type('Bonjour Léa');
    await waitFor(() => expect(sendRequests()).toHaveLength(1));
    socket().receive({
      type: 'reply',
      ref: sendRequests()[0]!.ref,
      status: 401,
      error: { code: 'not_authenticated', message: 'User not authenticated' },
    });
    await waitFor(() => expect(api.callsTo('POST /api/conversations/c-1/messages')).toHaveLength(1));
    await waitFor(() => expect(input().value).toBe(''));
    expect(bubbles()).toHaveLength(2);
  });

  it('goes over HTTP while the server has not yet taken the socket as signed in', async () => {
    const api = await openChat();
    startRealtime();
    socket().open();
    socket().receive({ type: 'ready', userId: null });
    type('Bonjour Léa');
    await waitFor(() => expect(api.callsTo('POST /api/conversations/c-1/messages')).toHaveLength(1));
    expect(api.callsTo('POST /api/conversations/c-1/messages')[0]!.body).toEqual({ content: 'Bonjour Léa' });
    expect(sendRequests()).toHaveLength(0);
    await waitFor(() => expect(input().value).toBe(''));
  });
});
