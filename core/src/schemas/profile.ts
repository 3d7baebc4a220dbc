/**
 * Profile inputs and answers (docs/product.md, Profiles):
 * one zod schema per input with one catalogue text per rule, shared by the profile forms and
 * the server, which enforces every rule whatever the browser did.
 */
import { z } from 'zod';
import { DAY } from '../durations.ts';
import { BIO_MAX, NICKNAME_COOLDOWN_DAYS, NICKNAME_MAX, NICKNAME_MIN } from '../limits.ts';
import { MESSAGES } from '../messages.ts';
import { stripMarkup } from '../sanitize.ts';
import type { PostDto } from './post.ts';
import { profileIdentityShape, tierFlagsShape } from './shapes.ts';
import { boundedFreeText } from './text.ts';

const length = (v: string) => Array.from(v).length;

/**
 * Letters of any script (accents included, precomposed or combining), digits, space, hyphen and
 * underscore. Hangul filler letters are excluded: they are letters that draw nothing.
 */
const NICKNAME_CHARS = /^(?:(?![\u115F\u1160\u3164\uFFA0])[\p{L}\p{M}\p{Nd} _-])+$/u;
const HAS_LETTER = /\p{L}/u;
const HAS_DIGIT = /\p{Nd}/u;

/**
 * A nickname: trimmed and NFC-normalised (so 'Léa' typed either way is
 * the same name), 2 to 50 characters, only allowed characters, not purely numeric (digits,
 * possibly with separators: '2024', '06-12'), not only separators ('--', '_ _').
 * "Must differ from the current one" needs the current name: the server checks it.
 */
export const nicknameSchema = z
  .string({ error: MESSAGES.bad_request })
  .trim()
  // Bounded before it is normalised and counted: NFC can shorten a decomposed name, never to a
  // quarter (a letter with three combining accents).
  .max(NICKNAME_MAX * 4 * 2, { error: MESSAGES.nickname_length, abort: true })
  .transform((v) => v.normalize('NFC'))
  .refine((v) => length(v) >= NICKNAME_MIN && length(v) <= NICKNAME_MAX, {
    error: MESSAGES.nickname_length,
    abort: true,
  })
  .refine((v) => NICKNAME_CHARS.test(v), { error: MESSAGES.nickname_invalid_chars, abort: true })
  .refine((v) => HAS_LETTER.test(v) || !HAS_DIGIT.test(v), { error: MESSAGES.nickname_numeric, abort: true })
  .refine((v) => HAS_LETTER.test(v), { error: MESSAGES.nickname_separators_only, abort: true });

/**
 * A bio: optional, blank or null stored as null; at most 500 characters as
 * typed; refused when critical (an attack, not text); then stripped of markup. The length comes
 * first and aborts (in UTF-16 units, then in characters), so an over-long bio is not scanned.
 */
export const bioSchema = z
  .string({ error: MESSAGES.bad_request })
  .nullable()
  .transform((v) => (v ?? '').trim())
  .pipe(boundedFreeText(BIO_MAX, MESSAGES.bio_too_long).transform((v) => stripMarkup(v, BIO_MAX).trim() || null));

/**
 * `PATCH /api/profiles/me`: only the editable fields. Any other key (tier flags, credits, role,
 * counters, e-mail, id...) refuses the whole request: nothing is assigned from a body by name.
 */
export const updateProfileSchema = z.strictObject(
  { nickname: nicknameSchema.optional(), bio: bioSchema.optional() },
  {
    error: (issue) => (issue.code === 'unrecognized_keys' ? MESSAGES.profile_field_not_editable : MESSAGES.bad_request),
  },
);
export type UpdateProfileInput = z.input<typeof updateProfileSchema>;

const NICKNAME_COOLDOWN_MS = NICKNAME_COOLDOWN_DAYS * DAY;

/** The nickname cooldown: a nickname changed at `lastChange` may change again from this instant. */
export function nicknameChangeAllowedAt(lastChange: string | Date): Date {
  return new Date(new Date(lastChange).getTime() + NICKNAME_COOLDOWN_MS);
}

/**
 * The same rule seen from `now`: a last change at or before this instant no longer blocks one
 * (the server's UPDATE compares the stored date with it, so the check and the write agree).
 */
export function nicknameCooldownCutoff(now: Date): Date {
  return new Date(now.getTime() - NICKNAME_COOLDOWN_MS);
}

/**
 * When the next nickname change is allowed: 30 days after the last
 * change, or null when allowed now (no change yet, or 30 days have passed).
 */
export function nextNicknameChangeAt(
  lastChange: string | Date | null | undefined,
  now: Date = new Date(),
): Date | null {
  if (!lastChange) return null;
  const next = nicknameChangeAllowedAt(lastChange);
  return next.getTime() > now.getTime() ? next : null;
}

/** `GET /api/profiles/:id`: any string up to a uuid's size; one that is not a uuid names no profile (404). */
export const profileIdParamsSchema = z.object({ id: z.string().max(64) });

/** A profile as anyone may read it: never e-mail, phone, birth date, names, credits or counters. */
export const publicProfileSchema = z.object({
  ...profileIdentityShape,
  /** ISO 8601: 'Membre depuis'. */
  createdAt: z.string(),
  ...tierFlagsShape,
});
export type PublicProfile = z.infer<typeof publicProfileSchema>;

/**
 * The posts of a profile are the feed's posts; their schema belongs to the posts resource
 * (post.ts), so this one only says "an array of PostDto" and passes them through untouched.
 */
const postDtoPassThrough = z.custom<PostDto>((value) => typeof value === 'object' && value !== null);

/** `GET /api/profiles/:id`: the profile and the user's live posts, newest first. */
export const publicProfileResponseSchema = z.object({
  profile: publicProfileSchema,
  posts: z.array(postDtoPassThrough),
});
export type PublicProfileResponse = z.infer<typeof publicProfileResponseSchema>;

/** The 409 of a second nickname change within 30 days carries the date it becomes possible. */
export interface NicknameCooldownError {
  error: { code: 'nickname_blocked'; message: string; nextAllowedAt: string };
}

/** Realtime: a nickname or photo changed, so maps refresh the author's photo and name. */
export interface ProfileUpdatedEvent {
  type: 'profile.updated';
  data: { userId: string; username: string; photoUrl: string | null };
}
