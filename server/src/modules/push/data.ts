/** The push_subscriptions rows: one per device (endpoint), owned by the person who last subscribed it. */
import { and, asc, count, desc, eq, getTableColumns, inArray, ne, sql } from 'drizzle-orm';
import type { PushDeviceDto } from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { profiles, pushSubscriptions } from '../../db/schema.ts';

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

export const toDeviceDto = (row: PushSubscriptionRow): PushDeviceDto => ({
  id: row.id,
  label: row.label,
  preview: row.preview,
  createdAt: row.createdAt.toISOString(),
});

export interface NewSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
  label: string;
}

export type SaveResult =
  | { ok: true; row: PushSubscriptionRow; created: boolean }
  | { ok: false; reason: 'too_many' | 'taken' };

/**
 * Stores a device for `userId`. The endpoint is unique: its owner subscribing it again updates
 * its keys; anyone else is refused ('taken') and the owner's device stays as it was (signing out
 * ends a browser's subscription, so the next person on it gets a new endpoint). The count of
 * `userId`'s other devices is checked under a lock on their profile row, so concurrent
 * subscriptions cannot pass the ceiling together.
 */
export async function saveSubscription(
  db: Db,
  userId: string,
  input: NewSubscription,
  max: number,
): Promise<SaveResult> {
  return db.transaction(async (tx) => {
    await tx.select({ id: profiles.id }).from(profiles).where(eq(profiles.id, userId)).for('update');
    const [others] = await tx
      .select({ n: count() })
      .from(pushSubscriptions)
      .where(and(eq(pushSubscriptions.userId, userId), ne(pushSubscriptions.endpoint, input.endpoint)));
    if ((others?.n ?? 0) >= max) return { ok: false, reason: 'too_many' } as const;
    const [row] = await tx
      .insert(pushSubscriptions)
      .values({ userId, ...input })
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: { p256dh: input.p256dh, auth: input.auth, label: input.label },
        setWhere: eq(pushSubscriptions.userId, userId),
      })
      // `xmax = 0` holds for a row this statement inserted, not for one it updated.
      .returning({ ...getTableColumns(pushSubscriptions), created: sql<boolean>`(xmax = 0)` });
    // No row: the endpoint is another person's, and was left alone.
    if (!row) return { ok: false, reason: 'taken' } as const;
    const { created, ...stored } = row;
    return { ok: true, row: stored, created: created === true } as const;
  });
}

export async function listDevices(db: Db, userId: string): Promise<PushSubscriptionRow[]> {
  return db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(desc(pushSubscriptions.createdAt), asc(pushSubscriptions.id));
}

/** The device if it is `userId`'s, with its new preview setting; undefined otherwise. */
export async function setPreview(
  db: Db,
  userId: string,
  id: string,
  preview: boolean,
): Promise<PushSubscriptionRow | undefined> {
  const [row] = await db
    .update(pushSubscriptions)
    .set({ preview })
    .where(and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.userId, userId)))
    .returning();
  return row;
}

export async function removeDevice(db: Db, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.userId, userId)))
    .returning({ id: pushSubscriptions.id });
  return rows.length > 0;
}

export async function devicesOf(db: Db, userIds: string[]): Promise<PushSubscriptionRow[]> {
  if (userIds.length === 0) return [];
  return db.select().from(pushSubscriptions).where(inArray(pushSubscriptions.userId, userIds));
}

/** A push service said this endpoint is gone (404/410): forget it, unless it was re-subscribed meanwhile. */
export async function forgetEndpoint(
  db: Db,
  row: Pick<PushSubscriptionRow, 'id' | 'endpoint' | 'p256dh'>,
): Promise<void> {
  await db
    .delete(pushSubscriptions)
    .where(
      and(
        eq(pushSubscriptions.id, row.id),
        eq(pushSubscriptions.endpoint, row.endpoint),
        eq(pushSubscriptions.p256dh, row.p256dh),
      ),
    );
}
