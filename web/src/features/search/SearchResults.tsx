import { SHELL_MESSAGES, MOOD_INFO, SEARCH_RESULT_CUT, fill, truncate, type PlaceDto } from '@moodmap/core';
import { MicIcon } from '../../ui/icons.tsx';
import type { PostDto } from '../posts/post-types.ts';
import { PlaceOptions } from './PlaceOptions.tsx';
import { ResultsHeading, SearchDropdown, SearchOption, SearchStatus } from './SearchDropdown.tsx';

/** A result's text cut at 40 characters, without a space left before the ellipsis. */
export function searchExcerpt(content: string): string {
  return truncate(content.replace(/\s+/g, ' ').trim(), SEARCH_RESULT_CUT).replace(/\s+(\.\.\.)$/, '$1');
}

/**
 * The dropdown under the top bar: the places found under 'Lieux', then at most 10
 * posts, each with its mood, nickname and the text cut at 40 characters. The keyboard counts
 * the places first, then the posts.
 */
export function SearchResults({
  listId,
  query,
  places,
  results,
  hasAnswer,
  waiting,
  errorText,
  highlight,
  onHighlight,
  onPick,
  onPickPlace,
}: {
  listId: string;
  query: string;
  places: readonly PlaceDto[];
  results: PostDto[];
  hasAnswer: boolean;
  waiting: boolean;
  errorText: string | null;
  highlight: number;
  onHighlight: (index: number) => void;
  onPick: (post: PostDto) => void;
  onPickPlace: (place: PlaceDto) => void;
}) {
  const offset = places.length;
  return (
    <SearchDropdown
      testId="search-results"
      className="max-h-[min(28rem,calc(100dvh-10rem))]"
      state={
        errorText
          ? 'error'
          : !hasAnswer
            ? 'loading'
            : results.length === 0
              ? waiting
                ? 'loading'
                : 'empty'
              : 'results'
      }
    >
      {places.length > 0 ? (
        <>
          <ResultsHeading id={`${listId}-places-heading`}>{SHELL_MESSAGES.search_places_heading}</ResultsHeading>
          <div
            id={`${listId}-places`}
            role="listbox"
            aria-labelledby={`${listId}-places-heading`}
            data-testid="search-places"
          >
            <PlaceOptions
              listId={listId}
              places={places}
              highlight={highlight}
              waiting={waiting}
              onHighlight={onHighlight}
              onPick={onPickPlace}
            />
          </div>
          <ResultsHeading id={`${listId}-posts-heading`}>{SHELL_MESSAGES.search_posts_heading}</ResultsHeading>
        </>
      ) : null}
      <SearchStatus
        state={
          waiting && (!hasAnswer || results.length === 0) && !errorText
            ? 'loading'
            : errorText
              ? 'error'
              : results.length === 0
                ? 'empty'
                : null
        }
        text={errorText ?? fill(SHELL_MESSAGES.search_no_result, { query })}
        testIdPrefix="search"
      />
      <div
        id={listId}
        role="listbox"
        aria-label={SHELL_MESSAGES.search_results_label}
        aria-busy={waiting}
        className={results.length === 0 || errorText ? 'hidden' : undefined}
      >
        {errorText
          ? null
          : results.map((post, index) => {
              const mood = MOOD_INFO[post.category];
              const active = offset + index === highlight;
              const voice = post.isVoiceOnly || (!post.content && post.audioUrl);
              return (
                <SearchOption
                  key={post.id}
                  id={`${listId}-${post.id}`}
                  active={active}
                  dimmed={waiting}
                  testId="search-result"
                  data={{ 'data-post-id': post.id }}
                  onHover={() => onHighlight(offset + index)}
                  onPick={() => onPick(post)}
                >
                  <span
                    className="emoji flex size-9 shrink-0 items-center justify-center rounded-full text-lg"
                    style={{ backgroundColor: `${mood.color}40`, boxShadow: `inset 0 0 0 2px ${mood.color}` }}
                    title={mood.label}
                    aria-hidden="true"
                  >
                    {mood.emoji}
                  </span>
                  <span className="min-w-0 flex-1">
                    <span className="block truncate text-sm font-semibold text-ink-900 dark:text-white">
                      {post.nickname}
                    </span>
                    {voice ? (
                      <span className="flex items-center gap-1 text-[13px] text-slate-600 dark:text-slate-300">
                        <MicIcon size={13} className="shrink-0" /> {SHELL_MESSAGES.create_voice_label}
                      </span>
                    ) : (
                      <span
                        className="block truncate text-[13px] text-slate-600 dark:text-slate-300"
                        data-testid="search-result-text"
                      >
                        {searchExcerpt(post.content)}
                      </span>
                    )}
                  </span>
                  <span className="sr-only">{mood.label}</span>
                </SearchOption>
              );
            })}
      </div>
    </SearchDropdown>
  );
}
