/**
 * `npm run user:tier -- <email> <tier>`: sets a member's tier badge (spec §6, display only):
 * Gratuit, Premium, Plus, Multi or Pro. Same database and caveats as `npm run user:role`.
 */
import { TIERS, tierSchema } from '@moodmap/core';
import { securityLogs } from '../db/schema.ts';
import { setTier } from '../modules/tiers/service.ts';
import { type Output, runAsScript, userByEmail, withServerDatabase } from './cli-support.ts';

const USAGE = `Utilisation : npm run user:tier -- <email> <niveau>\nNiveaux possibles : ${TIERS.join(', ')}`;

/** Returns the exit code. */
export async function runUserTier(args: string[], env: NodeJS.ProcessEnv, out: Output): Promise<number> {
  const [rawEmail, rawTier, ...extra] = args;
  if (!rawEmail || !rawTier || extra.length > 0) {
    out.error(USAGE);
    return 1;
  }
  // 'premium' or 'PREMIUM' is Premium.
  const wanted = rawTier.trim().toLowerCase();
  const parsed = tierSchema.safeParse(TIERS.find((t) => t.toLowerCase() === wanted));
  if (!parsed.success) {
    out.error(`Niveau inconnu : « ${rawTier} ». Niveaux possibles : ${TIERS.join(', ')}`);
    return 1;
  }
  const tier = parsed.data;
  return withServerDatabase(env, out, async (db) => {
    const user = await userByEmail(db, rawEmail);
    if (!user || !(await setTier(db, user.id, tier))) {
      out.error(`Aucun membre pour l'adresse « ${rawEmail} ».`);
      return 1;
    }
    await db.insert(securityLogs).values({ userId: user.id, eventType: 'tier_set', eventDescription: `Niveau « ${tier} » attribué en ligne de commande`, severity: 'low' });
    out.log(`Niveau « ${tier} » attribué à ${user.email}.`);
    return 0;
  });
}

runAsScript(import.meta.url, runUserTier);
