/** The reports API's contract (docs/product.md, Reports and moderation): `POST /api/posts/:id/report`. */
import { z } from 'zod';
import { REPORT_DETAILS_MAX } from '../limits.ts';
import { MESSAGES } from '../messages.ts';
import { REPORT_REASON_KEYS, REPORT_REASON_OTHER } from '../reports.ts';
import { isCritical, stripMarkup } from '../sanitize.ts';

export * from '../reports.ts';

/**
 * A report: a reason is required; details are optional except for 'other',
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
        z
          .string()
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

/** The answer (201). */
export const reportResponseSchema = z.object({ status: z.literal('reported') });
