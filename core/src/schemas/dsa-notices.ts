/**
 * Notices of illegal content (DSA Art. 16): `POST /api/dsa-notices` by anyone, signed in or not,
 * with the four elements the regulation asks for; `POST /api/dsa-notices/confirm` with the token
 * mailed to a visitor.
 */
import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import { stripMarkup } from '../sanitize.ts';
import { emailSchema } from './auth.ts';
import { boundedFreeText } from './text.ts';

/** Their catalogue texts (dsa_explanation_too_long, dsa_name_too_long) say the same figures. */
export const DSA_EXPLANATION_MAX = 2000;
export const DSA_NAME_MAX = 100;
export const DSA_LOCATION_MAX = 500;

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** The post a location names: the one id inside it (a bare id, or the address of its page), else null. */
export function postIdOfLocation(location: string): string | null {
  return UUID.exec(location)?.[0].toLowerCase() ?? null;
}

const requiredText = (max: number, required: string, tooLong: string) =>
  z
    .string({ error: required })
    .pipe(boundedFreeText(max, tooLong))
    .transform((v) => stripMarkup(v, max).trim())
    .refine((v) => v.length > 0, { error: required });

export const dsaNoticeBodySchema = z.object({
  explanation: requiredText(DSA_EXPLANATION_MAX, MESSAGES.dsa_explanation_required, MESSAGES.dsa_explanation_too_long),
  location: z
    .string({ error: MESSAGES.dsa_location_invalid })
    .max(DSA_LOCATION_MAX, { error: MESSAGES.dsa_location_invalid, abort: true })
    .trim()
    .refine((v) => postIdOfLocation(v) !== null, { error: MESSAGES.dsa_location_invalid }),
  name: requiredText(DSA_NAME_MAX, MESSAGES.dsa_name_required, MESSAGES.dsa_name_too_long),
  email: emailSchema,
  goodFaith: z.literal(true, { error: MESSAGES.dsa_good_faith_required }),
});
export type DsaNoticeInput = z.input<typeof dsaNoticeBodySchema>;

/** 'confirm': a link was mailed and the notice waits for it; 'received': it is in the moderation queue. */
export const dsaNoticeResponseSchema = z.object({ status: z.enum(['confirm', 'received']) });

export const dsaConfirmBodySchema = z.object({
  token: z
    .string({ error: MESSAGES.dsa_confirm_invalid })
    .min(1, { error: MESSAGES.dsa_confirm_invalid })
    .max(200, { error: MESSAGES.dsa_confirm_invalid }),
});
export const dsaConfirmResponseSchema = z.object({ status: z.literal('received') });
