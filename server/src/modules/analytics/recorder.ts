/**
 * Records analytics events with no personal data (docs/security.md, Privacy of analytics): the day, the hour, the
 * event name, the page's route template, revenue for a premium conversion, and `visitor`, a
 * SHA-256 of the day's random salt, the client's network and its browser. The salt is shared by
 * every instance and the previous days' salts are deleted, so yesterday's hashes can no longer be
 * linked to anyone. No IP, no user id and no cookie is stored. Events the server counts itself
 * (a sign-up, a post...) carry no visitor, path or exact time, so none can be tied to the
 * account or post it counts.
 */
import { createHash, randomBytes } from 'node:crypto';
import { eq, lt } from 'drizzle-orm';
import { analyticsPathOf, HOUR, type AnalyticsEventName, type ServerAnalyticsEventName } from '@moodmap/core';
import type { AnalyticsForwarder } from '../../adapters/analytics/index.ts';
import { ipKey } from '../../adapters/rate-limit/limiter.ts';
import type { Db } from '../../db/client.ts';
import { analyticsEvents, analyticsSalts } from '../../db/schema.ts';

export interface RecordedEvent {
  name: AnalyticsEventName;
  path?: string;
  revenueCents?: number;
  /** Only to derive the day's visitor hash (and for Plausible's own); never stored. */
  ip?: string;
  userAgent?: string;
}

export interface AnalyticsRecorder {
  record(event: RecordedEvent): Promise<void>;
  /** Counts something the server just did; failing to store it never fails the request. */
  happened(name: ServerAnalyticsEventName): Promise<void>;
}

const dayOf = (date: Date) => date.toISOString().slice(0, 10);
/** Times are kept to the hour: enough for trends, too coarse to match an event to a row. */
const hourOf = (date: Date) => new Date(Math.floor(date.getTime() / HOUR) * HOUR);

export function createAnalyticsRecorder(
  db: Db,
  now: () => Date,
  forwarder: AnalyticsForwarder | null,
  onError: (err: unknown) => void = () => {},
): AnalyticsRecorder {
  let cached: { day: string; salt: string } | null = null;

  async function saltOf(day: string): Promise<string> {
    if (cached?.day === day) return cached.salt;
    await db
      .insert(analyticsSalts)
      .values({ day, salt: randomBytes(32).toString('base64url') })
      .onConflictDoNothing();
    await db.delete(analyticsSalts).where(lt(analyticsSalts.day, day));
    const [row] = await db.select().from(analyticsSalts).where(eq(analyticsSalts.day, day)).limit(1);
    cached = { day, salt: row.salt };
    return row.salt;
  }

  async function record(event: RecordedEvent): Promise<void> {
    const at = now();
    const day = dayOf(at);
    const visitor = event.ip
      ? createHash('sha256')
          .update(`${await saltOf(day)}|${ipKey(event.ip)}|${event.userAgent ?? ''}`)
          .digest('base64url')
          .slice(0, 22)
      : null;
    const path = event.path === undefined ? null : analyticsPathOf(event.path);
    await db
      .insert(analyticsEvents)
      .values({ day, name: event.name, visitor, path, revenueCents: event.revenueCents ?? 0, createdAt: hourOf(at) });
    if (forwarder)
      void forwarder.forward({
        name: event.name,
        path: path ?? '/',
        revenueCents: event.revenueCents,
        userAgent: event.userAgent,
        ip: event.ip,
      });
  }

  return {
    record,
    happened: (name) => record({ name }).catch(onError),
  };
}
