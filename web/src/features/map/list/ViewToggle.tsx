/**
 * 'Carte' / 'Liste' beside the map: the list view shows the posts of the map's
 * view as cards, for anyone who would rather read than look, or cannot see the canvas.
 */
import { SHELL_MESSAGES } from '@moodmap/core';
import { useListStore } from './list-store.ts';

const SEGMENT = 'h-9 rounded-xl px-3.5 text-sm font-semibold transition';
const ON = 'bg-ink-900 text-white dark:bg-white dark:text-ink-900';
const OFF = 'text-ink-800 hover:bg-slate-900/5 dark:text-slate-100 dark:hover:bg-white/10';

export function ViewToggle() {
  const open = useListStore((s) => s.open);
  const show = useListStore((s) => s.show);
  const hide = useListStore((s) => s.hide);
  return (
    <fieldset
      aria-label={SHELL_MESSAGES.view_toggle_label}
      className="glass absolute top-[calc(max(env(safe-area-inset-top),0.75rem)+4.5rem)] left-3 z-20 flex min-w-0 gap-1 rounded-2xl p-1 md:left-5"
      data-testid="view-toggle"
      data-map-overlay=""
    >
      <button
        type="button"
        aria-pressed={!open}
        onClick={hide}
        data-testid="view-map"
        className={`${SEGMENT} ${open ? OFF : ON}`}
      >
        {SHELL_MESSAGES.view_map}
      </button>
      <button
        type="button"
        aria-pressed={open}
        onClick={() => show()}
        data-testid="view-list"
        className={`${SEGMENT} ${open ? ON : OFF}`}
      >
        {SHELL_MESSAGES.view_list}
      </button>
    </fieldset>
  );
}
