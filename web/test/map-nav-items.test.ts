/**
 * The markers a keyboard reaches (nav-items.ts): the groups and the server aggregates on screen,
 * read from the map's own data from zoom 9 (no rendered-feature query of the view on every new
 * post), MapLibre's clusters from its layer below; and when two readings are the same.
 */
import { describe, expect, it } from 'vitest';
import type { Map as MapLibreMap } from 'maplibre-gl';
import { MarkerGroups } from '../src/features/map/markers/marker-groups.ts';
import { MARKERS_LAYER } from '../src/features/map/markers/marker-layers.ts';
import { readNavItems, sameNavItems } from '../src/features/map/markers/nav-items.ts';
import type { ServerCluster } from '../src/features/posts/viewport-query.ts';
import { toMarker } from '../src/features/posts/post-types.ts';
import { makePost } from './support/posts.ts';

const NOW = new Date('2026-03-01T10:05:00.000Z');
const VIEW = { west: 2.3, south: 48.84, east: 2.4, north: 48.87 };

/** A map over VIEW at `zoom` whose marker layer holds `rendered` (MapLibre's own needs WebGL). */
function fakeMap(zoom: number, rendered: unknown[] = []) {
  const queried: unknown[] = [];
  const map = {
    getZoom: () => zoom,
    getBounds: () => ({
      getWest: () => VIEW.west,
      getSouth: () => VIEW.south,
      getEast: () => VIEW.east,
      getNorth: () => VIEW.north,
      contains: ([lng, lat]: [number, number]) =>
        lng >= VIEW.west && lng <= VIEW.east && lat >= VIEW.south && lat <= VIEW.north,
    }),
    getCenter: () => ({ lng: 2.35, lat: 48.855 }),
    getLayer: (id: string) => (id === MARKERS_LAYER ? { id } : undefined),
    queryRenderedFeatures: (options: unknown) => {
      queried.push(options);
      return rendered;
    },
  } as unknown as MapLibreMap;
  return { map, queried };
}

const cluster = (id: string, longitude: number, latitude: number, count: number): ServerCluster => ({
  id,
  latitude,
  longitude,
  count,
  moods: {},
});

describe('the keyboard markers', () => {
  it('from zoom 9: the groups and server aggregates on screen, from data, without a rendered-feature query', () => {
    const groups = new MarkerGroups();
    groups.reset([
      toMarker(
        makePost({
          id: 'in',
          nickname: 'Léa',
          latitude: 48.855,
          longitude: 2.35,
          createdAt: '2026-03-01T10:00:00.000Z',
        }),
      ),
      toMarker(makePost({ id: 'out', latitude: 45.76, longitude: 4.83 })),
    ]);
    const { map, queried } = fakeMap(12);
    const items = readNavItems(map, groups, [cluster('c-in', 2.38, 48.86, 40), cluster('c-out', 4.83, 45.76, 9)], NOW);
    expect(items.map((i) => [i.key, i.name, i.count, i.target.kind])).toEqual([
      ['p:in', 'Publication de Léa, Joyeux, il y a 5 minutes', 1, 'group'],
      ['s:c-in', '40 publications ici', 40, 'aggregate'],
    ]);
    expect(queried).toEqual([]);
  });

  it("below zoom 9: MapLibre's clusters are read from its layer", () => {
    const rendered = [
      {
        geometry: { type: 'Point', coordinates: [2.33, 48.85] },
        properties: { cluster: true, cluster_id: 7, point_count: 12 },
      },
    ];
    const { map, queried } = fakeMap(6, rendered);
    const items = readNavItems(map, new MarkerGroups(), [], NOW);
    expect(items.map((i) => [i.key, i.count, i.target])).toEqual([['c:7', 12, { kind: 'cluster', clusterId: 7 }]]);
    expect(queried).toEqual([{ layers: [MARKERS_LAYER] }]);
  });

  it('tells equal readings from changed ones', () => {
    const groups = new MarkerGroups();
    groups.reset([toMarker(makePost({ id: 'a', latitude: 48.855, longitude: 2.35 }))]);
    const { map } = fakeMap(12);
    const first = readNavItems(map, groups, [cluster('c', 2.38, 48.86, 40)], NOW);
    expect(sameNavItems(first, readNavItems(map, groups, [cluster('c', 2.38, 48.86, 40)], NOW))).toBe(true);
    expect(sameNavItems(first, readNavItems(map, groups, [cluster('c', 2.38, 48.86, 41)], NOW))).toBe(false);
    expect(
      sameNavItems(
        first,
        readNavItems(map, groups, [cluster('c', 2.38, 48.86, 40)], new Date('2026-03-01T12:05:00.000Z')),
      ),
    ).toBe(false);
    groups.add(toMarker(makePost({ id: 'b', latitude: 48.845, longitude: 2.31 })));
    expect(sameNavItems(first, readNavItems(map, groups, [cluster('c', 2.38, 48.86, 40)], NOW))).toBe(false);
  });
});
