/**
 * `npm run user:role -- <email> <role>`: grants a staff role (spec §6) to an account.
 * Opens the database the server uses — same environment: DATABASE_URL, or DATA_DIR (default
 * ./data). npm runs workspace scripts from server/, so a relative DATA_DIR is resolved against
 * the directory npm was invoked from (INIT_CWD), like the server started by `npm start`.
 * PGlite allows one process per data directory: stop the server first, or use PostgreSQL.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { STAFF_ROLES, type StaffRole } from '@moodmap/core';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { securityLogs, staffRoles, users } from '../db/schema.ts';

export interface Output {
  log(message: string): void;
  error(message: string): void;
}

const USAGE = `Utilisation : npm run user:role -- <email> <rôle>\nRôles possibles : ${STAFF_ROLES.join(', ')}`;

/** Returns the exit code. */
export async function runUserRole(args: string[], env: NodeJS.ProcessEnv, out: Output): Promise<number> {
  const [rawEmail, rawRole, ...extra] = args;
  if (!rawEmail || !rawRole || extra.length > 0) {
    out.error(USAGE);
    return 1;
  }
  const role = rawRole.trim().toLowerCase();
  if (!(STAFF_ROLES as readonly string[]).includes(role)) {
    out.error(`Rôle inconnu : « ${rawRole} ». Rôles possibles : ${STAFF_ROLES.join(', ')}`);
    return 1;
  }
  const email = rawEmail.trim().toLowerCase();

  let config;
  try {
    const base = env.INIT_CWD ?? process.cwd();
    config = loadConfig({ ...env, DATA_DIR: path.resolve(base, env.DATA_DIR ?? './data') });
  } catch (error) {
    if (error instanceof ConfigError) {
      out.error(error.message);
      return 1;
    }
    throw error;
  }

  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 1 });
  try {
    const { db } = database;
    const [user] = await db.select({ id: users.id, email: users.email }).from(users).where(sql`lower(${users.email}) = ${email}`).limit(1);
    if (!user) {
      out.error(`Aucun compte pour l'adresse « ${rawEmail} ».`);
      return 1;
    }
    if (role === 'user') {
      // No row means 'user' (spec §6: the default when none is returned).
      await db.delete(staffRoles).where(sql`${staffRoles.userId} = ${user.id}`);
    } else {
      await db.insert(staffRoles).values({ userId: user.id, role: role as StaffRole })
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
  } finally {
    await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  runUserRole(process.argv.slice(2), process.env, console).then(
    (code) => process.exit(code),
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
