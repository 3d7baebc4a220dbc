/**
 * The feed's byte cache past its entry lifetime: an aged answer is served while one reload runs
 * (no viewer waits on the database when many views age at once), and an event during that reload
 * still wins (the reloaded answer is not kept over it). Bounded by the bytes it keeps, the views
 * asked for again outlive a burst of views asked for once (segmented-lru.ts).
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ViewportAnswer } from '@moodmap/core';
import { createFeedCache, ENTRY_TTL_MS, type FeedCache } from '../../src/modules/posts/feed-cache.ts';
import type { Area } from '../../src/modules/posts/feed.ts';
import { BUS_RESUMED } from '../../src/adapters/bus/types.ts';

const AREA: Area = { lonRanges: [[2, 3]], south: 48, north: 49 };
const answer = (cursor: string): ViewportAnswer => ({
  points: [],
  clusters: [],
  cursor,
  serverTime: '2026-11-24T00:00:00.000Z',
});
const text = async (bytes: Promise<{ identity: Buffer }>) =>
  JSON.parse((await bytes).identity.toString()).cursor as string;

/** A load the test resolves by hand, counting calls. */
function loads() {
  const pending: Array<(a: ViewportAnswer) => void> = [];
  let calls = 0;
  return {
    load: () => {
      calls++;
      return new Promise<ViewportAnswer>((resolve) => pending.push(resolve));
    },
    resolveNext: (cursor: string) => pending.shift()!(answer(cursor)),
    get calls() {
      return calls;
    },
  };
}

describe('the feed cache past an entry lifetime', () => {
  it('spreads the lifetimes of answers filled together, between half of ENTRY_TTL_MS and all of it', async () => {
    let time = 0;
    const draws = [0, 1, 0.5];
    const cache = createFeedCache(
      () => time,
      () => draws.shift() ?? 1,
    );
    const db = loads();
    for (const key of ['a', 'b', 'c']) {
      const answer = cache.get(key, AREA, db.load);
      db.resolveNext(key);
      await answer;
    }
    expect(db.calls).toBe(3);
    const reloadsAt = async (at: number) => {
      time = at;
      const before = db.calls;
      for (const key of ['a', 'b', 'c']) await cache.get(key, AREA, db.load);
      return db.calls - before;
    };
    // 'a' lives half the lifetime, 'c' three quarters, 'b' all of it: one reload at each step.
    expect(await reloadsAt(ENTRY_TTL_MS * 0.5 - 1)).toBe(0);
    expect(await reloadsAt(ENTRY_TTL_MS * 0.5 + 1)).toBe(1);
    db.resolveNext('a2');
    expect(await reloadsAt(ENTRY_TTL_MS * 0.75 + 1)).toBe(1);
    db.resolveNext('c2');
    expect(await reloadsAt(ENTRY_TTL_MS + 1)).toBe(1);
  });

  it('serves the aged answer while one reload runs, then the new one', async () => {
    let time = 0;
    const cache = createFeedCache(() => time);
    const db = loads();
    const first = cache.get('k', AREA, db.load);
    db.resolveNext('one');
    expect(await text(first)).toBe('one');

    time = ENTRY_TTL_MS + 1;
    // Three viewers of the aged view: each gets the old answer at once, one reload is asked for.
    for (let i = 0; i < 3; i++) expect(await text(cache.get('k', AREA, db.load))).toBe('one');
    expect(db.calls).toBe(2);
    db.resolveNext('two');
    await new Promise((r) => setTimeout(r, 0));
    expect(await text(cache.get('k', AREA, db.load))).toBe('two');
    expect(db.calls).toBe(2);
  });

  it('keeps no reloaded answer over a post event that came during the reload', async () => {
    let time = 0;
    const cache = createFeedCache(() => time);
    const db = loads();
    const first = cache.get('k', AREA, db.load);
    db.resolveNext('one');
    await first;
    time = ENTRY_TTL_MS + 1;
    expect(await text(cache.get('k', AREA, db.load))).toBe('one');
    cache.invalidateAt(48.5, 2.5);
    db.resolveNext('read before the post');
    await new Promise((r) => setTimeout(r, 0));
    // The next viewer waits for a read made after the event.
    const next = cache.get('k', AREA, db.load);
    expect(db.calls).toBe(3);
    db.resolveNext('after the post');
    expect(await text(next)).toBe('after the post');
  });

  it('tries the reload again after it failed, still serving the aged answer', async () => {
    let time = 0;
    const cache = createFeedCache(() => time);
    let fail = false;
    let calls = 0;
    const load = async () => {
      calls++;
      if (fail) throw new Error('database away');
      return answer(`read ${calls}`);
    };
    await cache.get('k', AREA, load);
    time = ENTRY_TTL_MS + 1;
    fail = true;
    expect(await text(cache.get('k', AREA, load))).toBe('read 1');
    await new Promise((r) => setTimeout(r, 0));
    fail = false;
    expect(await text(cache.get('k', AREA, load))).toBe('read 1');
    await new Promise((r) => setTimeout(r, 0));
    expect(await text(cache.get('k', AREA, load))).toBe('read 3');
  });
});

