/**
 * What the markers' sources are told as the map zooms and as answers come (marker-layers.ts):
 * clustering only below zoom 9, and the aggregates source set only when they change.
 */
import { describe, expect, it } from 'vitest';
import type { Map as MapLibreMap } from 'maplibre-gl';
import {
  AGGREGATES_SOURCE,
  AGGREGATE_BELOW_ZOOM,
  MARKERS_SOURCE,
  type DrawnAggregates,
  sameAggregates,
  syncAggregates,
  syncClustering,
} from '../src/features/map/markers/marker-layers.ts';
import type { ServerCluster } from '../src/features/posts/viewport-query.ts';

/** A map with GeoJSON sources that record what they are told (MapLibre's own need WebGL and a worker). */
function recordingMap(zoom: number, clustered: boolean) {
  const clusterCalls: boolean[] = [];
  const setData: unknown[] = [];
  let cluster = clustered;
  const markers = {
    getClusterOptions: () => ({ cluster, clusterMaxZoom: AGGREGATE_BELOW_ZOOM - 1 }),
    setClusterOptions: async (options: { cluster?: boolean }) => {
      clusterCalls.push(options.cluster === true);
      cluster = options.cluster === true;
    },
  };
  const aggregates = { setData: async (data: unknown) => void setData.push(data) };
  const state = { zoom };
  const map = {
    getZoom: () => state.zoom,
    getSource: (id: string) => (id === MARKERS_SOURCE ? markers : id === AGGREGATES_SOURCE ? aggregates : undefined),
  } as unknown as MapLibreMap;
  return { map, clusterCalls, setData, zoomTo: (z: number) => void (state.zoom = z) };
}

const cluster = (id: string, count: number, latitude = 48.8, longitude = 2.3): ServerCluster => ({
  id,
  count,
  latitude,
  longitude,
  moods: {},
});

describe('syncClustering: the markers source clusters only below zoom 9', () => {
  it('turns clustering off when the map zooms in to 9 and on again below it, once per crossing', () => {
    const { map, clusterCalls, zoomTo } = recordingMap(7.5, true);
    syncClustering(map);
    zoomTo(8.99);
    syncClustering(map);
    expect(clusterCalls).toEqual([]);
    zoomTo(9);
    syncClustering(map);
    zoomTo(12.4);
    syncClustering(map);
    expect(clusterCalls).toEqual([false]);
    zoomTo(8.2);
    syncClustering(map);
    syncClustering(map);
    expect(clusterCalls).toEqual([false, true]);
  });

  it('does nothing before the source exists', () => {
    const map = { getZoom: () => 12, getSource: () => undefined } as unknown as MapLibreMap;
    expect(() => syncClustering(map)).not.toThrow();
  });
});

describe('syncAggregates: the aggregates source is set only when they change', () => {
  it('sets the data once for equal lists (a fresh empty list per live post included), again when one moves or counts more', () => {
    const { map, setData } = recordingMap(6, true);
    let drawn: DrawnAggregates | null = null;
    drawn = syncAggregates(map, [], drawn);
    drawn = syncAggregates(map, [], drawn);
    drawn = syncAggregates(map, [], drawn);
    expect(setData).toHaveLength(1);
    drawn = syncAggregates(map, [cluster('a', 3), cluster('b', 5)], drawn);
    drawn = syncAggregates(map, [cluster('a', 3), cluster('b', 5)], drawn);
    expect(setData).toHaveLength(2);
    drawn = syncAggregates(map, [cluster('a', 3), cluster('b', 6)], drawn);
    drawn = syncAggregates(map, [cluster('a', 3), cluster('b', 6, 48.81)], drawn);
    expect(setData).toHaveLength(4);
    expect(setData[3]).toMatchObject({
      features: [
        { properties: { n: 3, pid: 'a' } },
        { properties: { n: 6, pid: 'b' }, geometry: { coordinates: [2.3, 48.81] } },
      ],
    });
  });

  it('sets them again on another map (the screen mounted again), and waits for the source', () => {
    const first = recordingMap(6, true);
    const second = recordingMap(6, true);
    const drawn = syncAggregates(first.map, [cluster('a', 1)], null);
    syncAggregates(second.map, [cluster('a', 1)], drawn);
    expect(second.setData).toHaveLength(1);
    const bare = { getSource: () => undefined } as unknown as MapLibreMap;
    expect(syncAggregates(bare, [cluster('a', 1)], null)).toBeNull();
  });

  it('compares id, count and position in order', () => {
    expect(sameAggregates([cluster('a', 1)], [cluster('a', 1)])).toBe(true);
    expect(sameAggregates([cluster('a', 1), cluster('b', 1)], [cluster('b', 1), cluster('a', 1)])).toBe(false);
    expect(sameAggregates([cluster('a', 1)], [cluster('a', 1, 48.8, 2.31)])).toBe(false);
    expect(sameAggregates([cluster('a', 1)], [])).toBe(false);
  });
});
