/**
 * The rate-limit stores: the SQL store on PGlite and PostgreSQL, and the Redis
 * store when REDIS_URL is set, all with the same semantics — window, block, escalation.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMITS } from '@moodmap/core';
import { createRedisRateLimitStore } from '../../src/adapters/rate-limit/redis-store.ts';
import { createSqlRateLimitStore } from '../../src/adapters/rate-limit/sql-store.ts';
import type { RateLimitStore } from '../../src/adapters/rate-limit/store.ts';
import type { Database } from '../../src/db/client.ts';
import { createTestDatabase, engines } from '../helpers/databases.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const redisUrl = process.env.REDIS_URL;
const kinds = [...engines.map((e) => `sql on ${e}` as const), ...(redisUrl ? (['redis'] as const) : [])];

describe.each(kinds)('rate-limit store: %s', (kind) => {
  let store: RateLimitStore;
  let database: Database | undefined;
  const prefix = `moodmap-test:${process.pid}:${randomBytes(4).toString('hex')}:`;

  beforeAll(async () => {
    if (kind === 'redis') {
      store = createRedisRateLimitStore({ url: redisUrl!, prefix });
    } else {
      database = await createTestDatabase(kind === 'sql on postgres' ? 'postgres' : 'pglite');
      store = createSqlRateLimitStore(database.db);
    }
  }, 60_000);

  afterAll(async () => {
    if (kind === 'redis') {
      // Leave nothing behind in a shared Redis.
      const redis = new Redis(redisUrl!);
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
    }
    await store?.close();
    await database?.close();
  });

  let n = 0;
  const key = () => `test:${++n}`;
  const start = Date.now();

  it('allows the attempts of the window, blocks the next one, and forgets after the block', async () => {
    const rule = RATE_LIMITS.login;
    const k = key();
    for (let i = 1; i <= 10; i++) {
      const hit = await store.hit(k, rule, start + i * 1000);
      expect(hit).toEqual({ count: i, blockedUntilMs: null, justBlocked: false });
    }
    const eleventh = await store.hit(k, rule, start + 11_000);
    expect(eleventh).toEqual({ count: 11, blockedUntilMs: start + 11_000 + 5 * MINUTE, justBlocked: true });
    // During the block: refused, not counted, not a new block.
    const during = await store.hit(k, rule, start + 60_000);
    expect(during).toEqual({ count: 11, blockedUntilMs: start + 11_000 + 5 * MINUTE, justBlocked: false });
    expect(await store.blockedUntil(k, start + 60_000)).toBe(start + 11_000 + 5 * MINUTE);
    // After it: a new window.
    const after = await store.hit(k, rule, start + 11_000 + 5 * MINUTE);
    expect(after).toEqual({ count: 1, blockedUntilMs: null, justBlocked: false });
    expect(await store.blockedUntil(k, start + 11_000 + 5 * MINUTE)).toBeNull();
  });

  it('starts a new window when the last one ended without a block', async () => {
    const k = key();
    for (let i = 0; i < 10; i++) await store.hit(k, RATE_LIMITS.login, start);
    const next = await store.hit(k, RATE_LIMITS.login, start + 5 * MINUTE);
    expect(next.count).toBe(1);
    expect(next.blockedUntilMs).toBeNull();
  });

  it('doubles the security_violation block on each repeat, up to 2^5 hours', async () => {
    const rule = RATE_LIMITS.security_violation;
    const k = key();
    let now = start;
    for (let i = 0; i < 3; i++) expect((await store.hit(k, rule, now)).blockedUntilMs).toBeNull();
    const blocks: number[] = [];
    for (let guard = 0; blocks.length < 7 && guard < 100; guard++) {
      // Violations keep coming as soon as each block ends; within the 24 h window the next one
      // blocks again at once, after it the window's 3 attempts come first.
      const hit = await store.hit(k, rule, now);
      if (hit.blockedUntilMs === null) continue;
      expect(hit.justBlocked).toBe(true);
      blocks.push((hit.blockedUntilMs - now) / HOUR);
      now = hit.blockedUntilMs;
    }
    expect(blocks).toEqual([1, 2, 4, 8, 16, 32, 32]);
  });

  it('forgets the escalation after a full quiet window', async () => {
    const rule = RATE_LIMITS.security_violation;
    const k = key();
    let now = start;
    for (let i = 0; i < 4; i++) await store.hit(k, rule, now);
    now += HOUR;
    const second = await store.hit(k, rule, now);
    expect(second.blockedUntilMs! - now).toBe(2 * HOUR);
    // A day and more without violations: back to the first step.
    now = second.blockedUntilMs! + 25 * HOUR;
    for (let i = 0; i < 3; i++) expect((await store.hit(k, rule, now)).blockedUntilMs).toBeNull();
    const fresh = await store.hit(k, rule, now);
    expect(fresh.blockedUntilMs! - now).toBe(HOUR);
  });

  it('counts concurrent hits exactly', async () => {
    const k = key();
    const rule = { points: 1000, windowMs: HOUR, blockMs: HOUR };
    const results = await Promise.all(Array.from({ length: 50 }, () => store.hit(k, rule, start)));
    expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  it('keeps keys apart', async () => {
    const a = key();
    const b = key();
    for (let i = 0; i < 11; i++) await store.hit(a, RATE_LIMITS.login, start);
    expect(await store.blockedUntil(a, start)).not.toBeNull();
    expect(await store.blockedUntil(b, start)).toBeNull();
    expect((await store.hit(b, RATE_LIMITS.login, start)).count).toBe(1);
  });

  it('accepts any string as a key (NUL byte, backslashes, very long) and keeps such keys apart', async () => {
    const base = key();
    // Keys a hostile e-mail field can produce; PostgreSQL refuses NUL in text, a btree entry
    // holds about 2 700 bytes: neither may turn a hit into a 500.
    const keys = [
      `${base}a\u0000b`,
      `${base}a\\0b`,
      `${base}a\\\u0000b`,
      `${base}\u0000`,
      `${base}${'é'.repeat(10_000)}`,
      `${base}${'é'.repeat(10_000)}x`,
    ];
    for (const [i, k] of keys.entries()) {
      for (let n = 0; n <= i; n++) await store.hit(k, RATE_LIMITS.login, start);
    }
    // Each key counted only its own hits: i + 1 so far.
    for (const [i, k] of keys.entries()) {
      expect((await store.hit(k, RATE_LIMITS.login, start)).count, JSON.stringify(k.slice(0, 40))).toBe(i + 2);
      expect(await store.peek(k, start)).toBe(i + 2);
    }
    const nul = keys[0];
    for (let n = 0; n < 10; n++) await store.hit(nul, RATE_LIMITS.login, start);
    expect(await store.blockedUntil(nul, start)).toBe(start + 5 * MINUTE);
    expect(await store.blockedUntil(keys[1], start)).toBeNull();
  });

  it('peeks at a count without counting, and reads 0 once the window is over', async () => {
    const k = key();
    expect(await store.peek(k, start)).toBe(0);
    for (let i = 0; i < 3; i++) await store.hit(k, RATE_LIMITS.login, start);
    expect(await store.peek(k, start + 1000)).toBe(3);
    expect(await store.peek(k, start + 1000)).toBe(3);
    expect(await store.peek(k, start + 5 * MINUTE)).toBe(0);
  });
});

// Redis only, defined only when REDIS_URL is set (as the 'redis' store above).
if (redisUrl) {
  describe('rate-limit store: redis, after a restart', () => {
    const prefix = `moodmap-test:${process.pid}:${randomBytes(4).toString('hex')}:`;
    const store = createRedisRateLimitStore({ url: redisUrl, prefix });
    const start = Date.now();

    afterAll(async () => {
      const redis = new Redis(redisUrl);
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
      await store.close();
    });

    it('keeps counting after Redis forgot the script (a restart, SCRIPT FLUSH)', async () => {
      // The script is sent by its SHA1; a Redis that no longer knows it must get its text again,
      // not refuse the hit.
      const rule = RATE_LIMITS.login;
      const k = 'flushed';
      expect((await store.hit(k, rule, start + 1000)).count).toBe(1);
      const admin = new Redis(redisUrl);
      await admin.script('FLUSH');
      await admin.quit();
      expect((await store.hit(k, rule, start + 2000)).count).toBe(2);
      const both = await Promise.all([store.hit(k, rule, start + 3000), store.hit(k, rule, start + 3000)]);
      expect(both.map((h) => h.count).sort()).toEqual([3, 4]);
    });
  });
}
