/**
 * Rate-limit counters in the `rate_limits` table: one atomic upsert per hit, so concurrent hits
 * from several server instances on one PostgreSQL count exactly. The same SQL runs on PGlite.
 *
 * Not rate-limiter-flexible's RateLimiterPostgres: it only accepts a `pg` client or pool (or an
 * ORM) and manages its own table, so it cannot run on the embedded PGlite default, and it has
 * no escalating block for security_violation.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { hitResult, type HitResult, type RateLimitRule, type RateLimitStore } from './store.ts';

/** Old rows are deleted every this many hits (in the background). */
const CLEANUP_EVERY = 500;
/** Longer keys are stored as their hash: a btree entry holds about 2 700 bytes at most. */
const MAX_PLAIN_KEY = 512;

/**
 * The column form of a key. PostgreSQL refuses NUL in text, so NUL becomes `\0` and `\`
 * becomes `\\` (one-to-one: escaped keys never hold a lone backslash before another letter);
 * a long key becomes `\h` + its SHA-256, which no escaped key can be.
 */
export function storedKey(key: string): string {
  const escaped = key.replace(/[\\\0]/g, (c) => (c === '\\' ? '\\\\' : '\\0'));
  if (escaped.length <= MAX_PLAIN_KEY) return escaped;
  return `\\h${createHash('sha256').update(key).digest('hex')}`;
}

export function createSqlRateLimitStore(db: Db): RateLimitStore {
  let hits = 0;

  async function cleanup(nowMs: number) {
    // Rows whose window and block are both over for a day carry no information any more.
    const cutoff = sql`to_timestamp(${nowMs}::float8 / 1000) - interval '1 day'`;
    await db.execute(
      sql`delete from rate_limits where window_ends_at < ${cutoff} and (blocked_until is null or blocked_until < ${cutoff})`,
    );
  }

  return {
    kind: 'sql',
    async hit(rawKey: string, rule: RateLimitRule, nowMs: number): Promise<HitResult> {
      const key = storedKey(rawKey);
      const now = sql`to_timestamp(${nowMs}::float8 / 1000)`;
      const ms = (value: number) => sql`(${value}::float8 * interval '1 millisecond')`;
      const maxExp = rule.escalateMaxExponent ?? 0;
      // In ON CONFLICT DO UPDATE every `r.` column is the row's value before this hit, so the
      // CASE branches read: still blocked → unchanged; window over → new window; else count,
      // and block (doubled per earlier strike) when over the limit.
      const result = await db.execute(sql`
        with prev as (select blocked_until from rate_limits where key = ${key}),
        up as (
          insert into rate_limits as r (key, points, window_ends_at, blocked_until, strikes)
          values (${key}, 1, ${now} + ${ms(rule.windowMs)}, null, 0)
          on conflict (key) do update set
            points = case
              when r.blocked_until > ${now} then r.points
              when r.window_ends_at <= ${now} then 1
              else r.points + 1 end,
            window_ends_at = case
              when r.blocked_until > ${now} then r.window_ends_at
              when r.window_ends_at <= ${now} then ${now} + ${ms(rule.windowMs)}
              else r.window_ends_at end,
            strikes = case
              when r.blocked_until > ${now} then r.strikes
              when r.window_ends_at <= ${now} then
                case when r.blocked_until > ${now} - ${ms(rule.windowMs)} then r.strikes else 0 end
              when r.points + 1 > ${rule.points} then r.strikes + 1
              else r.strikes end,
            blocked_until = case
              when r.blocked_until > ${now} then r.blocked_until
              when r.window_ends_at <= ${now} then r.blocked_until
              when r.points + 1 > ${rule.points} then
                ${now} + ${ms(rule.blockMs)} * power(2, least(r.strikes, ${maxExp}))
              else r.blocked_until end
          returning points, blocked_until
        )
        select up.points,
          extract(epoch from up.blocked_until)::float8 * 1000 as blocked_ms,
          (select extract(epoch from prev.blocked_until)::float8 * 1000 from prev) as prev_blocked_ms
        from up`);
      const row = result.rows[0];
      if (++hits % CLEANUP_EVERY === 0) cleanup(nowMs).catch(() => {});
      const blocked = row.blocked_ms === null ? null : Math.round(Number(row.blocked_ms));
      const previous = row.prev_blocked_ms === null ? null : Math.round(Number(row.prev_blocked_ms));
      return hitResult(Number(row.points), blocked, previous, nowMs);
    },

    async blockedUntil(key: string, nowMs: number): Promise<number | null> {
      const result = await db.execute(sql`
        select extract(epoch from blocked_until)::float8 * 1000 as blocked_ms from rate_limits
        where key = ${storedKey(key)} and blocked_until > to_timestamp(${nowMs}::float8 / 1000)`);
      const row = result.rows.at(0);
      return row ? Math.round(Number(row.blocked_ms)) : null;
    },

    async peek(key: string, nowMs: number): Promise<number> {
      const result = await db.execute(sql`
        select points from rate_limits
        where key = ${storedKey(key)} and window_ends_at > to_timestamp(${nowMs}::float8 / 1000)`);
      const row = result.rows.at(0);
      return row ? Number(row.points) : 0;
    },

    async close() {},
  };
}
