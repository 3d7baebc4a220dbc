import { gunzipSync } from 'node:zlib';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { describe, expect, it } from 'vitest';
import { GEO_TILE_MAX_ZOOM, MESSAGES } from '@moodmap/core';
import { geoRoutesApp } from './fixtures.ts';

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

describe('GET /api/geo/tiles/:z/:x/:y.pbf', () => {
  it('serves a tile over France with land, country borders, water and places, cacheable for a week', async () => {
    const res = await app.inject({ method: 'GET', url: tileAt(5, 48.86, 2.35) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.mapbox-vector-tile');
    expect(res.headers['cache-control']).toBe('public, max-age=604800, stale-while-revalidate=86400');
    expect(res.headers.etag).toMatch(/^"[^"]+"$/);
    const tile = decode(res.rawPayload);
    expect(Object.keys(tile.layers).sort()).toEqual(['borders', 'land', 'places', 'water']);
    const land = tile.layers.land;
    expect(land.extent).toBe(8192);
    expect(land.length).toBeGreaterThan(0);
    expect(land.feature(0).type).toBe(3); // polygon
    expect(tile.layers.borders.feature(0).type).toBe(2); // line
  });

  it('keeps the detail of the data at the deepest zoom: a tile over Paris is all land', async () => {
    const res = await app.inject({ method: 'GET', url: tileAt(GEO_TILE_MAX_ZOOM, 48.86, 2.35) });
    expect(res.statusCode).toBe(200);
    const tile = decode(res.rawPayload);
    expect(tile.layers.land.length).toBeGreaterThan(0);
    expect(tile.layers.borders).toBeUndefined();
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
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(zipped.rawPayload).equals(plain.rawPayload)).toBe(true);
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    const again = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip', 'if-none-match': zipped.headers.etag as string } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
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
