import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { VectorTile, type VectorTileLayer } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { describe, expect, it } from 'vitest';
import { GEO_TILE_MAX_ZOOM, MESSAGES } from '@moodmap/core';
import { loadCountryPolygons } from '../../geodata/lib/land-data.ts';
import { writePmtiles } from '../../src/modules/geo/basemap/pmtiles-writer.ts';
import { BASEMAP_ARCHIVE_FILE, checkBasemapArchive } from '../../src/modules/geo/tiles.ts';
import { geoRoutesApp } from './fixtures.ts';

/** The route reads the shipped archive (basemap-archive.test.ts checks it against the cutter). */
const app = geoRoutesApp();

/** The tile holding a point (Web Mercator, as MapLibre numbers them). */
function tileAt(z: number, lat: number, lon: number): string {
  const n = 2 ** z;
  const x = Math.floor(((lon + 180) / 360) * n);
  const y = Math.floor(((1 - Math.asinh(Math.tan((lat * Math.PI) / 180)) / Math.PI) / 2) * n);
  return `/api/geo/tiles/${z}/${x}/${y}.pbf`;
}

function decode(bytes: Buffer): VectorTile {
  return new VectorTile(new PbfReader(bytes));
}

/** Every vertex of a decoded line layer, as [lon, lat], from the tile's url. */
function lineVertices(url: string, layer: VectorTileLayer): Array<[number, number]> {
  const [z, x, y] = url
    .match(/(\d+)\/(\d+)\/(\d+)\.pbf$/)!
    .slice(1)
    .map(Number);
  const n = 2 ** z;
  const vertices: Array<[number, number]> = [];
  for (let i = 0; i < layer.length; i++) {
    for (const line of layer.feature(i).loadGeometry()) {
      for (const p of line) {
        const lon = ((x + p.x / layer.extent) / n) * 360 - 180;
        const lat = (Math.atan(Math.sinh(Math.PI * (1 - (2 * (y + p.y / layer.extent)) / n))) * 180) / Math.PI;
        vertices.push([lon, lat]);
      }
    }
  }
  return vertices;
}

/** France's polygons as Natural Earth 50m draws the country (ISO 3166 numeric 250). */
const francePolygons = (): number[][][][] => loadCountryPolygons('250');

/** Even-odd ray casting over every ring (holes included). */
function inPolygons(polygons: number[][][][], [lon, lat]: [number, number]): boolean {
  let inside = false;
  for (const ring of polygons.flat()) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i];
      const [xj, yj] = ring[j];
      if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

