/**
 * The French text catalogue. Every text a user reads is French and lives here
 * once: the server answers `{ error: { code, message: MESSAGES[code] } }`, the web app shows
 * the same entries. Keys are stable error codes or UI text ids.
 *
 * It is kept in parts (messages/shell.ts: what the map screen and the shell show; messages/
 * screens.ts: the rest), so the web app's first load carries only its own texts.
 */
import { fill, fillCount } from './messages/fill.ts';
import { ACCOUNT_MESSAGES } from './messages/account.ts';
import { DSA_MESSAGES } from './messages/dsa.ts';
import { SCREEN_MESSAGES } from './messages/screens.ts';
import { SHELL_MESSAGES } from './messages/shell.ts';

export const MESSAGES = { ...SHELL_MESSAGES, ...SCREEN_MESSAGES, ...DSA_MESSAGES, ...ACCOUNT_MESSAGES } as const;

export type MessageKey = keyof typeof MESSAGES;

/** Fills `{name}` placeholders of a catalogue text. */
export function t(key: MessageKey, params: Record<string, string | number> = {}): string {
  return fill(MESSAGES[key], params);
}

/** A count's text with French plurals: `{key}_one` for 0 and 1 when the catalogue has it (fillCount). */
export function tn(key: MessageKey, count: number, params: Record<string, string | number> = {}): string {
  return fillCount(MESSAGES, key, count, params);
}
