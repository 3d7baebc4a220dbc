/**
 * Issue 19: the embedded basemap's tiles name places (thinned by zoom) and draw lakes and wide
 * rivers; decoded as MapLibre decodes them.
 */
import { VectorTile, type VectorTileLayer } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { beforeAll, describe, expect, it } from 'vitest';
import { GEO_TILE_MAX_ZOOM } from '@moodmap/core';
import { geoRoutesApp } from './fixtures.ts';

const app = geoRoutesApp();
// The tile worker builds its indexes with the first tile: tens of seconds on a busy machine, paid
// here once instead of inside the first test's time limit.
beforeAll(async () => {
  await app.inject('/api/geo/tiles/0/0/0.pbf');
}, 240_000);

function tileIndex(z: number, lat: number, lon: number): [number, number] {
  const n = 2 ** z;
  return [Math.floor(((lon + 180) / 360) * n), Math.floor(((1 - Math.asinh(Math.tan((lat * Math.PI) / 180)) / Math.PI) / 2) * n)];
}

async function tileAt(z: number, lat: number, lon: number): Promise<VectorTile> {
  const [x, y] = tileIndex(z, lat, lon);
  const res = await app.inject({ method: 'GET', url: `/api/geo/tiles/${z}/${x}/${y}.pbf` });
  expect(res.statusCode).toBe(200);
  return new VectorTile(new PbfReader(res.rawPayload));
}

interface DecodedPlace {
  name: string;
  population: number;
  rank: number;
  kind: string;
  /** Where the point falls inside the tile, 0–1 from its west and north edges. */
  at: [number, number];
}

function places(layer: VectorTileLayer | undefined): DecodedPlace[] {
  if (!layer) return [];
  return Array.from({ length: layer.length }, (_, i) => {
    const feature = layer.feature(i);
    const [[point]] = feature.loadGeometry();
    const { name, population, rank, kind } = feature.properties;
    return { name: String(name), population: Number(population), rank: Number(rank), kind: String(kind), at: [point.x / layer.extent, point.y / layer.extent] };
  });
}

const named = (tile: VectorTile, name: string) => places(tile.layers.places).filter((p) => p.name === name);

describe('places layer', () => {
  it('names Paris as a capital in the zoom-5 tile holding it, where it sits', async () => {
    const tile = await tileAt(5, 48.857, 2.352);
    const layer = tile.layers.places;
    expect(layer.feature(0).type).toBe(1); // point
    const [paris] = named(tile, 'Paris');
    expect(paris).toMatchObject({ kind: 'capital' });
    expect(paris.population).toBeGreaterThan(2_000_000);
    // Inside the tile at Paris' own position (tile x 16 spans 0°–11.25° E).
    expect(paris.at[0]).toBeCloseTo(2.352 / 11.25, 2);
    // Nothing in the tile ranks before the capital.
    expect(Math.min(...places(layer).map((p) => p.rank))).toBe(paris.rank);
  });

  it('names Lyon at zoom 8 and its small neighbours only deeper', async () => {
    const z8 = await tileAt(8, 45.764, 4.836);
    expect(named(z8, 'Lyon')).toHaveLength(1);
    expect(named(z8, 'Lyon')[0]).toMatchObject({ kind: 'city' });
    // Every place of a zoom-8 tile has at least 8 000 inhabitants.
    expect(Math.min(...places(z8.layers.places).map((p) => p.population))).toBeGreaterThanOrEqual(8_000);
  });

  it('shows a small town (Ornans, Doubs, ~4 000 inhabitants) at the deepest zoom but not at zoom 4', async () => {
    const deep = await tileAt(GEO_TILE_MAX_ZOOM, 47.106, 6.144);
    const [ornans] = named(deep, 'Ornans');
    expect(ornans.population).toBeLessThan(10_000);
    expect(ornans.kind).toBe('village');
    const z4 = await tileAt(4, 47.106, 6.144);
    expect(named(z4, 'Ornans')).toEqual([]);
    expect(named(z4, 'Paris')).toHaveLength(1);
  });

  it('names a section of a city (Eixample, Barcelone) only in the deepest tiles, not beside its city', async () => {
    const z5 = await tileAt(5, 41.39, 2.165);
    expect(named(z5, 'Barcelone')).toHaveLength(1);
    expect(named(z5, 'Eixample')).toEqual([]);
    expect(named(await tileAt(GEO_TILE_MAX_ZOOM, 41.39, 2.165), 'Eixample')).toHaveLength(1);
  });

  it('thins labels out zooming out: a world tile carries only metropolises and capitals', async () => {
    const world = await tileAt(0, 0, 0);
    const all = places(world.layers.places);
    expect(all.length).toBeGreaterThan(20);
    expect(all.length).toBeLessThan(100);
    expect(all.every((p) => p.population >= 5_000_000)).toBe(true);
    const z2 = places((await tileAt(2, 48.857, 2.352)).layers.places);
    expect(z2.map((p) => p.name)).toEqual(expect.arrayContaining(['Paris', 'Berlin', 'Moscou']));
    expect(z2.every((p) => p.population >= 1_000_000 || p.kind === 'capital')).toBe(true);
  });
});

describe('water layer', () => {
  it('draws Lake Geneva from zoom 5 and the Amazon at Manaus as water polygons', async () => {
    for (const [z, lat, lon, kind] of [[5, 46.45, 6.5, 'lake'], [8, 46.45, 6.5, 'lake'], [7, -3.13, -60.02, 'river']] as const) {
      const layer = (await tileAt(z, lat, lon)).layers.water;
      expect(layer, `z${z} ${lat},${lon}`).toBeDefined();
      expect(layer.feature(0).type).toBe(3); // polygon
      const kinds = Array.from({ length: layer.length }, (_, i) => layer.feature(i).properties.kind);
      expect(kinds).toContain(kind);
    }
  });

  it('leaves small lakes out of the world view', async () => {
    const world = (await tileAt(0, 0, 0)).layers.water;
    const z5 = (await tileAt(5, 46.45, 6.5)).layers.water;
    expect(world.length).toBeLessThan(z5.length * 10);
    expect(world.length).toBeLessThan(200);
  });
});
