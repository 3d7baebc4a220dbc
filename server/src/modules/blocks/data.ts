/** Who blocked whom, with Drizzle's query builder. */
import { and, desc, eq, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { profiles, userBlocks } from '../../db/schema.ts';
import type { Member } from '../../policies/actor.ts';
import { meetsSomeoneElse } from '../../policies/blocks.ts';

/** Blocks `blockedId` for `blockerId`; false when the person does not exist. Idempotent. */
export async function insertBlock(db: Db, blockerId: string, blockedId: string): Promise<boolean> {
  const [target] = await db.select({ id: profiles.id }).from(profiles).where(eq(profiles.id, blockedId)).limit(1);
  if (!target) return false;
  await db.insert(userBlocks).values({ blockerId, blockedId }).onConflictDoNothing();
  return true;
}

export async function deleteBlock(db: Db, blockerId: string, blockedId: string): Promise<void> {
  await db.delete(userBlocks).where(and(eq(userBlocks.blockerId, blockerId), eq(userBlocks.blockedId, blockedId)));
}

/** The people `userId` blocked, newest first, with their name and photo. */
export async function listBlocked(db: Db, userId: string) {
  return db
    .select({
      id: profiles.id,
      nickname: profiles.username,
      profilePhotoUrl: profiles.profilePhotoUrl,
      blockedAt: userBlocks.createdAt,
    })
    .from(userBlocks)
    .innerJoin(profiles, eq(profiles.id, userBlocks.blockedId))
    .where(eq(userBlocks.blockerId, userId))
    .orderBy(desc(userBlocks.createdAt));
}

/** Everyone `userId` blocked or was blocked by: each stops seeing the other. */
export async function relatedIds(db: Db, userId: string): Promise<Set<string>> {
  const rows = await db
    .select({
      other: sql<string>`case when ${userBlocks.blockerId} = ${userId} then ${userBlocks.blockedId} else ${userBlocks.blockerId} end`,
    })
    .from(userBlocks)
    .where(or(eq(userBlocks.blockerId, userId), eq(userBlocks.blockedId, userId)));
  return new Set(rows.map((r) => r.other));
}

/** True when either of the two blocked the other. */
export async function blockedBetween(db: Db, a: string, b: string): Promise<boolean> {
  const rows = await db
    .select({ one: sql<number>`1` })
    .from(userBlocks)
    .where(
      or(
        and(eq(userBlocks.blockerId, a), eq(userBlocks.blockedId, b)),
        and(eq(userBlocks.blockerId, b), eq(userBlocks.blockedId, a)),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/**
 * Whether the member and `otherId` are a blocked pair, read from the database rather than the
 * instance's memory (relations.ts): a block made on another instance a moment ago already counts.
 * No read for oneself or nobody.
 */
export async function blockedWith(db: Db, member: Member, otherId: string | null | undefined): Promise<boolean> {
  return meetsSomeoneElse(member, otherId) && blockedBetween(db, member.userId, otherId);
}
