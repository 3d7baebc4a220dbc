/**
 * The rate-limit service every module uses: `ctx.limits.consume('login', key)` counts one
 * attempt and throws the 429 (with Retry-After) when the caller is over the limit (docs/product.md, Limits).
 */
import { HOUR, MINUTE, RATE_LIMITS, rateLimitActionLabel, t, type MessageKey } from '@moodmap/core';
import { AppError } from '../../errors.ts';
import { networkOf } from '../../http/client-network.ts';
import type { SecurityEventInput } from '../../modules/security/log.ts';
import type { HitResult, RateLimitRule, RateLimitStore } from './store.ts';

/** Limits the product does not list but the server needs. */
export const SERVER_RATE_LIMITS = {
  /** Password-reset requests, per IP (a mailbox's own ceiling is in modules/auth/account-limits.ts). */
  password_reset: { points: 5, windowMs: 15 * MINUTE, blockMs: 15 * MINUTE },
  /**
   * Failed sign-ins for one address from all IPs together: slows guessing spread over many
   * addresses, far above what one IP may try (10 / 5 min); the owner's known devices pass it
   * (docs/security.md).
   */
  login_account: { points: 100, windowMs: 15 * MINUTE, blockMs: 15 * MINUTE },
  /** Comments written or edited, per user: a conversation pace, not a flood of live events. */
  comment_write: { points: 30, windowMs: MINUTE, blockMs: MINUTE },
  /** Checkout sessions opened, per user: each one is a call to the payment provider. */
  pulse_checkout: { points: 20, windowMs: HOUR, blockMs: 10 * MINUTE },
  /** Analytics events, per client: a busy person's map moves, not a script's flood. */
  analytics_event: { points: 60, windowMs: MINUTE, blockMs: MINUTE },
  /** Sign-ups from everyone together while emergency mode is on. */
  register_emergency: { points: 20, windowMs: HOUR, blockMs: 10 * MINUTE },
  /** Post reports, per account: a person flags a few posts an hour, not a stream of them. */
  post_report: { points: 10, windowMs: HOUR, blockMs: 30 * MINUTE },
  /** Post reports from one client address, all its accounts together. */
  post_report_ip: { points: 30, windowMs: HOUR, blockMs: 30 * MINUTE },
  /** Notices of illegal content from one client address, visitors included: each may send a mail. */
  dsa_notice_ip: { points: 10, windowMs: HOUR, blockMs: HOUR },
  /** Notices of illegal content naming one e-mail address, so no mailbox is flooded with links. */
  dsa_notice_email: { points: 5, windowMs: HOUR, blockMs: HOUR },
} as const satisfies Record<string, RateLimitRule>;

export const ALL_RATE_LIMITS = { ...RATE_LIMITS, ...SERVER_RATE_LIMITS };
export type LimitAction = keyof typeof ALL_RATE_LIMITS;

/**
 * The per-IP key of a client address. An IPv6 client usually holds a whole /64 and can change
 * address inside it at will, so the /64 is the client; IPv4-mapped IPv6 is plain IPv4.
 */
export function ipKey(ip: string): string {
  const network = networkOf(ip, { v4: 32, v6: 64 });
  return network.includes(':') ? `ip6:${network}` : `ip:${network.replace(/\/32$/, '')}`;
}

export interface ConsumeOptions {
  /** Catalogue entry of the 429 instead of the generic "Trop de tentatives pour {action}". */
  message?: MessageKey;
  /** Who is behind the key, for the security log when a block starts. */
  userId?: string | null;
  ip?: string | null;
  /** The action's name in the 429 text, when not the rule's own (login_account reads "login"). */
  label?: string;
}

export interface RateLimiter {
  readonly store: RateLimitStore;
  /** Counts one attempt; throws the 429 AppError when over the limit or still blocked. */
  consume(action: LimitAction, key: string, options?: ConsumeOptions): Promise<void>;
  /** Throws the 429 while `key` is blocked for `action`; counts nothing. */
  assertNotBlocked(action: LimitAction, key: string, options?: ConsumeOptions): Promise<void>;
  /**
   * A plain counter under the same store (e.g. attempts on one human-check challenge): counts
   * one and returns how many there were within `ttlMs`, this one included.
   */
  count(name: string, key: string, ttlMs: number): Promise<number>;
  /** What `count` would have counted so far, without counting. */
  peek(name: string, key: string): Promise<number>;
}

export interface RateLimiterDeps {
  store: RateLimitStore;
  now: () => Date;
  logSecurityEvent: (event: SecurityEventInput) => Promise<void>;
}

export function createRateLimiter({ store, now, logSecurityEvent }: RateLimiterDeps): RateLimiter {
  function tooMany(
    action: LimitAction,
    blockedUntilMs: number,
    justBlocked: boolean,
    options: ConsumeOptions,
  ): AppError {
    const seconds = Math.max(1, Math.ceil((blockedUntilMs - now().getTime()) / 1000));
    const minutes = Math.max(1, Math.ceil(seconds / 60));
    const headers = { 'retry-after': String(seconds) };
    const params = { action: rateLimitActionLabel(options.label ?? action), minutes };
    if (options.message) return new AppError(429, options.message, t(options.message, params), headers);
    // Two texts: the attempt that triggers the block, and any attempt during it.
    const key: MessageKey = justBlocked ? 'rate_too_many' : 'rate_blocked';
    return new AppError(429, key, t(key, params), headers);
  }

  return {
    store,
    async consume(action, key, options = {}) {
      const rule: RateLimitRule = ALL_RATE_LIMITS[action];
      const result: HitResult = await store.hit(`${action}:${key}`, rule, now().getTime());
      if (result.blockedUntilMs === null) return;
      if (result.justBlocked) {
        await logSecurityEvent({
          userId: options.userId ?? null,
          ip: options.ip ?? null,
          eventType: 'rate_limit_exceeded',
          description: `Limite « ${action} » dépassée (${rule.points} tentatives) : bloqué jusqu'à ${new Date(result.blockedUntilMs).toISOString()}`,
          severity: action === 'security_violation' ? 'high' : 'medium',
        });
      }
      throw tooMany(action, result.blockedUntilMs, result.justBlocked, options);
    },
    async assertNotBlocked(action, key, options = {}) {
      const until = await store.blockedUntil(`${action}:${key}`, now().getTime());
      if (until !== null) throw tooMany(action, until, false, options);
    },
    async count(name, key, ttlMs) {
      const rule = { points: 2_000_000_000, windowMs: ttlMs, blockMs: ttlMs };
      return (await store.hit(`${name}:${key}`, rule, now().getTime())).count;
    },
    async peek(name, key) {
      return store.peek(`${name}:${key}`, now().getTime());
    },
  };
}
