import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { SHELL_MESSAGES, SEARCH_MAX } from '@moodmap/core';
import { CloseIcon, SearchIcon } from '../../ui/icons.tsx';
import { ApiError } from '../../lib/api.ts';
import { useFocusPost } from '../posts/focus-post.ts';
import type { PostDto } from '../posts/post-types.ts';
import { SearchResults } from './SearchResults.tsx';
import { useSearchStore } from './search-store.ts';
import { useSearch } from './use-search.ts';

/**
 * The top bar search box (spec §2 "Top bar", "Map screen"; §9 "Search"): a combobox whose
 * results open under the bar. Arrows move through them, Enter opens one, Escape closes the
 * list (a second Escape clears the box). A result centres the map on its post and opens it.
 */
export function SearchBox() {
  const query = useSearchStore((s) => s.query);
  const setQuery = useSearchStore((s) => s.setQuery);
  const { active, answer, waiting, error } = useSearch(query);
  const focusPost = useFocusPost();
  const [open, setOpen] = useState(false);
  const [highlight, setHighlight] = useState(-1);
  const formRef = useRef<HTMLFormElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const listId = `${id}-results`;
  const results = answer?.results ?? [];
  const shown = open && active;

  // A new answer starts with nothing highlighted.
  useEffect(() => setHighlight(-1), [answer]);

  // A press outside closes the list.
  useEffect(() => {
    if (!shown) return;
    const onPointer = (event: PointerEvent) => {
      if (!formRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [shown]);

  const pick = (post: PostDto) => {
    setOpen(false);
    inputRef.current?.blur();
    void focusPost(post.id, post);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (!active) return;
      event.preventDefault();
      setOpen(true);
      if (results.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setHighlight((h) => (h < 0 ? (step > 0 ? 0 : results.length - 1) : (h + step + results.length) % results.length));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const post = results[highlight] ?? (shown && !waiting ? results[0] : undefined);
      if (post) pick(post);
    } else if (event.key === 'Escape') {
      if (shown) {
        event.stopPropagation();
        setOpen(false);
      } else if (query) {
        event.stopPropagation();
        setQuery('');
      }
    }
  };

  const errorText = error ? (error instanceof ApiError && error.status !== 0 && error.status < 500 ? error.message : SHELL_MESSAGES.search_failed) : null;

  return (
    <form ref={formRef} role="search" className="min-w-0 flex-1" onSubmit={(e) => e.preventDefault()}>
      <div className="relative">
        <label htmlFor={id} className="sr-only">
          {SHELL_MESSAGES.search_placeholder}
        </label>
        <SearchIcon size={18} className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-slate-400" />
        <input
          ref={inputRef}
          id={id}
          type="search"
          role="combobox"
          aria-expanded={shown}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={shown && highlight >= 0 && results[highlight] ? `${listId}-${results[highlight]!.id}` : undefined}
          value={query}
          maxLength={SEARCH_MAX}
          onChange={(e) => {
            setQuery(e.target.value);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          onKeyDown={onKeyDown}
          placeholder={SHELL_MESSAGES.search_placeholder}
          autoComplete="off"
          enterKeyHint="search"
          data-testid="search-input"
          className="h-11 w-full rounded-xl border border-transparent bg-slate-900/[0.05] pr-8 pl-9 text-[14px] text-ellipsis md:pr-9 md:pl-9.5 md:text-[15px] text-ink-900 outline-none transition placeholder:text-slate-500 focus:border-brand-500/60 focus:bg-white focus:ring-4 focus:ring-brand-500/15 dark:bg-white/[0.06] dark:text-slate-100 dark:placeholder:text-slate-400 dark:focus:bg-ink-800 [&::-webkit-search-cancel-button]:hidden"
        />
        {query ? (
          <button
            type="button"
            onClick={() => {
              setQuery('');
              inputRef.current?.focus();
            }}
            aria-label={SHELL_MESSAGES.search_clear}
            className="absolute top-1/2 right-1.5 flex size-8 -translate-y-1/2 items-center justify-center rounded-lg text-slate-400 hover:bg-black/5 hover:text-slate-700 dark:hover:bg-white/10 dark:hover:text-white"
          >
            <CloseIcon size={16} />
          </button>
        ) : null}
      </div>
      {shown ? (
        <SearchResults
          listId={listId}
          query={answer?.query ?? query.trim()}
          results={results}
          hasAnswer={answer !== undefined}
          waiting={waiting}
          errorText={errorText}
          highlight={highlight}
          onHighlight={setHighlight}
          onPick={pick}
        />
      ) : null}
    </form>
  );
}
