/** The rules of free text that people write, shared by the inputs that store it (messages, bios). */
import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import { isCritical } from '../sanitize.ts';

/**
 * At most `max` characters as typed, then refused when critical (an attack, not text). The length
 * is checked first and aborts, so an over-long text is refused without being scanned: first in
 * UTF-16 units (a character is at most two), then in characters. The caller strips the markup
 * afterwards, as what it stores for a blank text differs ('' for a message, null for a bio).
 */
export const boundedFreeText = (max: number, tooLong: string) =>
  z
    .string()
    .max(max * 2, { error: tooLong, abort: true })
    .refine((v) => Array.from(v).length <= max, { error: tooLong, abort: true })
    .refine((v) => !isCritical(v), { error: MESSAGES.content_forbidden, abort: true });

/**
 * Whether `value` holds half of a UTF-16 surrogate pair alone: not a character, and PostgreSQL
 * cannot store it as text. Every text the API receives is refused with it (server/http/nul-guard.ts).
 */
export const hasLoneSurrogate = (value: string): boolean => /\p{Surrogate}/u.test(value); // with u, a pair is one code point
