import { useEffect, useId, useRef, useState } from 'react';
import { SHELL_MESSAGES, SEARCH_MAX, fill, type PlaceDto } from '@moodmap/core';
import { SearchIcon } from '../../ui/icons.tsx';
import { PlaceOptions, placeOptionId } from './PlaceOptions.tsx';
import { ComboboxInput, SearchDropdown, SearchStatus } from './SearchDropdown.tsx';
import { useCombobox } from './use-combobox.ts';
import { usePlaceSearch } from './use-place-search.ts';

/**
 * A place search alone: the create page's location picker flies its map to the place
 * chosen. Same search, options and keys as the top bar's 'Lieux' section.
 */
export function PlaceSearch({ onPick }: { onPick: (place: PlaceDto) => void }) {
  const [query, setQuery] = useState('');
  const { active, answer, waiting, error } = usePlaceSearch(query);
  const places = answer?.places ?? [];
  const inputRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const listId = `${id}-places`;

  const pick = (place: PlaceDto) => {
    setOpen(false);
    inputRef.current?.blur();
    onPick(place);
  };
  const { setOpen, shown, highlight, setHighlight, containerRef, onKeyDown } = useCombobox<HTMLElement>({
    active,
    count: places.length,
    waiting,
    resetOn: answer,
    hasText: query !== '',
    onPick: (index) => pick(places[index]!),
    onClear: () => setQuery(''),
  });

  // Inside the create panel the list may open below the fold, or under its sticky button: bring it into view.
  const dropdownRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (shown && places.length > 0) dropdownRef.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [shown, places]);

  const state = error
    ? 'error'
    : waiting && places.length === 0
      ? 'loading'
      : answer && places.length === 0
        ? 'empty'
        : null;
  return (
    <search ref={containerRef} className="relative block" data-testid="place-search">
      <label htmlFor={id} className="sr-only">
        {SHELL_MESSAGES.place_search_placeholder}
      </label>
      <SearchIcon size={16} className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-slate-400" />
      <ComboboxInput
        ref={inputRef}
        id={id}
        expanded={shown}
        controls={listId}
        activeDescendant={shown && places[highlight] ? placeOptionId(listId, places[highlight]!) : undefined}
        value={query}
        maxLength={SEARCH_MAX}
        placeholder={SHELL_MESSAGES.place_search_placeholder}
        testId="place-search-input"
        className="h-10 w-full rounded-xl border border-slate-200 bg-white pr-3 pl-9 text-sm text-ink-900 outline-none transition placeholder:text-slate-500 focus:border-brand-500/60 focus:ring-4 focus:ring-brand-500/15 dark:border-white/10 dark:bg-white/[0.06] dark:text-slate-100 dark:placeholder:text-slate-400 [&::-webkit-search-cancel-button]:hidden"
        onValue={(value) => setQuery(value.slice(0, SEARCH_MAX))}
        onOpen={() => setOpen(true)}
        onKeyDown={onKeyDown}
      />
      {shown ? (
        <SearchDropdown
          ref={dropdownRef}
          testId="place-search-results"
          className="max-h-72 scroll-mb-28"
          state={state ?? 'results'}
        >
          <SearchStatus
            state={state}
            text={
              error
                ? SHELL_MESSAGES.search_failed
                : fill(SHELL_MESSAGES.place_search_no_result, { query: answer?.query ?? query.trim() })
            }
            testIdPrefix="place-search"
          />
          <div
            id={listId}
            role="listbox"
            aria-label={SHELL_MESSAGES.search_places_heading}
            className={places.length === 0 ? 'hidden' : undefined}
          >
            <PlaceOptions
              listId={listId}
              places={places}
              highlight={highlight}
              waiting={waiting}
              onHighlight={setHighlight}
              onPick={pick}
            />
          </div>
        </SearchDropdown>
      ) : null}
    </search>
  );
}
