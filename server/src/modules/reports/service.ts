/**
 * Post reports (spec §3 "Post report", §5 "Report", §7 post_reports). A report stores what the
 * moderation queue needs: the reporter, the reason's key and French label, the details, the
 * post's author and a snapshot of the post (which outlives the post), and the time.
 */
import { sql } from 'drizzle-orm';
import { reportReasonLabel, type ReportReasonKey } from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { conflict, forbidden, notFound } from '../../errors.ts';
import { LIVE } from '../posts/service.ts';

export interface ReportInput {
  reason: ReportReasonKey;
  /** Validated and sanitised; '' when none were given. */
  details: string;
}

interface ReportedPost {
  id: string;
  user_id: string;
  category: string;
  content: string;
  nickname: string;
  latitude: number;
  longitude: number;
  created_at: string | Date;
  image_url: string | null;
  thumbnail_url: string | null;
  media_urls: string[] | string | null;
  audio_url: string | null;
  audio_duration: number | null;
  author_username: string;
}

export interface StoredReport {
  id: string;
  postId: string;
  postAuthorId: string;
  reason: string;
}

/** Records the report; refuses one's own post (403) and a second report by the same person (409). */
export async function reportPost(db: Db, postId: string, reporterId: string, input: ReportInput): Promise<StoredReport> {
  const found = await db.execute(sql`
    select p.id, p.user_id, p.category, p.content, p.nickname, p.latitude, p.longitude, p.created_at,
           p.image_url, p.thumbnail_url, p.media_urls, p.audio_url, p.audio_duration, a.username as author_username
    from publications p join profiles a on a.id = p.user_id
    where p.id = ${postId} and ${LIVE}`);
  const post = found.rows[0] as unknown as ReportedPost | undefined;
  if (!post) throw notFound('post_not_found');
  if (post.user_id === reporterId) throw forbidden('report_own_post');

  const snapshot = {
    content: post.content,
    category: post.category,
    nickname: post.nickname,
    authorUsername: post.author_username,
    latitude: Number(post.latitude),
    longitude: Number(post.longitude),
    createdAt: new Date(post.created_at).toISOString(),
    imageUrl: post.image_url,
    thumbnailUrl: post.thumbnail_url,
    mediaUrls: typeof post.media_urls === 'string' ? (JSON.parse(post.media_urls) as string[]) : (post.media_urls ?? []),
    audioUrl: post.audio_url,
    audioDuration: post.audio_duration === null ? null : Number(post.audio_duration),
  };
  const reason = reportReasonLabel(input.reason);
  // The unique (post_id, reported_by) index decides a duplicate, even for two reports at once.
  const inserted = await db.execute(sql`
    insert into post_reports (post_id, post_author_id, reported_by, reason_key, reason, description, post_snapshot)
    values (${postId}, ${post.user_id}, ${reporterId}, ${input.reason}, ${reason}, ${input.details || null}, ${JSON.stringify(snapshot)}::jsonb)
    on conflict (post_id, reported_by) do nothing
    returning id`);
  const row = inserted.rows[0] as { id: string } | undefined;
  if (!row) throw conflict('report_duplicate');
  return { id: row.id, postId, postAuthorId: post.user_id, reason };
}
