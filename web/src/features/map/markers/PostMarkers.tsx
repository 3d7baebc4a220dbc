/**
 * The posts on the main map, drawn by MapLibre (docs/architecture.md, "The map's markers"):
 * single markers, 100 m clusters and zoomed-out aggregates are features of GeoJSON sources
 * (marker-layers.ts) with pictures from an atlas drawn on demand (marker-images.ts); no DOM
 * element per post. A fetched viewport answer replaces the groups; a realtime post or deletion
 * is applied as a diff of its own group (marker-groups.ts). A tap is hit-tested on the layers;
 * the popup paints first from the marker, and the map moves after only if it does not fit.
 * A post passed through navigation state is centred at zoom 16 and opened, then the state cleared.
 * Keyboards and screen readers reach the markers through MarkerNav: a button per
 * marker on screen; Enter opens the same popup as a tap, takes the focus into it, and closing it
 * gives the focus back to the marker. Camera moves jump instead when motion is reduced (ui/motion.ts).
 */
import { Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Popup, useMap } from 'react-map-gl/maplibre';
import type { MapGeoJSONFeature, Map as MapLibreMap, MapMouseEvent } from 'maplibre-gl';
import type { FeatureCollection, Point } from 'geojson';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { MAP, SHELL_MESSAGES, POST_LIFETIME_MS, padBounds, VIEW_MARGIN } from '@moodmap/core';
import { toast } from '../../../ui/toasts/toast-store.ts';
import { moveCamera, useReducedMotion } from '../../../ui/motion.ts';
import { useMoodFilterStore } from '../../moods/mood-filter-store.ts';
import { useThemeStore } from '../../theme/theme-store.ts';
import { fetchPost } from '../../posts/posts-api.ts';
import { type MarkerChange, derivedFrom, onMarkerChange, pinPostInCache } from '../../posts/posts-query.ts';
import type { MarkerDto } from '../../posts/post-types.ts';
import { useViewportFeed } from '../../posts/viewport-query.ts';
import { prefetchPostCard } from '../../posts/post-card-query.ts';
import { useDrawnPosts } from './drawn-posts.ts';
import { MarkerNav } from './MarkerNav.tsx';
import { type NavItem, readNavItems, sameNavItems } from './nav-items.ts';
import { useListStore } from '../list/list-store.ts';
import { type GroupDiff, type MarkerGroup, MarkerGroups } from './marker-groups.ts';
import { POST_MARKER_SIZE, type Theme, provideImage } from './marker-images.ts';
import {
  AGGREGATES_SOURCE,
  MARKERS_SOURCE,
  CLICKABLE_LAYERS,
  type DrawnAggregates,
  type MarkerProps,
  aggregateFeatures,
  ensureMarkerLayers,
  groupFeature,
  highlightFeatures,
  markersSource,
  setHighlighted,
  styleReady,
  syncAggregates,
  syncClustering,
} from './marker-layers.ts';
import { startPulse } from './pulse.ts';
import { trackHover } from './hover.ts';
import { mapPixelRatio } from '../world-map.ts';
import { afterNextPaint, postponeRepaint, postponeTapRepaints } from '../after-paint.ts';
import { fitPopup, revealPopup } from './popup-fit.ts';
import { PopupFallback } from './PopupFallback.tsx';
import { loadPopups, warmUpAfterMarkers } from './warm-up.ts';
import { lazyScreen } from '../../../ui/lazy-screen.tsx';
import './markers.css';

type Bbox = [number, number, number, number];

// A post's popup and a group's list show after a tap: their chunk is fetched once the markers are
// drawn (warm-up.ts) or by the first tap before that, not on the map's first load.
const PostPopup = lazyScreen(loadPopups, (m) => m.PostPopup);
const ClusterList = lazyScreen(loadPopups, (m) => m.ClusterList);

/** The view is read this long after the map stops moving. */
const VIEW_DEBOUNCE_MS = 250;

/** The viewport with a margin, so markers just outside are already there when panning. */
export function paddedBounds(map: Pick<MapLibreMap, 'getBounds'>, margin = VIEW_MARGIN): Bbox {
  const b = map.getBounds();
  return padBounds([b.getWest(), b.getSouth(), b.getEast(), b.getNorth()], margin);
}

type Selection =
  | { kind: 'post'; id: string; group?: string[] }
  | { kind: 'group'; ids: string[]; latitude: number; longitude: number };

