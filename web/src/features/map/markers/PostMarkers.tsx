/**
 * The posts on the main map (spec §2 "Map screen"): single markers, 100 m clusters, zoomed-out
 * aggregates, the post and cluster popups, and the focus on a post passed through navigation
 * state (centre at zoom 16, open its popup, clear the state). Rendered inside react-map-gl's
 * <Map>; only the markers inside the viewport exist in the DOM.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Marker, Popup, useMap } from 'react-map-gl/maplibre';
import type { Map as MapLibreMap } from 'maplibre-gl';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { MAP, MESSAGES, MOOD_INFO, t } from '@moodmap/core';
import { toast } from '../../../ui/toasts/toast-store.ts';
import { useMoodFilterStore } from '../../moods/mood-filter-store.ts';
import { PostCard } from '../../posts/PostCard.tsx';
import { fetchPost } from '../../posts/posts-api.ts';
import { pinPostInCache } from '../../posts/posts-query.ts';
import type { PostDto } from '../../posts/post-types.ts';
import { useViewportFeed } from '../../posts/viewport-query.ts';
import { ClusterList } from './ClusterList.tsx';
import { AggregateMarkerView, ClusterMarkerView, POST_MARKER_SIZE, PostMarkerView } from './MarkerViews.tsx';
import { type MarkerItem, buildMarkerIndex } from './marker-index.ts';
import './markers.css';

type Bbox = [number, number, number, number];

const INDEX_THROTTLE_MS = 1_000;
/** The view is read this long after the map stops moving. */
const VIEW_DEBOUNCE_MS = 250;

/** The viewport with a margin, so markers just outside are already there when panning. */
export function paddedBounds(map: Pick<MapLibreMap, 'getBounds'>, margin = 0.25): Bbox {
  const b = map.getBounds();
  const west = b.getWest();
  const east = b.getEast();
  const south = b.getSouth();
  const north = b.getNorth();
  const dx = (east - west) * margin;
  const dy = (north - south) * margin;
  return [Math.max(-180, west - dx), Math.max(-90, south - dy), Math.min(180, east + dx), Math.min(90, north + dy)];
}

/**
 * Follows `value` at most once per `ms`: a burst of realtime posts rebuilds the marker index
 * once, not once per post (grouping 100 000 posts takes a noticeable fraction of a second).
 */
