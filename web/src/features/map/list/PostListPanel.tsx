/**
 * The list view: the posts of the map's current view — the map's own data
 * (drawn-posts.ts), filtered to what is on screen — or of one 100 m group, sorted by distance
 * from the map's centre or newest first. Each row names the post as its marker does and opens
 * the same card as a tap, in place; closing the card gives the focus back to its row. A chunk of
 * its own, fetched when the list is first opened.
 */
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react';
import { POST_CARDS_MAX, SHELL_MESSAGES, fillCount, truncate } from '@moodmap/core';
import { MicIcon } from '../../../ui/icons.tsx';
import { MoodBadge } from '../../posts/for-map.ts';
import { PostByline } from '../../posts/for-map.ts';
import { useGroupCards } from '../../posts/for-map.ts';
import type { MarkerDto } from '../../posts/for-map.ts';
import { useMapStore } from '../map-store.ts';
import { useDrawnPosts } from '../markers/drawn-posts.ts';
import { type ListSort, markerName, sortPosts } from '../markers/marker-names.ts';
import { PostPopup } from '../markers/PostPopup.tsx';
import { useListStore } from './list-store.ts';
import { inView, useViewBounds } from './use-view-bounds.ts';

export function PostListPanel() {
  const map = useMapStore((s) => s.map);
  const markers = useDrawnPosts((s) => s.markers);
  const offsetMs = useDrawnPosts((s) => s.offsetMs);
  const { clusterIds, sort, setSort, show, hide, focusRequest } = useListStore();
  const bounds = useViewBounds(map);
  const [expanded, setExpanded] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const now = new Date(Date.now() + offsetMs);

  const posts = useMemo(() => {
    const ids = clusterIds ? new Set(clusterIds) : null;
    const shown = markers.filter((m) => (ids ? ids.has(m.id) : bounds !== null && inView(bounds, m)));
    const centre = bounds?.centre ?? { latitude: 0, longitude: 0 };
    return sortPosts(shown, sort, centre);
  }, [markers, clusterIds, bounds, sort]);

  // Opened from the map's markers ('N autres publications…', a cluster's 'Voir en liste'): the
  // focus comes to the list's title, so the next Tab reaches its posts.
  useEffect(() => {
    if (focusRequest > 0) headingRef.current?.focus({ preventScroll: true });
  }, [focusRequest, clusterIds]);

  const cards = useGroupCards(posts.slice(0, POST_CARDS_MAX).map((m) => m.id));
  const byId = new Map((cards.data ?? []).map((card) => [card.id, card]));

  // The opened card takes the focus (its row is gone), so Tab goes on inside it and Escape reaches the list.
  useEffect(() => {
    if (expanded) listRef.current?.querySelector<HTMLElement>('[data-expanded-post]')?.focus({ preventScroll: true });
  }, [expanded]);

  const collapse = (id: string) => {
    setExpanded(null);
    requestAnimationFrame(() =>
      listRef.current?.querySelector<HTMLElement>(`[data-list-post="${CSS.escape(id)}"]`)?.focus(),
    );
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || document.querySelector('[aria-modal="true"]')) return;
    event.stopPropagation();
    if (expanded) collapse(expanded);
    else {
      hide();
      document.querySelector<HTMLElement>('[data-testid="view-list"]')?.focus();
    }
  };

  const title = clusterIds ? SHELL_MESSAGES.cluster_popup_title : SHELL_MESSAGES.list_title;
  return (
    <section
      aria-labelledby="post-list-title"
      data-testid="post-list"
      data-count={posts.length}
      onKeyDown={onKeyDown}
      className="absolute inset-x-3 top-[calc(max(env(safe-area-inset-top),0.75rem)+7.75rem)] bottom-[calc(5.25rem+env(safe-area-inset-bottom))] z-20 flex flex-col overflow-hidden rounded-3xl bg-white text-ink-900 shadow-2xl ring-1 ring-black/5 md:right-auto md:bottom-6 md:left-5 md:w-[24rem] dark:bg-ink-900 dark:text-slate-100 dark:ring-white/10"
    >
      <div className="border-b border-slate-100 px-4 py-3 dark:border-white/5">
        <h2
          id="post-list-title"
          ref={headingRef}
          tabIndex={-1}
          className="text-base font-bold outline-none focus-visible:underline"
        >
          {title}
        </h2>
        <p className="text-xs text-slate-600 dark:text-slate-300" aria-live="polite" data-testid="post-list-count">
          {fillCount(SHELL_MESSAGES, 'list_count', posts.length)}
        </p>
        <SortChoice sort={sort} onSort={setSort} onShowAll={clusterIds ? show : null} />
      </div>
      {posts.length === 0 ? (
        <p className="px-4 py-6 text-sm text-slate-600 dark:text-slate-300" data-testid="post-list-empty">
          {SHELL_MESSAGES.list_empty}
        </p>
      ) : (
        <ol
          ref={listRef}
          className="min-h-0 flex-1 divide-y divide-slate-100 overflow-y-auto overscroll-contain dark:divide-white/5"
        >
          {posts.map((marker) =>
            expanded === marker.id ? (
              <li
                key={marker.id}
                data-expanded-post={marker.id}
                tabIndex={-1}
                aria-label={markerName(marker, now)}
                className="flex justify-center bg-slate-50 p-2 dark:bg-ink-800"
              >
                <PostPopup marker={marker} now={now} onClose={() => collapse(marker.id)} />
              </li>
            ) : (
              <li key={marker.id}>
                <ListRow
                  marker={marker}
                  now={now}
                  content={byId.get(marker.id)}
                  onOpen={() => setExpanded(marker.id)}
                />
              </li>
            ),
          )}
        </ol>
      )}
    </section>
  );
}

