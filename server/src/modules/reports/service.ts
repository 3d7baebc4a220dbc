/**
 * Post reports (docs/product.md, Reports and moderation). A report stores what the
 * moderation queue needs: the reporter, the reason's key and French label, the details, the
 * post's author and a snapshot of the post (which outlives the post), and the time.
 */
import { reportReasonLabel, type ReportReasonKey } from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { conflict, notFound } from '../../errors.ts';
import { enforce, type Member } from '../../policies/actor.ts';
import { mayReport } from '../../policies/reports.ts';
import { reportCountsSql } from '../moderation/threshold.ts';
import { findReportedPost, insertReport, type ReportedPost } from './data.ts';

export interface ReportInput {
  reason: ReportReasonKey;
  /** Validated and sanitised; '' when none were given. */
  details: string;
}

export interface StoredReport {
  id: string;
  postId: string;
  postAuthorId: string;
  reason: string;
}

/**
 * Records the report; refuses what mayReport refuses (one's own post: 403) and a second report by
 * the same person (409, the unique index's). `network`: the reporter's network as
 * reporterNetwork() stores it.
 */
export async function reportPost(
  db: Db,
  postId: string,
  reporter: Member,
  input: ReportInput,
  network: string,
): Promise<StoredReport> {
  const reporterId = reporter.userId;
  const post = await findReportedPost(db, postId);
  if (!post) throw notFound('post_not_found');
  enforce(mayReport(reporter, post));

  const snapshot = snapshotOf(post);
  const reason = reportReasonLabel(input.reason);
  const id = await insertReport(db, {
    postId,
    postAuthorId: post.userId,
    reportedBy: reporterId,
    reasonKey: input.reason,
    reason,
    description: input.details || null,
    postSnapshot: snapshot,
    reporterNetwork: network,
    countsTowardHiding: reportCountsSql(reporterId),
  });
  if (!id) throw conflict('report_duplicate');
  return { id, postId, postAuthorId: post.userId, reason };
}

/** The post as the queue shows it, whatever happens to it later. */
export function snapshotOf(post: ReportedPost): Record<string, unknown> {
  return {
    content: post.content,
    category: post.category,
    nickname: post.nickname,
    authorUsername: post.authorUsername,
    latitude: post.latitude,
    longitude: post.longitude,
    createdAt: post.createdAt.toISOString(),
    imageUrl: post.imageUrl,
    thumbnailUrl: post.thumbnailUrl,
    mediaUrls: post.mediaUrls,
    audioUrl: post.audioUrl,
    audioDuration: post.audioDuration,
  };
}
