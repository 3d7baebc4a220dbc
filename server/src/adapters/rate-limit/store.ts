/**
 * Where rate-limit counters live. Every instance of the server must see the same counters, so
 * they are in the database (SQL store) or in Redis when REDIS_URL is set — never in memory.
 *
 * Semantics shared by both stores, for one key and one rule (attempts / window /
 * block): the first hit opens a window of `windowMs`; the hit that goes over `points` inside
 * it blocks the key for `blockMs`, doubled for each earlier block while the key keeps
 * offending (`escalateMaxExponent`, security_violation: up to 2^5). Hits during a block are
 * not counted. A window that ends with no block in its last `windowMs` forgets the escalation.
 *
 * Any string is a valid key (a NUL byte or 10 000 characters from a hostile e-mail field
 * included): each store maps it to a form its engine accepts.
 */
export interface RateLimitRule {
  points: number;
  windowMs: number;
  blockMs: number;
  escalateMaxExponent?: number;
}

export interface HitResult {
  /** Hits counted in the current window, this one included. */
  count: number;
  /** Epoch ms until which the key is blocked, when it is blocked now. */
  blockedUntilMs: number | null;
  /** This very hit started the block (to log it once, and to word the 429). */
  justBlocked: boolean;
}

export interface RateLimitStore {
  readonly kind: 'sql' | 'redis';
  /** Counts one hit atomically (safe under concurrent hits from several instances). */
  hit(key: string, rule: RateLimitRule, nowMs: number): Promise<HitResult>;
  /** Epoch ms until which the key is blocked, or null; counts nothing. */
  blockedUntil(key: string, nowMs: number): Promise<number | null>;
  /** Hits counted in the key's current window (0 when it has none); counts nothing. */
  peek(key: string, nowMs: number): Promise<number>;
  close(): Promise<void>;
}

export function hitResult(
  count: number,
  blockedUntilMs: number | null,
  previousBlockedUntilMs: number | null,
  nowMs: number,
): HitResult {
  const blocked = blockedUntilMs !== null && blockedUntilMs > nowMs ? blockedUntilMs : null;
  const wasBlocked = previousBlockedUntilMs !== null && previousBlockedUntilMs > nowMs;
  return { count, blockedUntilMs: blocked, justBlocked: blocked !== null && !wasBlocked };
}
