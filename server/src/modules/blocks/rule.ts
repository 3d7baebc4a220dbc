/**
 * The blocking rule's reads (policies/blocks.ts says what a blocked pair may not do): when one of
 * two people blocked the other, neither meets the other any more.
 * - Reads: `hiddenFor` / `visibleTo` drop the other's posts, comments and profile from every
 *   answer (a single item reads as unknown: 404), from the instance's memory of each person's
 *   relations (relations.ts).
 * - Writes: a like, a comment, a comment edit, a conversation or a message between them is
 *   refused by its policy on a fresh read of the pair (data.ts, blockedWith).
 * - Events: every publisher names in `about` each person an event tells of (author, actor); the
 *   hub (realtime/hub.ts) drops it for the sockets of anyone hidden from them.
 */
import type { EventBus } from '../../adapters/bus/types.ts';
import type { Db } from '../../db/client.ts';
import { isHidden } from '../../policies/blocks.ts';
import { blockRelations } from './relations.ts';

const NOBODY: ReadonlySet<string> = new Set();

export interface BlockRule {
  /** Everyone hidden from `viewerId` (nobody for a visitor). */
  hiddenFor(viewerId: string | null | undefined): Promise<ReadonlySet<string>>;
  /** The rows `viewerId` may see: none whose `userId` is hidden from them. */
  visibleTo<T extends { userId: string }>(viewerId: string | null | undefined, rows: T[]): Promise<T[]>;
}

export function blockRule(db: Db, bus: EventBus): BlockRule {
  const relations = blockRelations(db, bus);
  const hiddenFor = async (viewerId: string | null | undefined) => (viewerId ? await relations.of(viewerId) : NOBODY);
  return {
    hiddenFor,
    async visibleTo(viewerId, rows) {
      const hidden = await hiddenFor(viewerId);
      return hidden.size ? rows.filter((row) => !isHidden(hidden, row.userId)) : rows;
    },
  };
}
