// @vitest-environment jsdom
/**
 * Fifty new posts arriving in one frame (fifty realtime 'post.created' events back to back, in one
 * tick, with deletions among them) leave the map, the list view and the keyboard markers agreeing:
 * - the markers source gets the whole burst as one `updateData`, at the live batch's turn, and
 *   then holds exactly the posts that were there plus the new ones, each once, posts within
 *   100 m of each other drawn as their group (the groups a one-pass grouping of them all makes);
 * - the list view ('Liste') lists the posts the map draws, whether it was open during the burst
 *   or opened after it, and the keyboard layer offers a button per marker or group the map draws;
 * - a popup open before the burst still shows its post after it, though that post's marker
 *   joined a group in the burst;
 * - a post deleted right after its creation in the burst, and an earlier post deleted in it, are
 *   gone from all three.
 * All of it is the app's own code: PostMarkers and its hooks, the list panel, MarkerNav, and the
 * TanStack Query cache fed by the realtime bridge over a fake WebSocket. Only MapLibre is faked
 * (jsdom has no WebGL): a map whose GeoJSON sources keep the features they are given, and
 * react-map-gl's useMap and Popup, which hand that map to the markers and hold the popup.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { type ReactNode, createElement } from 'react';
import { createPortal } from 'react-dom';
import type { GeoJSONSource, Map as MapLibreMap } from 'maplibre-gl';
import type { Feature, FeatureCollection, Point } from 'geojson';
import type { PostDto } from '@moodmap/core';
import { PostListPanel } from '../src/features/map/list/PostListPanel.tsx';
import { ViewToggle } from '../src/features/map/list/ViewToggle.tsx';
import { useListStore } from '../src/features/map/list/list-store.ts';
import { useMapStore } from '../src/features/map/map-store.ts';
import { PostMarkers } from '../src/features/map/markers/PostMarkers.tsx';
import { useDrawnPosts } from '../src/features/map/markers/drawn-posts.ts';
import { type GeoPoint, type Group, groupWithinRadius } from '../src/features/map/markers/grouping.ts';
import { LIVE_BATCH_MS } from '../src/features/map/markers/live-updates.ts';
import { HIGHLIGHT_SOURCE, MARKERS_SOURCE, type MarkerProps } from '../src/features/map/markers/marker-layers.ts';
import { loadPopups } from '../src/features/map/markers/warm-up.ts';
import { loadPostCard } from '../src/features/posts/post-card-chunk.ts';
import { type MarkerDto, toMarker } from '../src/features/posts/post-types.ts';
import { resetPostsRealtimeForTests } from '../src/features/posts/posts-query.ts';
import { resetViewportForTests } from '../src/features/posts/viewport-query.ts';
import { type RealtimeEvent, stopRealtime } from '../src/lib/realtime.ts';
import { loadSchemas } from '../src/lib/schemas.ts';
import { fakeApi, json } from './support/auth-fixtures.ts';
import { FakeWebSocket, installFakeWebSocket } from './support/fake-websocket.ts';
import { popupViewerEachTest } from './support/popup-viewer.ts';
import { makePost } from './support/posts.ts';
import { renderRoutes } from './support/render-routes.tsx';

/** The map the markers get from react-map-gl's useMap (set by each test). */
const current = vi.hoisted(() => ({ map: null as MapLibreMap | null }));

// react-map-gl's Map needs a WebGL MapLibre: the markers get the fake one, and the popup is laid
// out as MapLibre lays its own out (a content box inside the popup's element, in the map's container).
vi.mock('react-map-gl/maplibre', () => ({
  useMap: () => ({ current: current.map ? { getMap: () => current.map } : undefined }),
  Popup: ({ className, children }: { className?: string; children?: ReactNode }) =>
    createElement(
      'div',
      { className: `maplibregl-popup ${className ?? ''}`, 'data-testid': 'map-popup' },
      createElement('div', { className: 'maplibregl-popup-content' }, children),
    ),
}));

