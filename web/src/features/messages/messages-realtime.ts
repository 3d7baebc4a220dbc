/**
 * Messaging kept live for the whole app (docs/architecture.md, "A realtime event"), mounted once
 * in the shell while someone is signed in:
 * - 'message.created' appends to the thread (once: our own send answers too), moves the
 *   conversation to the top, updates the badge and announces it with the toast;
 * - 'message.read' marks messages read; 'conversation.updated' brings in a conversation the
 *   list does not show yet; 'conversation.closed' (the other person deleted their account)
 *   reloads its entry and thread;
 * - after a reconnect the list and the badge are refetched and every thread catches up with
 *   `after=` (see threadQuery), so nothing sent during the cut is lost; the latest message
 *   missed meanwhile gets the toast if it is under 60 s old.
 * Everything stops and is forgotten on sign-out.
 */
import { useEffect, useRef } from 'react';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import {
  type ConversationListResult,
  type ConversationUpdatedEvent,
  MESSAGE_EVENTS,
  type MessageCreatedEvent,
  type MessageReadEvent,
  TIMING,
} from '@moodmap/core';
import { useSessionStore } from '../auth/session-store.ts';
import { onRealtimeConnection, subscribeRealtime } from '../../lib/realtime.ts';
import { readMessage, readParticipant } from './conversations-api.ts';
import {
  CONVERSATIONS_ROOT,
  LIST_KEY,
  THREAD_PREFIX,
  UNREAD_KEY,
  findConversation,
  threadKey,
} from './messages-cache.ts';
import { REQUESTS_KEY } from './message-requests.ts';
import {
  applyMessage,
  applyRead,
  fetchIntoList,
  listQuery,
  markRead,
  reloadClosedConversation,
} from './messages-query.ts';
import { useMessagesSelection, useOpenConversation, visibleConversationId } from './messages-store.ts';
import { toastFromEvent, useMessageToast } from './message-toast-store.ts';

function readCreated(data: unknown): MessageCreatedEvent | null {
  const d = (data ?? {}) as { message?: unknown; sender?: unknown };
  const message = readMessage(d.message);
  if (!message) return null;
  const sender = readParticipant(d.sender) ?? { id: message.senderId, nickname: '', profilePhotoUrl: null };
  return { message, sender };
}

function readRead(data: unknown): MessageReadEvent | null {
  const d = (data ?? {}) as Record<string, unknown>;
  if (typeof d.conversationId !== 'string' || typeof d.readerId !== 'string' || typeof d.upTo !== 'string') return null;
  return { conversationId: d.conversationId, readerId: d.readerId, upTo: d.upTo };
}

function readUpdated(data: unknown): ConversationUpdatedEvent | null {
  const d = (data ?? {}) as Record<string, unknown>;
  if (typeof d.conversationId !== 'string') return null;
  return {
    conversationId: d.conversationId,
    updatedAt: typeof d.updatedAt === 'string' ? d.updatedAt : new Date().toISOString(),
  };
}

/** `conversation.closed`'s conversation id. */
function readClosedId(data: unknown): string | null {
  return typeof data === 'object' &&
    data !== null &&
    'conversationId' in data &&
    typeof data.conversationId === 'string'
    ? data.conversationId
    : null;
}

/**
 * The 'Nouveau message' toast: the most recent conversation whose last message came from the other
 * person is announced if that message is unread and under 60 s old. Events announce messages as
 * they come; this covers the ones that came while the socket was down.
 */
function announceMissed(list: ConversationListResult, self: string | null | undefined): void {
  const latest = list.conversations.find((c) => c.lastMessage !== null && c.lastMessage.senderId !== self);
  const message = latest?.lastMessage;
  if (!latest || !message || message.read || latest.id === visibleConversationId()) return;
  if (Date.now() - Date.parse(message.createdAt) > TIMING.messageToastRecentMs) return;
  useMessageToast.getState().show(toastFromEvent({ message, sender: latest.otherParticipant }));
}

