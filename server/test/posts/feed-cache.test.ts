/**
 * The feed's byte cache past its entry lifetime: an aged answer is served while one reload runs
 * (no viewer waits on the database when many views age at once), and an event during that reload
 * still wins (the reloaded answer is not kept over it).
 */
import { describe, expect, it } from 'vitest';
import type { ViewportAnswer } from '@moodmap/core';
import { createFeedCache, ENTRY_TTL_MS } from '../../src/modules/posts/feed-cache.ts';
import type { Area } from '../../src/modules/posts/feed.ts';

const AREA: Area = { lonRanges: [[2, 3]], south: 48, north: 49 };
const answer = (cursor: string): ViewportAnswer => ({ points: [], clusters: [], cursor, serverTime: '2026-11-24T00:00:00.000Z' });
const text = async (bytes: Promise<{ identity: Buffer }>) => JSON.parse((await bytes).identity.toString()).cursor as string;

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
    const cache = createFeedCache(() => time, () => draws.shift() ?? 1);
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