function useThrottled<T>(value: T, ms: number): T {
  const [current, setCurrent] = useState(value);
  const lastRef = useRef(0);
  useEffect(() => {
    const wait = lastRef.current + ms - Date.now();
    const apply = () => {
      lastRef.current = Date.now();
      setCurrent(value);
    };
    if (wait <= 0) {
      apply();
      return;
    }
    const timer = setTimeout(apply, wait);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return current;
}

type Selection = { kind: 'post'; id: string; group?: string[] } | { kind: 'group'; ids: string[]; latitude: number; longitude: number };

interface FocusState {
  focusPostId?: unknown;
}

/**
 * Where a selected post goes relative to the centre, so its popup (above it) fits on screen: a
 * quarter of the height lower, and on phones a little to the left, clear of the floating buttons.
 */
function popupOffset(map: MapLibreMap): [number, number] {
  const { clientWidth, clientHeight } = map.getContainer();
  return [clientWidth <= MAP.mobileBreakpointPx ? -30 : 0, Math.round(clientHeight * 0.24)];
}

export function PostMarkers() {
  const { current } = useMap();
  const map = current?.getMap() ?? null;
  const moods = useMoodFilterStore((s) => s.selected);
  const [view, setView] = useState<{ bbox: Bbox; zoom: number } | null>(null);
  const { posts, clusters, offsetMs, isError, isPending } = useViewportFeed(view, moods);
  const indexed = useThrottled(posts, INDEX_THROTTLE_MS);
  const shown = useMemo(() => indexed.filter((p) => moods.includes(p.category)), [indexed, moods]);
  const index = useMemo(() => buildMarkerIndex(shown), [shown]);
  const byId = useMemo(() => new Map(posts.map((p) => [p.id, p])), [posts]);
  const [selection, setSelection] = useState<Selection | null>(null);

  useEffect(() => {
    if (!map) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = () => setView({ bbox: paddedBounds(map), zoom: map.getZoom() });
    const update = () => {
      clearTimeout(timer);
      timer = setTimeout(read, VIEW_DEBOUNCE_MS);
    };
    read();
    map.on('moveend', update);
    map.on('resize', update);
    return () => {
      clearTimeout(timer);
      map.off('moveend', update);
      map.off('resize', update);
    };
  }, [map]);

  const items = useMemo(() => {
    if (!view) return [];
    // Zoomed out, the server's grid clusters (of the moods shown) stand beside the lone posts.
    const serverItems: MarkerItem[] = clusters.flatMap((c) => {
      const count = c.moods && Object.keys(c.moods).length > 0 ? moods.reduce((n, m) => n + (c.moods[m] ?? 0), 0) : c.count;
      return count > 0 ? [{ kind: 'aggregate' as const, key: `s:${c.id}`, latitude: c.latitude, longitude: c.longitude, count, clusterId: -1 }] : [];
    });
    return [...serverItems, ...index.query(view.bbox, view.zoom)];
  }, [index, view, clusters, moods]);

  // Feed failures are said once per failure streak (spec §8 "Feed load failure").
  useEffect(() => {
    if (isError) toast.error(MESSAGES.feed_load_error);
  }, [isError]);

  const reveal = useCallback(
    (latitude: number, longitude: number, zoom?: number) => {
      if (!map) return;
      const options = { center: [longitude, latitude] as [number, number], offset: popupOffset(map), essential: true };
      if (zoom !== undefined) map.flyTo({ ...options, zoom, duration: 1200 });
      else map.easeTo({ ...options, duration: 400 });
    },
    [map],
  );

  const openPost = useCallback(
    (post: PostDto, group?: string[]) => {
      setSelection({ kind: 'post', id: post.id, group });
      reveal(post.latitude, post.longitude);
    },
    [reveal],
  );

  // A post passed through navigation state: centre on it at zoom 16, open it, clear the state.
  const location = useLocation();
  const navigate = useNavigate();
  const fetchedFocus = useRef(new Set<string>());
  const client = useQueryClient();
  const focusId = typeof (location.state as FocusState | null)?.focusPostId === 'string' ? ((location.state as FocusState).focusPostId as string) : null;
  useEffect(() => {
    if (!focusId || !map) return;
    const post = byId.get(focusId);
    if (!post && isPending) return;
    // A post asked for from elsewhere (a profile) may lie outside every viewport answer: read
    // it once and pin it, then this effect runs again with it in the cache.
    if (!post && !fetchedFocus.current.has(focusId)) {
      fetchedFocus.current.add(focusId);
      void fetchPost(focusId).then((fresh) => fresh && pinPostInCache(client, fresh)).catch(() => undefined);
      return;
    }
    if (post) {
      setSelection({ kind: 'post', id: post.id });
      reveal(post.latitude, post.longitude, MAP.focusZoom);
    }
    void navigate({ pathname: location.pathname, search: location.search, hash: location.hash }, { replace: true, state: null });
  }, [focusId, map, byId, isPending, reveal, navigate, client, location.pathname, location.search, location.hash]);

  // Escape closes the popup, unless a dialog above the map takes it.
  useEffect(() => {
    if (!selection) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !document.querySelector('[aria-modal="true"]')) setSelection(null);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [selection]);

  const now = new Date(Date.now() + offsetMs);
  const selectedPost = selection?.kind === 'post' ? byId.get(selection.id) : undefined;
  const groupPosts = useMemo(() => {
    const ids = selection?.kind === 'group' ? selection.ids : selection?.kind === 'post' ? selection.group : undefined;
    return ids ? ids.map((id) => byId.get(id)).filter((p): p is PostDto => p !== undefined) : [];
  }, [selection, byId]);

  // A deleted or expired post closes its popup; an emptied cluster too.
  const popupGone = selection !== null && (selection.kind === 'post' ? !selectedPost : groupPosts.length === 0);
  useEffect(() => {
    if (popupGone) setSelection(null);
  }, [popupGone]);

  const onItemClick = (item: MarkerItem) => {
    if (item.kind === 'post') {
      openPost(item.post);
    } else if (item.kind === 'group') {
      setSelection({ kind: 'group', ids: item.posts.map((p) => p.id), latitude: item.latitude, longitude: item.longitude });
      reveal(item.latitude, item.longitude);
    } else if (map) {
      setSelection(null);
      if (item.key.startsWith('s:')) map.flyTo({ center: [item.longitude, item.latitude], zoom: Math.floor(map.getZoom()) + 2, duration: 800, essential: true });
      else map.easeTo({ center: [item.longitude, item.latitude], zoom: Math.max(map.getZoom() + 1, index.expansionZoom(item.clusterId)), duration: 600 });
    }
  };

  const selectedKey = selection?.kind === 'post' ? selection.id : null;
  const anchor = selectedPost
    ? { latitude: selectedPost.latitude, longitude: selectedPost.longitude, offset: POST_MARKER_SIZE / 2 + 8 }
    : selection?.kind === 'group'
      ? { latitude: selection.latitude, longitude: selection.longitude, offset: 34 }
      : null;

  return (
    <>
      {items.map((item) => (
        <Marker
          key={item.key}
          longitude={item.longitude}
          latitude={item.latitude}
          anchor="center"
          className="mm-marker"
          style={{ zIndex: item.key === selectedKey ? 3 : item.kind === 'post' ? 1 : 2 }}
          onClick={(event) => {
            event.originalEvent.stopPropagation();
            onItemClick(item);
          }}
        >
          <MarkerButton item={item} selected={item.key === selectedKey} />
        </Marker>
      ))}
      {anchor && !popupGone ? (
        <Popup
          longitude={anchor.longitude}
          latitude={anchor.latitude}
          anchor="bottom"
          offset={anchor.offset}
          closeButton={false}
          closeOnClick
          focusAfterOpen={false}
          maxWidth="none"
          className="mm-popup"
          onClose={() => setSelection(null)}
        >
          {selectedPost ? (
            <PostCard
              key={selectedPost.id}
              post={selectedPost}
              now={now}
              onClose={() => setSelection(null)}
              onBack={
                selection?.kind === 'post' && selection.group && groupPosts.length > 1
                  ? () => setSelection({ kind: 'group', ids: selection.group!, latitude: anchor.latitude, longitude: anchor.longitude })
                  : undefined
              }
            />
          ) : (
            <ClusterList posts={groupPosts} now={now} onPick={(post) => openPost(post, groupPosts.map((p) => p.id))} onClose={() => setSelection(null)} />
          )}
        </Popup>
      ) : null}
    </>
  );
}

function MarkerButton({ item, selected }: { item: MarkerItem; selected: boolean }) {
  if (item.kind === 'post') {
    const mood = MOOD_INFO[item.post.category];
    return (
      <button
        type="button"
        className="block rounded-full"
        aria-label={`${item.post.nickname} · ${mood.label}`}
        data-testid="post-marker"
        data-post-id={item.post.id}
        data-mood={item.post.category}
        data-pulse={item.post.hasPulseEffect ? 'true' : undefined}
      >
        <PostMarkerView post={item.post} selected={selected} />
      </button>
    );
  }
  if (item.kind === 'group') {
    return (
      <button
        type="button"
        className="block rounded-full"
        aria-label={`${MESSAGES.cluster_popup_title} · ${t('cluster_count', { count: item.posts.length })}`}
        data-testid="cluster-marker"
        data-count={item.posts.length}
      >
        <ClusterMarkerView count={item.posts.length} selected={selected} />
      </button>
    );
  }
  return (
    <button
      type="button"
      className="block rounded-full"
      aria-label={`${MESSAGES.cluster_zoom_in} · ${t('cluster_count', { count: item.count })}`}
      data-testid="aggregate-marker"
      data-count={item.count}
    >
      <AggregateMarkerView count={item.count} />
    </button>
  );
}