const NOW = new Date('2026-03-01T10:05:00.000Z');
/** Saint-Denis, La Réunion, at zoom 13: every post of these tests is on screen. */
const VIEW = { west: 55.38, south: -20.95, east: 55.52, north: -20.81 };
const CENTRE = { latitude: -20.88, longitude: 55.45 };
const ZOOM = 13;

// ---------------------------------------------------------------------------------------------
// The fake MapLibre map

type MarkerFeature = Feature<Point, MarkerProps>;
type SourceDiff = Parameters<GeoJSONSource['updateData']>[0];

/** A GeoJSON source as MapLibre keeps one: features by id, changed by diffs or replaced whole. */
class FakeGeoJSONSource {
  readonly features = new Map<string | number, MarkerFeature>();
  /** Every `updateData`, in order. */
  readonly diffs: SourceDiff[] = [];
  /** What a real source would have got wrong: removing a feature it lacks, adding one it holds. */
  readonly mismatches: string[] = [];
  private cluster: boolean;

  constructor(spec: { data?: unknown; cluster?: boolean }) {
    this.cluster = spec.cluster === true;
    if (spec.data && typeof spec.data === 'object') this.replace(spec.data as FeatureCollection);
  }

  updateData(diff: SourceDiff): Promise<void> {
    this.diffs.push(diff);
    if (diff.removeAll) this.features.clear();
    for (const id of diff.remove ?? []) {
      if (!this.features.delete(id)) this.mismatches.push(`removed ${id}, never drawn`);
    }
    for (const feature of (diff.add ?? []) as MarkerFeature[]) {
      if (this.features.has(feature.id!)) this.mismatches.push(`added ${feature.id} twice`);
      this.features.set(feature.id!, feature);
    }
    return Promise.resolve();
  }

  setData(data: FeatureCollection): Promise<void> {
    this.replace(data);
    return Promise.resolve();
  }

  getClusterOptions() {
    return { cluster: this.cluster };
  }

  setClusterOptions(options: { cluster?: boolean }): Promise<void> {
    this.cluster = options.cluster ?? this.cluster;
    return Promise.resolve();
  }

  private replace(data: FeatureCollection): void {
    this.features.clear();
    data.features.forEach((feature, i) => this.features.set(feature.id ?? i, feature as MarkerFeature));
  }
}

/** A MapLibre map standing still over VIEW: its sources and layers, events, container and camera. */
function fakeMapLibre() {
  const container = document.createElement('div');
  document.body.append(container);
  const canvas = document.createElement('canvas');
  const listeners = new Map<string, Set<(event?: unknown) => void>>();
  const sources = new Map<string, FakeGeoJSONSource>();
  const layers = new Map<string, { id: string; layout?: Record<string, unknown> }>();
  const on = (type: string, listener: (event?: unknown) => void) => {
    if (!listeners.has(type)) listeners.set(type, new Set());
    listeners.get(type)!.add(listener);
  };
  const off = (type: string, listener: (event?: unknown) => void) => void listeners.get(type)?.delete(listener);
  const still = () => undefined;
  const map = {
    style: { _loaded: true },
    getContainer: () => container,
    getCanvasContainer: () => container,
    getCanvas: () => canvas,
    getZoom: () => ZOOM,
    getCenter: () => ({ lng: CENTRE.longitude, lat: CENTRE.latitude }),
    getBounds: () => ({
      getWest: () => VIEW.west,
      getSouth: () => VIEW.south,
      getEast: () => VIEW.east,
      getNorth: () => VIEW.north,
      contains: ([lng, lat]: [number, number]) =>
        lng >= VIEW.west && lng <= VIEW.east && lat >= VIEW.south && lat <= VIEW.north,
    }),
    project: ([lng, lat]: [number, number]) => ({ x: (lng - VIEW.west) * 5000, y: (VIEW.north - lat) * 5000 }),
    isMoving: () => false,
    on,
    off,
    once: (type: string, listener: (event?: unknown) => void) => {
      const once = (event?: unknown) => {
        off(type, once);
        listener(event);
      };
      on(type, once);
    },
    getSource: (id: string) => sources.get(id),
    addSource: (id: string, spec: { data?: unknown; cluster?: boolean }) =>
      void sources.set(id, new FakeGeoJSONSource(spec)),
    getLayer: (id: string) => layers.get(id),
    addLayer: (layer: { id: string; layout?: Record<string, unknown> }) => void layers.set(layer.id, layer),
    removeLayer: (id: string) => void layers.delete(id),
    getLayoutProperty: (id: string, name: string) => layers.get(id)?.layout?.[name],
    setMissingStyleImageResolver: still,
    // What MapLibre renders needs WebGL; from zoom 9 the app reads its markers from its own data.
    queryRenderedFeatures: () => [],
    triggerRepaint: still,
    panBy: still,
    flyTo: still,
    easeTo: still,
    jumpTo: still,
  };
  return {
    map: map as unknown as MapLibreMap,
    container,
    markersSource: () => sources.get(MARKERS_SOURCE)!,
    highlightSource: () => sources.get(HIGHLIGHT_SOURCE)!,
  };
}

