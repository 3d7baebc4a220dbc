/**
 * The security log (shown to staff): sign-in failures, password
 * changes, role checks, rate-limit blocks, refused attacks. Writing it must never break the
 * request that reports the event, so failures are logged and swallowed (a password
 * reset goes on when its log entry fails).
 */
import type { FastifyBaseLogger } from 'fastify';
import { and, count, eq, sql } from 'drizzle-orm';
import { MINUTE } from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { securityLogs } from '../../db/schema.ts';

export type Severity = 'low' | 'medium' | 'high' | 'critical';

export interface SecurityEventInput {
  userId?: string | null;
  eventType: string;
  description: string;
  severity: Severity;
  ip?: string | null;
  /** Staff actions: whom or what the action was about, and the reason given. */
  targetId?: string | null;
  reason?: string | null;
}

export type LogSecurityEvent = (event: SecurityEventInput) => Promise<void>;

const DESCRIPTION_MAX = 1000;
/** Repeats of a kind from one source within this window share the window's first row. */
export const SECURITY_LOG_WINDOW_MS = 10 * MINUTE;
/** Distinct sources of a kind with a row of their own per window; the others share one row. */
export const SECURITY_LOG_SOURCES_PER_WINDOW = 50;

/**
 * Who caused the event (the signed-in person, else the address) at which severity, so a graver
 * repeat is not counted under a milder row; null for a staff decision, always written.
 */
function sourceOf(event: SecurityEventInput): string | null {
  if (event.targetId || event.reason) return null;
  const who = event.userId ? `user:${event.userId}` : event.ip ? `ip:${event.ip}` : 'none';
  return `${event.severity} ${who}`;
}

/**
 * Writes an event. Anyone can make events happen (a bad webhook, a refused admin call), so a
 * (kind, source) pair writes at most one row per window, whose `occurrences` counts the others:
 * the log stays bounded, and the window's first row keeps the facts.
 */
export function createSecurityLog(db: Db, log: FastifyBaseLogger, now: () => Date): LogSecurityEvent {
  async function bumpRow(eventType: string, windowStart: Date, source: string, at: Date): Promise<boolean> {
    const bumped = await db
      .update(securityLogs)
      .set({ occurrences: sql`${securityLogs.occurrences} + 1`, lastAt: at })
      .where(
        and(
          eq(securityLogs.eventType, eventType),
          eq(securityLogs.windowStart, windowStart),
          eq(securityLogs.sourceKey, source),
        ),
      )
      .returning({ id: securityLogs.id });
    return bumped.length > 0;
  }

  async function sourcesInWindow(eventType: string, windowStart: Date): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(securityLogs)
      .where(and(eq(securityLogs.eventType, eventType), eq(securityLogs.windowStart, windowStart)));
    return row?.n ?? 0;
  }

  return async (event) => {
    try {
      const at = now();
      const eventType = event.eventType.slice(0, 100);
      const row = {
        userId: event.userId ?? null,
        eventType,
        eventDescription: event.description.slice(0, DESCRIPTION_MAX),
        severity: event.severity,
        ip: event.ip ?? null,
        targetId: event.targetId ?? null,
        reason: event.reason?.slice(0, DESCRIPTION_MAX) ?? null,
        createdAt: at,
      };
      const source = sourceOf(event);
      if (source === null) {
        await db.insert(securityLogs).values(row);
        return;
      }
      const windowStart = new Date(Math.floor(at.getTime() / SECURITY_LOG_WINDOW_MS) * SECURITY_LOG_WINDOW_MS);
      if (await bumpRow(eventType, windowStart, source, at)) return;
      const crowded = (await sourcesInWindow(eventType, windowStart)) >= SECURITY_LOG_SOURCES_PER_WINDOW;
      // Sources beyond the limit share one row per severity, with no one's id or address on it.
      const shared = crowded ? { userId: null, ip: null, sourceKey: `${event.severity} *` } : { sourceKey: source };
      // Two first events at once: the second one counts on the row the first wrote.
      await db
        .insert(securityLogs)
        .values({ ...row, ...shared, windowStart })
        .onConflictDoUpdate({
          target: [securityLogs.eventType, securityLogs.windowStart, securityLogs.sourceKey],
          set: { occurrences: sql`${securityLogs.occurrences} + 1`, lastAt: at },
        });
    } catch (err) {
      log.warn({ err, eventType: event.eventType }, 'security log write failed');
    }
  };
}
