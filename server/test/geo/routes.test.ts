import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { acceptsGzip } from '../../src/http/compression.ts';
import { geoRoutesApp } from './fixtures.ts';

const app = geoRoutesApp();

describe.each(['/api/map/land.geojson', '/api/map/borders.geojson'])('GET %s', (url) => {
  it('serves GeoJSON cacheable for a day with a strong ETag', async () => {
    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/geo\+json/);
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.etag).toMatch(/^"[^"]+"$/); // strong: no W/ prefix
    const body = res.json();
    expect(body.type).toBe('FeatureCollection');
    expect(body.features.length).toBeGreaterThan(0);
  });

  it('answers 304 without a body when the ETag matches', async () => {
    const first = await app.inject({ method: 'GET', url });
    const again = await app.inject({ method: 'GET', url, headers: { 'if-none-match': first.headers.etag as string } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(first.headers.etag);

    const stale = await app.inject({ method: 'GET', url, headers: { 'if-none-match': '"something-else"' } });
    expect(stale.statusCode).toBe(200);
  });

  it('serves the same document gzip-compressed to clients that accept gzip', async () => {
    const plain = await app.inject({ method: 'GET', url });
    const zipped = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/accept-encoding/i);
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(gunzipSync(zipped.rawPayload).equals(plain.rawPayload)).toBe(true);
    expect(zipped.headers.etag).not.toBe(plain.headers.etag);

    const revalidated = await app.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'gzip', 'if-none-match': zipped.headers.etag as string },
    });
    expect(revalidated.statusCode).toBe(304);
  });
});

describe('GET /api/geo/land', () => {
  it.each([
    ['48.8566', '2.3522', true],
    ['-20.8789', '55.4481', true],
    ['30', '-40', false],
    ['-90', '0', true],
  ])('lat=%s lon=%s → onLand %s', async (lat, lon, onLand) => {
    const res = await app.inject({ method: 'GET', url: '/api/geo/land', query: { lat, lon } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ onLand });
  });

  it.each([
    'lat=abc&lon=2',
    'lat=91&lon=2',
    'lat=48&lon=-180.5',
    'lat=48',
    'lat=&lon=2',
    'lat=0x10&lon=2',
    'lat=NaN&lon=2',
    'lat=1&lat=2&lon=2',
    '',
  ])('?%s → 400 invalid_coordinates', async (query) => {
    const res = await app.inject({ method: 'GET', url: `/api/geo/land?${query}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: { code: 'invalid_coordinates', message: 'Coordonnées de localisation invalides' },
    });
  });
});

describe('acceptsGzip', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['gzip', true],
    ['br, gzip;q=0.5', true],
    ['gzip;q=0', false],
    ['*', true],
    ['gzip;q=0, *', false],
    ['identity', false],
  ])('%s → %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});