const listShown = (client: QueryClient) => client.getQueryData<ConversationListResult>(LIST_KEY) !== undefined;

/** Applies the socket's messaging events to `client`'s cache; returns the unsubscribe function. */
export function bridgeMessagesRealtime(client: QueryClient, me: () => string | null | undefined): () => void {
  const stops = [
    subscribeRealtime(MESSAGE_EVENTS.created, (event) => {
      const created = readCreated(event.data);
      if (!created) return;
      const { message } = created;
      const self = me();
      const { known } = applyMessage(client, message, self);
      if (!known && listShown(client)) void fetchIntoList(client, message.conversationId);
      if (message.senderId === self) return;
      if (visibleConversationId() === message.conversationId) {
        // In front of the user: it is read as it arrives.
        void markRead(client, message.conversationId, self);
        return;
      }
      useMessageToast.getState().show(toastFromEvent(created));
    }),
    subscribeRealtime(MESSAGE_EVENTS.read, (event) => {
      const read = readRead(event.data);
      if (read) applyRead(client, read.conversationId, read.readerId, read.upTo, me());
    }),
    // A request: no toast, no badge; 'Demandes' and the request's thread, if open, catch up.
    subscribeRealtime(MESSAGE_EVENTS.request, (event) => {
      void client.invalidateQueries({ queryKey: REQUESTS_KEY });
      const updated = readUpdated(event.data);
      if (updated) void client.invalidateQueries({ queryKey: threadKey(updated.conversationId) });
    }),
    subscribeRealtime(MESSAGE_EVENTS.conversationUpdated, (event) => {
      const updated = readUpdated(event.data);
      if (!updated || !listShown(client) || findConversation(client, updated.conversationId)) return;
      void fetchIntoList(client, updated.conversationId);
    }),
    subscribeRealtime(MESSAGE_EVENTS.closed, (event) => {
      const id = readClosedId(event.data);
      if (!id) return;
      void reloadClosedConversation(client, id);
      // A request from them stays in 'Demandes', under their new name.
      void client.invalidateQueries({ queryKey: REQUESTS_KEY });
    }),
    onRealtimeConnection(({ connected, reconnect }) => {
      if (!connected || !reconnect) return;
      // The list is fetched now, not only marked stale: what came during the cut may need the toast.
      void client.fetchQuery({ ...listQuery(client), staleTime: 0 }).then(
        (list) => announceMissed(list, me()),
        () => {},
      );
      void client.invalidateQueries({ queryKey: UNREAD_KEY });
      void client.invalidateQueries({ queryKey: REQUESTS_KEY });
      // Threads catch up with `after=`: the open one now, the others when shown again.
      void client.invalidateQueries({ queryKey: THREAD_PREFIX });
    }),
  ];
  return () => stops.forEach((stop) => stop());
}

/** Forgets everything about the previous user's messages. */
export function clearMessaging(client: QueryClient): void {
  client.removeQueries({ queryKey: CONVERSATIONS_ROOT });
  useMessagesSelection.getState().clear();
  useOpenConversation.getState().setOpen(null);
  useMessageToast.getState().clear();
}

/**
 * Mounted once in the shell: the realtime bridge while signed in; its subscriptions stop on
 * sign-out.
 */
export function useMessaging(): void {
  const client = useQueryClient();
  const userId = useSessionStore((s) => s.user?.id ?? null);
  const previous = useRef<string | null>(userId);

  useEffect(() => {
    // Only a sign-out (or another account) clears: a visitor's first render keeps a selection
    // made from the address before the session was restored.
    if (previous.current !== null && previous.current !== userId) clearMessaging(client);
    previous.current = userId;
    if (!userId) return;
    return bridgeMessagesRealtime(client, () => useSessionStore.getState().user?.id);
  }, [client, userId]);
}
