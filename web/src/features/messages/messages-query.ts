/**
 * Queries and actions of messaging (docs/product.md, Messages); answers stay fresh 1 min for
 * conversations, 30 s for messages. The socket keeps them current; a slow poll runs only while it is down.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { type QueryClient, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CACHE_TTL_MS,
  type ConversationListResult,
  type ConversationSummaryDto,
  MESSAGES_PAGE_MAX,
  type MessageDto,
  isUnreadFor,
} from '@moodmap/core';
import { useSessionStore } from '../auth/session-store.ts';
import { ApiError } from '../../lib/api.ts';
import { useRealtimeStore } from '../../lib/realtime.ts';
import {
  fetchConversation,
  fetchConversations,
  fetchMessages,
  fetchUnreadIds,
  markConversationRead,
} from './conversations-api.ts';
import {
  LIST_KEY,
  type ThreadData,
  UNREAD_KEY,
  addMessagesToThread,
  appendListPage,
  conversationKey,
  findConversation,
  isNewer,
  markThreadRead,
  mergeMessages,
  reconcileList,
  setUnread,
  threadKey,
  updateConversation,
  upsertConversation,
} from './messages-cache.ts';
import { useOpenConversation } from './messages-store.ts';

/** While the socket is down, the list, the badge and the open thread are refreshed this often. */
export const FALLBACK_POLL_MS = 30_000;
/** A catch-up longer than this many full pages gives up and reloads the latest page instead. */
const CATCH_UP_MAX_PAGES = 5;

export const listQuery = (client: QueryClient) =>
  queryOptions({
    queryKey: LIST_KEY,
    queryFn: async ({ signal }) =>
      reconcileList(await fetchConversations(undefined, signal), client.getQueryData<ConversationListResult>(LIST_KEY)),
    staleTime: CACHE_TTL_MS.conversations,
  });

export const unreadQuery = queryOptions({
  queryKey: UNREAD_KEY,
  queryFn: ({ signal }) => fetchUnreadIds(signal),
  staleTime: CACHE_TTL_MS.conversations,
});

export const conversationQuery = (id: string) =>
  queryOptions({
    queryKey: conversationKey(id),
    queryFn: ({ signal }) => fetchConversation(id, signal),
    staleTime: CACHE_TTL_MS.conversations,
  });

/**
 * A thread. The first load takes the latest page; later loads (reconnect, invalidation, the
 * fallback poll) ask only for what came after the last message held, page by page, so older
 * pages already shown stay and nothing sent meanwhile is lost.
 */
export const threadQuery = (client: QueryClient, id: string) =>
  queryOptions({
    queryKey: threadKey(id),
    queryFn: async ({ signal }): Promise<ThreadData> => {
      const held = client.getQueryData<ThreadData>(threadKey(id));
      let last = held?.messages[held.messages.length - 1];
      if (held && last) {
        let gathered: MessageDto[] = [];
        for (let i = 0; i < CATCH_UP_MAX_PAGES; i++) {
          const page = await fetchMessages(id, { after: last.id, limit: MESSAGES_PAGE_MAX }, signal);
          gathered = gathered.concat(page.messages);
          const newest = page.messages[page.messages.length - 1];
          if (!page.hasMore || !newest) {
            const now = client.getQueryData<ThreadData>(threadKey(id)) ?? held;
            return { messages: mergeMessages(now.messages, gathered), hasOlder: now.hasOlder };
          }
          last = newest;
        }
      }
      const page = await fetchMessages(id, {}, signal);
      // Messages pushed while this was in flight, newer than the page, are kept.
      const oldest = page.messages[0];
      const now = client.getQueryData<ThreadData>(threadKey(id));
      const pushed = oldest ? (now?.messages ?? []).filter((m) => isNewer(m, oldest)) : (now?.messages ?? []);
      return { messages: mergeMessages(page.messages, pushed), hasOlder: page.hasMore };
    },
    staleTime: CACHE_TTL_MS.messages,
  });

function useFallbackInterval(): number | false {
  const connected = useRealtimeStore((s) => s.connected);
  return connected ? false : FALLBACK_POLL_MS;
}

