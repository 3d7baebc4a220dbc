/**
 * "These sessions have ended" (sign-out, password change or reset, refresh-token reuse): the
 * instance that revokes publishes it on the bus, so every instance's WebSocket hub drops the
 * identity of the sockets authenticated with those sessions (docs/architecture.md). It is internal:
 * the hub consumes it and never forwards it to browsers.
 */
import type { EventBus, RealtimeEvent } from '../../adapters/bus/types.ts';

export const SESSIONS_REVOKED = 'session.revoked';

export interface SessionsRevokedData {
  userId: string;
  sessionIds: string[];
}

/** A NOTIFY payload holds 8000 bytes; 100 uuids stay far below it. */
const IDS_PER_EVENT = 100;

export async function publishSessionsRevoked(bus: EventBus, userId: string, sessionIds: string[]): Promise<void> {
  for (let i = 0; i < sessionIds.length; i += IDS_PER_EVENT) {
    const data: SessionsRevokedData = { userId, sessionIds: sessionIds.slice(i, i + IDS_PER_EVENT) };
    await bus.publish({ type: SESSIONS_REVOKED, data });
  }
}

/** The event's data when it is a well-formed revocation (the bus carries JSON from any instance). */
export function sessionsRevoked(event: RealtimeEvent): SessionsRevokedData | null {
  if (event.type !== SESSIONS_REVOKED) return null;
  const data = event.data as Partial<SessionsRevokedData> | null;
  if (!data || typeof data.userId !== 'string' || !Array.isArray(data.sessionIds)) return null;
  return { userId: data.userId, sessionIds: data.sessionIds.filter((id): id is string => typeof id === 'string') };
}