/** The sort choice (distance or time) and, for one group, the way back to every post in view. */
function SortChoice({
  sort,
  onSort,
  onShowAll,
}: {
  sort: ListSort;
  onSort: (sort: ListSort) => void;
  onShowAll: (() => void) | null;
}) {
  return (
    <fieldset className="mt-2 flex min-w-0 flex-wrap items-center gap-2" aria-label={SHELL_MESSAGES.list_sort_label}>
      <span className="text-xs font-semibold text-slate-600 dark:text-slate-300" aria-hidden="true">
        {SHELL_MESSAGES.list_sort_label}
      </span>
      {(['distance', 'time'] as const).map((key) => (
        <button
          key={key}
          type="button"
          aria-pressed={sort === key}
          onClick={() => onSort(key)}
          data-testid={`post-list-sort-${key}`}
          className={`h-8 rounded-lg px-2.5 text-xs font-semibold ${sort === key ? 'bg-ink-900 text-white dark:bg-white dark:text-ink-900' : 'bg-slate-100 text-ink-800 hover:bg-slate-200 dark:bg-ink-800 dark:text-slate-100'}`}
        >
          {key === 'distance' ? SHELL_MESSAGES.list_sort_distance : SHELL_MESSAGES.list_sort_time}
        </button>
      ))}
      {onShowAll ? (
        <button
          type="button"
          onClick={() => onShowAll()}
          className="h-8 rounded-lg px-2.5 text-xs font-semibold text-brand-700 hover:bg-brand-50 dark:text-brand-300 dark:hover:bg-white/10"
        >
          {SHELL_MESSAGES.list_show_all}
        </button>
      ) : null}
    </fieldset>
  );
}

function ListRow({
  marker,
  now,
  content,
  onOpen,
}: {
  marker: MarkerDto;
  now: Date;
  content?: { content: string; isVoiceOnly: boolean; audioUrl: string | null };
  onOpen: () => void;
}) {
  return (
    <button
      type="button"
      onClick={onOpen}
      data-testid="post-list-item"
      data-list-post={marker.id}
      data-post-id={marker.id}
      className="flex w-full flex-col gap-1.5 px-4 py-3 text-left hover:bg-slate-50 dark:hover:bg-white/5"
    >
      {/* Named as its marker is on the map; the visible byline says the same, so it is not read twice. */}
      <span className="sr-only">{markerName(marker, now)}</span>
      <span className="flex w-full items-center gap-3" aria-hidden="true">
        <PostByline post={marker} now={now} />
        <span className="ml-auto">
          <MoodBadge post={marker} small />
        </span>
      </span>
      {!content ? null : content.isVoiceOnly || (!content.content && content.audioUrl) ? (
        <span className="flex items-center gap-1 text-[13px] text-slate-600 dark:text-slate-300">
          <MicIcon size={13} className="shrink-0" /> {SHELL_MESSAGES.create_voice_label}
        </span>
      ) : (
        <span className="block text-[13px] text-slate-700 dark:text-slate-200">{truncate(content.content, 140)}</span>
      )}
    </button>
  );
}
