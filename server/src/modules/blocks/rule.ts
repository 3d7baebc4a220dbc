/**
 * The blocking rule: when one of two people blocked the other, neither meets the other any more.
 * - Reads: `hiddenFor` / `visibleTo` drop the other's posts, comments and profile from every
 *   answer (a single item reads as unknown: 404).
 * - Writes: `assertMayMeet` refuses a like, a comment, a comment edit, a conversation or a
 *   message between them (403 `user_blocked_you`). Reporting stays open: it is a safety tool.
 * - Events: every publisher names in `about` each person an event tells of (author, actor); the
 *   hub (realtime/hub.ts) drops it for the sockets of anyone hidden from them.
 */
import type { EventBus } from '../../adapters/bus/types.ts';
import type { Db } from '../../db/client.ts';
import { forbidden } from '../../errors.ts';
import { blockedBetween } from './data.ts';
import { blockRelations } from './relations.ts';

const NOBODY: ReadonlySet<string> = new Set();

export interface BlockRule {
  /** Everyone hidden from `viewerId` (nobody for a visitor). */
  hiddenFor(viewerId: string | null | undefined): Promise<ReadonlySet<string>>;
  /** The rows `viewerId` may see: none whose `userId` is hidden from them. */
  visibleTo<T extends { userId: string }>(viewerId: string | null | undefined, rows: T[]): Promise<T[]>;
  /** Throws 403 when either of the two blocked the other; nothing when `otherId` is absent or themself. */
  assertMayMeet(userId: string, otherId: string | null | undefined): Promise<void>;
}

export function blockRule(db: Db, bus: EventBus): BlockRule {
  const relations = blockRelations(db, bus);
  const hiddenFor = async (viewerId: string | null | undefined) => (viewerId ? await relations.of(viewerId) : NOBODY);
  return {
    hiddenFor,
    async visibleTo(viewerId, rows) {
      const hidden = await hiddenFor(viewerId);
      return hidden.size ? rows.filter((row) => !hidden.has(row.userId)) : rows;
    },
    async assertMayMeet(userId, otherId) {
      // Read from the database, not the instance's cache: a block made on another instance a
      // moment ago already refuses the write.
      if (otherId && otherId !== userId && (await blockedBetween(db, userId, otherId)))
        throw forbidden('user_blocked_you');
    },
  };
}