type FakeMap = ReturnType<typeof fakeMapLibre>;

// ---------------------------------------------------------------------------------------------
// The posts

const metresPerDegree = (Math.PI / 180) * 6_371_000;

/** The point `north` and `east` metres from `from`. */
function metresFrom(from: GeoPoint, north: number, east: number): GeoPoint {
  return {
    latitude: from.latitude + north / metresPerDegree,
    longitude: from.longitude + east / (metresPerDegree * Math.cos((from.latitude * Math.PI) / 180)),
  };
}

/** Spots about 1 km apart across the north of the view, far from every other post. */
const spot = (i: number): GeoPoint => ({
  latitude: -20.825 - 0.01 * Math.floor(i / 12),
  longitude: 55.385 + 0.01 * (i % 12),
});

/** A post as the API sends it, created `secondsAgo` before NOW. */
const card = (id: string, place: GeoPoint, secondsAgo: number): PostDto =>
  makePost({
    id,
    userId: `author-${id}`,
    ...place,
    createdAt: new Date(NOW.getTime() - secondsAgo * 1000).toISOString(),
  });

const BEFORE_2 = { latitude: -20.86, longitude: 55.42 };
const BEFORE_5 = { latitude: -20.92, longitude: 55.5 };
const NEW_GROUP = { latitude: -20.94, longitude: 55.39 };

/** On the map before the burst: four posts alone, and before-5 and before-6 40 m apart (one group). */
const POSTS_BEFORE: PostDto[] = [
  card('before-1', { latitude: -20.85, longitude: 55.4 }, 3600),
  card('before-2', BEFORE_2, 3000),
  card('before-3', { latitude: -20.87, longitude: 55.44 }, 2400),
  card('before-4', { latitude: -20.9, longitude: 55.48 }, 1800),
  card('before-5', BEFORE_5, 1200),
  card('before-6', metresFrom(BEFORE_5, 40, 0), 600),
];

/** The post whose popup is open during the burst (a burst post lands 20 m from it). */
const OPEN_POST = 'before-2';

/** The 50 new posts, in arrival order: five join groups, ten make five pairs, 35 stand alone. */
function burstOfFifty(): PostDto[] {
  const places: GeoPoint[] = [
    NEW_GROUP, // burst-01
    metresFrom(NEW_GROUP, 30, 0), // burst-02, deleted right after its creation
    metresFrom(NEW_GROUP, 0, 30), // burst-03
    metresFrom(BEFORE_2, 0, 20), // burst-04, joins before-2
    metresFrom(BEFORE_5, -50, 0), // burst-05, joins before-5 and before-6
  ];
  for (let i = 0; i < 5; i++) places.push(spot(i), metresFrom(spot(i), 25, 0)); // burst-06 to 15
  for (let i = 5; i < 40; i++) places.push(spot(i)); // burst-16 to 50
  return places.map((place, i) => card(`burst-${String(i + 1).padStart(2, '0')}`, place, 50 - i));
}

