/**
 * Tiles are cut off the event loop: while the first tile is being cut (indexes and all), a cheap
 * request on the same server is answered first, and the worker's bytes are those the cutter
 * itself produces.
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import geoRoutes from '../../src/modules/geo/routes.ts';
import { cutTile } from '../../src/modules/geo/tile-cutter.ts';

const app = Fastify();
beforeAll(async () => {
  await app.register(geoRoutes);
  app.get('/ping', async () => ({ ok: true }));
  await app.ready();
});
afterAll(async () => {
  await app.close();
});

/** z/x/y: the world, France at z5, Paris at z10 (precise land, rivers, admin), the South Atlantic (empty). */
const FIXTURE: Array<[number, number, number]> = [[0, 0, 0], [5, 16, 11], [10, 518, 352], [6, 28, 36]];
const url = ([z, x, y]: [number, number, number]) => `/api/geo/tiles/${z}/${x}/${y}.pbf`;

describe('GET /api/geo/tiles/:z/:x/:y.pbf off the event loop', () => {
  // The first tile builds the worker's indexes: seconds, more on a loaded machine.
  it('answers another request while a first-cut tile is being prepared', { timeout: 120_000 }, async () => {
    const finished: string[] = [];
    const tile = app.inject({ method: 'GET', url: url([10, 518, 352]) }).then((res) => {
      finished.push('tile');
      return res;
    });
    const ping = app.inject({ method: 'GET', url: '/ping' }).then((res) => {
      finished.push('ping');
      return res;
    });
    const [tileRes, pingRes] = await Promise.all([tile, ping]);
    expect(pingRes.statusCode).toBe(200);
    expect(tileRes.statusCode).toBe(200);
    expect(finished).toEqual(['ping', 'tile']);
  });

  it('serves the bytes and ETags the synchronous cutter produces, identity and gzip', { timeout: 120_000 }, async () => {
    for (const at of FIXTURE) {
      const plain = await app.inject({ method: 'GET', url: url(at), headers: { 'accept-encoding': 'identity' } });
      const gzip = await app.inject({ method: 'GET', url: url(at), headers: { 'accept-encoding': 'gzip' } });
      const expected = cutTile(...at);
      if (!expected) {
        expect(plain.statusCode, url(at)).toBe(204);
        continue;
      }
      expect(plain.statusCode, url(at)).toBe(200);
      expect(Buffer.compare(plain.rawPayload, expected.identity), url(at)).toBe(0);
      expect(plain.headers.etag).toBe(expected.etag);
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(Buffer.compare(gzip.rawPayload, expected.gzip), url(at)).toBe(0);
      expect(gzip.headers.etag).toBe(expected.gzipEtag);
    }
  });

  it('answers a tile asked for twice at once with the same bytes', async () => {
    const [a, b] = await Promise.all([0, 1].map(() => app.inject({ method: 'GET', url: url([9, 262, 182]) })));
    expect(a.statusCode).toBe(200);
    expect(Buffer.compare(a.rawPayload, b.rawPayload)).toBe(0);
  });
});
