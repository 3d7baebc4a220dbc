/**
 * Moderation's contract (docs/moderation.md): the reports queue and decisions, appeals, in-app
 * notices, and blocking.
 */
import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import {
  APPEAL_STATEMENT_MAX,
  APPEAL_STATUSES,
  MODERATION_ACTIONS,
  MODERATION_NOTE_MAX,
  MODERATION_NOTICE_KINDS,
  MODERATION_REASON_KEYS,
  SUSPENSION_DAYS,
} from '../moderation.ts';
import { isCritical, stripMarkup } from '../sanitize.ts';

const note = z
  .string({ error: MESSAGES.bad_request })
  .nullish()
  .transform((v) => (v ?? '').trim())
  .pipe(
    z
      .string()
      .max(MODERATION_NOTE_MAX, { error: MESSAGES.mod_note_too_long, abort: true })
      .refine((v) => !isCritical(v), { error: MESSAGES.content_forbidden, abort: true })
      .transform((v) => stripMarkup(v).trim()),
  );

const person = z.object({ id: z.string(), nickname: z.string() });

/** The post as reported (post_reports.post_snapshot), whatever happened to it since. */
export const postSnapshotSchema = z.object({
  content: z.string(),
  category: z.string(),
  nickname: z.string(),
  createdAt: z.string(),
  imageUrl: z.string().nullable(),
  audioUrl: z.string().nullable(),
});

/** One reported post with its open reports. */
export const reportGroupSchema = z.object({
  postId: z.string(),
  /** live: on the map; pending: hidden pending review; removed; gone: deleted or expired. */
  postState: z.enum(['live', 'pending', 'removed', 'gone']),
  count: z.number(),
  reasons: z.array(z.object({ key: z.string(), label: z.string(), count: z.number() })),
  details: z.array(z.string()),
  snapshot: postSnapshotSchema,
  author: person.nullable(),
  reporters: z.array(person),
  /** Confirmed notices of illegal content (DSA Art. 16) among the reports, by anyone. */
  dsaNotices: z.array(z.object({ name: z.string(), explanation: z.string(), location: z.string() })),
  firstReportedAt: z.string(),
});
export type ReportGroup = z.infer<typeof reportGroupSchema>;

export const decisionSchema = z.object({
  id: z.string(),
  postId: z.string().nullable(),
  authorId: z.string().nullable(),
  moderatorId: z.string().nullable(),
  action: z.enum(MODERATION_ACTIONS),
  suspendDays: z.number().nullable(),
  reason: z.enum(MODERATION_REASON_KEYS),
  note: z.string().nullable(),
  createdAt: z.string(),
  appealUntil: z.string(),
  reversed: z.boolean(),
  snapshot: postSnapshotSchema,
});
export type ModerationDecision = z.infer<typeof decisionSchema>;

export const appealSchema = z.object({
  id: z.string(),
  statement: z.string(),
  createdAt: z.string(),
  status: z.enum(APPEAL_STATUSES),
  decision: decisionSchema,
  author: person.nullable(),
  /** The caller took the decision: another moderator must decide the appeal. */
  decidedByYou: z.boolean(),
});
export type ModerationAppeal = z.infer<typeof appealSchema>;

/** `GET /api/moderation/queue` (moderator and up). */
export const moderationQueueResponseSchema = z.object({
  reports: z.array(reportGroupSchema),
  appeals: z.array(appealSchema),
});
export type ModerationQueue = z.infer<typeof moderationQueueResponseSchema>;

export const postIdParamsSchema = z.object({ postId: z.uuid({ error: MESSAGES.not_found }) });

/** `POST /api/moderation/posts/:postId/decision`. */
export const decisionBodySchema = z
  .object({
    action: z.enum(MODERATION_ACTIONS, { error: MESSAGES.bad_request }),
    reason: z.enum(MODERATION_REASON_KEYS, { error: MESSAGES.mod_reason_required }),
    note,
    days: z
      .union(
        SUSPENSION_DAYS.map((d) => z.literal(d)),
        { error: MESSAGES.mod_days_required },
      )
      .optional(),
  })
  .refine((v) => v.action !== 'suspend' || v.days !== undefined, { error: MESSAGES.mod_days_required, path: ['days'] });
export type DecisionInput = z.input<typeof decisionBodySchema>;

export const decisionResponseSchema = z.object({ decision: decisionSchema });

/** `POST /api/moderation/appeals/:id/decision` (another moderator). */
export const appealDecisionBodySchema = z.object({
  outcome: z.enum(['uphold', 'reverse'], { error: MESSAGES.bad_request }),
  note,
});
export const appealResponseSchema = z.object({ appeal: appealSchema });

/** `POST /api/moderation/decisions/:id/appeal` (the author, once, within 6 months). */
export const appealBodySchema = z.object({
  statement: z
    .string({ error: MESSAGES.appeal_required })
    .trim()
    .min(1, { error: MESSAGES.appeal_required, abort: true })
    .max(APPEAL_STATEMENT_MAX, { error: MESSAGES.appeal_too_long, abort: true })
    .refine((v) => !isCritical(v), { error: MESSAGES.content_forbidden, abort: true })
    .transform((v) => stripMarkup(v).trim()),
});

/**
 * The appeal link of a statement's e-mail, for an author who cannot sign in (banned):
 * `GET /api/moderation/appeal-link?token=` reads the statement, `POST` files the appeal.
 */
export const appealLinkQuerySchema = z.object({ token: z.string().max(200) });
export const appealLinkResponseSchema = z.object({
  title: z.string(),
  lines: z.array(z.string()),
  canAppeal: z.boolean(),
  appealStatus: z.enum(APPEAL_STATUSES).nullable(),
});
export type AppealLinkAnswer = z.infer<typeof appealLinkResponseSchema>;
export const appealLinkBodySchema = appealBodySchema.extend(appealLinkQuerySchema.shape);
export const appealLinkFiledSchema = z.object({ status: z.literal('filed') });

/** An in-app notice, its French text written by the server from the decision. */
export const noticeSchema = z.object({
  id: z.string(),
  kind: z.enum(MODERATION_NOTICE_KINDS),
  title: z.string(),
  lines: z.array(z.string()),
  createdAt: z.string(),
  read: z.boolean(),
  decisionId: z.string(),
  /** A statement the author may still appeal (once, before appealUntil). */
  canAppeal: z.boolean(),
  appealStatus: z.enum(APPEAL_STATUSES).nullable(),
});
export type ModerationNotice = z.infer<typeof noticeSchema>;

/** `GET /api/moderation/notices` (signed in). */
export const noticesResponseSchema = z.object({
  notices: z.array(noticeSchema),
  unread: z.number(),
  suspendedUntil: z.string().nullable(),
});
export type NoticesResponse = z.infer<typeof noticesResponseSchema>;
export const noticesReadResponseSchema = z.object({ status: z.literal('read') });

/** Blocking: `GET /api/blocks`, `PUT|DELETE /api/blocks/:id`. */
export const blockedUserSchema = z.object({
  id: z.string(),
  nickname: z.string(),
  profilePhotoUrl: z.string().nullable(),
  blockedAt: z.string(),
});
export type BlockedUser = z.infer<typeof blockedUserSchema>;
export const blocksResponseSchema = z.object({ blocked: z.array(blockedUserSchema) });
export const blockResponseSchema = z.object({ userId: z.string(), blocked: z.boolean() });
