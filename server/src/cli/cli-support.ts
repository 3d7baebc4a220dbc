/**
 * What the staff command-line tools share: the database the server uses (same environment:
 * DATABASE_URL, or DATA_DIR, default ./data — npm runs workspace scripts from server/, so a
 * relative DATA_DIR is resolved against the directory npm was invoked from, INIT_CWD, like the
 * server started by `npm start`), the `<email> <choice>` arguments, the account by e-mail, and
 * running as a script.
 * PGlite allows one process per data directory: stop the server first, or use PostgreSQL.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { ConfigError, loadConfig } from '../config.ts';
import { type Db, openDatabase } from '../db/client.ts';
import { users } from '../db/schema.ts';

export interface Output {
  log(message: string): void;
  error(message: string): void;
}

/** Runs `work` on the server's database and closes it; a bad configuration is exit code 1. */
export async function withServerDatabase(
  env: NodeJS.ProcessEnv,
  out: Output,
  work: (db: Db) => Promise<number>,
): Promise<number> {
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
    return await work(database.db);
  } finally {
    await database.close();
  }
}

/**
 * The arguments of a tool run as `<email> <choice>`, the choice one of `choices` in any case
 * ('premium' or 'PREMIUM' is Premium). Otherwise reports the usage, or the unknown choice
 * with the possible ones (`kind` names what a choice is), and returns null.
 */
export function emailAndChoice<T extends string>(
  args: string[],
  out: Output,
  usage: string,
  kind: { one: string; many: string },
  choices: readonly T[],
): { email: string; choice: T } | null {
  const [email, rawChoice, ...extra] = args;
  if (!email || !rawChoice || extra.length > 0) {
    out.error(usage);
    return null;
  }
  const wanted = rawChoice.trim().toLowerCase();
  const choice = choices.find((c) => c.toLowerCase() === wanted);
  if (choice === undefined) {
    out.error(`${kind.one} inconnu : « ${rawChoice} ». ${kind.many} possibles : ${choices.join(', ')}`);
    return null;
  }
  return { email, choice };
}

/** The account with this e-mail (any case), or undefined. */
export async function userByEmail(db: Db, rawEmail: string): Promise<{ id: string; email: string } | undefined> {
  const email = rawEmail.trim().toLowerCase();
  const [user] = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`)
    .limit(1);
  return user;
}

/** Runs the tool when its file is the script node was started with; its result is the exit code. */
export function runAsScript(
  moduleUrl: string,
  run: (args: string[], env: NodeJS.ProcessEnv, out: Output) => Promise<number>,
): void {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(path.resolve(process.argv[1])).href) return;
  run(process.argv.slice(2), process.env, console).then(
    (code) => process.exit(code),
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