describe('the feed cache bounded by its bytes', () => {
  /** An answer of about `size` bytes that gzip barely shrinks (random hex), and the loads asked for. */
  const sized = (size: number) => answer(randomBytes(size / 2).toString('hex'));
  function counted(size: number) {
    const calls = new Map<string, number>();
    return {
      get: (cache: FeedCache, key: string) =>
        cache.get(key, AREA, async () => {
          calls.set(key, (calls.get(key) ?? 0) + 1);
          return sized(size);
        }),
      calls: (key: string) => calls.get(key) ?? 0,
    };
  }

  it('keeps the views asked for again through a burst of views asked for once, outweighing its free room', async () => {
    const maxBytes = 200_000;
    const cache = createFeedCache(() => 0, Math.random, maxBytes);
    const db = counted(8_000);
    const popular = ['p1', 'p2', 'p3', 'p4'];
    for (let i = 0; i < 2; i++) for (const key of popular) await db.get(cache, key);
    const oneOffs = Array.from({ length: 60 }, (_, i) => `once${i}`);
    for (const key of oneOffs) {
      await db.get(cache, key);
      expect(cache.bytes).toBeLessThanOrEqual(maxBytes);
    }
    // The burst (60 answers of ~13 kB: four times the budget) did push answers out...
    await db.get(cache, 'once0');
    expect(db.calls('once0')).toBe(2);
    // ...but none of the popular ones: no database read for them.
    for (const key of popular) await db.get(cache, key);
    for (const key of popular) expect(db.calls(key)).toBe(1);
  });

  it('keeps no more bytes than its budget, counting both representations', async () => {
    const maxBytes = 100_000;
    const cache = createFeedCache(() => 0, Math.random, maxBytes);
    const db = counted(10_000);
    let kept = 0;
    for (let i = 0; i < 30; i++) {
      const bytes = await db.get(cache, `k${i}`);
      kept = bytes.identity.byteLength + bytes.gzip.byteLength;
      // Not a view on zlib's output chunk nor on Buffer's pool: the memory kept is what is counted.
      expect(bytes.gzip.buffer.byteLength).toBe(bytes.gzip.byteLength);
      expect(cache.bytes).toBeLessThanOrEqual(maxBytes);
    }
    // Each answer weighs its identity and gzip bytes (and a little more): only a few fit.
    expect(kept).toBeGreaterThan(15_000);
    expect(cache.size).toBeLessThanOrEqual(Math.floor(maxBytes / kept));
    expect(cache.size).toBeGreaterThan(0);
    expect(cache.bytes).toBeGreaterThanOrEqual(cache.size * kept);
  });

  it('serves an answer heavier than the whole budget without keeping it', async () => {
    const cache = createFeedCache(() => 0, Math.random, 10_000);
    const db = counted(20_000);
    expect((await db.get(cache, 'big')).identity.byteLength).toBeGreaterThan(20_000);
    await new Promise((r) => setTimeout(r, 0));
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });

  it('gives back the bytes of the answers an event drops, and weighs a reloaded answer anew', async () => {
    let time = 0;
    const cache = createFeedCache(
      () => time,
      () => 1,
      1_000_000,
    );
    const db = counted(2_000);
    await db.get(cache, 'here');
    await db.get(cache, 'here');
    await db.get(cache, 'elsewhere');
    const far: Area = { lonRanges: [[100, 101]], south: -10, north: -9 };
    await cache.get('far', far, async () => sized(2_000));
    const before = cache.bytes;
    cache.invalidateAt(48.5, 2.5);
    expect(cache.size).toBe(1);
    expect(cache.bytes).toBeLessThan(before / 2);
    // An aged answer, served while it is read again: the reloaded one, ten times larger, is weighed.
    time = ENTRY_TTL_MS + 1;
    const light = cache.bytes;
    await cache.get('far', far, async () => sized(20_000));
    await new Promise((r) => setTimeout(r, 0));
    expect(cache.bytes).toBeGreaterThan(light + 20_000);
    cache.clear();
    expect(cache.bytes).toBe(0);
  });
});

describe('the feed cache after a gap in the bus', () => {
  it('drops every answer when the bus resumes: the events of the gap are lost', async () => {
    const cache = createFeedCache(
      () => 0,
      () => 1,
      1_000_000,
    );
    await cache.get('here', AREA, async () => answer('kept'));
    await cache.get('other', { lonRanges: [[100, 101]], south: -10, north: -9 }, async () => answer('kept too'));
    cache.onEvent({ type: 'post.liked', data: { postId: 'p', likesCount: 1 } });
    expect(cache.size).toBe(2);
    cache.onEvent({ type: BUS_RESUMED, data: null });
    expect(cache.size).toBe(0);
    expect(await text(cache.get('here', AREA, async () => answer('read again')))).toBe('read again');
  });
});
