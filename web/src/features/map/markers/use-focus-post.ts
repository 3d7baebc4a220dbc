/** A post passed through navigation state: centre on it at zoom 16, open it, clear the state. */
import { useCallback, useEffect, useRef } from 'react';
import type { Map as MapLibreMap } from 'maplibre-gl';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { MAP } from '@moodmap/core';
import { moveCamera } from '../../../ui/motion.ts';
import { fetchPost } from '../../posts/for-map.ts';
import { pinPostInCache } from '../../posts/for-map.ts';
import type { MarkerGroups } from './marker-groups.ts';
import type { LiveUpdates } from './live-updates.ts';
import type { SetSelection } from './use-selection.ts';

interface FocusState {
  focusPostId?: unknown;
}

export interface FocusPostInput {
  map: MapLibreMap | null;
  groups: MarkerGroups;
  live: LiveUpdates;
  /** The groups changed: the post may be drawn now. */
  version: number;
  /** Bumps `version`, once the post was read. */
  redraw: () => void;
  /** The viewport answer is still awaited: the post may come with it. */
  isPending: boolean;
  setSelection: SetSelection;
}

export function useFocusPost({ map, groups, live, version, redraw, isPending, setSelection }: FocusPostInput): void {
  const location = useLocation();
  const navigate = useNavigate();
  const client = useQueryClient();
  /** Focused posts read from the server: 'pending' while the request runs, then 'done'. */
  const fetchedFocus = useRef(new Map<string, 'pending' | 'done'>());
  const focusId =
    typeof (location.state as FocusState | null)?.focusPostId === 'string'
      ? ((location.state as FocusState).focusPostId as string)
      : null;
  const centreOn = useCallback(
    (latitude: number, longitude: number, zoom: number) => {
      if (map) moveCamera(map, { center: [longitude, latitude], zoom, duration: 1200 });
    },
    [map],
  );
  useEffect(() => {
    if (!focusId || !map) return;
    const marker = groups.marker(focusId);
    if (!marker && isPending) return;
    // Our own new post may wait in the live queue: drawn now, and this effect runs again with it.
    if (!marker && live.holds(focusId)) {
      live.flush();
      return;
    }
    // A post asked for from elsewhere (a profile) may lie outside every viewport answer: read
    // it once and pin it, then this effect runs again with it drawn. Other renders meanwhile
    // (a viewport answer, a live change) wait for the read instead of giving up on the post.
    const read = fetchedFocus.current.get(focusId);
    if (!marker && read === 'pending') return;
    if (!marker && read === undefined) {
      fetchedFocus.current.set(focusId, 'pending');
      void fetchPost(focusId)
        .then((fresh) => fresh && pinPostInCache(client, fresh))
        .catch(() => undefined)
        .finally(() => {
          fetchedFocus.current.set(focusId, 'done');
          redraw();
        });
      return;
    }
    if (marker) {
      setSelection({ kind: 'post', id: marker.id });
      centreOn(marker.latitude, marker.longitude, MAP.focusZoom);
    }
    void navigate(
      { pathname: location.pathname, search: location.search, hash: location.hash },
      { replace: true, state: null },
    );
  }, [
    focusId,
    map,
    groups,
    live,
    version,
    isPending,
    centreOn,
    navigate,
    client,
    location.pathname,
    location.search,
    location.hash,
    redraw,
    setSelection,
  ]);
}
