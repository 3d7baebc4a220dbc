/**
 * Message requests ('Demandes'): a stranger's first messages, held out of the list, the badge
 * and the toast until accepted (server/src/modules/messages/service.ts). The box is refetched
 * when the socket says a request came (`message.request`) and after each action here.
 */
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { CACHE_TTL_MS, type ConversationSummaryDto } from '@moodmap/core';
import { api } from '../../lib/api.ts';
import { useSessionStore } from '../auth/session-store.ts';
import { readConversation } from './conversations-api.ts';
import { LIST_KEY, UNREAD_KEY, conversationKey, upsertConversation } from './messages-cache.ts';

export const REQUESTS_KEY = ['conversations', 'requests'] as const;

const path = (id: string) => `/api/conversations/${encodeURIComponent(id)}`;

export async function fetchRequests(signal?: AbortSignal): Promise<ConversationSummaryDto[]> {
  const payload = await api<{ conversations?: unknown }>('/api/conversations/requests', { signal });
  const list = Array.isArray(payload?.conversations) ? payload.conversations : [];
  return list.map(readConversation).filter((c): c is ConversationSummaryDto => c !== null);
}

export function useRequests(): ConversationSummaryDto[] {
  const signedIn = useSessionStore((s) => s.user !== null);
  const query = useQuery({
    queryKey: REQUESTS_KEY,
    enabled: signedIn,
    queryFn: ({ signal }) => fetchRequests(signal),
    staleTime: CACHE_TTL_MS.conversations,
  });
  return signedIn ? (query.data ?? []) : [];
}

/** Accepts: the conversation joins the list with its history, and counts as any other from now on. */
export async function acceptRequest(client: QueryClient, id: string): Promise<void> {
  const payload = await api<{ conversation?: unknown }>(`${path(id)}/accept`, { method: 'POST' });
  const conversation = readConversation(payload?.conversation);
  if (conversation) {
    client.setQueryData(conversationKey(id), conversation);
    upsertConversation(client, conversation);
  }
  void client.invalidateQueries({ queryKey: REQUESTS_KEY });
  void client.invalidateQueries({ queryKey: LIST_KEY });
  void client.invalidateQueries({ queryKey: UNREAD_KEY });
}

/** Deletes the request for me only; its sender is not told. */
export async function deleteRequest(client: QueryClient, id: string): Promise<void> {
  await api(`${path(id)}/request`, { method: 'DELETE' });
  client.removeQueries({ queryKey: conversationKey(id) });
  await client.invalidateQueries({ queryKey: REQUESTS_KEY });
}

/** The sender's newest live post, the one thing a report can name (there is no report of a person). */
async function livePostOf(userId: string): Promise<string | null> {
  const payload = await api<{ posts?: unknown }>(`/api/profiles/${encodeURIComponent(userId)}`);
  const first: unknown = Array.isArray(payload?.posts) ? payload.posts[0] : null;
  return first && typeof first === 'object' && 'id' in first && typeof first.id === 'string' ? first.id : null;
}

/**
 * 'Bloquer et signaler': reports the sender's live post for harassment when they have one (read
 * before the block hides it), blocks them, then deletes the request.
 */
export async function blockAndReport(client: QueryClient, id: string, userId: string): Promise<void> {
  const postId = await livePostOf(userId).catch(() => null);
  if (postId) {
    // Already reported by me (409) or gone meanwhile: the block still goes ahead.
    await api(`/api/posts/${encodeURIComponent(postId)}/report`, {
      method: 'POST',
      body: { reason: 'harassment', details: '' },
    }).catch(() => {});
  }
  await api(`/api/blocks/${encodeURIComponent(userId)}`, { method: 'PUT' });
  await deleteRequest(client, id).catch(() => {});
  void client.invalidateQueries({ queryKey: ['blocks'] });
  void client.invalidateQueries({ queryKey: ['posts'] });
}
