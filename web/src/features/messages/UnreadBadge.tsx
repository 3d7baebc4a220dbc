import { SHELL_MESSAGES, badgeCount, fillCount } from '@moodmap/core';

/**
 * Red count bubble: the number, '9+' above 9, '99+' above 99; hidden at 0. An image to assistive
 * technologies, named with the full count ('7 conversations non lues') rather than '9+'.
 */
export function UnreadBadge({ count, className = '' }: { count: number; className?: string }) {
  if (count <= 0) return null;
  return (
    <span
      data-testid="unread-badge"
      role="img"
      aria-label={fillCount(SHELL_MESSAGES, 'unread_badge_label', count)}
      className={`flex h-[18px] min-w-[18px] items-center justify-center rounded-full bg-rose-500 px-1 text-[10.5px] leading-none font-bold text-white ring-2 ring-white dark:ring-ink-900 ${className}`}
    >
      {badgeCount(count)}
    </span>
  );
}
