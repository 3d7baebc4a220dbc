/**
 * The groups the markers draw: a fetched answer replaces them, live changes reach them in
 * batches (live-updates.ts), and posts leave them when their 24 h are over.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Map as MapLibreMap } from 'maplibre-gl';
import { MINUTE, type Mood, POST_LIFETIME_MS } from '@moodmap/core';
import { type MarkerChange, derivedFrom, onMarkerChange } from '../../posts/for-map.ts';
import type { MarkerDto } from '../../posts/for-map.ts';
import type { ViewportFeed } from '../../posts/for-map.ts';
import type { GroupDiff, MarkerGroups } from './marker-groups.ts';
import { LiveUpdates, liveScheduler } from './live-updates.ts';
import { groupFeature, markersSource } from './marker-layers.ts';
import { warmUpAfterMarkers } from './warm-up.ts';

/** What the feed brings that the groups follow. */
export interface FeedAnswer {
  answer: ViewportFeed | undefined;
  extra: MarkerDto[] | undefined;
  offsetMs: number;
}

export interface DrawnGroups {
  live: LiveUpdates;
  /** Bumped when the drawn markers change: the popup and the focus read the groups again. */
  version: number;
  /** Bumps `version`. */
  redraw: () => void;
}

export function useDrawnGroups(
  map: MapLibreMap | null,
  groups: MarkerGroups,
  feed: FeedAnswer,
  moods: readonly Mood[],
): DrawnGroups {
  const [version, setVersion] = useState(0);
  const redraw = useCallback(() => setVersion((v) => v + 1), []);
  const live = useLiveUpdates(map, groups, moods, redraw);
  useAnswers(groups, live, feed, moods);
  // Once the first answer's markers are drawn: what later taps and forms need (warm-up.ts).
  const markersApplied = version > 0;
  useEffect(() => {
    if (map && markersApplied) return warmUpAfterMarkers(map);
  }, [map, markersApplied]);
  // Realtime and poll changes, queued for the next batch.
  useEffect(() => onMarkerChange((change: MarkerChange) => live.push(change)), [live]);
  useExpiry(groups, live, feed.offsetMs);
  return { live, version, redraw };
}

/** Live changes, drawn in batches: the groups, the popup and the list change with each draw. */
function useLiveUpdates(
  map: MapLibreMap | null,
  groups: MarkerGroups,
  moods: readonly Mood[],
  redraw: () => void,
): LiveUpdates {
  // Read at each batch: the queue lives as long as the map.
  const moodsRef = useRef(moods);
  moodsRef.current = moods;
  const applyDiff = useCallback(
    (diff: GroupDiff) => {
      if (!map || (diff.remove.length === 0 && diff.add.length === 0)) return;
      void markersSource(map)?.updateData({ remove: diff.remove, add: diff.add.map(groupFeature) });
    },
    [map],
  );
  const applyDiffRef = useRef(applyDiff);
  applyDiffRef.current = applyDiff;
  const [live] = useState(
    () =>
      new LiveUpdates({
        groups,
        shows: (m) => moodsRef.current.includes(m.category),
        draw: (diff) => applyDiffRef.current(diff),
        changed: redraw,
        schedule: liveScheduler(),
      }),
  );
  useEffect(() => () => live.dispose(), [live]);
  return live;
}

/**
 * A fetched answer (another view, a refetch, the mood filter) replaces the groups; an answer
 * only derived from the one drawn by marker changes holds nothing new: those changes are queued.
 */
function useAnswers(
  groups: MarkerGroups,
  live: LiveUpdates,
  { answer, extra, offsetMs }: FeedAnswer,
  moods: readonly Mood[],
): void {
  const applied = useRef<{ answer?: object; extra?: object; moods?: string }>({});
  useEffect(() => {
    const moodsKey = moods.join(',');
    const last = applied.current;
    if (answer && last.answer && last.moods === moodsKey && last.extra === extra) {
      let from: object | undefined = answer;
      while (from && from !== last.answer) from = derivedFrom(from);
      if (from === last.answer) {
        last.answer = answer;
        return;
      }
    }
    if (!answer && !extra) return;
    const cutoff = Date.now() + offsetMs - POST_LIFETIME_MS;
    const shown = [...(answer?.points ?? []), ...(extra ?? [])].filter(
      (m) => moods.includes(m.category) && !(Date.parse(m.createdAt) <= cutoff),
    );
    applied.current = { answer, extra, moods: moodsKey };
    // Changes still queued go on top of the answer, in the same source update.
    live.flush(groups.reset(shown));
  }, [answer, extra, moods, groups, live, offsetMs]);
}

/** Posts leave the map when their 24 h are over. */
function useExpiry(groups: MarkerGroups, live: LiveUpdates, offsetMs: number): void {
  useEffect(() => {
    const timer = setInterval(() => {
      const cutoff = Date.now() + offsetMs - POST_LIFETIME_MS;
      const expired = [...groups.allMarkers()].filter((m) => Date.parse(m.createdAt) <= cutoff);
      if (expired.length === 0) return;
      for (const m of expired) live.push({ kind: 'deleted', id: m.id });
      live.flush();
    }, MINUTE);
    return () => clearInterval(timer);
  }, [groups, live, offsetMs]);
}