interface FocusState {
  focusPostId?: unknown;
}

export function PostMarkers() {
  const { current } = useMap();
  const map = current?.getMap() ?? null;
  const moods = useMoodFilterStore((s) => s.selected);
  const theme: Theme = useThemeStore((s) => s.theme) === 'dark' ? 'dark' : 'light';
  const [view, setView] = useState<{ bbox: Bbox; zoom: number } | null>(null);
  const { answer, extra, clusters, offsetMs, isError, isPending } = useViewportFeed(view, moods);
  const [groups] = useState(() => new MarkerGroups());
  // Bumped when the drawn markers change: the popup and the focus read `groups` again.
  const [version, setVersion] = useState(0);
  const [selection, setSelection] = useState<Selection | null>(null);
  const applied = useRef<{ answer?: object; extra?: object; moods?: string }>({});
  const client = useQueryClient();
  const reducedMotion = useReducedMotion();

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

  const allFeatures = useCallback(
    (): FeatureCollection<Point, MarkerProps> => ({
      type: 'FeatureCollection',
      features: [...groups.allGroups()].map(groupFeature),
    }),
    [groups],
  );
  const clustersRef = useRef(clusters);
  clustersRef.current = clusters;
  const moodsRef = useRef(moods);
  moodsRef.current = moods;
  const shownClusters = useMemo(
    () =>
      clusters.flatMap((c) => {
        const count =
          c.moods && Object.keys(c.moods).length > 0 ? moods.reduce((n, m) => n + (c.moods[m] ?? 0), 0) : c.count;
        return count > 0 ? [{ ...c, count }] : [];
      }),
    [clusters, moods],
  );
  const shownClustersRef = useRef(shownClusters);
  shownClustersRef.current = shownClusters;
  /** The markers drawn larger now (setHighlighted), kept for a style change to draw them again. */
  const highlighted = useRef<{ key: string; groups: MarkerGroup[] }>({ key: '', groups: [] });

  const applyDiff = useCallback(
    (diff: GroupDiff) => {
      if (!map || (diff.remove.length === 0 && diff.add.length === 0)) return;
      void markersSource(map)?.updateData({ remove: diff.remove, add: diff.add.map(groupFeature) });
    },
    [map],
  );

  // Sources, layers and the atlas; again after every style change (theme, fallback basemap).
  useEffect(() => {
    if (!map) return;
    const ratio = mapPixelRatio();
    const ensure = () => {
      if (!styleReady(map)) return;
      ensureMarkerLayers(
        map,
        theme,
        allFeatures,
        () => aggregateFeatures(shownClustersRef.current),
        () => highlightFeatures(highlighted.current.groups),
      );
    };
    // MapLibre 6 draws a missing icon only if a resolver adds it before the tile's layout goes
    // on; a 'styleimagemissing' listener comes too late for that tile (the marker stays blank).
    map.setMissingStyleImageResolver((id) => {
      provideImage(map, id, ratio);
    });
    // Clustering only below zoom 9, where MapLibre draws clusters (marker-layers.ts).
    const cluster = () => syncClustering(map);
    map.on('styledata', ensure);
    map.on('load', ensure);
    map.on('zoom', cluster);
    ensure();
    const stopPulse = startPulse(map, reducedMotion);
    return () => {
      map.setMissingStyleImageResolver(null);
      map.off('styledata', ensure);
      map.off('load', ensure);
      map.off('zoom', cluster);
      stopPulse();
    };
  }, [map, theme, allFeatures, reducedMotion]);

  // A fetched answer (another view, a refetch, the mood filter) replaces the groups; an answer
  // only derived from the one drawn by marker changes was already applied change by change.
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
    applyDiff(groups.reset(shown));
    applied.current = { answer, extra, moods: moodsKey };
    setVersion((v) => v + 1);
  }, [answer, extra, moods, groups, applyDiff, offsetMs]);

  // Once the first answer's markers are drawn: what later taps and forms need (warm-up.ts).
  const markersApplied = version > 0;
  useEffect(() => {
    if (map && markersApplied) return warmUpAfterMarkers(map);
  }, [map, markersApplied]);

  // Realtime and poll changes, one at a time.
  useEffect(
    () =>
      onMarkerChange((change: MarkerChange) => {
        if (change.kind === 'created') {
          if (!moodsRef.current.includes(change.post.category)) return;
          applyDiff(groups.add(change.post));
        } else {
          if (!groups.has(change.id)) return;
          applyDiff(groups.remove(change.id));
        }
        setVersion((v) => v + 1);
      }),
    [groups, applyDiff],
  );

  // Posts leave the map when their 24 h are over.
  useEffect(() => {
    const timer = setInterval(() => {
      const cutoff = Date.now() + offsetMs - POST_LIFETIME_MS;
      const expired = [...groups.allMarkers()].filter((m) => Date.parse(m.createdAt) <= cutoff);
      if (expired.length === 0) return;
      for (const m of expired) applyDiff(groups.remove(m.id));
      setVersion((v) => v + 1);
    }, 60_000);
    return () => clearInterval(timer);
  }, [groups, applyDiff, offsetMs]);

  // The server's zoomed-out aggregates, when they change: every answer derived from a live post
  // brings a fresh (often empty) list, and setData reloads the source's tiles and redraws the map.
  const drawnAggregates = useRef<DrawnAggregates | null>(null);
  useEffect(() => {
    if (map) drawnAggregates.current = syncAggregates(map, shownClusters, drawnAggregates.current);
  }, [map, shownClusters]);

  // Feed failures are said once per failure streak.
  useEffect(() => {
    if (isError) toast.error(SHELL_MESSAGES.feed_load_error);
  }, [isError]);

  const centreOn = useCallback(
    (latitude: number, longitude: number, zoom: number) => {
      if (map) moveCamera(map, { center: [longitude, latitude], zoom, duration: 1200 });
    },
    [map],
  );

  /** What a tap or Enter on a marker does: a post's card, a group's list, or a closer look. */
  const activate = useCallback(
    (target: NavItem['target'], longitude: number, latitude: number) => {
      if (!map) return;
      if (target.kind === 'cluster') {
        setSelection(null);
        void markersSource(map)
          ?.getClusterExpansionZoom(target.clusterId)
          .then((zoom) =>
            moveCamera(
              map,
              { center: [longitude, latitude], zoom: Math.max(map.getZoom() + 1, zoom), duration: 600 },
              'ease',
            ),
          )
          .catch(() => undefined);
        return;
      }
      if (target.kind === 'aggregate') {
        setSelection(null);
        moveCamera(map, { center: [longitude, latitude], zoom: Math.floor(map.getZoom()) + 2, duration: 800 });
        return;
      }
      const group = groups.group(target.featureId);
      if (!group) return;
      if (group.members.length === 1) {
        prefetchPostCard(client, group.members[0]!.id);
        setSelection({ kind: 'post', id: group.members[0]!.id });
      } else
        setSelection({
          kind: 'group',
          ids: group.members.map((m) => m.id),
          latitude: group.latitude,
          longitude: group.longitude,
        });
    },
    [map, groups, client],
  );
  /** The marker button a popup was opened from by keyboard: the focus goes back to it. */
  const openedFrom = useRef<string | null>(null);

  // Taps and hovers, hit-tested on the marker layers.
  const [hovered, setHovered] = useState<number | null>(null);
  useEffect(() => {
    if (!map) return;
    const hit = (point: MapMouseEvent['point']): MapGeoJSONFeature | undefined => {
      const layers = CLICKABLE_LAYERS.filter((id) => map.getLayer(id));
      return layers.length ? map.queryRenderedFeatures(point, { layers })[0] : undefined;
    };
    const onClick = (event: MapMouseEvent) => {
      const feature = hit(event.point);
      if (!feature) {
        // A tap on the bare map closes the popup.
        setSelection(null);
        return;
      }
      event.preventDefault();
      const props = feature.properties as Partial<MarkerProps> & { cluster?: boolean; cluster_id?: number };
      const [longitude, latitude] = (feature.geometry as Point).coordinates as [number, number];
      openedFrom.current = null;
      if (props.cluster && typeof props.cluster_id === 'number')
        activate({ kind: 'cluster', clusterId: props.cluster_id }, longitude, latitude);
      else if (props.k === 's') activate({ kind: 'aggregate' }, longitude, latitude);
      else if (typeof feature.id === 'number') {
        // The popup paints first, the map's redraw for the tap's end after it.
        postponeRepaint(map);
        activate({ kind: 'group', featureId: feature.id }, longitude, latitude);
      }
    };
    const stopHover = trackHover(
      map,
      (point) => {
        const feature = hit(point);
        const id =
          feature &&
          typeof feature.id === 'number' &&
          !feature.properties?.cluster &&
          feature.source !== AGGREGATES_SOURCE
            ? feature.id
            : null;
        return { id, pointer: feature !== undefined };
      },
      setHovered,
    );
    map.on('click', onClick);
    const stopTapRepaints = postponeTapRepaints(map);
    return () => {
      stopTapRepaints();
      map.off('click', onClick);
      stopHover();
    };
  }, [map, activate]);

  // A post passed through navigation state: centre on it at zoom 16, open it, clear the state.
  const location = useLocation();
  const navigate = useNavigate();
  /** Focused posts read from the server: 'pending' while the request runs, then 'done'. */
  const fetchedFocus = useRef(new Map<string, 'pending' | 'done'>());
  const focusId =
    typeof (location.state as FocusState | null)?.focusPostId === 'string'
      ? ((location.state as FocusState).focusPostId as string)
      : null;
  useEffect(() => {
    if (!focusId || !map) return;
    const marker = groups.marker(focusId);
    if (!marker && isPending) return;
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
          setVersion((v) => v + 1);
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
    version,
    isPending,
    centreOn,
    navigate,
    client,
    location.pathname,
    location.search,
    location.hash,
  ]);

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
  const selectedMarker = selection?.kind === 'post' ? groups.marker(selection.id) : undefined;
  const groupMarkers = useMemo(() => {
    void version;
    const ids = selection?.kind === 'group' ? selection.ids : selection?.kind === 'post' ? selection.group : undefined;
    return ids ? ids.map((id) => groups.marker(id)).filter((m): m is MarkerDto => m !== undefined) : [];
  }, [selection, groups, version]);

  // A deleted or expired post closes its popup; an emptied cluster too.
  const popupGone = selection !== null && (selection.kind === 'post' ? !selectedMarker : groupMarkers.length === 0);
  useEffect(() => {
    if (popupGone) setSelection(null);
  }, [popupGone]);

  // The list view shows the posts the map holds (the same data, no second fetch), while it is
  // open: a copy of every marker on each change would cost a map of 10^5 posts for nothing.
  const publish = useDrawnPosts((s) => s.publish);
  const listOpen = useListStore((s) => s.open);
  const showList = useListStore((s) => s.show);
  useEffect(() => {
    void version;
    if (listOpen) publish([...groups.allMarkers()], offsetMs);
  }, [publish, groups, version, offsetMs, listOpen]);

  // The markers a keyboard reaches: read again when the view or the drawn posts change, once
  // MapLibre has placed them (its clusters are read from what it draws).
  const [navItems, setNavItems] = useState<NavItem[]>([]);
  const [navFocus, setNavFocus] = useState<NavItem | null>(null);
  useEffect(() => {
    if (!map) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = () => {
      if (map.isMoving()) return schedule();
      const next = readNavItems(map, groups, shownClusters, new Date(Date.now() + offsetMs));
      // The same items (a post added off screen, a tile reloaded): no re-render of the buttons.
      setNavItems((current) => (sameNavItems(current, next) ? current : next));
    };
    const schedule = () => {
      clearTimeout(timer);
      timer = setTimeout(read, 300);
    };
    const onData = (event: { sourceId?: string }) => {
      if (event.sourceId === MARKERS_SOURCE || event.sourceId === AGGREGATES_SOURCE) schedule();
    };
    schedule();
    map.on('moveend', schedule);
    map.on('sourcedata', onData);
    return () => {
      clearTimeout(timer);
      map.off('moveend', schedule);
      map.off('sourcedata', onData);
    };
  }, [map, groups, version, offsetMs, shownClusters]);
  const project = useCallback(
    (item: NavItem) => (map ? map.project([item.longitude, item.latitude]) : { x: 0, y: 0 }),
    [map],
  );
  const onNavActivate = useCallback(
    (item: NavItem) => {
      openedFrom.current = item.target.kind === 'group' ? item.key : null;
      activate(item.target, item.longitude, item.latitude);
    },
    [activate],
  );
  const onMore = useCallback(() => showList({ focus: true }), [showList]);

  // The selected, hovered and keyboard-focused markers are drawn larger.
  const selectedFeature =
    selection?.kind === 'post'
      ? groups.groupOf(selection.id)?.id
      : selection?.kind === 'group'
        ? groups.groupOf(selection.ids[0]!)?.id
        : undefined;
  const focusedFeature = navFocus?.target.kind === 'group' ? navFocus.target.featureId : undefined;
  useEffect(() => {
    if (!map) return;
    const ids = [
      ...new Set([selectedFeature, hovered, focusedFeature].filter((id): id is number => typeof id === 'number')),
    ];
    const next = ids.map((id) => groups.group(id)).filter((g): g is MarkerGroup => g !== undefined);
    // A group's id changes with what it draws (marker-groups.ts): equal ids, nothing to redraw.
    const key = next.map((g) => g.id).join(',');
    if (key === highlighted.current.key) return;
    // After the next frame: a tap's popup paints first, the map's redraw of the larger marker after.
    return afterNextPaint(() => {
      highlighted.current = { key, groups: next };
      setHighlighted(map, next);
    });
  }, [map, groups, selectedFeature, hovered, focusedFeature, version]);

  // A popup opened by keyboard takes the focus (its frame, which stays while the card replaces
  // its skeleton); closing it gives the focus back to the marker's button.
  const popupOpen = selection !== null;
  useEffect(() => {
    if (!map || !popupOpen || !openedFrom.current) return;
    const raf = requestAnimationFrame(() => {
      const frame = map.getContainer().querySelector<HTMLElement>('.mm-popup .maplibregl-popup-content');
      if (!frame) return;
      frame.tabIndex = -1;
      frame.focus({ preventScroll: true });
    });
    return () => cancelAnimationFrame(raf);
  }, [map, popupOpen, selection]);
  useEffect(() => {
    if (popupOpen || !map || !openedFrom.current) return;
    const key = openedFrom.current;
    openedFrom.current = null;
    const active = document.activeElement;
    // Only when the focus was in the popup (or lost with it), not when it moved elsewhere.
    if (active && active !== document.body && !map.getContainer().contains(active)) return;
    map
      .getContainer()
      .querySelector<HTMLElement>(`[data-marker-key="${CSS.escape(key)}"]`)
      ?.focus({ preventScroll: true });
  }, [map, popupOpen]);

  // Paint first, then move the camera only if the popup does not fit (popup-fit.ts).
  const selectionKey = selection ? (selection.kind === 'post' ? selection.id : selection.ids.join(',')) : null;
  useEffect(() => {
    if (!map || !selectionKey) return;
    return fitPopup(map.getContainer().querySelector('.mm-popup'), () => revealPopup(map));
  }, [map, selectionKey]);

  const anchor = selectedMarker
    ? { latitude: selectedMarker.latitude, longitude: selectedMarker.longitude, offset: POST_MARKER_SIZE / 2 + 8 }
    : selection?.kind === 'group'
      ? { latitude: selection.latitude, longitude: selection.longitude, offset: 34 }
      : null;

  const nav = listOpen ? null : (
    <MarkerNav
      items={navItems}
      project={project}
      onActivate={onNavActivate}
      onFocusItem={setNavFocus}
      onMore={onMore}
    />
  );
  if (!anchor || popupGone) return nav;
  return (
    <>
      {nav}
      <Popup
        longitude={anchor.longitude}
        latitude={anchor.latitude}
        anchor="bottom"
        offset={anchor.offset}
        closeButton={false}
        closeOnClick={false}
        focusAfterOpen={false}
        maxWidth="none"
        className="mm-popup"
        onClose={() => setSelection(null)}
      >
        <Suspense fallback={<PopupFallback marker={selectedMarker} />}>
          {selectedMarker ? (
            <PostPopup
              key={selectedMarker.id}
              marker={selectedMarker}
              now={now}
              onClose={() => setSelection(null)}
              onBack={
                selection?.kind === 'post' && selection.group && groupMarkers.length > 1
                  ? () =>
                      setSelection({
                        kind: 'group',
                        ids: selection.group!,
                        latitude: anchor.latitude,
                        longitude: anchor.longitude,
                      })
                  : undefined
              }
            />
          ) : (
            <ClusterList
              markers={groupMarkers}
              now={now}
              onPick={(m) => setSelection({ kind: 'post', id: m.id, group: groupMarkers.map((g) => g.id) })}
              onClose={() => setSelection(null)}
              onShowList={() => {
                openedFrom.current = null;
                showList({ clusterIds: groupMarkers.map((m) => m.id), focus: true });
                setSelection(null);
              }}
            />
          )}
        </Suspense>
      </Popup>
    </>
  );
}
