/**
 * `npm run user:role -- <email> <role>`: grants a staff role (docs/product.md, Roles and staff) to an account, on the
 * database the server uses (cli-support.ts: stop a PGlite server first).
 */
import { sql } from 'drizzle-orm';
import { STAFF_ROLES } from '@moodmap/core';
import { securityLogs, staffRoles } from '../db/schema.ts';
import { emailAndChoice, type Output, runAsScript, userByEmail, withServerDatabase } from './cli-support.ts';

export type { Output };

const USAGE = `Utilisation : npm run user:role -- <email> <rôle>\nRôles possibles : ${STAFF_ROLES.join(', ')}`;

/** Returns the exit code. */
export async function runUserRole(args: string[], env: NodeJS.ProcessEnv, out: Output): Promise<number> {
  const parsed = emailAndChoice(args, out, USAGE, { one: 'Rôle', many: 'Rôles' }, STAFF_ROLES);
  if (!parsed) return 1;
  const { email: rawEmail, choice: role } = parsed;
  return withServerDatabase(env, out, async (db) => {
    const user = await userByEmail(db, rawEmail);
    if (!user) {
      out.error(`Aucun compte pour l'adresse « ${rawEmail} ».`);
      return 1;
    }
    if (role === 'user') {
      // No row means 'user', the default role.
      await db.delete(staffRoles).where(sql`${staffRoles.userId} = ${user.id}`);
    } else {
      await db
        .insert(staffRoles)
        .values({ userId: user.id, role })
        .onConflictDoUpdate({ target: staffRoles.userId, set: { role, grantedAt: new Date() } });
    }
    await db.insert(securityLogs).values({
      userId: user.id,
      eventType: 'role_granted',
      eventDescription: `Rôle « ${role} » attribué en ligne de commande`,
      severity: 'medium',
    });
    out.log(`Rôle « ${role} » attribué à ${user.email}.`);
    return 0;
  });
}

runAsScript(import.meta.url, runUserRole);
