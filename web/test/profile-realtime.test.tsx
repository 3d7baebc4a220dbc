// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { CommentDto, ConversationListResult, ConversationSummaryDto } from '@moodmap/core';
import { resetSessionForTests, useSessionStore } from '../src/features/auth/session-store.ts';
import { stopRealtime } from '../src/lib/realtime.ts';
import { commentsKey } from '../src/features/comments/comments-cache.ts';
import { LIST_KEY, conversationKey } from '../src/features/messages/messages-cache.ts';
import { POSTS_KEY } from '../src/features/posts/posts-query.ts';
import type { PostsFeed } from '../src/features/posts/post-types.ts';
import { profileKey } from '../src/features/profile/profile-api.ts';
import { bridgeProfileRealtime } from '../src/features/profile/profile-realtime.ts';
import { FakeWebSocket, installFakeWebSocket } from './support/fake-websocket.ts';
import { makeComment } from './support/interactions.tsx';
import { makeAuthor, makePost } from './support/posts.ts';

const NOA = 'noa-1';
const LEA = 'lea-1';
const NEW_PHOTO = '/media/avatars/noa-2.webp';

function conversation(id: string, other: string, nickname: string): ConversationSummaryDto {
  return {
    id,
    participant1Id: 'me',
    participant2Id: other,
    createdAt: '2026-03-01T10:00:00.000Z',
    updatedAt: '2026-03-01T10:00:00.000Z',
    otherParticipant: { id: other, nickname, profilePhotoUrl: null },
    lastMessage: null,
    unread: false,
  } as ConversationSummaryDto;
}

function seeded(): QueryClient {
  const client = new QueryClient();
  client.setQueryData<PostsFeed>(POSTS_KEY, {
    posts: [
      makePost({ id: 'p-noa', userId: NOA, nickname: 'Noa', author: makeAuthor('Noa') }),
      makePost({ id: 'p-lea', userId: LEA, nickname: 'Léa', author: makeAuthor('Léa') }),
    ],
    serverTime: '2026-03-01T10:00:00.000Z',
  });
  client.setQueryData<CommentDto[]>(commentsKey('p-lea'), [
    makeComment({ id: 'c-noa', userId: NOA, author: { username: 'Noa' } }),
    makeComment({ id: 'c-lea', userId: LEA, author: { username: 'Léa' } }),
  ]);
  client.setQueryData<ConversationListResult>(LIST_KEY, {
    conversations: [conversation('k-noa', NOA, 'Noa'), conversation('k-lea', LEA, 'Léa')],
    nextCursor: null,
  });
  client.setQueryData(conversationKey('k-noa'), conversation('k-noa', NOA, 'Noa'));
  client.setQueryData(profileKey(NOA), { profile: { id: NOA, username: 'Noa' }, posts: [] });
  return client;
}

const socket = () => FakeWebSocket.sockets[FakeWebSocket.sockets.length - 1]!;

beforeEach(() => {
  installFakeWebSocket();
  resetSessionForTests();
});
afterEach(() => {
  stopRealtime();
  resetSessionForTests();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("someone's new nickname or photo, live", () => {
  it('replaces the author on their posts and comments and the person in their conversations; nobody else changes', () => {
    const client = seeded();
    const before = {
      lea: client.getQueryData<PostsFeed>(POSTS_KEY)!.posts[1],
      leaChat: client.getQueryData<ConversationListResult>(LIST_KEY)!.conversations[1],
    };
    const stop = bridgeProfileRealtime(client);
    socket().open();
    socket().receive({ type: 'profile.updated', data: { userId: NOA, username: 'Noa Payet', photoUrl: NEW_PHOTO } });

    const posts = client.getQueryData<PostsFeed>(POSTS_KEY)!.posts;
    expect(posts[0]!.author).toMatchObject({ username: 'Noa Payet', photoUrl: NEW_PHOTO });
    expect(posts[0]!.nickname).toBe('Noa'); // the name it was published under
    expect(posts[1]).toBe(before.lea);
    const comments = client.getQueryData<CommentDto[]>(commentsKey('p-lea'))!;
    expect(comments.map((c) => c.author.username)).toEqual(['Noa Payet', 'Léa']);
    expect(comments[0]!.author.photoUrl).toBe(NEW_PHOTO);
    const list = client.getQueryData<ConversationListResult>(LIST_KEY)!.conversations;
    expect(list[0]!.otherParticipant).toEqual({ id: NOA, nickname: 'Noa Payet', profilePhotoUrl: NEW_PHOTO });
    expect(list[1]).toBe(before.leaChat);
    expect(client.getQueryData<ConversationSummaryDto>(conversationKey('k-noa'))!.otherParticipant.nickname).toBe(
      'Noa Payet',
    );
    expect(client.getQueryState(profileKey(NOA))!.isInvalidated).toBe(true);

    // A removed photo, and a malformed event, are handled too.
    socket().receive({ type: 'profile.updated', data: { userId: NOA, username: 'Noa Payet', photoUrl: null } });
    expect(client.getQueryData<PostsFeed>(POSTS_KEY)!.posts[0]!.author.photoUrl).toBeNull();
    socket().receive({ type: 'profile.updated', data: { userId: NOA, username: '' } });
    expect(client.getQueryData<PostsFeed>(POSTS_KEY)!.posts[0]!.author.username).toBe('Noa Payet');
    stop();
  });

  it('reloads my own profile when the change came from another of my tabs', () => {
    const client = seeded();
    const reloadUser = vi.fn(async () => undefined);
    useSessionStore.setState({
      status: 'ready',
      user: { id: NOA, email: 'noa@exemple.fr', nickname: 'Noa', profilePhotoUrl: null, pulseCredits: 0 },
      reloadUser,
    });
    const stop = bridgeProfileRealtime(client);
    socket().open();
    socket().receive({ type: 'profile.updated', data: { userId: NOA, username: 'Noa', photoUrl: null } });
    expect(reloadUser).not.toHaveBeenCalled();
    socket().receive({ type: 'profile.updated', data: { userId: NOA, username: 'Noa', photoUrl: NEW_PHOTO } });
    expect(reloadUser).toHaveBeenCalledTimes(1);
    stop();
  });
});
