/**
 * Messaging in the TanStack Query cache. Three kinds of entries, all under
 * ['conversations'] so a sign-out drops them at once:
 * - the list (first page, older pages appended), most recently updated first;
 * - one thread per conversation, oldest first, older pages prepended, newer ones appended;
 * - the ids of conversations whose last message is unread and from the other party (the badge).
 * Realtime events, our own sends and read marks update them in place; fetches reconcile with
 * whatever arrived while they were in flight, so a late answer never erases a newer message.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { ConversationListResult, ConversationSummaryDto, MessageDto, ParticipantDto } from '@moodmap/core';

export const CONVERSATIONS_ROOT = ['conversations'] as const;
export const LIST_KEY = ['conversations', 'list'] as const;
export const UNREAD_KEY = ['conversations', 'unread'] as const;
export const THREAD_PREFIX = ['conversations', 'thread'] as const;
export const threadKey = (id: string) => ['conversations', 'thread', id] as const;
export const CONVERSATION_PREFIX = ['conversations', 'one'] as const;
export const conversationKey = (id: string) => [...CONVERSATION_PREFIX, id] as const;

export interface ThreadData {
  /** Oldest first, unique ids. */
  messages: MessageDto[];
  /** Older messages exist before the first one. */
  hasOlder: boolean;
}

const time = (iso: string): number => {
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : 0;
};

