/**
 * Rate-limit counters in Redis (REDIS_URL), with exactly the SQL store's semantics: one Lua
 * script per hit, atomic on the Redis server. Our own script rather than rate-limiter-flexible's
 * RateLimiterRedis because the escalating block (security_violation) and the caller-supplied
 * clock (tests move time instead of sleeping) need to live in the same atomic step.
 */
import { type ClientContext, Redis, type Result } from 'ioredis';
import { hitResult, type HitResult, type RateLimitRule, type RateLimitStore } from './store.ts';

// KEYS[1] hash {p: points, w: window end ms, b: blocked until ms, s: strikes}.
// ARGV: now ms, points, window ms, block ms, max exponent. Returns {points, blocked, prevBlocked}.
const HIT_SCRIPT = `
local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local windowMs = tonumber(ARGV[3])
local blockMs = tonumber(ARGV[4])
local maxExp = tonumber(ARGV[5])
local h = redis.call('HMGET', KEYS[1], 'p', 'w', 'b', 's')
local p, w, b, s = tonumber(h[1]), tonumber(h[2]), tonumber(h[3]), tonumber(h[4]) or 0
local prev = b
if p == nil then
  p, w, b, s = 1, now + windowMs, nil, 0
elseif b ~= nil and b > now then
  -- still blocked: nothing counted
elseif w <= now then
  if not (b ~= nil and b > now - windowMs) then s = 0 end
  p, w = 1, now + windowMs
else
  p = p + 1
  if p > limit then
    b = now + blockMs * 2 ^ math.min(s, maxExp)
    s = s + 1
  end
end
redis.call('HSET', KEYS[1], 'p', p, 'w', string.format('%.0f', w), 's', s)
if b ~= nil then redis.call('HSET', KEYS[1], 'b', string.format('%.0f', b)) end
-- Kept one extra window after the window or block ends, for the escalation memory.
local keep = math.max(w, b or 0) + windowMs - now
redis.call('PEXPIRE', KEYS[1], math.max(1, math.floor(keep)))
return {p, string.format('%.0f', b or -1), string.format('%.0f', prev or -1)}
`;

export interface RedisStoreOptions {
  url: string;
  /** Prepended to every key; tests use a unique one per run. */
  prefix?: string;
}

// The hit script as a command of the client (defineCommand below), typed as ioredis documents:
// it sends EVALSHA, and EVAL once on NOSCRIPT.
declare module 'ioredis' {
  interface RedisCommander<Context extends ClientContext> {
    moodmapRateHit(
      key: string,
      nowMs: number,
      points: number,
      windowMs: number,
      blockMs: number,
      maxExp: number,
    ): Result<[number, string, string], Context>;
  }
}

/** Redis keys are binary-safe: any string (a NUL byte included) is used as it is. */
export function createRedisRateLimitStore({ url, prefix = 'moodmap:rl:' }: RedisStoreOptions): RateLimitStore {
  // Auto-pipelining: the hits of the requests parsed in one turn of the event loop
  // leave in one write and come back in one read, not one socket round of system calls each.
  // Each hit is still its own atomic script run with its own answer.
  const redis = new Redis(url, {
    lazyConnect: false,
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
    enableAutoPipelining: true,
  });
  // A dropped connection is retried by ioredis; the error event must not crash the process.
  redis.on('error', () => {});
  // By its SHA1 rather than its text (about 1 kB) on every hit: the text would be most of the
  // bytes each message send writes to Redis, and Redis would hash it again at each EVAL.
  redis.defineCommand('moodmapRateHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
  const toMs = (value: string) => (Number(value) < 0 ? null : Number(value));

  return {
    kind: 'redis',
    async hit(key: string, rule: RateLimitRule, nowMs: number): Promise<HitResult> {
      const [points, blocked, previous] = await redis.moodmapRateHit(
        prefix + key,
        nowMs,
        rule.points,
        rule.windowMs,
        rule.blockMs,
        rule.escalateMaxExponent ?? 0,
      );
      return hitResult(Number(points), toMs(blocked), toMs(previous), nowMs);
    },
    async blockedUntil(key: string, nowMs: number): Promise<number | null> {
      const value = await redis.hget(prefix + key, 'b');
      const until = value === null ? null : Number(value);
      return until !== null && until > nowMs ? until : null;
    },
    async peek(key: string, nowMs: number): Promise<number> {
      const [points, windowEnds] = await redis.hmget(prefix + key, 'p', 'w');
      return points !== null && Number(windowEnds) > nowMs ? Number(points) : 0;
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