describe('GET /api/geo/tiles/:z/:x/:y.pbf', () => {
  it('serves a tile over France with land, country and region borders, water, rivers and places, cacheable for a week', async () => {
    const res = await app.inject({ method: 'GET', url: tileAt(5, 48.86, 2.35) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.mapbox-vector-tile');
    expect(res.headers['cache-control']).toBe('public, max-age=604800, stale-while-revalidate=86400');
    expect(res.headers.etag).toMatch(/^"[^"]+"$/);
    const tile = decode(res.rawPayload);
    expect(Object.keys(tile.layers).sort()).toEqual(['admin', 'borders', 'land', 'places', 'rivers', 'water']);
    const land = tile.layers.land;
    expect(land.extent).toBe(8192);
    expect(land.length).toBeGreaterThan(0);
    expect(land.feature(0).type).toBe(3); // polygon
    expect(tile.layers.borders.feature(0).type).toBe(2); // line
  });

  it('labels foreign cities in French: Bruxelles and Cologne on a zoom 5 tile', async () => {
    const names = new Set<string>();
    for (const [lat, lon] of [
      [50.85, 4.35],
      [50.94, 6.96],
    ]) {
      const places = decode((await app.inject({ method: 'GET', url: tileAt(5, lat, lon) })).rawPayload).layers.places;
      for (let i = 0; i < places.length; i++) names.add(String(places.feature(i).properties.name));
    }
    expect(names).toContain('Bruxelles');
    expect(names).toContain('Cologne');
    expect(names).not.toContain('Brussels');
    expect(names).not.toContain('Köln');
  });

  it('keeps the detail of the data at the deepest zoom: a tile over Paris is all land, without a border', async () => {
    const res = await app.inject({ method: 'GET', url: tileAt(GEO_TILE_MAX_ZOOM, 48.86, 2.35) });
    expect(res.statusCode).toBe(200);
    const tile = decode(res.rawPayload);
    expect(tile.layers.land.length).toBeGreaterThan(0);
    expect(tile.layers.borders).toBeUndefined();
  });

  it('draws the boundaries between French départements around Lyon, inside France', async () => {
    const france = francePolygons();
    // Tiles wholly inside France (with their buffer), from the style's minzoom on: z4 is the
    // tile west of Poland, z6 and z8 only France.
    const z4 = decode((await app.inject({ method: 'GET', url: tileAt(4, 45.764, 4.836) })).rawPayload);
    expect(z4.layers.admin.length).toBeGreaterThan(0);
    for (const z of [6, 8]) {
      const url = tileAt(z, 45.764, 4.836);
      const res = await app.inject({ method: 'GET', url });
      const admin = decode(res.rawPayload).layers.admin;
      expect(admin, `z${z}`).toBeDefined();
      expect(admin.feature(0).type).toBe(2); // line
      const vertices = lineVertices(url, admin);
      expect(vertices.length).toBeGreaterThan(z === 8 ? 10 : 100);
      // Inside France, within 2 km of Natural Earth 50m's outline: the admin-1 data is quantised to
      // ~1 km and lines between départements end on the coast or the border.
      const near = (lon: number, lat: number) =>
        [-0.02, 0, 0.02].some((dx) => [-0.02, 0, 0.02].some((dy) => inPolygons(france, [lon + dx, lat + dy])));
      const outside = vertices.filter(([lon, lat]) => !near(lon, lat));
      expect(outside, `z${z}`).toEqual([]);
    }
    // Lyon (Rhône) is a few kilometres from the Ain and Isère: a line passes within 15 km of it.
    const z8 = tileAt(8, 45.764, 4.836);
    const vertices = lineVertices(z8, decode((await app.inject({ method: 'GET', url: z8 })).rawPayload).layers.admin);
    expect(
      vertices.some(
        ([lon, lat]) => Math.hypot((lon - 4.836) * Math.cos((45.764 * Math.PI) / 180), lat - 45.764) < 0.135,
      ),
    ).toBe(true);
  });

  it('draws only the lines between two départements, not their coast again: Brittany at zoom 6', async () => {
    const france = francePolygons();
    const url = tileAt(6, 48.2, -3.0);
    const vertices = lineVertices(url, decode((await app.inject({ method: 'GET', url })).rawPayload).layers.admin);
    expect(vertices.length).toBeGreaterThan(100);
    // Within 2 km of the sea: only where a line between two départements meets the coast (the
    // coast of the tile is longer than all its inner lines together).
    const offsets = [-0.02, 0, 0.02];
    const nearSea = vertices.filter(
      ([lon, lat]) => !offsets.every((dx) => offsets.every((dy) => inPolygons(france, [lon + dx, lat + dy]))),
    );
    expect(nearSea.length).toBeLessThan(vertices.length * 0.05);
  });

  it('leaves region borders out of the tiles below zoom 4 (the world view)', async () => {
    for (const url of [tileAt(3, 45.764, 4.836), '/api/geo/tiles/0/0/0.pbf']) {
      const tile = decode((await app.inject({ method: 'GET', url })).rawPayload);
      expect(tile.layers.borders, url).toBeDefined();
      expect(tile.layers.admin, url).toBeUndefined();
    }
  });

  it.each([
    // Points on the river's bed: Pont Neuf in Paris, the Rhône at Pont Wilson in Lyon, the Loire at
    // Pont Wilson in Tours, the Garonne at Pont de Pierre in Bordeaux.
    ['the Seine in Paris', 48.8575, 2.3413],
    ['the Rhône in Lyon', 45.7603, 4.8387],
    ['the Loire in Tours', 47.3963, 0.6878],
    ['the Garonne in Bordeaux', 44.8378, -0.5636],
  ])(
    'draws %s as a line within 1 km of its bed (2 km at zoom 6), from zoom 6 to the deepest',
    async (_name, lat, lon) => {
      // WDB II's lines lie 15–810 m from these points (basemap/river-data.ts); at zoom 6 a pixel
      // is ~0.85 km and the cut simplifies lines to 0.3 px.
      for (const [z, km] of [
        [6, 2],
        [GEO_TILE_MAX_ZOOM, 1],
      ]) {
        const url = tileAt(z, lat, lon);
        const rivers = decode((await app.inject({ method: 'GET', url })).rawPayload).layers.rivers;
        expect(rivers, `z${z}`).toBeDefined();
        expect(rivers.feature(0).type).toBe(2); // line
        // The distance from the point to the nearest segment, in km.
        const vertices = lineVertices(url, rivers);
        const kx = 111.32 * Math.cos((lat * Math.PI) / 180);
        let nearest = Infinity;
        for (let i = 1; i < vertices.length; i++) {
          const [ax, ay] = [(vertices[i - 1][0] - lon) * kx, (vertices[i - 1][1] - lat) * 110.57];
          const [bx, by] = [(vertices[i][0] - lon) * kx, (vertices[i][1] - lat) * 110.57];
          const t = Math.max(
            0,
            Math.min(1, -(ax * (bx - ax) + ay * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2 || 1)),
          );
          nearest = Math.min(nearest, Math.hypot(ax + t * (bx - ax), ay + t * (by - ay)));
        }
        expect(nearest, `z${z}`).toBeLessThan(km);
      }
    },
  );

  it('thins rivers by zoom: none on the world view, the major ones at zoom 4, all the permanent ones from zoom 8', async () => {
    for (const url of ['/api/geo/tiles/0/0/0.pbf', tileAt(3, 46, 2)]) {
      expect(decode((await app.inject({ method: 'GET', url })).rawPayload).layers.rivers, url).toBeUndefined();
    }
    const ranks = async (z: number) => {
      const layer = decode((await app.inject({ method: 'GET', url: tileAt(z, 46, 2) })).rawPayload).layers.rivers;
      return new Set(Array.from({ length: layer.length }, (_, i) => Number(layer.feature(i).properties.rank)));
    };
    expect([...(await ranks(4))].every((rank) => rank <= 1)).toBe(true);
    expect((await ranks(8)).has(3)).toBe(true);
  });

  it('answers 204 with no body for a tile of open sea (South Atlantic), still cacheable', async () => {
    const res = await app.inject({ method: 'GET', url: tileAt(5, -27, -17) });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(res.headers['cache-control']).toBe('public, max-age=604800, stale-while-revalidate=86400');
  });

  it('sends the same tile gzip-compressed to clients that accept gzip, with 304 on a matching ETag', async () => {
    const url = tileAt(4, 46, 2);
    const plain = await app.inject({ method: 'GET', url });
    const zipped = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, br' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(zipped.rawPayload).equals(plain.rawPayload)).toBe(true);
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    // One ETag per representation, each strong.
    expect(zipped.headers.etag).toMatch(/^"[^"]+-gzip"$/);
    expect(plain.headers.etag).toBe((zipped.headers.etag as string).replace('-gzip', ''));
    const again = await app.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'gzip', 'if-none-match': zipped.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('answers tiles asked for at once, each with its own bytes', async () => {
    const urls = [tileAt(8, 48.86, 2.35), tileAt(8, 45.764, 4.836), tileAt(7, 48.86, 2.35), tileAt(8, 48.86, 2.35)];
    const answers = await Promise.all(
      urls.map((url) => app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } })),
    );
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200, 200]);
    expect(answers[3].rawPayload.equals(answers[0].rawPayload)).toBe(true);
    expect(new Set(answers.slice(0, 3).map((res) => res.headers.etag)).size).toBe(3);
  });

  it.each([
    ['a zoom past the deepest', `/api/geo/tiles/${GEO_TILE_MAX_ZOOM + 1}/0/0.pbf`],
    ['x outside the zoom', '/api/geo/tiles/2/4/0.pbf'],
    ['y outside the zoom', '/api/geo/tiles/3/0/8.pbf'],
    ['a negative index', '/api/geo/tiles/3/-1/0.pbf'],
    ['a fraction', '/api/geo/tiles/3/1.5/0.pbf'],
    ['letters', '/api/geo/tiles/z/0/0.pbf'],
    ['a huge number', '/api/geo/tiles/99999999999/0/0.pbf'],
  ])('refuses %s with 400 invalid_tile in the API shape', async (_name, url) => {
    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: { code: 'invalid_tile', message: MESSAGES.invalid_tile } });
  });
});

