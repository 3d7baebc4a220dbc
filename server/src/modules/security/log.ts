/**
 * The security log (spec §3 "Security log entry", shown to staff): sign-in failures, password
 * changes, role checks, rate-limit blocks, refused attacks. Writing it must never break the
 * request that reports the event, so failures are logged and swallowed (spec §4 "Password
 * reset" step 4: "a failure of this step is ignored").
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { securityLogs } from '../../db/schema.ts';

export type Severity = 'low' | 'medium' | 'high' | 'critical';

export interface SecurityEventInput {
  userId?: string | null;
  eventType: string;
  description: string;
  severity: Severity;
  ip?: string | null;
  /** Staff actions (issue 17): whom or what the action was about, and the reason given. */
  targetId?: string | null;
  reason?: string | null;
}

export type LogSecurityEvent = (event: SecurityEventInput) => Promise<void>;

const DESCRIPTION_MAX = 1000;

export function createSecurityLog(db: Db, log: FastifyBaseLogger, now: () => Date): LogSecurityEvent {
  return async (event) => {
    try {
      await db.insert(securityLogs).values({
        userId: event.userId ?? null,
        eventType: event.eventType.slice(0, 100),
        eventDescription: event.description.slice(0, DESCRIPTION_MAX),
        severity: event.severity,
        ip: event.ip ?? null,
        targetId: event.targetId ?? null,
        reason: event.reason?.slice(0, DESCRIPTION_MAX) ?? null,
        createdAt: now(),
      });
    } catch (err) {
      log.warn({ err, eventType: event.eventType }, 'security log write failed');
    }
  };
}
