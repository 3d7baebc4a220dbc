import { useId } from 'react';
import { MESSAGES, SEARCH_MAX } from '@moodmap/core';
import { CloseIcon, SearchIcon } from '../../ui/icons.tsx';
import { useSearchStore } from './search-store.ts';

/** The top bar search box (spec §2 "Top bar"; 2–100 characters, spec §5). */
export function SearchBox() {
  const query = useSearchStore((s) => s.query);
  const setQuery = useSearchStore((s) => s.setQuery);
  const id = useId();
  return (
    <form role="search" className="relative min-w-0 flex-1" onSubmit={(e) => e.preventDefault()}>
      <label htmlFor={id} className="sr-only">
        {MESSAGES.search_placeholder}
      </label>
      <SearchIcon size={18} className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-slate-400" />
      <input
        id={id}
        type="search"
        value={query}
        maxLength={SEARCH_MAX}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && query) {
            e.stopPropagation();
            setQuery('');
          }
        }}
        placeholder={MESSAGES.search_placeholder}
        autoComplete="off"
        enterKeyHint="search"
        data-testid="search-input"
        className="h-11 w-full rounded-xl border border-transparent bg-slate-900/[0.05] pr-8 pl-9 text-[14px] text-ellipsis md:pr-9 md:pl-9.5 md:text-[15px] text-ink-900 outline-none transition placeholder:text-slate-500 focus:border-brand-500/60 focus:bg-white focus:ring-4 focus:ring-brand-500/15 dark:bg-white/[0.06] dark:text-slate-100 dark:placeholder:text-slate-400 dark:focus:bg-ink-800 [&::-webkit-search-cancel-button]:hidden"
      />
      {query ? (
        <button
          type="button"
          onClick={() => setQuery('')}
          aria-label={MESSAGES.search_clear}
          className="absolute top-1/2 right-1.5 flex size-8 -translate-y-1/2 items-center justify-center rounded-lg text-slate-400 hover:bg-black/5 hover:text-slate-700 dark:hover:bg-white/10 dark:hover:text-white"
        >
          <CloseIcon size={16} />
        </button>
      ) : null}
    </form>
  );
}