const BURST = burstOfFifty();
/** Deleted in the burst: one of its own right after its creation, and an earlier post halfway through. */
const DELETED_NEW = 'burst-02';
const DELETED_EARLIER = 'before-6';

/** The burst as the socket delivers it: 50 creations, and the two deletions among them. */
function burstEvents(): RealtimeEvent[] {
  return BURST.flatMap((post, i) => [
    { type: 'post.created', data: { post: toMarker(post) } },
    ...(post.id === DELETED_NEW ? [{ type: 'post.deleted', data: { id: DELETED_NEW } }] : []),
    ...(i === 24 ? [{ type: 'post.deleted', data: { id: DELETED_EARLIER } }] : []),
  ]);
}

/** The posts the map should hold after the burst: 6 earlier + 50 new − 2 deleted. */
const POSTS_AFTER = [...POSTS_BEFORE, ...BURST].filter((p) => p.id !== DELETED_NEW && p.id !== DELETED_EARLIER);

// ---------------------------------------------------------------------------------------------
// Reading what the map, the list and the keyboard layer show, as post ids

/** A marker named by the posts it stands for: 'before-1', or 'before-2+burst-04' for a group. */
const nameOf = (posts: ReadonlyArray<{ id: string }>) =>
  posts
    .map((p) => p.id)
    .sort()
    .join('+');

/**
 * The markers `posts` make by the 100 m rule, grouped in one pass (grouping.ts): the legend that
 * names a group the map or the keyboard layer shows by its posts.
 */
function expectedGroups(posts: readonly PostDto[]): Group<MarkerDto>[] {
  return groupWithinRadius(posts.map(toMarker));
}

const placeKey = (count: number, at: GeoPoint) => `${count}@${at.latitude.toFixed(6)},${at.longitude.toFixed(6)}`;

/** The markers a source draws, by name; a group no expected group matches (count and place) is 'unexpected'. */
function drawnMarkers(source: FakeGeoJSONSource, legend: Group<MarkerDto>[]): string[] {
  const byPlace = new Map(legend.map((g) => [placeKey(g.items.length, g), nameOf(g.items)]));
  return [...source.features.values()]
    .map(({ properties, geometry }) => {
      if (properties.k === 'p') return properties.pid!;
      const [longitude, latitude] = geometry.coordinates as [number, number];
      return byPlace.get(placeKey(properties.n, { latitude, longitude })) ?? `unexpected group of ${properties.n}`;
    })
    .sort();
}

/** The markers the keyboard layer offers, by name: a post's button names it, a group's its newest post. */
function keyboardMarkers(legend: Group<MarkerDto>[]): string[] {
  return screen
    .getAllByTestId('marker-button')
    .map((button) => {
      const count = Number(button.dataset.count);
      if (count === 1) return button.dataset.postId!;
      const newest = button.dataset.markerKey!.replace(/^g:/, '');
      const group = legend.find((g) => g.items.some((p) => p.id === newest));
      return group && group.items.length === count ? nameOf(group.items) : `unexpected group of ${count}`;
    })
    .sort();
}

const postsIn = (markers: readonly string[]) => markers.flatMap((name) => name.split('+')).sort();
const listedPosts = () =>
  screen
    .getAllByTestId('post-list-item')
    .map((row) => row.dataset.postId!)
    .sort();
const ids = (posts: readonly PostDto[]) => posts.map((p) => p.id).sort();

// ---------------------------------------------------------------------------------------------
// The screen

