/** Staff set a member's tier (display only): API and CLI. */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runUserTier } from '../../src/cli/user-tier.ts';
import { openDatabase } from '../../src/db/client.ts';
import { profiles, staffRoles, users } from '../../src/db/schema.ts';
import { call, signedInUser } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';

describe.each(engines)('tiers on %s', (engine) => {
  const t = suiteAuthApp(engine);

  async function member(role?: 'admin' | 'moderator') {
    const user = await signedInUser(t);
    if (role) await t.database.db.insert(staffRoles).values({ userId: user.id, role });
    return user;
  }
  const profileOf = async (id: string) => (await call(t, { method: 'GET', url: `/api/profiles/${id}` })).json().profile;

  it('an admin sets one tier at a time; Gratuit clears it', async () => {
    const admin = await member('admin');
    const lea = await member();
    const set = (tier: string) =>
      call(t, { method: 'PUT', url: `/api/staff/users/${lea.id}/tier`, token: admin.token, payload: { tier } });
    expect((await set('Premium')).json()).toEqual({ userId: lea.id, tier: 'Premium' });
    expect(await profileOf(lea.id)).toMatchObject({ isPremium: true, isPlus: false, isMulti: false, isPro: false });
    await set('Multi');
    expect(await profileOf(lea.id)).toMatchObject({ isPremium: false, isMulti: true });
    await set('Gratuit');
    expect(await profileOf(lea.id)).toMatchObject({ isPremium: false, isPlus: false, isMulti: false, isPro: false });
    expect((await set('Gold')).statusCode).toBe(400);
  });

  it('a moderator or a member is refused; an unknown member is a 404', async () => {
    const moderator = await member('moderator');
    const lea = await member();
    for (const caller of [moderator, lea]) {
      const res = await call(t, {
        method: 'PUT',
        url: `/api/staff/users/${lea.id}/tier`,
        token: caller.token,
        payload: { tier: 'Pro' },
      });
      expect(res.statusCode).toBe(403);
    }
    expect((await profileOf(lea.id)).isPro).toBe(false);
    const admin = await member('admin');
    const missing = await call(t, {
      method: 'PUT',
      url: '/api/staff/users/00000000-0000-4000-8000-000000000000/tier',
      token: admin.token,
      payload: { tier: 'Pro' },
    });
    expect(missing.statusCode).toBe(404);
  });
});

describe('npm run user:tier', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'moodmap-tier-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const capture = () => {
    const lines: string[] = [];
    const errors: string[] = [];
    return { lines, errors, log: (m: string) => void lines.push(m), error: (m: string) => void errors.push(m) };
  };
  async function flagsOf(dataDir: string, email: string) {
    const database = await openDatabase({ dataDir });
    try {
      const [row] = await database.db
        .select({
          isPremium: profiles.isPremium,
          isPlus: profiles.isPlus,
          isMulti: profiles.isMulti,
          isPro: profiles.isPro,
        })
        .from(profiles)
        .innerJoin(users, eq(users.id, profiles.id))
        .where(eq(users.email, email));
      return row;
    } finally {
      await database.close();
    }
  }

  it('sets a tier (any case), then Gratuit; refuses an unknown tier or e-mail', async () => {
    const dataDir = path.join(dir, 'data');
    const database = await openDatabase({ dataDir });
    const [user] = await database.db
      .insert(users)
      .values({ email: 'membre@example.fr', passwordHash: 'x' })
      .returning({ id: users.id });
    await database.db.insert(profiles).values({ id: user.id, username: 'Membre' });
    await database.close();
    const env = { INIT_CWD: dir, DATA_DIR: './data', LOG_LEVEL: 'silent' };
    const out = capture();
    expect(await runUserTier(['Membre@Example.fr', 'plus'], env, out)).toBe(0);
    expect(out.lines).toEqual(['Niveau « Plus » attribué à membre@example.fr.']);
    expect(await flagsOf(dataDir, 'membre@example.fr')).toEqual({
      isPremium: false,
      isPlus: true,
      isMulti: false,
      isPro: false,
    });
    expect(await runUserTier(['membre@example.fr', 'Gratuit'], env, capture())).toBe(0);
    expect(await flagsOf(dataDir, 'membre@example.fr')).toEqual({
      isPremium: false,
      isPlus: false,
      isMulti: false,
      isPro: false,
    });
    const unknownTier = capture();
    expect(await runUserTier(['membre@example.fr', 'Gold'], env, unknownTier)).toBe(1);
    expect(unknownTier.errors[0]).toBe(
      'Niveau inconnu : « Gold ». Niveaux possibles : Gratuit, Premium, Plus, Multi, Pro',
    );
    const unknownEmail = capture();
    expect(await runUserTier(['personne@example.fr', 'Pro'], env, unknownEmail)).toBe(1);
    expect(unknownEmail.errors[0]).toBe("Aucun membre pour l'adresse « personne@example.fr ».");
  });
});
