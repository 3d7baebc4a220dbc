/**
 * Each instance remembers a live session for its access token's life (a message send
 * does not read auth_sessions), yet a revocation still ends the session's access at once:
 * on the revoking instance before it answers, on every other instance when the bus delivers it.
 */
import { sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { call, createUser, login, withRefreshCookie } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp, suiteTwoInstances } from '../helpers/suite-app.ts';
import { terminateBackends } from '../helpers/db-faults.ts';

const GUARDED = '/api/conversations/unread';

describe.each(engines)('remembered sessions on %s', (engine) => {
  const t = suiteAuthApp(engine);

  it('a sign-out ends an access token this instance had already accepted', async () => {
    const user = await createUser(t);
    const phone = await login(t, user.email, user.password);
    const laptop = await login(t, user.email, user.password);
    expect((await call(t, { method: 'GET', url: GUARDED, token: phone.accessToken })).statusCode).toBe(200);
    expect(
      (await call(t, { method: 'POST', url: '/api/auth/logout', headers: withRefreshCookie(phone.refreshToken) }))
        .statusCode,
    ).toBe(204);
    expect((await call(t, { method: 'GET', url: GUARDED, token: phone.accessToken })).statusCode).toBe(401);
    expect((await call(t, { method: 'GET', url: GUARDED, token: laptop.accessToken })).statusCode).toBe(200);
  });

  it('a password change ends every token it had already accepted; the new session works', async () => {
    const user = await createUser(t);
    const phone = await login(t, user.email, user.password);
    const laptop = await login(t, user.email, user.password);
    for (const device of [phone, laptop])
      expect((await call(t, { method: 'GET', url: GUARDED, token: device.accessToken })).statusCode).toBe(200);
    const changed = await call(t, {
      method: 'POST',
      url: '/api/auth/password',
      token: laptop.accessToken,
      payload: { password: 'Nouveau2025' },
    });
    expect(changed.statusCode).toBe(200);
    for (const device of [phone, laptop])
      expect((await call(t, { method: 'GET', url: GUARDED, token: device.accessToken })).statusCode).toBe(401);
    expect((await call(t, { method: 'GET', url: GUARDED, token: changed.json().accessToken })).statusCode).toBe(200);
  });
});

describe.runIf(engines.includes('postgres'))('remembered sessions across two instances on PostgreSQL', () => {
  const instances = suiteTwoInstances({ sharedClock: true });
  const t = instances.t;

  const onSecond = (token: string) =>
    instances.second.inject({ method: 'GET', url: GUARDED, headers: { authorization: `Bearer ${token}` } });

  it('a sign-out on instance A ends the session instance B remembered, at once', async () => {
    const user = await createUser(t);
    const phone = await login(t, user.email, user.password);
    const laptop = await login(t, user.email, user.password);
    expect((await onSecond(phone.accessToken)).statusCode).toBe(200);
    expect((await onSecond(laptop.accessToken)).statusCode).toBe(200);

    expect(
      (await call(t, { method: 'POST', url: '/api/auth/logout', headers: withRefreshCookie(phone.refreshToken) }))
        .statusCode,
    ).toBe(204);
    // Both instances run on the test clock, which never moves here: without the bus's NOTIFY,
    // B would accept the token for its 15 minutes, so a 401 can only come from the revocation.
    await expect
      .poll(async () => (await onSecond(phone.accessToken)).statusCode, { timeout: 10_000, interval: 10 })
      .toBe(401);
    expect((await onSecond(laptop.accessToken)).statusCode).toBe(200);
  });

  it('forgets what it remembered when its bus link comes back: a revocation sent meanwhile was missed', async () => {
    const user = await createUser(t);
    const phone = await login(t, user.email, user.password);
    expect((await onSecond(phone.accessToken)).statusCode).toBe(200);
    const killed = await terminateBackends(t.database.connectionString!, 'moodmap_bus');
    expect(killed.length).toBeGreaterThan(0);
    // Revoked while no instance listens (the bus waits 100 ms before reconnecting): nobody hears it.
    const { sid } = decodeJwt(phone.accessToken);
    await t.database.db.execute(sql`update auth_sessions set revoked_at = now() where id = ${String(sid)}`);
    await expect
      .poll(async () => (await onSecond(phone.accessToken)).statusCode, { timeout: 5_000, interval: 20 })
      .toBe(401);
  });
});