export function useConversationList() {
  const client = useQueryClient();
  const signedIn = useSessionStore((s) => s.user !== null);
  const query = useQuery({ ...listQuery(client), enabled: signedIn, refetchInterval: useFallbackInterval() });
  const [loadingMore, setLoadingMore] = useState(false);
  const busy = useRef(false);
  const cursor = query.data?.nextCursor ?? null;
  const loadMore = useCallback(async () => {
    if (!cursor || busy.current) return;
    busy.current = true;
    setLoadingMore(true);
    try {
      appendListPage(client, await fetchConversations(cursor));
    } catch {
      // Conversation fetch failures are silent; scrolling again retries.
    } finally {
      busy.current = false;
      setLoadingMore(false);
    }
  }, [client, cursor]);
  return {
    conversations: query.data?.conversations ?? [],
    isPending: query.isPending,
    hasMore: cursor !== null,
    loadMore,
    loadingMore,
  };
}

export function useUnreadIds(enabled: boolean): string[] {
  const query = useQuery({ ...unreadQuery, enabled, refetchInterval: useFallbackInterval() });
  return enabled ? (query.data ?? []) : [];
}

/**
 * The badge's count: conversations whose last message is unread
 * and from the other party, leaving out the one open on /messages; none for a visitor.
 */
export function useUnreadCount(): number {
  const signedIn = useSessionStore((s) => s.user !== null);
  const ids = useUnreadIds(signedIn);
  const openId = useOpenConversation((s) => s.openId);
  return ids.filter((id) => id !== openId).length;
}

/**
 * The summary of one conversation for the chat header: from the list when it is there, else
 * asked for (a conversation just opened from 'Contacter', or one on a page not loaded) and then
 * shown in the list too. `missing` when the server does not know it (or it is not mine).
 */
export function useConversationSummary(id: string) {
  const client = useQueryClient();
  const fromList = useQuery({
    ...listQuery(client),
    enabled: false,
    select: (list) => list.conversations.find((c) => c.id === id) ?? null,
  });
  const listed = fromList.data ?? undefined;
  // Asked for once the list has answered without it (or failed).
  const single = useQuery({ ...conversationQuery(id), enabled: !listed && fromList.status !== 'pending' });
  const fetched = single.data ?? undefined;
  useEffect(() => {
    // A request stays out of the list until accepted.
    if (fetched && !fetched.request && !findInList(client, id)) upsertConversation(client, fetched);
  }, [client, fetched, id]);
  return { summary: listed ?? fetched, missing: !listed && single.isSuccess && single.data === null };
}

function findInList(client: QueryClient, id: string): boolean {
  return client.getQueryData<ConversationListResult>(LIST_KEY)?.conversations.some((c) => c.id === id) ?? false;
}

export function useThread(id: string) {
  const client = useQueryClient();
  const query = useQuery({ ...threadQuery(client, id), refetchInterval: useFallbackInterval() });
  const [loadingOlder, setLoadingOlder] = useState(false);
  const busy = useRef(false);
  const first = query.data?.messages[0];
  const loadOlder = useCallback(async () => {
    if (!first || busy.current) return;
    busy.current = true;
    setLoadingOlder(true);
    try {
      const page = await fetchMessages(id, { before: first.id });
      addMessagesToThread(client, id, page.messages, page.hasMore);
    } catch {
      // Silent; the button stays for another try.
    } finally {
      busy.current = false;
      setLoadingOlder(false);
    }
  }, [client, first, id]);
  return {
    messages: query.data?.messages ?? [],
    hasOlder: query.data?.hasOlder ?? false,
    isPending: query.isPending,
    isError: query.isError && !query.data,
    loadOlder,
    loadingOlder,
  };
}

const later = (a: string, b: string): string => (Date.parse(a) > Date.parse(b) ? a : b);

