/**
 * The conversations API (server/src/modules/messages/routes.ts), typed by core's schemas of its
 * answers (core/src/schemas/messages.ts). Lists, threads and realtime events are still read
 * defensively: a malformed item is dropped rather than crashing the list or the thread.
 */
import {
  type ConversationDto,
  type CreateConversationInput,
  type MarkReadResult,
  type ConversationListResult,
  type ConversationSummaryDto,
  SHELL_MESSAGES,
  SOCKET_REQUESTS,
  type MessageDto,
  type MessagePageResult,
  type ParticipantDto,
} from '@moodmap/core';
import { ApiError, api, apiOrSocket } from '../../lib/api.ts';
import { askRealtime } from '../../lib/realtime.ts';
import { parseAnswerLazy, readLazy } from '../../lib/schemas.ts';

const str = (v: unknown): v is string => typeof v === 'string';
/** An id, or null where the server says the person's account was deleted. */
const idOrNull = (v: unknown): v is string | null => v === null || str(v);

export function readMessage(value: unknown): MessageDto | null {
  if (!value || typeof value !== 'object') return null;
  const m = value as Record<string, unknown>;
  if (!str(m.id) || !str(m.conversationId) || !idOrNull(m.senderId) || !str(m.createdAt)) return null;
  return {
    id: m.id,
    conversationId: m.conversationId,
    senderId: m.senderId,
    content: str(m.content) ? m.content : '',
    imageUrl: str(m.imageUrl) && m.imageUrl ? m.imageUrl : null,
    read: m.read === true,
    createdAt: m.createdAt,
  };
}

export function readParticipant(value: unknown): ParticipantDto | null {
  if (!value || typeof value !== 'object') return null;
  const p = value as Record<string, unknown>;
  if (!idOrNull(p.id)) return null;
  return {
    id: p.id,
    nickname: str(p.nickname) ? p.nickname : '',
    profilePhotoUrl: str(p.profilePhotoUrl) && p.profilePhotoUrl ? p.profilePhotoUrl : null,
  };
}

export function readConversation(value: unknown): ConversationSummaryDto | null {
  if (!value || typeof value !== 'object') return null;
  const c = value as Record<string, unknown>;
  const other = readParticipant(c.otherParticipant);
  if (!str(c.id) || !other) return null;
  const updatedAt = str(c.updatedAt) ? c.updatedAt : str(c.createdAt) ? c.createdAt : new Date(0).toISOString();
  return {
    id: c.id,
    participant1Id: str(c.participant1Id) ? c.participant1Id : null,
    participant2Id: str(c.participant2Id) ? c.participant2Id : null,
    createdAt: str(c.createdAt) ? c.createdAt : updatedAt,
    updatedAt,
    otherParticipant: other,
    lastMessage: readMessage(c.lastMessage),
    unread: c.unread === true,
    request: c.request === true,
  };
}

const path = (id: string) => `/api/conversations/${encodeURIComponent(id)}`;

function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The conversation with `userId`, created on first contact (200 or 201 alike). */
export async function openConversation(userId: string): Promise<ConversationDto> {
  const body: CreateConversationInput = { userId };
  return (
    await parseAnswerLazy(
      (s) => s.conversationResponseSchema,
      await api<unknown>('/api/conversations', { method: 'POST', body }),
      'conversation_create_failed',
    )
  ).conversation;
}

/** One page of my conversations, most recently updated first. */
export async function fetchConversations(before?: string, signal?: AbortSignal): Promise<ConversationListResult> {
  const payload = await api<{ conversations?: unknown; nextCursor?: unknown }>(
    `/api/conversations${query({ before })}`,
    { signal },
  );
  const list = Array.isArray(payload?.conversations) ? payload.conversations : [];
  return {
    conversations: list.map(readConversation).filter((c): c is ConversationSummaryDto => c !== null),
    nextCursor: str(payload?.nextCursor) && payload.nextCursor ? payload.nextCursor : null,
  };
}

/** One conversation I take part in; null when it does not exist or is not mine (404). */
export async function fetchConversation(id: string, signal?: AbortSignal): Promise<ConversationSummaryDto | null> {
  try {
    const payload = await api<{ conversation?: unknown }>(path(id), { signal });
    return readConversation(payload?.conversation);
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 403)) return null;
    throw error;
  }
}

/** Conversations whose last message is unread and from the other party (the badge). */
export async function fetchUnreadIds(signal?: AbortSignal): Promise<string[]> {
  const unread = await readLazy(
    (s) => s.unreadConversationsSchema,
    await api<unknown>('/api/conversations/unread', { signal }),
  );
  return unread?.conversationIds ?? [];
}

export interface PageRequest {
  before?: string;
  after?: string;
  limit?: number;
}

/** A page of a thread, oldest first: the latest one, the one `before` a message, or what came `after` one. */
export async function fetchMessages(
  id: string,
  page: PageRequest = {},
  signal?: AbortSignal,
): Promise<MessagePageResult> {
  const payload = await api<{ messages?: unknown; hasMore?: unknown }>(`${path(id)}/messages${query({ ...page })}`, {
    signal,
  });
  const list = Array.isArray(payload?.messages) ? payload.messages : [];
  return {
    messages: list.map(readMessage).filter((m): m is MessageDto => m !== null),
    hasMore: payload?.hasMore === true,
  };
}

/** Marks the other party's messages read. */
export async function markConversationRead(id: string): Promise<void> {
  await api<MarkReadResult>(`${path(id)}/read`, { method: 'POST' });
}

/**
 * Sends trimmed text and/or one image: text alone over the realtime socket when it is signed in
 * (else as JSON), multipart (`content`, `file`) with an image.
 */
export async function sendMessage(id: string, input: { content: string; file?: File | null }): Promise<MessageDto> {
  const url = `${path(id)}/messages`;
  const { file, content } = input;
  let payload: unknown;
  if (file) {
    const body = new FormData();
    if (content) body.append('content', content);
    body.append('file', file, file.name || 'image');
    payload = await api<unknown>(url, { method: 'POST', body });
  } else {
    const ask = () => askRealtime(SOCKET_REQUESTS.messageSend, { conversationId: id, content });
    payload = await apiOrSocket(ask, url, { method: 'POST', body: { content } });
  }
  const message = readMessage((payload as { message?: unknown } | null)?.message);
  if (!message) throw new ApiError(500, 'internal_error', SHELL_MESSAGES.internal_error);
  return message;
}