describe('the archive the tiles are read from', () => {
  it('passes the check the server makes before it listens', () => {
    expect(() => checkBasemapArchive(BASEMAP_ARCHIVE_FILE)).not.toThrow();
  });

  it('stops the start with a sentence saying how to rebuild it when missing or not an archive', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'moodmap-basemap-'));
    try {
      const missing = path.join(dir, 'basemap.pmtiles');
      expect(() => checkBasemapArchive(missing)).toThrow(
        /Fond de carte embarqué illisible .*fichier introuvable.*Reconstruisez-le : npm run geodata -w server/,
      );
      const text = path.join(dir, 'text.pmtiles');
      writeFileSync(text, 'not an archive at all, only a line of text long enough for a header'.repeat(3));
      expect(() => checkBasemapArchive(text)).toThrow(
        /ce n'est pas une archive PMTiles[\s\S]*Embedded basemap unreadable .*not a PMTiles archive/,
      );
      // An archive, but of uncompressed tiles: the route would send them as gzip.
      const plain = path.join(dir, 'plain.pmtiles');
      const tile = { z: 0, x: 0, y: 0, data: Uint8Array.from([1, 2, 3]) };
      writeFileSync(
        plain,
        writePmtiles({
          tiles: [tile],
          tileCompression: 'none',
          metadata: {},
          bounds: [-180, -85, 180, 85],
          center: [0, 0, 0],
        }).archive,
      );
      expect(() => checkBasemapArchive(plain)).toThrow(/not PMTiles v3 of gzip vector tiles/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
