import { SHELL_MESSAGES, MOOD_INFO, SEARCH_RESULT_CUT, fill, truncate } from '@moodmap/core';
import { Spinner } from '../../ui/Button.tsx';
import { MicIcon } from '../../ui/icons.tsx';
import type { PostDto } from '../posts/post-types.ts';

/** A result's text cut at 40 characters (spec §2), without a space left before the ellipsis. */
export function searchExcerpt(content: string): string {
  return truncate(content.replace(/\s+/g, ' ').trim(), SEARCH_RESULT_CUT).replace(/\s+(\.\.\.)$/, '$1');
}

/** The dropdown under the top bar: at most 10 posts, each with its mood, nickname and the text cut at 40 characters. */
export function SearchResults({
  listId,
  query,
  results,
  hasAnswer,
  waiting,
  errorText,
  highlight,
  onHighlight,
  onPick,
}: {
  listId: string;
  query: string;
  results: PostDto[];
  hasAnswer: boolean;
  waiting: boolean;
  errorText: string | null;
  highlight: number;
  onHighlight: (index: number) => void;
  onPick: (post: PostDto) => void;
}) {
  return (
    <div
      className="absolute inset-x-0 top-[calc(100%+0.5rem)] z-30 max-h-[min(28rem,calc(100dvh-10rem))] animate-pop-in overflow-y-auto overscroll-contain rounded-2xl bg-white p-1.5 shadow-2xl ring-1 ring-black/5 dark:bg-ink-800 dark:ring-white/10"
      data-testid="search-results"
      data-state={errorText ? 'error' : !hasAnswer ? 'loading' : results.length === 0 ? (waiting ? 'loading' : 'empty') : 'results'}
    >
      {waiting && (!hasAnswer || results.length === 0) && !errorText ? (
        <p className="flex items-center gap-2 px-3 py-3 text-sm text-slate-500 dark:text-slate-400" role="status">
          <Spinner className="size-4 text-brand-500" /> {SHELL_MESSAGES.search_searching}
        </p>
      ) : errorText ? (
        <p className="px-3 py-3 text-sm text-rose-600 dark:text-rose-300" role="alert" data-testid="search-error">
          {errorText}
        </p>
      ) : results.length === 0 ? (
        <p className="px-3 py-3 text-sm break-words text-slate-600 dark:text-slate-300" role="status" data-testid="search-empty">
          {fill(SHELL_MESSAGES.search_no_result, { query })}
        </p>
      ) : null}
      <ul id={listId} role="listbox" aria-label={SHELL_MESSAGES.search_results_label} aria-busy={waiting} className={results.length === 0 || errorText ? 'hidden' : undefined}>
        {errorText
          ? null
          : results.map((post, index) => {
              const mood = MOOD_INFO[post.category];
              const active = index === highlight;
              const voice = post.isVoiceOnly || (!post.content && post.audioUrl);
              return (
                <li
                  key={post.id}
                  id={`${listId}-${post.id}`}
                  role="option"
                  aria-selected={active}
                  data-testid="search-result"
                  data-post-id={post.id}
                  onMouseDown={(e) => e.preventDefault()}
                  onMouseEnter={() => onHighlight(index)}
                  onClick={() => onPick(post)}
                  className={`flex cursor-pointer items-center gap-3 rounded-xl px-2.5 py-2 transition ${active ? 'bg-brand-50 dark:bg-white/10' : 'hover:bg-slate-50 dark:hover:bg-white/5'} ${waiting ? 'opacity-60' : ''}`}
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
                    <span className="block truncate text-sm font-semibold text-ink-900 dark:text-white">{post.nickname}</span>
                    {voice ? (
                      <span className="flex items-center gap-1 text-[13px] text-slate-600 dark:text-slate-300">
                        <MicIcon size={13} className="shrink-0" /> {SHELL_MESSAGES.create_voice_label}
                      </span>
                    ) : (
                      <span className="block truncate text-[13px] text-slate-600 dark:text-slate-300" data-testid="search-result-text">
                        {searchExcerpt(post.content)}
                      </span>
                    )}
                  </span>
                  <span className="sr-only">{mood.label}</span>
                </li>
              );
            })}
      </ul>
    </div>
  );
}
