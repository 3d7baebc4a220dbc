/**
 * The embedded basemap's tiles name places (thinned by zoom) and draw lakes and wide
 * rivers; read from the shipped archive through the tile route and decoded as MapLibre decodes them.
 */
import { VectorTile, type VectorTileLayer } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { describe, expect, it } from 'vitest';
import { GEO_TILE_MAX_ZOOM } from '@moodmap/core';
import { geoRoutesApp } from './fixtures.ts';

const app = geoRoutesApp();

function tileIndex(z: number, lat: number, lon: number): [number, number] {
  const n = 2 ** z;
  return [
    Math.floor(((lon + 180) / 360) * n),
    Math.floor(((1 - Math.asinh(Math.tan((lat * Math.PI) / 180)) / Math.PI) / 2) * n),
  ];
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
  /** The zoom the style draws it from, on the deepest tiles only (where it is deeper than the tile). */
  minzoom: number | undefined;
  /** Where the point falls inside the tile, 0–1 from its west and north edges. */
  at: [number, number];
}

function places(layer: VectorTileLayer | undefined): DecodedPlace[] {
  if (!layer) return [];
  return Array.from({ length: layer.length }, (_, i) => {
    const feature = layer.feature(i);
    const [[point]] = feature.loadGeometry();
    const { name, population, rank, kind, minzoom } = feature.properties;
    return {
      name: String(name),
      population: Number(population),
      rank: Number(rank),
      kind: String(kind),
      minzoom: minzoom === undefined ? undefined : Number(minzoom),
      at: [point.x / layer.extent, point.y / layer.extent],
    };
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

  it('names Lyon at zoom 7 and its small neighbours only deeper', async () => {
    const z7 = await tileAt(7, 45.764, 4.836);
    expect(named(z7, 'Lyon')).toHaveLength(1);
    expect(named(z7, 'Lyon')[0]).toMatchObject({ kind: 'city', minzoom: undefined });
    // Every place of a zoom-7 tile has at least 20 000 inhabitants.
    expect(Math.min(...places(z7.layers.places).map((p) => p.population))).toBeGreaterThanOrEqual(20_000);
  });

  it('carries on the deepest tiles the places of deeper zooms, each with the zoom it is drawn from', async () => {
    const deep = places((await tileAt(GEO_TILE_MAX_ZOOM, 45.764, 4.836)).layers.places);
    for (const place of deep) {
      // Untagged: drawn from this zoom, so a town of 8 000 or more (or a capital).
      if (place.minzoom === undefined)
        expect(place.population >= 8_000 || place.kind === 'capital', place.name).toBe(true);
      else expect(place.minzoom, place.name).toBeGreaterThan(GEO_TILE_MAX_ZOOM);
    }
    expect(deep.filter((p) => p.minzoom !== undefined).length).toBeGreaterThan(50);
  });

  it('shows a small town (Ornans, Doubs, ~4 000 inhabitants) from zoom 9 on the deepest tiles, not at zoom 4', async () => {
    const deep = await tileAt(GEO_TILE_MAX_ZOOM, 47.106, 6.144);
    const [ornans] = named(deep, 'Ornans');
    expect(ornans.population).toBeLessThan(10_000);
    expect(ornans).toMatchObject({ kind: 'village', minzoom: 9 });
    const z4 = await tileAt(4, 47.106, 6.144);
    expect(named(z4, 'Ornans')).toEqual([]);
    expect(named(z4, 'Paris')).toHaveLength(1);
  });

  it('names a section of a city (Eixample, Barcelone) only from zoom 10, not beside its city', async () => {
    const z5 = await tileAt(5, 41.39, 2.165);
    expect(named(z5, 'Barcelone')).toHaveLength(1);
    expect(named(z5, 'Eixample')).toEqual([]);
    const [eixample] = named(await tileAt(GEO_TILE_MAX_ZOOM, 41.39, 2.165), 'Eixample');
    expect(eixample.minzoom).toBe(10);
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
    for (const [z, lat, lon, kind] of [
      [5, 46.45, 6.5, 'lake'],
      [8, 46.45, 6.5, 'lake'],
      [7, -3.13, -60.02, 'river'],
    ] as const) {
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
