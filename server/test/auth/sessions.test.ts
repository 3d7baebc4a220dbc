/** Sign-in, session fetch, refresh rotation, sign-out, and the profile on demand. */
import { eq } from 'drizzle-orm';
import { decodeJwt, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@moodmap/core';
import { authSessions, profiles, securityLogs } from '../../src/db/schema.ts';
import { REFRESH_GRACE_MS } from '../../src/modules/auth/sessions.ts';
import { call, createUser, freshEmail, login, refreshCookieOf, withRefreshCookie } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';

const notAuthenticated = { error: { code: 'not_authenticated', message: 'User not authenticated' } };
/** The session id an access token carries. */
const sessionIdOf = (jwt: string) => (decodeJwt(jwt) as { sid: string }).sid;
const sessionExpired = { error: { code: 'session_expired', message: MESSAGES.session_expired } };

describe.each(engines)('sessions on %s', (engine) => {
  const t = suiteAuthApp(engine);

  const refresh = (refreshToken: string) =>
    call(t, { method: 'POST', url: '/api/auth/refresh', headers: withRefreshCookie(refreshToken) });
  /** A refresh answer with the successor its cookie carries. */
  const rotated = async (refreshToken: string) => {
    const res = await refresh(refreshToken);
    return { ...res.json(), refreshToken: refreshCookieOf(res) };
  };
  const session = (token?: string, authorization?: string) =>
    call(t, { method: 'GET', url: '/api/auth/session', token, headers: authorization ? { authorization } : {} });

  describe('sign-in', () => {
    it('answers tokens and the user with their profile', async () => {
      const user = await createUser(t);
      const res = await call(t, {
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: user.email.toUpperCase(), password: user.password },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const body = res.json();
      expect(body.expiresIn).toBe(900);
      expect(body.accessToken.split('.')).toHaveLength(3);
      expect(body).not.toHaveProperty('refreshToken');
      expect(refreshCookieOf(res)).toMatch(/^[\w-]{43}$/);
      expect(body.user).toEqual({
        id: user.id,
        email: user.email,
        role: 'user',
        isAdmin: false,
        // Not suspended: the moderation field is there, empty.
        suspendedUntil: null,
        profile: expect.objectContaining({
          id: user.id,
          username: 'Léa',
          firstName: 'Léa',
          lastName: 'Martin',
          bio: null,
          pulseCredits: 0,
          isPremium: false,
          usernameChangesCount: 0,
          lastUsernameChange: null,
        }),
      });
      expect(Object.keys(body.user.profile).sort()).toEqual([
        'avatarUrl',
        'bio',
        'createdAt',
        'dateOfBirth',
        'firstName',
        'id',
        'isMulti',
        'isPlus',
        'isPremium',
        'isPro',
        'lastName',
        'lastUsernameChange',
        'phoneNumber',
        'profilePhotoUrl',
        'pulseCredits',
        'username',
        'usernameChangesCount',
      ]);
    });

    it('answers the same 400 for a wrong password and an unknown address, and logs the failure', async () => {
      const user = await createUser(t);
      const wrong = await call(t, {
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: user.email, password: 'Mauvais2024' },
      });
      const unknown = await call(t, {
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: freshEmail(), password: 'Mauvais2024' },
      });
      for (const res of [wrong, unknown]) {
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({
          error: { code: 'invalid_credentials', message: 'Email ou mot de passe incorrect' },
        });
      }
      const logs = await t.database.db.select().from(securityLogs).where(eq(securityLogs.userId, user.id));
      expect(logs.map((l) => l.eventType)).toContain('login_failed');
    });

    it('validates the form with the catalogue texts', async () => {
      const res = await call(t, {
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'pas-une-adresse', password: 'x' },
      });
      expect(res.json()).toEqual({ error: { code: 'email_invalid', message: MESSAGES.email_invalid } });
      const empty = await call(t, {
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'a@b.fr', password: '' },
      });
      expect(empty.json()).toEqual({ error: { code: 'auth_fields_required', message: MESSAGES.auth_fields_required } });
    });

    it('flags the ADMIN_EMAIL account as admin', async () => {
      const admin = await createUser(t, { email: 'Admin@MoodMap.test' });
      expect((await login(t, admin.email, admin.password)).user.isAdmin).toBe(true);
    });
  });

  describe('session fetch and the auth guard', () => {
    it('returns the user for a valid access token', async () => {
      const user = await createUser(t);
      const { accessToken } = await login(t, user.email, user.password);
      const res = await session(accessToken);
      expect(res.statusCode).toBe(200);
      expect(res.json().user.id).toBe(user.id);
    });

    it('answers 401 without a token, with a malformed one, a forged one, or another kind of JWT', async () => {
      const user = await createUser(t);
      const { accessToken } = await login(t, user.email, user.password);
      const [header, payload] = accessToken.split('.');
      const forgedKey = new TextEncoder().encode('x'.repeat(32));
      const forged = await new SignJWT({ email: user.email, sid: '00000000-0000-0000-0000-000000000000' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(user.id)
        .setIssuer('moodmap')
        .setAudience('moodmap:access')
        .setIssuedAt()
        .setExpirationTime('15m')
        .sign(forgedKey);
      const unsigned = `${header}.${payload}.`;
      const noneAlg = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`;
      for (const res of [
        await session(),
        await session('garbage'),
        await session(forged),
        await session(unsigned),
        await session(noneAlg),
        await session(undefined, `Basic ${Buffer.from('a:b').toString('base64')}`),
      ]) {
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual(notAuthenticated);
      }
    });

    it('answers 401 once the access token is past its 15 minutes', async () => {
      const user = await createUser(t);
      const { accessToken } = await login(t, user.email, user.password);
      t.clock.advance(14 * 60_000);
      expect((await session(accessToken)).statusCode).toBe(200);
      t.clock.advance(60_000 + 1000);
      expect((await session(accessToken)).json()).toEqual(notAuthenticated);
    });
  });

  describe('refresh rotation', () => {
    it('exchanges a refresh token for a new pair, and the new one works', async () => {
      const user = await createUser(t);
      const first = await login(t, user.email, user.password);
      const res = await refresh(first.refreshToken);
      expect(res.statusCode).toBe(200);
      const second = { ...res.json(), refreshToken: refreshCookieOf(res) };
      expect(second.refreshToken).not.toBe(first.refreshToken);
      expect(second.user.id).toBe(user.id);
      expect((await session(second.accessToken)).statusCode).toBe(200);
      expect((await refresh(second.refreshToken)).statusCode).toBe(200);
    });

    it('lets 20 parallel refreshes with one token all succeed, in the same session', async () => {
      const user = await createUser(t);
      const { refreshToken } = await login(t, user.email, user.password);
      const results = await Promise.all(Array.from({ length: 20 }, () => refresh(refreshToken)));
      expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
      // They all hold the same successor, which itself works.
      const successors = new Set(results.map((r) => refreshCookieOf(r)));
      expect(successors.size).toBe(1);
      expect((await refresh([...successors][0])).statusCode).toBe(200);
    });

    it('accepts an old token again within the grace window', async () => {
      const user = await createUser(t);
      const { refreshToken } = await login(t, user.email, user.password);
      const first = await rotated(refreshToken);
      t.clock.advance(REFRESH_GRACE_MS - 1000);
      const again = await refresh(refreshToken);
      expect(again.statusCode).toBe(200);
      expect(refreshCookieOf(again)).toBe(first.refreshToken);
    });

    it('revokes the whole family when a rotated token comes back after the grace window', async () => {
      const user = await createUser(t);
      const { refreshToken: stolen } = await login(t, user.email, user.password);
      const legit = await rotated(stolen);
      const legitNext = await rotated(legit.refreshToken);
      t.clock.advance(REFRESH_GRACE_MS + 1000);

      const reuse = await refresh(stolen);
      expect(reuse.statusCode).toBe(401);
      expect(reuse.json()).toEqual(sessionExpired);
      // Every token of the family is dead: refresh and access alike.
      expect((await refresh(legitNext.refreshToken)).json()).toEqual(sessionExpired);
      expect((await session(legitNext.accessToken)).json()).toEqual(notAuthenticated);
      const logs = await t.database.db.select().from(securityLogs).where(eq(securityLogs.userId, user.id));
      expect(logs.find((l) => l.eventType === 'refresh_token_reuse')?.severity).toBe('high');

      // Other sessions of the same person are untouched.
      const other = await login(t, user.email, user.password);
      expect((await refresh(other.refreshToken)).statusCode).toBe(200);
    });

    it('refuses an unknown or expired refresh token', async () => {
      expect((await refresh('unknown-token')).json()).toEqual(sessionExpired);
      const user = await createUser(t);
      const { refreshToken } = await login(t, user.email, user.password);
      t.clock.advance(31 * 24 * 3600_000);
      expect((await refresh(refreshToken)).json()).toEqual(sessionExpired);
    });
  });

  it('purges expired refresh tokens and the sessions left without any', async () => {
    const user = await createUser(t);
    const old = await login(t, user.email, user.password);
    t.clock.advance(31 * 24 * 3600_000);
    const recent = await login(t, user.email, user.password);
    await t.app.ctx.auth.sessions.purge(t.clock.now());
    const rows = await t.database.db
      .select({ id: authSessions.id })
      .from(authSessions)
      .where(eq(authSessions.userId, user.id));
    expect(rows.map((r) => r.id)).toEqual([sessionIdOf(recent.accessToken)]);
    expect(sessionIdOf(old.accessToken)).not.toBe(sessionIdOf(recent.accessToken));
    expect((await refresh(recent.refreshToken)).statusCode).toBe(200);
  });

  describe('sign-out', () => {
    it('revokes the session: refresh and access tokens stop working', async () => {
      const user = await createUser(t);
      const s = await login(t, user.email, user.password);
      const other = await login(t, user.email, user.password);
      const res = await call(t, {
        method: 'POST',
        url: '/api/auth/logout',
        headers: withRefreshCookie(s.refreshToken),
      });
      expect(res.statusCode).toBe(204);
      expect((await refresh(s.refreshToken)).statusCode).toBe(401);
      expect((await session(s.accessToken)).statusCode).toBe(401);
      // Signing out one device leaves the others signed in.
      expect((await session(other.accessToken)).statusCode).toBe(200);
      // Signing out twice, or with an unknown token, is harmless.
      expect(
        (await call(t, { method: 'POST', url: '/api/auth/logout', headers: withRefreshCookie(s.refreshToken) }))
          .statusCode,
      ).toBe(204);
      expect(
        (await call(t, { method: 'POST', url: '/api/auth/logout', headers: withRefreshCookie('nope') })).statusCode,
      ).toBe(204);
    });
  });

  describe('profile on demand at sign-in', () => {
    it.each([
      ['the nickname metadata', { nickname: 'Lulu', first_name: 'Lucie' }, 'zoe.dupont', 'Lulu'],
      ['the first name', { first_name: 'Lucie' }, 'zoe.dupont', 'Lucie'],
      ["the e-mail's local part", {}, 'zoe.dupont', 'zoe.dupont'],
      ["the e-mail's local part over blank names", { nickname: '  ', first_name: '' }, 'marc', 'marc'],
    ])('creates a missing profile named from %s', async (_label, metadata, local, username) => {
      const user = await createUser(t, {
        email: `${local}.${Math.random().toString(36).slice(2)}@example.fr`,
        metadata,
      });
      const expected = username === local ? user.email.split('@')[0] : username;
      const res = await call(t, {
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: user.email, password: user.password },
      });
      expect(res.json().user.profile.username).toBe(expected);
      const [row] = await t.database.db.select().from(profiles).where(eq(profiles.id, user.id));
      expect(row.username).toBe(expected);
    });

    it("keeps the profile's own username, and falls back to 'Utilisateur' when nothing else exists", async () => {
      const user = await createUser(t);
      await t.database.db.insert(profiles).values({ id: user.id, username: 'Pseudo_choisi' });
      expect((await login(t, user.email, user.password)).user.profile.username).toBe('Pseudo_choisi');
      const { usernameFor } = await import('../../src/modules/auth/users.ts');
      expect(usernameFor({ email: '@example.fr', metadata: {} })).toBe('Utilisateur');
    });

    it('creates the profile once under concurrent session fetches', async () => {
      const user = await createUser(t, { metadata: { first_name: 'Solo' } });
      const { accessToken } = await login(t, user.email, user.password);
      await t.database.db.delete(profiles).where(eq(profiles.id, user.id));
      const results = await Promise.all(Array.from({ length: 5 }, () => session(accessToken)));
      expect(results.map((r) => r.statusCode)).toEqual(Array(5).fill(200));
      expect(await t.database.db.select().from(profiles).where(eq(profiles.id, user.id))).toHaveLength(1);
    });
  });
});