function byTime(a: MessageDto, b: MessageDto): number {
  return time(a.createdAt) - time(b.createdAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Union by id (later lists win: fresher read flags), oldest first. */
export function mergeMessages(...lists: MessageDto[][]): MessageDto[] {
  const byId = new Map<string, MessageDto>();
  for (const list of lists) for (const m of list) byId.set(m.id, m);
  return [...byId.values()].sort(byTime);
}

export function isNewer(a: MessageDto | null, b: MessageDto | null): boolean {
  if (!a) return false;
  if (!b) return true;
  return byTime(a, b) > 0;
}

/** When a conversation last moved: its last message, else its update time. */
export function activityTime(c: ConversationSummaryDto): number {
  return Math.max(time(c.updatedAt), c.lastMessage ? time(c.lastMessage.createdAt) : 0);
}

export function sortConversations(list: ConversationSummaryDto[]): ConversationSummaryDto[] {
  return [...list].sort((a, b) => activityTime(b) - activityTime(a));
}

/**
 * A fresh first page of the list, reconciled with the cached one: a conversation that moved
 * while the request was in flight keeps its newer state, and one that appeared meanwhile stays.
 */
export function reconcileList(
  fetched: ConversationListResult,
  current: ConversationListResult | undefined,
): ConversationListResult {
  if (!current) return fetched;
  const fresh = new Map(fetched.conversations.map((c) => [c.id, c]));
  const newest = Math.max(0, ...fetched.conversations.map(activityTime));
  for (const cached of current.conversations) {
    const got = fresh.get(cached.id);
    if (got) {
      if (isNewer(cached.lastMessage, got.lastMessage))
        fresh.set(cached.id, {
          ...got,
          lastMessage: cached.lastMessage,
          updatedAt: cached.updatedAt,
          unread: cached.unread,
        });
    } else if (activityTime(cached) > newest) {
      fresh.set(cached.id, cached);
    }
  }
  return { conversations: sortConversations([...fresh.values()]), nextCursor: fetched.nextCursor };
}

/** Adds or replaces one conversation and keeps the order. */
export function upsertConversation(client: QueryClient, conversation: ConversationSummaryDto): void {
  client.setQueryData<ConversationListResult>(LIST_KEY, (list) => {
    if (!list) return list;
    const others = list.conversations.filter((c) => c.id !== conversation.id);
    return { ...list, conversations: sortConversations([conversation, ...others]) };
  });
}

export function updateConversation(
  client: QueryClient,
  id: string,
  update: (c: ConversationSummaryDto) => ConversationSummaryDto,
): void {
  client.setQueryData<ConversationListResult>(LIST_KEY, (list) => {
    if (!list || !list.conversations.some((c) => c.id === id)) return list;
    return { ...list, conversations: sortConversations(list.conversations.map((c) => (c.id === id ? update(c) : c))) };
  });
  client.setQueryData<ConversationSummaryDto | null>(conversationKey(id), (c) => (c ? update(c) : c));
}

/** Someone's new nickname or photo, in every conversation held with them (list and single entries). */
export function updateParticipant(client: QueryClient, participant: ParticipantDto): void {
  const apply = (c: ConversationSummaryDto): ConversationSummaryDto => {
    const o = c.otherParticipant;
    if (
      o.id === null ||
      o.id !== participant.id ||
      (o.nickname === participant.nickname && o.profilePhotoUrl === participant.profilePhotoUrl)
    )
      return c;
    return {
      ...c,
      otherParticipant: { ...o, nickname: participant.nickname, profilePhotoUrl: participant.profilePhotoUrl },
    };
  };
  client.setQueryData<ConversationListResult>(LIST_KEY, (list) => {
    if (!list) return list;
    const conversations = list.conversations.map(apply);
    return conversations.every((c, i) => c === list.conversations[i]) ? list : { ...list, conversations };
  });
  client.setQueriesData<ConversationSummaryDto | null>({ queryKey: CONVERSATION_PREFIX }, (c) => (c ? apply(c) : c));
}

export function findConversation(client: QueryClient, id: string): ConversationSummaryDto | undefined {
  return (
    client.getQueryData<ConversationListResult>(LIST_KEY)?.conversations.find((c) => c.id === id) ??
    client.getQueryData<ConversationSummaryDto | null>(conversationKey(id)) ??
    undefined
  );
}

/** Appends older pages of the list, skipping conversations already shown. */
export function appendListPage(client: QueryClient, page: ConversationListResult): void {
  client.setQueryData<ConversationListResult>(LIST_KEY, (list) => {
    if (!list) return page;
    const known = new Set(list.conversations.map((c) => c.id));
    return {
      conversations: [...list.conversations, ...page.conversations.filter((c) => !known.has(c.id))],
      nextCursor: page.nextCursor,
    };
  });
}

export function addMessagesToThread(client: QueryClient, id: string, messages: MessageDto[], hasOlder?: boolean): void {
  client.setQueryData<ThreadData>(threadKey(id), (thread) =>
    thread ? { messages: mergeMessages(thread.messages, messages), hasOlder: hasOlder ?? thread.hasOlder } : thread,
  );
}

/** Marks messages read in a thread: those `from` someone (or not from someone) up to a time. */
export function markThreadRead(client: QueryClient, id: string, which: (m: MessageDto) => boolean, upTo: number): void {
  client.setQueryData<ThreadData>(threadKey(id), (thread) => {
    if (!thread || !thread.messages.some((m) => !m.read && which(m) && time(m.createdAt) <= upTo)) return thread;
    return {
      ...thread,
      messages: thread.messages.map((m) =>
        !m.read && which(m) && time(m.createdAt) <= upTo ? { ...m, read: true } : m,
      ),
    };
  });
}

/**
 * Marks one conversation read or unread in the unread ids, the one holder of the badge's count.
 * An answer already on its way was computed before this change and would undo it when it
 * lands, so that fetch is cancelled (TanStack Query puts the cache back as it was), the change
 * applied, and the ids asked for again.
 */
export function setUnread(client: QueryClient, id: string, unread: boolean): void {
  const apply = () =>
    client.setQueryData<string[]>(UNREAD_KEY, (ids) => {
      if (!ids) return ids;
      const has = ids.includes(id);
      if (unread === has) return ids;
      return unread ? [...ids, id] : ids.filter((x) => x !== id);
    });
  if (client.isFetching({ queryKey: UNREAD_KEY }) === 0) {
    apply();
    return;
  }
  void client.cancelQueries({ queryKey: UNREAD_KEY }).then(() => {
    apply();
    return client.refetchQueries({ queryKey: UNREAD_KEY });
  });
}
