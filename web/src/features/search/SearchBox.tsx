import { useId, useMemo, useRef } from 'react';
import { SHELL_MESSAGES, SEARCH_MAX, type PlaceDto } from '@moodmap/core';
import { CloseIcon, SearchIcon } from '../../ui/icons.tsx';
import { ApiError } from '../../lib/api.ts';
import { useFocusPost } from '../posts/focus-post.ts';
import type { PostDto } from '../posts/post-types.ts';
import { useFlyMainMapToPlace } from './fly-to-place.ts';
import { placeOptionId } from './PlaceOptions.tsx';
import { ComboboxInput } from './SearchDropdown.tsx';
import { SearchResults } from './SearchResults.tsx';
import { useSearchStore } from './search-store.ts';
import { useCombobox } from './use-combobox.ts';
import { usePlaceSearch } from './use-place-search.ts';
import { useSearch } from './use-search.ts';

/** The id of the highlighted option (places first, then posts), for aria-activedescendant. */
function highlightedOptionId(
  listId: string,
  places: readonly PlaceDto[],
  results: readonly PostDto[],
  highlight: number,
): string | undefined {
  if (highlight < 0) return undefined;
  if (highlight < places.length) return placeOptionId(listId, places[highlight]!);
  const post = results[highlight - places.length];
  return post ? `${listId}-${post.id}` : undefined;
}

/** The server's text for a search it refused (4xx); ours when it failed or could not be reached. */
function searchErrorText(error: unknown): string {
  return error instanceof ApiError && error.status !== 0 && error.status < 500
    ? error.message
    : SHELL_MESSAGES.search_failed;
}

/**
 * The top bar search box: a combobox whose
 * results open under the bar, places first, then posts. Arrows move through them,
 * Enter opens one, Escape closes the list (a second Escape clears the box). A post centres the
 * map on it and opens it; a place flies the map there. A place search that fails hides its
 * section: the posts' answer says what went wrong.
 */
export function SearchBox() {
  const query = useSearchStore((s) => s.query);
  const setQuery = useSearchStore((s) => s.setQuery);
  const { active, answer, waiting, error } = useSearch(query);
  const placeSearch = usePlaceSearch(query);
  const focusPost = useFocusPost();
  const flyToPlace = useFlyMainMapToPlace();
  const inputRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const listId = `${id}-results`;
  const results = answer?.results ?? [];
  const places = placeSearch.answer?.places ?? [];
  // Either answer changing starts with nothing highlighted.
  const answers = useMemo(() => [answer, placeSearch.answer], [answer, placeSearch.answer]);

  const close = () => {
    setOpen(false);
    inputRef.current?.blur();
  };
  const pickPost = (post: PostDto) => {
    close();
    void focusPost(post.id, post);
  };
  const pickPlace = (place: PlaceDto) => {
    close();
    flyToPlace(place);
  };

  const { setOpen, shown, highlight, setHighlight, containerRef, onKeyDown } = useCombobox<HTMLElement>({
    active,
    count: places.length + results.length,
    waiting: waiting || placeSearch.waiting,
    resetOn: answers,
    hasText: query !== '',
    onPick: (index) => (index < places.length ? pickPlace(places[index]!) : pickPost(results[index - places.length]!)),
    onClear: () => setQuery(''),
  });
  const highlighted = highlightedOptionId(listId, places, results, highlight);
  const errorText = error ? searchErrorText(error) : null;

  return (
    <search ref={containerRef} className="min-w-0 flex-1">
      <form onSubmit={(e) => e.preventDefault()}>
        <div className="relative">
          <label htmlFor={id} className="sr-only">
            {SHELL_MESSAGES.search_placeholder}
          </label>
          <SearchIcon
            size={18}
            className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-slate-400"
          />
          <ComboboxInput
            ref={inputRef}
            id={id}
            expanded={shown}
            controls={places.length > 0 ? `${listId}-places ${listId}` : listId}
            activeDescendant={shown ? highlighted : undefined}
            value={query}
            maxLength={SEARCH_MAX}
            placeholder={SHELL_MESSAGES.search_placeholder}
            testId="search-input"
            className="h-11 w-full rounded-xl border border-transparent bg-slate-900/[0.05] pr-8 pl-9 text-[14px] text-ellipsis md:pr-9 md:pl-9.5 md:text-[15px] text-ink-900 outline-none transition placeholder:text-slate-500 focus:border-brand-500/60 focus:bg-white focus:ring-4 focus:ring-brand-500/15 dark:bg-white/[0.06] dark:text-slate-100 dark:placeholder:text-slate-400 dark:focus:bg-ink-800 [&::-webkit-search-cancel-button]:hidden"
            onValue={setQuery}
            onOpen={() => setOpen(true)}
            onKeyDown={onKeyDown}
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
            places={places}
            results={results}
            hasAnswer={answer !== undefined}
            waiting={waiting}
            errorText={errorText}
            highlight={highlight}
            onHighlight={setHighlight}
            onPick={pickPost}
            onPickPlace={pickPlace}
          />
        ) : null}
      </form>
    </search>
  );
}
