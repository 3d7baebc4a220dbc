/** Roles: the role endpoint and `npm run user:role`. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runUserRole, type Output } from '../../src/cli/user-role.ts';
import { openDatabase } from '../../src/db/client.ts';
import { securityLogs, staffRoles, users } from '../../src/db/schema.ts';
import { call, createUser, login } from '../helpers/auth.ts';
import { createPostgresDatabase, engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function capture(): Output & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, log: (m) => lines.push(m), error: (m) => errors.push(m) };
}

describe.each(engines)('role endpoint on %s', (engine) => {
  const t = suiteAuthApp(engine);

  const role = (token?: string) => call(t, { method: 'GET', url: '/api/auth/role', token });

  it("answers 'user' for an account without a staff role, and logs the check", async () => {
    const user = await createUser(t);
    const { accessToken } = await login(t, user.email, user.password);
    const res = await role(accessToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ role: 'user' });
    const logs = await t.database.db
      .select()
      .from(securityLogs)
      .where(and(eq(securityLogs.userId, user.id), eq(securityLogs.eventType, 'role_check')));
    expect(logs).toHaveLength(1);
  });

  it.each(['moderator', 'admin', 'super_admin'])(
    'answers the stored role %s, also in the user object',
    async (stored) => {
      const user = await createUser(t);
      await t.database.db.insert(staffRoles).values({ userId: user.id, role: stored });
      const session = await login(t, user.email, user.password);
      expect((await role(session.accessToken)).json()).toEqual({ role: stored });
      expect(session.user.role).toBe(stored);
    },
  );

  it('needs a signed-in caller', async () => {
    const res = await role();
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: { code: 'not_authenticated', message: 'User not authenticated' } });
  });
});

describe('npm run user:role', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'moodmap-role-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A PGlite data directory holding one account, closed again (one process at a time). */
  async function seed(dataDir: string, email: string) {
    const database = await openDatabase({ dataDir });
    await database.db.insert(users).values({ email, passwordHash: 'x' });
    await database.close();
  }

  async function roleIn(
    options: { dataDir?: string; databaseUrl?: string },
    email: string,
  ): Promise<string | undefined> {
    const database = await openDatabase(options);
    try {
      const [row] = await database.db
        .select({ role: staffRoles.role })
        .from(staffRoles)
        .innerJoin(users, eq(users.id, staffRoles.userId))
        .where(eq(users.email, email));
      return row?.role;
    } finally {
      await database.close();
    }
  }

  it('grants, changes and removes a role in the data directory, resolved against INIT_CWD', async () => {
    await seed(path.join(dir, 'data'), 'chef@example.fr');
    const env = { INIT_CWD: dir, DATA_DIR: './data', LOG_LEVEL: 'silent' };
    const out = capture();
    expect(await runUserRole(['Chef@Example.fr', 'admin'], env, out)).toBe(0);
    expect(out.lines).toEqual(['Rôle « admin » attribué à chef@example.fr.']);
    expect(await roleIn({ dataDir: path.join(dir, 'data') }, 'chef@example.fr')).toBe('admin');

    expect(await runUserRole(['chef@example.fr', 'moderator'], env, capture())).toBe(0);
    expect(await roleIn({ dataDir: path.join(dir, 'data') }, 'chef@example.fr')).toBe('moderator');
    expect(await runUserRole(['chef@example.fr', 'user'], env, capture())).toBe(0);
    expect(await roleIn({ dataDir: path.join(dir, 'data') }, 'chef@example.fr')).toBeUndefined();
  });

  it('refuses an unknown e-mail, an unknown role and missing arguments with exit code 1', async () => {
    const env = { INIT_CWD: dir, DATA_DIR: './data' };
    const unknownEmail = capture();
    expect(await runUserRole(['personne@example.fr', 'admin'], env, unknownEmail)).toBe(1);
    expect(unknownEmail.errors).toEqual(["Aucun compte pour l'adresse « personne@example.fr »."]);
    const unknownRole = capture();
    expect(await runUserRole(['chef@example.fr', 'king'], env, unknownRole)).toBe(1);
    expect(unknownRole.errors[0]).toBe(
      'Rôle inconnu : « king ». Rôles possibles : super_admin, admin, moderator, user',
    );
    const usage = capture();
    expect(await runUserRole(['chef@example.fr'], env, usage)).toBe(1);
    expect(usage.errors[0]).toContain('Utilisation : npm run user:role -- <email> <rôle>');
  });

  it.runIf(process.env.TEST_DATABASE_URL)('works on PostgreSQL through DATABASE_URL', async () => {
    const { url, drop } = await createPostgresDatabase();
    try {
      const database = await openDatabase({ databaseUrl: url });
      await database.db.insert(users).values({ email: 'pg@example.fr', passwordHash: 'x' });
      await database.close();
      expect(await runUserRole(['pg@example.fr', 'super_admin'], { DATABASE_URL: url }, capture())).toBe(0);
      expect(await roleIn({ databaseUrl: url }, 'pg@example.fr')).toBe('super_admin');
    } finally {
      await drop();
    }
  });

  it('runs as the root npm script', async () => {
    const dataDir = path.join(dir, 'npm-data');
    await seed(dataDir, 'ops@example.fr');
    const run = (...args: string[]) =>
      spawnSync('npm', ['run', '--silent', 'user:role', '--', ...args], {
        cwd: repoRoot,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
        encoding: 'utf8',
        timeout: 60_000,
      });
    const ok = run('ops@example.fr', 'admin');
    expect(ok.stdout).toContain('Rôle « admin » attribué à ops@example.fr.');
    expect(ok.status).toBe(0);
    const bad = run('nobody@example.fr', 'admin');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain("Aucun compte pour l'adresse « nobody@example.fr ».");
    expect(await roleIn({ dataDir }, 'ops@example.fr')).toBe('admin');
  }, 60_000);
});
