/**
 * `npm run user:tier -- <email> <tier>`: sets a member's tier badge (display only):
 * Gratuit, Premium, Plus, Multi or Pro. Same database and caveats as `npm run user:role`.
 */
import { TIERS } from '@moodmap/core';
import { securityLogs } from '../db/schema.ts';
import { setTier } from '../modules/tiers/service.ts';
import { emailAndChoice, type Output, runAsScript, userByEmail, withServerDatabase } from './cli-support.ts';

const USAGE = `Utilisation : npm run user:tier -- <email> <niveau>\nNiveaux possibles : ${TIERS.join(', ')}`;

/** Returns the exit code. */
export async function runUserTier(args: string[], env: NodeJS.ProcessEnv, out: Output): Promise<number> {
  const parsed = emailAndChoice(args, out, USAGE, { one: 'Niveau', many: 'Niveaux' }, TIERS);
  if (!parsed) return 1;
  const { email: rawEmail, choice: tier } = parsed;
  return withServerDatabase(env, out, async (db) => {
    const user = await userByEmail(db, rawEmail);
    if (!user || !(await setTier(db, user.id, tier))) {
      out.error(`Aucun membre pour l'adresse « ${rawEmail} ».`);
      return 1;
    }
    await db.insert(securityLogs).values({
      userId: user.id,
      eventType: 'tier_set',
      eventDescription: `Niveau « ${tier} » attribué en ligne de commande`,
      severity: 'low',
    });
    out.log(`Niveau « ${tier} » attribué à ${user.email}.`);
    return 0;
  });
}

runAsScript(import.meta.url, runUserTier);