/** The map screen as the shell lays it out: the markers inside the map, the toggle and the list over it. */
function MapScreen({ container }: { container: HTMLElement }) {
  const listOpen = useListStore((s) => s.open);
  return (
    <>
      {createPortal(<PostMarkers />, container)}
      <ViewToggle />
      {listOpen ? <PostListPanel /> : null}
    </>
  );
}

/** Lets `ms` of (fake) time pass, with what React, the cache and the app's timers do meanwhile. */
const letTimePass = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
const socket = () => FakeWebSocket.sockets[FakeWebSocket.sockets.length - 1]!;
const OPEN_POST_TEXT = 'Concert ce soir au Barachois';

/** The map over VIEW with the earlier posts drawn (its viewport answer) and the realtime socket open. */
async function openMap(): Promise<FakeMap> {
  fakeApi({
    'GET /api/posts/viewport': () =>
      json(200, { points: POSTS_BEFORE.map(toMarker), clusters: [], cursor: 'c0', serverTime: NOW.toISOString() }),
    [`GET /api/posts/${OPEN_POST}`]: () =>
      json(200, { post: { ...POSTS_BEFORE.find((p) => p.id === OPEN_POST)!, content: OPEN_POST_TEXT } }),
    'GET /api/posts/cards': () => json(200, { posts: [] }),
  });
  const fake = fakeMapLibre();
  current.map = fake.map;
  useMapStore.setState({ map: fake.map });
  renderRoutes([{ path: '/', element: <MapScreen container={fake.container} /> }]);
  await letTimePass(1_000);
  act(() => socket().open());
  return fake;
}

/** Delivers the burst's 52 events back to back, in one tick, and lets their reading finish (not the batch's turn). */
async function deliverBurst(): Promise<void> {
  for (const event of burstEvents()) socket().receive(event);
  await letTimePass(0);
}

// ---------------------------------------------------------------------------------------------

popupViewerEachTest(null);

beforeAll(async () => {
  // The chunks the app fetches once the map is drawn (warm-up.ts): fetched here, with real
  // timers, so that the popup's lazy parts come from the module cache under fake time.
  await Promise.all([loadPopups(), loadSchemas(), loadPostCard()]);
});

beforeEach(() => {
  installFakeWebSocket();
  vi.useFakeTimers({ now: NOW });
});

afterEach(() => {
  cleanup();
  stopRealtime();
  resetPostsRealtimeForTests();
  resetViewportForTests();
  useListStore.setState({ open: false, clusterIds: null });
  useDrawnPosts.setState({ markers: [], offsetMs: 0 });
  useMapStore.setState({ map: null });
  current.map = null;
  document.body.replaceChildren();
  vi.useRealTimers();
});

