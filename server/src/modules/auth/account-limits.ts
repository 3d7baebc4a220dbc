/**
 * Limits keyed by an e-mail address, built so that a stranger cannot turn them against the
 * address's owner (the design is in docs/security.md):
 *
 * - sign-in: each IP has the login limit (10 attempts / 5 min, every attempt counted),
 *   so whoever guesses from one IP blocks only that IP. Only FAILED attempts count towards the
 *   address's own ceiling (`login_account`, 100 / 15 min over all IPs), which slows guessing
 *   spread over many IPs; while it is reached, the owner's known devices still sign in.
 * - reset: each IP may ask 5 times / 15 min (`password_reset`); the address receives at most
 *   10 reset mails an hour from unknown devices (every request still answers "sent"), and
 *   always receives them when asked from one of the owner's known devices.
 *
 * A known device is a (user, IP, user-agent) that signed in successfully in the last 30 days,
 * remembered server-side in the rate-limit store (shared by instances): no cookie, no web change.
 * The IP counts as its /64 for IPv6 (ipKey).
 */
import { createHash } from 'node:crypto';
import { DAY, HOUR } from '@moodmap/core';
import { AppError } from '../../errors.ts';
import { ipKey, type RateLimiter } from '../../adapters/rate-limit/limiter.ts';

const KNOWN_DEVICE_MS = 30 * DAY;
/** Reset mails an address receives per hour when asked from devices it never signed in from. */
export const RESET_MAILS_PER_HOUR = 10;

export interface DeviceMeta {
  ip: string;
  userAgent?: string;
}

/** Addresses are compared lower-case by the schemas already; the key is the address itself. */
const accountKey = (email: string) => `account:${email}`;

function deviceKey(userId: string, meta: DeviceMeta): string {
  const agent = createHash('sha256')
    .update(meta.userAgent ?? '')
    .digest('hex')
    .slice(0, 16);
  return `${userId}|${ipKey(meta.ip)}|${agent}`;
}

const isTooMany = (error: unknown) => error instanceof AppError && error.status === 429;

export function createAccountLimits(limits: RateLimiter) {
  const isKnownDevice = async (userId: string, meta: DeviceMeta) =>
    (await limits.peek('known_device', deviceKey(userId, meta))) > 0;

  return {
    /** Throws the 429 while the address's failure ceiling is reached, unless `userId` signs in from a known device. */
    async assertSignInAllowed(email: string, userId: string | null, meta: DeviceMeta): Promise<void> {
      try {
        await limits.assertNotBlocked('login_account', accountKey(email), { label: 'login' });
      } catch (error) {
        if (isTooMany(error) && userId && (await isKnownDevice(userId, meta))) return;
        throw error;
      }
    },

    /** Counts a failed sign-in towards the address's ceiling; this attempt still answers as a failure. */
    async signInFailed(email: string, meta: DeviceMeta): Promise<void> {
      await limits.consume('login_account', accountKey(email), { ip: meta.ip, label: 'login' }).catch((error) => {
        if (!isTooMany(error)) throw error;
      });
    },

    /** A successful sign-in: this device is known for the next 30 days. */
    async signedIn(userId: string, meta: DeviceMeta): Promise<void> {
      await limits.count('known_device', deviceKey(userId, meta), KNOWN_DEVICE_MS);
    },

    /** Whether a requested reset mail may go out (counted here; the request answers "sent" either way). */
    async mayMailReset(userId: string, email: string, meta: DeviceMeta): Promise<boolean> {
      const sent = await limits.count('reset_mail', accountKey(email), HOUR);
      return sent <= RESET_MAILS_PER_HOUR || isKnownDevice(userId, meta);
    },
  };
}

export type AccountLimits = ReturnType<typeof createAccountLimits>;
