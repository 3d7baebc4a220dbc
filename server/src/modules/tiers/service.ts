/**
 * Membership tiers (display only): a tier is one of the profile's four
 * flags, or none ('Gratuit'). Setting one clears the others, so a member shows one badge
 * whatever the place's precedence. Tiers grant nothing: staff set them by hand.
 */
import { eq } from 'drizzle-orm';
import type { TierName } from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { profiles } from '../../db/schema.ts';

export function tierFlags(tier: TierName) {
  return { isPremium: tier === 'Premium', isPlus: tier === 'Plus', isMulti: tier === 'Multi', isPro: tier === 'Pro' };
}

/** False when the user has no profile. */
export async function setTier(db: Db, userId: string, tier: TierName): Promise<boolean> {
  const updated = await db
    .update(profiles)
    .set(tierFlags(tier))
    .where(eq(profiles.id, userId))
    .returning({ id: profiles.id });
  return updated.length > 0;
}
