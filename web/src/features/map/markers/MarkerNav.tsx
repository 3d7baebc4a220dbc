/**
 * The markers for keyboards and screen readers. MapLibre draws them on a
 * canvas, which nothing can focus; here each marker on screen is a button in an ordered list,
 * visually hidden until it takes the focus, then drawn as a ring on the marker with its name
 * below. Enter opens what a tap opens. Beyond the first `max`, one link leads to the list view.
 */
import { memo, useState } from 'react';
import { SHELL_MESSAGES, fillCount } from '@moodmap/core';
import { MAX_FOCUSABLE_MARKERS, type NavItem, postsBeyond } from './nav-items.ts';

/** Memoised: a tap or a new post re-renders the map's markers, not these buttons (their items did not change). */
export const MarkerNav = memo(function MarkerNav({
  items,
  max = MAX_FOCUSABLE_MARKERS,
  project,
  onActivate,
  onFocusItem,
  onMore,
}: {
  /** In reading order. */
  items: readonly NavItem[];
  max?: number;
  /** The item's pixel in the map's container. */
  project: (item: NavItem) => { x: number; y: number };
  onActivate: (item: NavItem) => void;
  /** The focused item (null when the focus leaves), for the map to draw it highlighted. */
  onFocusItem: (item: NavItem | null) => void;
  onMore: () => void;
}) {
  const [focused, setFocused] = useState<string | null>(null);
  const shown = items.slice(0, max);
  const more = postsBeyond(items, max);
  const focusedItem = focused ? shown.find((item) => item.key === focused) : undefined;
  // The ring follows the marker when the map moves under it.
  const at = focusedItem ? project(focusedItem) : null;
  if (items.length === 0) return null;
  return (
    <nav
      aria-label={SHELL_MESSAGES.markers_nav_label}
      className="pointer-events-none absolute inset-0 z-[5] overflow-hidden"
      data-testid="marker-nav"
    >
      <ol>
        {shown.map((item) => {
          const isFocused = focusedItem?.key === item.key && at !== null;
          return (
            <li key={item.key}>
              <button
                type="button"
                data-testid="marker-button"
                data-marker-key={item.key}
                data-post-id={item.postId}
                data-count={item.count}
                onFocus={() => {
                  setFocused(item.key);
                  onFocusItem(item);
                }}
                onBlur={() => {
                  setFocused(null);
                  onFocusItem(null);
                }}
                onClick={() => onActivate(item)}
                className={
                  isFocused
                    ? 'pointer-events-auto absolute size-14 -translate-x-1/2 -translate-y-1/2 rounded-full shadow-[0_0_0_3px_#fff] outline-[3px] outline-offset-0 outline-brand-700 dark:shadow-[0_0_0_3px_#141b2b] dark:outline-brand-300'
                    : 'sr-only'
                }
                style={isFocused ? { left: at.x, top: at.y } : undefined}
              >
                <span
                  className={
                    isFocused
                      ? 'absolute top-full left-1/2 mt-2 -translate-x-1/2 rounded-lg bg-ink-900 px-2 py-1 text-xs font-semibold whitespace-nowrap text-white shadow-lg dark:bg-white dark:text-ink-900'
                      : undefined
                  }
                >
                  {item.name}
                </span>
              </button>
            </li>
          );
        })}
      </ol>
      {more > 0 ? (
        <button
          type="button"
          onClick={onMore}
          data-testid="marker-more"
          className="sr-only focus:not-sr-only focus:pointer-events-auto focus:absolute focus:top-24 focus:left-1/2 focus:-translate-x-1/2 focus:rounded-xl focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:font-semibold focus:text-ink-900 focus:shadow-lg dark:focus:bg-ink-900 dark:focus:text-white"
        >
          {fillCount(SHELL_MESSAGES, 'markers_more', more)}
        </button>
      ) : null}
    </nav>
  );
});