/** A message that reached this tab: appended once, the list and the badge follow. */
export function applyMessage(
  client: QueryClient,
  message: MessageDto,
  me: string | null | undefined,
): { known: boolean } {
  addMessagesToThread(client, message.conversationId, [message]);
  const cached = findConversation(client, message.conversationId);
  if (cached) {
    updateConversation(client, message.conversationId, (c) =>
      isNewer(message, c.lastMessage)
        ? {
            ...c,
            lastMessage: message,
            updatedAt: later(message.createdAt, c.updatedAt),
            unread: isUnreadFor(me, !c.request, message),
          }
        : c.lastMessage?.id === message.id
          ? { ...c, lastMessage: message }
          : c,
    );
  }
  if (!cached || isNewer(message, cached.lastMessage) || cached.lastMessage?.id === message.id)
    setUnread(client, message.conversationId, isUnreadFor(me, !cached?.request, message));
  return { known: Boolean(cached) };
}

/** Someone read a conversation up to `upTo`: me (another tab) or the other party (my messages). */
export function applyRead(
  client: QueryClient,
  conversationId: string,
  readerId: string,
  upTo: string,
  me: string | null | undefined,
): void {
  const limit = Date.parse(upTo);
  if (!Number.isFinite(limit)) return;
  const byReader = readerId === me;
  // The reader reads what the other one wrote.
  const written = (m: MessageDto) => (byReader ? m.senderId !== me : m.senderId === me);
  markThreadRead(client, conversationId, written, limit);
  const cached = findConversation(client, conversationId);
  const last = cached?.lastMessage;
  if (last && written(last) && Date.parse(last.createdAt) <= limit) {
    updateConversation(client, conversationId, (c) => {
      const lastMessage = c.lastMessage ? { ...c.lastMessage, read: true } : null;
      return { ...c, lastMessage, unread: isUnreadFor(me, !c.request, lastMessage) };
    });
  }
  if (byReader && (!last || Date.parse(last.createdAt) <= limit)) setUnread(client, conversationId, false);
}

const marking = new Set<string>();

/** Tells the server I read the conversation; on success the dot and the badge clear here too. */
export async function markRead(
  client: QueryClient,
  conversationId: string,
  me: string | null | undefined,
): Promise<void> {
  if (!me || marking.has(conversationId)) return;
  marking.add(conversationId);
  // Only what was known when asking counts as read: a message arriving meanwhile stays unread.
  const thread = client.getQueryData<ThreadData>(threadKey(conversationId));
  const theirs = thread?.messages.filter((m) => m.senderId !== me) ?? [];
  const newestTheirs = theirs[theirs.length - 1] ?? findConversation(client, conversationId)?.lastMessage ?? null;
  try {
    await markConversationRead(conversationId);
    applyRead(client, conversationId, me, newestTheirs ? newestTheirs.createdAt : new Date().toISOString(), me);
  } catch (error) {
    // Silent: the next tick tries again. A conversation that vanished is dropped.
    if (error instanceof ApiError && error.status === 404) setUnread(client, conversationId, false);
  } finally {
    marking.delete(conversationId);
  }
}

/** The thread has messages from the other person not yet read, or the badge counts it. */
export function needsReadMark(client: QueryClient, conversationId: string, me: string | null | undefined): boolean {
  const thread = client.getQueryData<ThreadData>(threadKey(conversationId));
  if (thread?.messages.some((m) => m.senderId !== me && !m.read)) return true;
  return client.getQueryData<string[]>(UNREAD_KEY)?.includes(conversationId) ?? false;
}

/**
 * The other person deleted their account: the entry (now 'Compte supprimé') is read again, and
 * the thread reloaded whole, since their messages lost their sender and their images.
 */
export async function reloadClosedConversation(client: QueryClient, id: string): Promise<void> {
  void client.resetQueries({ queryKey: threadKey(id) });
  const conversation = await fetchConversation(id).catch(() => null);
  if (!conversation) return;
  client.setQueryData(conversationKey(id), conversation);
  if (findConversation(client, id)) upsertConversation(client, conversation);
}

/** A conversation seen in an event but not in the list: fetched once and added. */
export async function fetchIntoList(client: QueryClient, id: string): Promise<ConversationSummaryDto | null> {
  try {
    const conversation = await fetchConversation(id);
    if (conversation) {
      client.setQueryData(conversationKey(id), conversation);
      if (!conversation.request) upsertConversation(client, conversation);
    }
    return conversation;
  } catch {
    void client.invalidateQueries({ queryKey: LIST_KEY });
    return null;
  }
}
