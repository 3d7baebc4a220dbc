/** Post reports and the post they snapshot, with Drizzle's query builder. */
import { and, eq } from 'drizzle-orm';
import type { PgInsertValue } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { postReports, profiles } from '../../db/schema.ts';
import { LIVE, posts } from '../posts/service.ts';

/** The live post a report is about, with its author's current username. */
export async function findReportedPost(db: Db, postId: string) {
  const [row] = await db
    .select({
      id: posts.id,
      userId: posts.userId,
      category: posts.category,
      content: posts.content,
      nickname: posts.nickname,
      latitude: posts.latitude,
      longitude: posts.longitude,
      createdAt: posts.createdAt,
      imageUrl: posts.imageUrl,
      thumbnailUrl: posts.thumbnailUrl,
      mediaUrls: posts.mediaUrls,
      audioUrl: posts.audioUrl,
      audioDuration: posts.audioDuration,
      authorUsername: profiles.username,
    })
    .from(posts)
    .innerJoin(profiles, eq(profiles.id, posts.userId))
    .where(and(eq(posts.id, postId), LIVE));
  return row ?? null;
}
export type ReportedPost = NonNullable<Awaited<ReturnType<typeof findReportedPost>>>;

/**
 * Stores the report; null when this person already reported the post (the unique
 * (post_id, reported_by) index decides, even for two reports at once).
 */
export async function insertReport(db: Db, report: PgInsertValue<typeof postReports>): Promise<string | null> {
  const [row] = await db
    .insert(postReports)
    .values(report)
    .onConflictDoNothing({ target: [postReports.postId, postReports.reportedBy] })
    .returning({ id: postReports.id });
  return row?.id ?? null;
}
