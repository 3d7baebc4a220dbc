/** Pure formatters of spec §2 and §9, shared by the web app (and tested once, here). */
import { differenceInCalendarDays, format, formatDistanceStrict } from 'date-fns';
import { fr } from 'date-fns/locale';
import { ADMIN_ID_PREFIX } from './limits.ts';
import { MESSAGES, t } from './messages.ts';

/** Unread badge: the number, '9+' above 9 and '99+' above 99 (spec §2 "Bottom navigation"). */
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

/** "il y a 5 minutes" — the popup's relative time. */
export function relativeTime(date: Date | string | number, now: Date = new Date()): string {
  const d = new Date(date);
  if (now.getTime() - d.getTime() < 60_000) return MESSAGES.message_toast_now;
  return formatDistanceStrict(d, now, { locale: fr, addSuffix: true });
}

/** Conversation list time: HH:mm today, 'Hier', 'Nj', dd/MM under 30 days, else MM/yy. */
export function conversationListTime(date: Date | string | number, now: Date = new Date()): string {
  const d = new Date(date);
  const days = differenceInCalendarDays(now, d);
  if (days <= 0) return format(d, 'HH:mm');
  if (days === 1) return 'Hier';
  if (days < 7) return `${days}j`;
  if (days < 30) return format(d, 'dd/MM');
  return format(d, 'MM/yy');
}

/** Chat bubble time: HH:mm today, 'Hier HH:mm', 'Il y a Nj HH:mm' under 7 days, else dd/MM HH:mm. */
export function bubbleTime(date: Date | string | number, now: Date = new Date()): string {
  const d = new Date(date);
  const days = differenceInCalendarDays(now, d);
  const hm = format(d, 'HH:mm');
  if (days <= 0) return hm;
  if (days === 1) return `Hier ${hm}`;
  if (days < 7) return `Il y a ${days}j ${hm}`;
  return format(d, 'dd/MM HH:mm');
}

/** Own-post countdown: 'Expire dans Nh' or 'quelques minutes' under an hour. */
export function expiresIn(createdAt: Date | string | number, lifetimeMs: number, now: Date = new Date()): string {
  const left = new Date(createdAt).getTime() + lifetimeMs - now.getTime();
  const hours = Math.floor(left / 3_600_000);
  return hours >= 1 ? t('expires_in_hours', { hours }) : MESSAGES.expires_in_minutes;
}

/** Audio player time m:ss; an invalid value shows 0:00 (spec §5 "Audio"). */
export function playerTime(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '0:00';
  const s = Math.floor(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** fr-FR date ("22/11/2026") and date-time, as the admin tables and profiles show them. */
export function frDate(date: Date | string | number): string {
  return new Date(date).toLocaleDateString('fr-FR');
}
export function frDateTime(date: Date | string | number): string {
  return new Date(date).toLocaleString('fr-FR');
}

/** Admin: the first 8 characters of an id followed by '...'. */
export function shortId(id: string): string {
  return id.slice(0, ADMIN_ID_PREFIX) + '...';
}

/** Admin log event: type with the first underscore replaced by a space, uppercased. */
export function securityEventLabel(eventType: string): string {
  return eventType.replace('_', ' ').toUpperCase();
}
