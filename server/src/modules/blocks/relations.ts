/**
 * Each instance remembers, per person, whom they blocked or were blocked by, so the
 * map's cached viewport answers and the realtime hub filter for them without a database read
 * per request or per event. A block or unblock publishes the internal `blocks.changed` event,
 * which drops both people's sets on every instance (and the hub never forwards it); a bus that
 * lost its link (`bus.resumed`) clears everything, since changes may have been missed.
 */
import { BUS_RESUMED, type EventBus, type RealtimeEvent } from '../../adapters/bus/types.ts';
import type { Db } from '../../db/client.ts';
import { relatedIds } from './data.ts';

export const BLOCKS_CHANGED = 'blocks.changed';
const MAX_USERS = 20_000;

export interface BlockRelations {
  /** Everyone `userId` blocked or was blocked by (an empty set for most people). */
  of(userId: string): Promise<Set<string>>;
  /** Announces that the relation between these two changed, on every instance (`blocked`: a block, not an unblock). */
  changed(a: string, b: string, blocked: boolean): Promise<void>;
  /** Called for every bus event; true when it was this module's. */
  onEvent(event: RealtimeEvent): boolean;
}

export interface BlocksChanged {
  users: string[];
  /** A new block: each of the two can hide the other at once, before any reload. */
  blocked: boolean;
}

/** A well-formed `blocks.changed` (the bus carries JSON from any instance), or null. */
export function blocksChanged(event: RealtimeEvent): BlocksChanged | null {
  if (event.type !== BLOCKS_CHANGED) return null;
  const data = event.data as { users?: unknown; blocked?: unknown } | null;
  const users = Array.isArray(data?.users) ? data.users.filter((u): u is string => typeof u === 'string') : [];
  return { users, blocked: data?.blocked === true };
}

const byDb = new WeakMap<Db, BlockRelations>();

/** One per database handle, i.e. per app instance: posts, comments and the hub share it. */
export function blockRelations(db: Db, bus: EventBus): BlockRelations {
  const existing = byDb.get(db);
  if (existing) return existing;
  const sets = new Map<string, Promise<Set<string>>>();
  const relations: BlockRelations = {
    of(userId) {
      const hit = sets.get(userId);
      if (hit) return hit;
      if (sets.size >= MAX_USERS) sets.delete(sets.keys().next().value!);
      const loading = relatedIds(db, userId);
      sets.set(userId, loading);
      loading.catch(() => {
        if (sets.get(userId) === loading) sets.delete(userId);
      });
      return loading;
    },
    async changed(a, b, blocked) {
      sets.delete(a);
      sets.delete(b);
      await bus.publish({ type: BLOCKS_CHANGED, data: { users: [a, b], blocked } });
    },
    onEvent(event) {
      if (event.type === BUS_RESUMED) {
        sets.clear();
        return false;
      }
      const change = blocksChanged(event);
      if (!change) return false;
      for (const id of change.users) sets.delete(id);
      return true;
    },
  };
  bus.subscribe((event) => relations.onEvent(event));
  byDb.set(db, relations);
  return relations;
}
