/**
 * Which events become notifications, for whom, saying what:
 * - a new message → its recipient: the sender's nickname, the text's start (or 'a photo');
 * - a new comment → the post's author ('commented your post') and the people who commented
 *   before ('replied to your comment'), never the commenter, never someone in a block relation
 *   with them; an edit or a removal tells no one;
 * - a moderation outcome → each person concerned: a generic title and text, the details stay in
 *   the app (profile → notices).
 * Nothing private travels beyond a nickname and, when the device allows it, a short preview.
 */
import { and, desc, eq, ne } from 'drizzle-orm';
import {
  DAY,
  MESSAGE_EVENTS,
  MESSAGES,
  MODERATION_NOTICE_EVENT,
  PUSH_PREVIEW_MAX,
  SECOND,
  truncate,
  type CommentDto,
  type MessageCreatedEvent,
  type ModerationNoticeEvent,
} from '@moodmap/core';
import type { RealtimeEvent } from '../../adapters/bus/types.ts';
import type { Db } from '../../db/client.ts';
import { comments } from '../../db/schema.ts';
import { isHidden } from '../../policies/blocks.ts';
import type { BlockRelations } from '../blocks/relations.ts';
import { postOwner } from '../posts/data.ts';
import type { Notice } from './delivery.ts';

const DAY_S = DAY / SECOND;
/** Earlier commenters told of a new comment: the most recent ones, a thread's active people. */
const THREAD_NOTIFY_MAX = 20;

const preview = (text: string) => truncate(text.replace(/\s+/g, ' ').trim(), PUSH_PREVIEW_MAX, '…');
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

export interface NoticeDeps {
  db: Db;
  relations: BlockRelations;
}

export async function noticesFor(event: RealtimeEvent, deps: NoticeDeps): Promise<Notice[]> {
  if (event.type === MESSAGE_EVENTS.created) return messageNotices(event);
  if (event.type === 'post.commented') return commentNotices(event, deps);
  if (event.type === MODERATION_NOTICE_EVENT) return moderationNotices(event);
  return [];
}

function messageNotices(event: RealtimeEvent): Notice[] {
  const data = event.data as Partial<MessageCreatedEvent> | null;
  const message = data?.message;
  const sender = data?.sender;
  if (!isObject(message) || !isObject(sender) || typeof message.conversationId !== 'string') return [];
  const text = typeof message.content === 'string' ? message.content : '';
  const recipients = (event.targets ?? []).filter((id) => id !== message.senderId);
  return recipients.map((userId) => ({
    userId,
    title: sender.nickname,
    preview: text.trim() ? preview(text) : MESSAGES.push_message_photo,
    generic: text.trim() ? MESSAGES.push_message_generic : MESSAGES.push_message_photo,
    url: `/messages?conversation=${encodeURIComponent(message.conversationId)}`,
    tag: `conversation:${message.conversationId}`,
    urgency: 'high',
    ttl: DAY_S,
  }));
}

async function commentNotices(event: RealtimeEvent, { db, relations }: NoticeDeps): Promise<Notice[]> {
  const data = event.data as { postId?: unknown; comment?: Partial<CommentDto> } | null;
  const comment = data?.comment;
  // An edit or a removal is not news to anyone.
  if (
    !isObject(comment) ||
    comment.isEdited !== false ||
    typeof comment.postId !== 'string' ||
    typeof comment.userId !== 'string'
  )
    return [];
  const { postId, userId: commenter } = comment;
  const [owner, earlier, related] = await Promise.all([
    postOwner(db, postId),
    db
      .selectDistinctOn([comments.userId], { userId: comments.userId, at: comments.createdAt })
      .from(comments)
      .where(and(eq(comments.publicationId, postId), ne(comments.userId, commenter)))
      .orderBy(comments.userId, desc(comments.createdAt)),
    relations.of(commenter),
  ]);
  if (!owner) return [];
  const base = {
    title: comment.author?.username ?? '',
    preview: preview(comment.content ?? ''),
    tag: `post:${postId}`,
    urgency: 'normal' as const,
    ttl: DAY_S,
  };
  const notices: Notice[] = [];
  // The post is on its author's profile: their own (/profile) or the public one.
  if (owner !== commenter && !isHidden(related, owner))
    notices.push({ ...base, userId: owner, generic: MESSAGES.push_comment_on_post, url: '/profile' });
  const repliedTo = earlier
    .sort((a, b) => b.at.getTime() - a.at.getTime())
    .map((r) => r.userId)
    .filter((id) => id !== owner && !isHidden(related, id))
    .slice(0, THREAD_NOTIFY_MAX);
  for (const userId of repliedTo)
    notices.push({ ...base, userId, generic: MESSAGES.push_comment_reply, url: `/user/${owner}` });
  return notices;
}

const MODERATION_TITLES: Record<ModerationNoticeEvent['kind'], string> = {
  report_outcome: MESSAGES.notice_report_outcome_title,
  statement: MESSAGES.notice_statement_title,
  appeal_outcome: MESSAGES.notice_appeal_outcome_title,
};

function moderationNotices(event: RealtimeEvent): Notice[] {
  const kind = (event.data as Partial<ModerationNoticeEvent> | null)?.kind;
  const title = kind && Object.hasOwn(MODERATION_TITLES, kind) ? MODERATION_TITLES[kind] : MESSAGES.notices_title;
  return [...new Set(event.targets ?? [])].map((userId) => ({
    userId,
    title,
    // The notice's own words can name a reason or a note: they stay in the app.
    preview: MESSAGES.push_moderation_body,
    generic: MESSAGES.push_moderation_body,
    url: '/profile',
    tag: `moderation:${kind ?? 'notice'}`,
    urgency: 'normal',
    ttl: 7 * DAY_S,
  }));
}
