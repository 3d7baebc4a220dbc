import { Link } from 'react-router';
import { SHELL_MESSAGES } from '@moodmap/core';
import { MoodFilter } from '../features/moods/MoodFilter.tsx';
import { SearchBox } from '../features/search/SearchBox.tsx';
import { LogoMark, Wordmark } from '../ui/Logo.tsx';

/** Logo, search box and mood filter. */
export function TopBar() {
  return (
    // data-map-overlay: an open popup keeps clear of it (features/map/markers/popup-fit.ts).
    <header
      data-map-overlay=""
      className="glass absolute inset-x-3 top-[max(env(safe-area-inset-top),0.75rem)] z-20 flex h-[3.75rem] items-center gap-1.5 rounded-2xl px-2 md:left-1/2 md:w-[min(760px,calc(100vw-2.5rem))] md:-translate-x-1/2 md:gap-3 md:px-3"
    >
      <Link
        to="/"
        aria-label={SHELL_MESSAGES.app_name}
        className="flex shrink-0 items-center gap-2 rounded-xl p-1 md:pr-2"
      >
        <LogoMark size={34} />
        <Wordmark className="hidden text-xl md:inline" />
      </Link>
      <SearchBox />
      <div className="h-7 w-px shrink-0 bg-slate-900/10 dark:bg-white/10" aria-hidden="true" />
      <MoodFilter />
    </header>
  );
}
