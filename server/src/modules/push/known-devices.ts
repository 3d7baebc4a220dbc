/**
 * Each instance remembers, per person, the devices a notification goes to (none, for most
 * people), so the pushes of a burst of messages cost no database read once their recipients are
 * known. Saving, changing or removing a device publishes the internal `push.devices.changed`,
 * which drops that person's list on every instance; so do the end of their sessions (a sign-out
 * everywhere, a ban, a deleted account) and a bus that lost its link (`bus.resumed`: changes may
 * have been missed, everything is read again).
 */
import { BUS_RESUMED, type EventBus, type RealtimeEvent } from '../../adapters/bus/types.ts';
import type { Db } from '../../db/client.ts';
import { sessionsRevoked } from '../auth/session-events.ts';
import { devicesOf, type PushSubscriptionRow } from './data.ts';

export const PUSH_DEVICES_CHANGED = 'push.devices.changed';
/** People remembered at most; the least recently asked for is forgotten first. */
const MAX_USERS = 20_000;

export interface KnownDevices {
  /** The devices of these people, read from the database only for those not remembered. */
  of(userIds: string[]): Promise<PushSubscriptionRow[]>;
  /** `userId`'s devices changed: forgotten here at once, on the other instances when the bus says so. */
  changed(userId: string): Promise<void>;
}

/** The people a `push.devices.changed` (or the end of someone's sessions) names, or null for any other event. */
function changedUsers(event: RealtimeEvent): string[] | null {
  const revoked = sessionsRevoked(event);
  if (revoked) return [revoked.userId];
  if (event.type !== PUSH_DEVICES_CHANGED) return null;
  const users = (event.data as { users?: unknown } | null)?.users;
  return Array.isArray(users) ? users.filter((u): u is string => typeof u === 'string') : [];
}

export function knownDevices(db: Db, bus: EventBus): KnownDevices & { stop: () => void } {
  const lists = new Map<string, PushSubscriptionRow[]>();
  /**
   * Bumped by every change heard: a read that a change overlapped may hold the old rows, so it
   * answers its caller but is not remembered.
   */
  let changes = 0;
  const forget = (userIds: readonly string[]) => {
    changes++;
    for (const id of userIds) lists.delete(id);
  };
  const remember = (userId: string, devices: PushSubscriptionRow[]) => {
    lists.delete(userId);
    if (lists.size >= MAX_USERS) lists.delete(lists.keys().next().value!);
    lists.set(userId, devices);
  };

  const stop = bus.subscribe((event) => {
    if (event.type === BUS_RESUMED) {
      changes++;
      lists.clear();
      return;
    }
    const users = changedUsers(event);
    if (users) forget(users);
  });

  return {
    async of(userIds) {
      const known = new Map<string, PushSubscriptionRow[]>();
      const unknown: string[] = [];
      for (const id of new Set(userIds)) {
        const devices = lists.get(id);
        if (devices) {
          known.set(id, devices);
          remember(id, devices); // most recently asked for
        } else unknown.push(id);
      }
      if (unknown.length > 0) {
        const before = changes;
        const read = new Map<string, PushSubscriptionRow[]>(unknown.map((id) => [id, []]));
        for (const row of await devicesOf(db, unknown)) read.get(row.userId)?.push(row);
        for (const [id, devices] of read) {
          known.set(id, devices);
          if (changes === before) remember(id, devices);
        }
      }
      return [...known.values()].flat();
    },
    async changed(userId) {
      forget([userId]);
      // For no socket (empty targets): only the instances' caches listen.
      await bus.publish({ type: PUSH_DEVICES_CHANGED, data: { users: [userId] }, targets: [] });
    },
    stop,
  };
}
