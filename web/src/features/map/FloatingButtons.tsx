import { type ReactNode, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { SHELL_MESSAGES } from '@moodmap/core';
import { useUiStore } from '../../lib/ui-store.ts';
import { HelpIcon, LocateIcon, MoonIcon, RefreshIcon, SunIcon } from '../../ui/icons.tsx';
import { useThemeStore } from '../theme/theme-store.ts';
import { REFRESH_POSTS_EVENT } from '../posts/for-map.ts';
import { locateMe } from './geolocation.ts';

/** A window event 'refreshPosts' triggers a fetch (the posts feed listens to it). */
export { REFRESH_POSTS_EVENT };

function FloatingButton({
  label,
  testId,
  onClick,
  children,
  busy = false,
}: {
  label: string;
  testId: string;
  onClick: () => void;
  children: ReactNode;
  busy?: boolean;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      data-testid={testId}
      onClick={onClick}
      aria-busy={busy}
      className="glass flex size-12 items-center justify-center rounded-2xl text-ink-700 transition hover:scale-105 hover:text-brand-600 active:scale-95 dark:text-slate-200 dark:hover:text-brand-300"
    >
      {children}
    </button>
  );
}

/** Help, theme, refresh and locate-me buttons on the right of the map. */
export function FloatingButtons() {
  const queryClient = useQueryClient();
  const theme = useThemeStore((s) => s.theme);
  const toggleTheme = useThemeStore((s) => s.toggle);
  const setHelpOpen = useUiStore((s) => s.setHelpOpen);
  const [spinning, setSpinning] = useState(false);
  const [locating, setLocating] = useState(false);

  const refresh = () => {
    // The feed refetches on the event; the invalidation also covers a map that is not mounted yet.
    window.dispatchEvent(new Event(REFRESH_POSTS_EVENT));
    void queryClient.invalidateQueries({ queryKey: ['posts'], refetchType: 'none' });
    setSpinning(true);
    setTimeout(() => setSpinning(false), 700);
  };

  const locate = () => {
    if (locating) return;
    setLocating(true);
    void locateMe().finally(() => setLocating(false));
  };

  return (
    <div
      data-map-overlay=""
      className="pointer-events-none absolute right-3 bottom-[calc(5.25rem+env(safe-area-inset-bottom))] z-20 flex flex-col gap-2.5 md:right-5 md:bottom-6 [&>*]:pointer-events-auto"
    >
      <FloatingButton label={SHELL_MESSAGES.help} testId="btn-help" onClick={() => setHelpOpen(true)}>
        <HelpIcon />
      </FloatingButton>
      <FloatingButton label={SHELL_MESSAGES.theme_toggle} testId="btn-theme" onClick={toggleTheme}>
        {theme === 'dark' ? <SunIcon /> : <MoonIcon />}
      </FloatingButton>
      <FloatingButton label={SHELL_MESSAGES.refresh_posts} testId="btn-refresh" onClick={refresh} busy={spinning}>
        <RefreshIcon className={spinning ? 'animate-spin' : ''} />
      </FloatingButton>
      <FloatingButton label={SHELL_MESSAGES.locate_me} testId="btn-locate" onClick={locate} busy={locating}>
        <LocateIcon className={locating ? 'animate-pulse text-brand-500' : ''} />
      </FloatingButton>
    </div>
  );
}
