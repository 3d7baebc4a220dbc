/** Large JSON answers are gzipped for clients that take gzip; small ones and other clients get them as they are. */
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { testConfig } from '../../src/config.ts';
import { COMPRESS_MIN_BYTES } from '../../src/http/compression.ts';

describe('JSON compression', () => {
  it('gzips a large answer when asked, says it varies, and leaves small answers and other clients alone', async () => {
    const app = await buildApp(testConfig());
    const posts = Array.from({ length: 200 }, (_, i) => ({
      id: `p-${i}`,
      content: `Grand soleil sur la plage, venez ! ${i}`,
      latitude: -21.06,
      longitude: 55.21,
    }));
    app.get('/api/test/large', async () => ({ posts }));
    app.get('/api/test/small', async () => ({ ok: true }));
    try {
      const plainBody = JSON.stringify({ posts });
      expect(plainBody.length).toBeGreaterThan(COMPRESS_MIN_BYTES);

      const zipped = await app.inject({ url: '/api/test/large', headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(zipped.statusCode).toBe(200);
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.headers['content-type']).toContain('application/json');
      expect(zipped.headers.vary).toContain('accept-encoding');
      // Streamed through zlib (chunked) or compressed in one go with its exact length.
      if (zipped.headers['content-length'] !== undefined)
        expect(Number(zipped.headers['content-length'])).toBe(zipped.rawPayload.length);
      expect(zipped.rawPayload.length).toBeLessThan(plainBody.length / 4);
      expect(JSON.parse(gunzipSync(zipped.rawPayload).toString())).toEqual({ posts });

      const refused = await app.inject({
        url: '/api/test/large',
        headers: { 'accept-encoding': 'gzip;q=0, identity' },
      });
      expect(refused.headers['content-encoding']).toBeUndefined();
      expect(refused.headers.vary).toContain('accept-encoding');
      expect(refused.json()).toEqual({ posts });

      // Only gzip: a client offering brotli alone gets the answer as it is.
      const brOnly = await app.inject({ url: '/api/test/large', headers: { 'accept-encoding': 'br' } });
      expect(brOnly.headers['content-encoding']).toBeUndefined();
      expect(brOnly.json()).toEqual({ posts });

      // A request body sent gzipped is not inflated: it is refused as before, never a 5xx.
      const zippedBody = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        payload: gzipSync(JSON.stringify({ email: 'a@b.fr', password: 'x' })),
      });
      expect(zippedBody.statusCode).toBe(400);

      const small = await app.inject({ url: '/api/test/small', headers: { 'accept-encoding': 'gzip' } });
      expect(small.headers['content-encoding']).toBeUndefined();
      expect(small.json()).toEqual({ ok: true });
    } finally {
      await app.close();
    }
  });
});