describe('a burst of 50 live posts in one frame', () => {
  it('reaches the map as one updateData; the keyboard buttons, the open popup and then the list follow it', async () => {
    const map = await openMap();
    const legendBefore = expectedGroups(POSTS_BEFORE);
    expect(drawnMarkers(map.markersSource(), legendBefore)).toEqual([
      'before-1',
      'before-2',
      'before-3',
      'before-4',
      'before-5+before-6',
    ]);
    expect(keyboardMarkers(legendBefore)).toEqual(drawnMarkers(map.markersSource(), legendBefore));

    // Enter on before-2's button opens its card.
    fireEvent.click(screen.getAllByTestId('marker-button').find((b) => b.dataset.postId === OPEN_POST)!);
    await letTimePass(1_000);
    expect(screen.getByTestId('post-popup').dataset.postId).toBe(OPEN_POST);
    expect(screen.getByTestId('post-text').textContent).toBe(OPEN_POST_TEXT);

    const source = map.markersSource();
    const updatesBefore = source.diffs.length;
    await deliverBurst();
    // Every event is read and queued: nothing reaches the source before the batch's turn.
    expect(source.diffs.length - updatesBefore).toBe(0);
    await letTimePass(LIVE_BATCH_MS);
    expect(source.diffs.length - updatesBefore).toBe(1);
    await letTimePass(1_000);
    // Nothing more came after the batch (the keyboard layer's reading, the popup's redraw).
    expect(source.diffs.length - updatesBefore).toBe(1);

    // The map: exactly the earlier posts and the new ones, each once, grouped by the 100 m rule.
    const legend = expectedGroups(POSTS_AFTER);
    const drawn = drawnMarkers(source, legend);
    expect(source.mismatches).toEqual([]);
    expect(drawn).toEqual(legend.map((g) => nameOf(g.items)).sort());
    expect(drawn).toHaveLength(46);
    expect(drawn).toEqual(
      expect.arrayContaining(['before-2+burst-04', 'before-5+burst-05', 'burst-01+burst-03', 'burst-06+burst-07']),
    );
    expect(postsIn(drawn)).toEqual(ids(POSTS_AFTER));
    expect(postsIn(drawn)).toHaveLength(54);
    expect(postsIn(drawn)).not.toContain(DELETED_NEW);
    expect(postsIn(drawn)).not.toContain(DELETED_EARLIER);

    // The keyboard layer: a button for each marker and group drawn, none left to the list.
    expect(keyboardMarkers(legend)).toEqual(drawn);
    expect(screen.queryByTestId('marker-more')).toBeNull();

    // The popup still shows before-2, now drawn in a group of two, and the map draws that group larger.
    expect(screen.getAllByTestId('post-popup').map((p) => p.dataset.postId)).toEqual([OPEN_POST]);
    expect(screen.getByTestId('post-text').textContent).toBe(OPEN_POST_TEXT);
    expect(drawnMarkers(map.highlightSource(), legend)).toEqual(['before-2+burst-04']);

    // The list view, opened now, lists the posts the map draws.
    fireEvent.click(screen.getByTestId('view-list'));
    await letTimePass(1_000);
    expect(listedPosts()).toEqual(postsIn(drawn));
    expect(screen.getByTestId('post-list').dataset.count).toBe('54');
    expect(screen.getByTestId('post-list-count').textContent).toBe('54 publications');
  });

  it('changes the open list view with the map’s one draw, and the keyboard buttons after it', async () => {
    const map = await openMap();
    fireEvent.click(screen.getByTestId('view-list'));
    await letTimePass(1_000);
    expect(listedPosts()).toEqual(ids(POSTS_BEFORE));

    const source = map.markersSource();
    const updatesBefore = source.diffs.length;
    await deliverBurst();
    // Queued, not drawn yet: the list shows what the map draws, the earlier posts.
    expect(source.diffs.length - updatesBefore).toBe(0);
    expect(listedPosts()).toEqual(postsIn(drawnMarkers(source, expectedGroups(POSTS_BEFORE))));

    await letTimePass(LIVE_BATCH_MS);
    expect(source.diffs.length - updatesBefore).toBe(1);
    await letTimePass(1_000);
    const legend = expectedGroups(POSTS_AFTER);
    const drawn = drawnMarkers(source, legend);
    expect(source.mismatches).toEqual([]);
    expect(drawn).toEqual(legend.map((g) => nameOf(g.items)).sort());
    expect(listedPosts()).toEqual(postsIn(drawn));
    expect(listedPosts()).toEqual(ids(POSTS_AFTER));
    expect(screen.getByTestId('post-list-count').textContent).toBe('54 publications');

    // Back to the map: its keyboard buttons are the markers and groups drawn.
    fireEvent.click(screen.getByTestId('view-map'));
    await letTimePass(1_000);
    expect(keyboardMarkers(legend)).toEqual(drawn);
    expect(screen.queryByTestId('marker-more')).toBeNull();
    expect(source.diffs.length - updatesBefore).toBe(1);
  });
});
