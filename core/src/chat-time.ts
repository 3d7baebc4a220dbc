/**
 * The messages screen's times, apart from format.ts: they need date-fns, which the map's
 * first load then does not carry (the bundler splits by module).
 */
import { differenceInCalendarDays } from 'date-fns/differenceInCalendarDays';
import { format } from 'date-fns/format';

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
