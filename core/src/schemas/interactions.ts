/**
 * Inputs and answers of the interactions on a post (issue 5): likes, comments, reports and
 * search. One zod schema per input with one catalogue text per rule, shared by the web forms
 * and the server (spec §5 "Report", "Search", "Sanitising").
 */
import { z } from 'zod';
import { REPORT_DETAILS_MAX, SEARCH_MAX, SEARCH_MIN } from '../limits.ts';
import { MESSAGES } from '../messages.ts';
import { REPORT_REASON_KEYS, REPORT_REASON_OTHER } from '../reports.ts';
import { isCritical, stripMarkup } from '../sanitize.ts';
import { MOODS } from '../moods.ts';
import { parseMoodSelection } from '../search.ts';
import type { PostDto } from './post.ts';

export * from '../reports.ts';
export * from '../search.ts';

/** A comment's maximum length; the spec sets none, posts allow 500 (spec §9 "Posts"). */
export const COMMENT_TEXT_MAX = 500;

/**
 * A comment's text: trimmed and non-blank, at most 500 characters as typed, refused when critical
 * (an attack, not text), then stripped of markup (spec §5 "Sanitising"). The length comes first
 * and aborts, so an over-long text is refused without being scanned.
 */
export const commentContentSchema = z
  .string({ error: MESSAGES.comment_required })
  .trim()
  .min(1, { error: MESSAGES.comment_required, abort: true })
  .max(COMMENT_TEXT_MAX, { error: MESSAGES.comment_too_long, abort: true })
  .refine((v) => !isCritical(v), { error: MESSAGES.content_forbidden, abort: true })
  .transform((v) => stripMarkup(v).trim())
  .pipe(z.string().min(1, MESSAGES.comment_required));

export const commentInputSchema = z.object({ content: commentContentSchema });
export type CommentInput = z.infer<typeof commentInputSchema>;

/**
 * A report (spec §5 "Report"): a reason is required; details are optional except for 'other',
 * at most 500 characters, sanitised. The output's `details` is '' when none were given.
 */
export const reportPostSchema = z
  .object({
    reason: z.enum(REPORT_REASON_KEYS, { error: MESSAGES.report_reason_required }),
    details: z
      .string({ error: MESSAGES.bad_request })
      .nullish()
      .transform((v) => (v ?? '').trim())
      .pipe(
        z.string()
          .max(REPORT_DETAILS_MAX, { error: MESSAGES.report_details_too_long, abort: true })
          .refine((v) => !isCritical(v), { error: MESSAGES.content_forbidden, abort: true })
          .transform((v) => stripMarkup(v).trim()),
      ),
  })
  .refine((v) => v.reason !== REPORT_REASON_OTHER || v.details.length > 0, {
    error: MESSAGES.report_details_required,
    path: ['details'],
  });
export type ReportPostInput = z.input<typeof reportPostSchema>;

/** A `moods` value: at most every mood's name with commas, and a handful of repetitions. */
const MOODS_PARAM_MAX = 200;
const moodsParam = z.string().max(MOODS_PARAM_MAX, { abort: true });

/**
 * Search parameters (spec §9 "Search"): `q` trimmed, 2 to 100 characters; `moods` a comma list
 * (or repeated parameter) of moods, unknown ones ignored, none meaning all five. A `moods` that
 * is not text (or too long) is a bad request rather than "all five".
 */
export const searchQuerySchema = z.object({
  q: z
    .string({ error: MESSAGES.search_length })
    .trim()
    // Two UTF-16 units at most per character: a longer q is refused before it is counted.
    .max(SEARCH_MAX * 2, { error: MESSAGES.search_length, abort: true })
    .refine((v) => {
      const length = Array.from(v).length;
      return length >= SEARCH_MIN && length <= SEARCH_MAX;
    }, MESSAGES.search_length),
  moods: z
    .union([moodsParam, z.array(moodsParam).max(MOODS.length * 2, { abort: true })], { error: MESSAGES.bad_request })
    .optional()
    .transform((v) => parseMoodSelection(v)),
});

/** The answer of `POST /api/posts/:id/like`. */
export interface LikeToggleResult {
  liked: boolean;
  likesCount: number;
}

/** A comment as the API returns it (spec §3 Comment, view comments_with_profiles). */
export interface CommentDto {
  id: string;
  postId: string;
  userId: string;
  content: string;
  createdAt: string;
  updatedAt: string;
  isEdited: boolean;
  author: { username: string; photoUrl: string | null; isPremium: boolean; isPro: boolean; isPlus: boolean; isMulti: boolean };
}

export interface SearchResponse {
  results: PostDto[];
}

/** Realtime events of the map feed about interactions (everyone watching receives them). */
export type InteractionEvent =
  | { type: 'post.liked'; data: { postId: string; likesCount: number } }
  | { type: 'post.commented'; data: { postId: string; commentsCount: number; comment?: CommentDto; removedCommentId?: string } };
