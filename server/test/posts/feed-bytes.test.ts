/**
 * The viewport answer's bytes (feed-cache.ts toBytes): gzipped while the first viewer of a view
 * waits, so at zlib's fastest level and a large answer in parts on the thread pool
 * (parallel-gzip.ts), and the same answer whichever coding a client takes.
 */
import { createGunzip, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { toBytes } from '../../src/modules/posts/feed-cache.ts';
import { gzipParallel } from '../../src/modules/posts/parallel-gzip.ts';

/** A city view's answer of `n` markers, as feed.ts writes it (PostgreSQL's marker texts joined). */
function cityAnswer(n: number): string {
  const markers = Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      userId: `10000000-0000-4000-8000-${String(i % 97).padStart(12, '0')}`,
      category: ['happy', 'angry', 'party', 'money', 'love'][i % 5],
      latitude: 48.85 + i * 1e-4,
      longitude: 2.35 - i * 1e-4,
      nickname: `membre_${i % 97}`,
      photoUrl: i % 5 < 3 ? `/media/avatars/${i % 97}.webp` : null,
      hasPulseEffect: i % 20 === 0,
      createdAt: new Date(Date.UTC(2026, 10, 24, 12, 0, 0) - i * 60_000).toISOString(),
    }),
  );
  return `{"points":[${markers.join(',')}],"clusters":[],"cursor":"czoxOjE6","serverTime":"2026-11-24T12:00:00.000Z"}`;
}

describe('the bytes of a viewport answer', () => {
  it('are gzipped at the fastest level, and unzip to exactly the answer sent without gzip', async () => {
    const answer = cityAnswer(600);
    const bytes = await toBytes(answer);
    expect(bytes.identity.toString('utf8')).toBe(answer);
    expect(gunzipSync(bytes.gzip).equals(bytes.identity)).toBe(true);
    // RFC 1952's XFL byte: 4 = "compressor used fastest algorithm" (zlib writes 0 for level 6, 2 for 9).
    expect(bytes.gzip[8]).toBe(4);
    // Still five times smaller than the JSON, which is what gzip is sent for.
    expect(bytes.gzip.length).toBeLessThan(bytes.identity.length / 5);
  });

  it('keep one strong ETag per coding, the same for the same answer', async () => {
    const answer = cityAnswer(3);
    const [a, b] = [await toBytes(answer), await toBytes(answer)];
    expect(a.etag).toMatch(/^"[^"]+"$/);
    expect(a.gzipEtag).not.toBe(a.etag);
    expect([b.etag, b.gzipEtag]).toEqual([a.etag, a.gzipEtag]);
    expect((await toBytes(cityAnswer(4))).etag).not.toBe(a.etag);
  });
});

/** What a streaming gzip reader (as a browser's) gets from `gzip`. */
async function streamed(gzip: Buffer): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const gunzip = createGunzip();
  gunzip.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => gunzip.on('end', resolve).on('error', reject));
  // Fed in small pieces, as bytes come off a socket.
  for (let i = 0; i < gzip.length; i += 1000) gunzip.write(gzip.subarray(i, i + 1000));
  gunzip.end();
  await done;
  return Buffer.concat(chunks);
}

describe('gzip on the thread pool', () => {
  it('gives one gzip member that unzips to the input, whatever its size', async () => {
    for (const n of [0, 1, 20, 90, 101, 400, 1500]) {
      const data = Buffer.from(cityAnswer(n));
      const gzip = await gzipParallel(data, 1);
      expect(gunzipSync(gzip).equals(data)).toBe(true);
      expect((await streamed(gzip)).equals(data)).toBe(true);
      expect(gzip.subarray(0, 3)).toEqual(Buffer.from([0x1f, 0x8b, 8]));
      expect(gzip[8]).toBe(4);
      // The trailer's size is the whole input's, not a part's.
      expect(gzip.readUInt32LE(gzip.length - 4)).toBe(data.length);
    }
  });
});
