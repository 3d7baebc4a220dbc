/**
 * The shipped archive (server/geodata/basemap/basemap.pmtiles) is what the build makes from the
 * data in the repository and its packages: its first zooms, rebuilt here, equal it tile for tile;
 * sampled deeper tiles equal the cutter's; and the first views cost no more bytes than cutting and
 * gzipping them on request did. After a data change, `node server/geodata/basemap/build.ts`.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { Compression, PMTiles, type Source, TileType } from 'pmtiles';
import { beforeAll, describe, expect, it } from 'vitest';
import { GEO_TILE_MAX_ZOOM, MAP } from '@moodmap/core';
import { cutPyramid } from '../../geodata/lib/basemap/basemap-build.ts';
import { buildWorldGeoJson } from '../../geodata/lib/basemap/world-geojson-build.ts';
import { WORLD_GEOJSON_FILES } from '../../src/modules/geo/world-geojson.ts';
import { cutTile, TILE_LAYERS } from '../../geodata/lib/basemap/tile-cutter.ts';
import { openTileArchive, type TileArchive } from '../../src/modules/geo/tile-archive.ts';
import { BASEMAP_ARCHIVE_FILE, getTile } from '../../src/modules/geo/tiles.ts';

let shipped: TileArchive;
beforeAll(async () => {
  shipped = await openTileArchive(BASEMAP_ARCHIVE_FILE);
  // The cutter reads and indexes every source on its first tile: seconds, more on a busy
  // machine, paid here once instead of inside the first test's time limit.
  cutTile(0, 0, 0);
}, 240_000);

async function shippedTile(z: number, x: number, y: number): Promise<Buffer | null> {
  const stored = await shipped.storedTile(z, x, y);
  return stored && gunzipSync(stored);
}

/** The tile holding a point (Web Mercator, as MapLibre numbers them). */
function tileAt(z: number, lat: number, lon: number): [number, number, number] {
  const n = 2 ** z;
  return [
    z,
    Math.floor(((lon + 180) / 360) * n),
    Math.floor(((1 - Math.asinh(Math.tan((lat * Math.PI) / 180)) / Math.PI) / 2) * n),
  ];
}

/** The 512-px tiles a map of width × height CSS pixels draws at a view (one world copy, as the app). */
function viewTiles(
  view: { latitude: number; longitude: number; zoom: number },
  width: number,
  height: number,
): Array<[number, number, number]> {
  const z = Math.min(GEO_TILE_MAX_ZOOM, Math.floor(view.zoom));
  const n = 2 ** z;
  const world = 512 * 2 ** view.zoom;
  const cx = (view.longitude + 180) / 360;
  const cy = (1 - Math.asinh(Math.tan((view.latitude * Math.PI) / 180)) / Math.PI) / 2;
  const clamp = (v: number) => Math.max(0, Math.min(n - 1, Math.floor(v * n)));
  const tiles: Array<[number, number, number]> = [];
  for (let x = clamp(cx - width / 2 / world); x <= clamp(cx + width / 2 / world); x++) {
    for (let y = clamp(cy - height / 2 / world); y <= clamp(cy + height / 2 / world); y++) tiles.push([z, x, y]);
  }
  return tiles;
}

describe('the shipped basemap archive', () => {
  it('is PMTiles v3 of gzip vector tiles from z0 to GEO_TILE_MAX_ZOOM, naming itself and its layers', async () => {
    expect(shipped.header).toMatchObject({
      specVersion: 3,
      tileType: TileType.Mvt,
      tileCompression: Compression.Gzip,
      minZoom: 0,
      maxZoom: GEO_TILE_MAX_ZOOM,
    });
    const file = readFileSync(BASEMAP_ARCHIVE_FILE);
    const source: Source = {
      getKey: () => 'shipped',
      getBytes: async (o, l) => ({ data: new Uint8Array(file.subarray(o, o + l)).buffer }),
    };
    const metadata = await new PMTiles(source).getMetadata();
    expect(metadata).toMatchObject({ 'moodmap:basemap': 'embedded' });
    const layers = (metadata as { vector_layers: Array<{ id: string }> }).vector_layers.map((l) => l.id);
    expect(layers.sort()).toEqual(Object.values(TILE_LAYERS).sort());
  });

  it('holds, from z0 to z3, exactly the tiles a rebuild cuts', { timeout: 120_000 }, async () => {
    const rebuilt = new Map(cutPyramid(3).map((t) => [`${t.z}/${t.x}/${t.y}`, t.data]));
    expect(rebuilt.size).toBeGreaterThan(70);
    for (let z = 0; z <= 3; z++) {
      for (let x = 0; x < 2 ** z; x++) {
        for (let y = 0; y < 2 ** z; y++) {
          const key = `${z}/${x}/${y}`;
          const expected = rebuilt.get(key);
          expect(await shippedTile(z, x, y), key).toEqual(expected ? Buffer.from(expected) : null);
        }
      }
    }
  });

  it.each([
    ['France', tileAt(5, 46.6, 2.4)],
    ['Paris', tileAt(GEO_TILE_MAX_ZOOM, 48.857, 2.352)],
    ['Lyon', tileAt(7, 45.764, 4.836)],
    ['Marseille and its coast', tileAt(GEO_TILE_MAX_ZOOM, 43.296, 5.37)],
    ['Malé (an island the precise land keeps)', tileAt(GEO_TILE_MAX_ZOOM, 4.1755, 73.5093)],
    ['the Amazon at Manaus', tileAt(6, -3.13, -60.02)],
    ['Lake Geneva', tileAt(GEO_TILE_MAX_ZOOM, 46.45, 6.5)],
    ['the South Atlantic (nothing)', tileAt(5, -27, -17)],
  ])('holds what the cutter cuts today over %s', { timeout: 120_000 }, async (_name, [z, x, y]) => {
    const cut = cutTile(z, x, y);
    expect(await shippedTile(z, x, y)).toEqual(cut ? Buffer.from(cut) : null);
  });

  it('costs the first views no more bytes than the tiles cut and gzipped on request did', {
    timeout: 120_000,
  }, async () => {
    for (const [view, width, height] of [
      [MAP.desktopView, 1440, 900],
      [MAP.mobileView, 390, 844],
    ] as const) {
      let served = 0;
      let cutOnRequest = 0;
      for (const [z, x, y] of viewTiles(view, width, height)) {
        served += (await getTile(z, x, y))?.gzip.length ?? 0;
        const cut = cutTile(z, x, y);
        cutOnRequest += cut ? gzipSync(cut, { level: 9 }).length : 0;
      }
      expect(served, `${width}×${height}`).toBeGreaterThan(10_000);
      expect(served, `${width}×${height}`).toBeLessThanOrEqual(cutOnRequest);
    }
  });

  it('ships the world GeoJSON a rebuild writes, land and borders', () => {
    const rebuilt = buildWorldGeoJson();
    for (const name of ['land', 'borders'] as const) {
      const shipped = gunzipSync(readFileSync(WORLD_GEOJSON_FILES[name]));
      expect([name, shipped.equals(rebuilt[name])]).toEqual([name, true]);
      expect(JSON.parse(shipped.toString()).features.length, name).toBeGreaterThan(0);
    }
  });
});
