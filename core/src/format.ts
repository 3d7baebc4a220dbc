/** Pure formatters (docs/product.md, Texts and times), shared by the web app (and tested once, here). */
import { HOUR, MINUTE } from './durations.ts';
import { ADMIN_ID_PREFIX } from './limits.ts';
import { fill } from './messages/fill.ts';
import { SHELL_MESSAGES } from './messages/shell.ts';

/** Unread badge: the number, '9+' above 9 and '99+' above 99. */
export function badgeCount(n: number): string {
  if (n > 99) return '99+';
  if (n > 9) return '9+';
  return String(Math.max(0, Math.floor(n)));
}

/** Cuts text to `max` characters, adding '...' only when something was cut. */
export function truncate(text: string, max: number, ellipsis = '...'): string {
  const chars = Array.from(text);
  return chars.length > max ? chars.slice(0, max).join('') + ellipsis : text;
}

const MINUTES_IN_DAY = 1_440;
const MINUTES_IN_MONTH = 43_200;
const MINUTES_IN_YEAR = 525_600;
let relative: Intl.RelativeTimeFormat | undefined;

/**
 * "il y a 5 minutes" — the popup's relative time. The words are the browser's French
 * (Intl.RelativeTimeFormat), the unit and rounding date-fns' formatDistanceStrict's, so the texts
 * are the same without date-fns on the map's first load: minutes under an hour, hours
 * under a day, then days, 30-day months and 365-day years counted across daylight-saving changes.
 */
export function relativeTime(date: Date | string | number, now: Date = new Date()): string {
  const d = new Date(date);
  const ms = now.getTime() - d.getTime();
  if (ms < MINUTE) return SHELL_MESSAGES.message_toast_now;
  const minutes = ms / MINUTE;
  const wallMinutes = minutes - (now.getTimezoneOffset() - d.getTimezoneOffset());
  relative ??= new Intl.RelativeTimeFormat('fr', { numeric: 'always' });
  if (minutes < 60) return relative.format(-Math.round(minutes), 'minute');
  if (minutes < MINUTES_IN_DAY) return relative.format(-Math.round(minutes / 60), 'hour');
  if (wallMinutes < MINUTES_IN_MONTH) return relative.format(-Math.round(wallMinutes / MINUTES_IN_DAY), 'day');
  if (wallMinutes < MINUTES_IN_YEAR) {
    const months = Math.round(wallMinutes / MINUTES_IN_MONTH);
    return months === 12 ? relative.format(-1, 'year') : relative.format(-months, 'month');
  }
  return relative.format(-Math.round(wallMinutes / MINUTES_IN_YEAR), 'year');
}

/** Own-post countdown: 'Expire dans Nh' or 'quelques minutes' under an hour. */
export function expiresIn(createdAt: Date | string | number, lifetimeMs: number, now: Date = new Date()): string {
  const left = new Date(createdAt).getTime() + lifetimeMs - now.getTime();
  const hours = Math.floor(left / HOUR);
  return hours >= 1 ? fill(SHELL_MESSAGES.expires_in_hours, { hours }) : SHELL_MESSAGES.expires_in_minutes;
}

/** Audio player time m:ss; an invalid value shows 0:00. */
export function playerTime(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '0:00';
  const s = Math.floor(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** fr-FR date ("22/11/2026") and date-time, as the admin tables and profiles show them. */
export function frDate(date: Date | string | number): string {
  return new Date(date).toLocaleDateString('fr-FR');
}
export function frDateTime(date: Date | string | number, timeZone?: string): string {
  return new Date(date).toLocaleString('fr-FR', timeZone ? { timeZone } : undefined);
}

/** Admin: the first 8 characters of an id followed by '...'. */
export function shortId(id: string): string {
  return id.slice(0, ADMIN_ID_PREFIX) + '...';
}

/** Admin log event: type with the first underscore replaced by a space, uppercased. */
export function securityEventLabel(eventType: string): string {
  return eventType.replace('_', ' ').toUpperCase();
}

/**
 * An amount in euro cents in French format, as the price label shows it: 250 → '2,50 €',
 * 2500 → '25,00 €' (comma decimals, a plain space before the sign, like PULSE_PRICE_LABEL).
 */
export function euros(cents: number): string {
  const negative = cents < 0;
  const abs = Math.abs(Math.round(cents));
  const units = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
  return `${negative ? '-' : ''}${units},${String(abs % 100).padStart(2, '0')} €`;
}
