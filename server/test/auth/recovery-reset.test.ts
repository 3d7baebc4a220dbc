/**
 * Only a reset link's recovery session may reset the password, once: not the
 * tokens of a sign-in, not an already-exchanged refresh token, and 10 concurrent submissions
 * with the same recovery tokens change the password exactly once.
 */
import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@moodmap/core';
import { securityLogs, users } from '../../src/db/schema.ts';
import { REFRESH_GRACE_MS } from '../../src/modules/auth/sessions.ts';
import {
  call,
  countMails,
  createUser,
  fragment,
  login,
  pathOf,
  refreshCookieOf,
  refreshSession,
  waitForMail,
  type CreatedUser,
} from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';

const sessionNotFound = { error: { code: 'session_not_found', message: MESSAGES.reset_session_expired } };

/** A reset refused: these tokens are not (or no longer) those of a live recovery session. */
function expectSessionNotFound(res: LightMyRequestResponse): void {
  expect(res.statusCode).toBe(401);
  expect(res.json()).toEqual(sessionNotFound);
}

describe.each(engines)('reset only through a recovery session, once, on %s', (engine) => {
  const t = suiteAuthApp(engine);

  const reset = (accessToken: string, refreshToken: string, password = 'Nouveau2025') =>
    call(t, { method: 'POST', url: '/api/auth/reset-password', payload: { accessToken, refreshToken, password } });

  /** The tokens a reset link hands to the reset screen. */
  async function recoveryTokens(user: CreatedUser) {
    const before = await countMails(t, user.email, MESSAGES.mail_recovery_subject);
    expect(
      (await call(t, { method: 'POST', url: '/api/auth/recover', payload: { email: user.email } })).statusCode,
    ).toBe(200);
    const mail = await waitForMail(t, user.email, MESSAGES.mail_recovery_subject, { after: before });
    const opened = await call(t, { method: 'GET', url: pathOf(mail.links[0]) });
    const hash = fragment(opened.headers.location as string);
    return { accessToken: hash.access_token, refreshToken: hash.refresh_token };
  }

  const passwordHashOf = async (id: string) =>
    (await t.database.db.select({ h: users.passwordHash }).from(users).where(eq(users.id, id)))[0].h;
  const passwordChanges = async (id: string) =>
    (
      await t.database.db
        .select()
        .from(securityLogs)
        .where(and(eq(securityLogs.eventType, 'password_change'), eq(securityLogs.userId, id)))
    ).length;

  it("refuses a sign-in's tokens: expired access token with an already-exchanged refresh token", async () => {
    const user = await createUser(t);
    const session = await login(t, user.email, user.password);
    expect((await refreshSession(t, session.refreshToken)).statusCode).toBe(200);
    t.clock.advance(20 * 60_000);
    expectSessionNotFound(await reset(session.accessToken, session.refreshToken));
    expect(await passwordChanges(user.id)).toBe(0);
  });

  it("refuses a sign-in's current, live tokens", async () => {
    const user = await createUser(t);
    const session = await login(t, user.email, user.password);
    expectSessionNotFound(await reset(session.accessToken, session.refreshToken));
    expect(await passwordChanges(user.id)).toBe(0);
  });

  it('accepts the recovery tokens once', async () => {
    const user = await createUser(t);
    const tokens = await recoveryTokens(user);
    expect((await reset(tokens.accessToken, tokens.refreshToken)).statusCode).toBe(200);
    expectSessionNotFound(await reset(tokens.accessToken, tokens.refreshToken, 'Encore2026'));
    expect(await passwordChanges(user.id)).toBe(1);
  });

  it('refuses a recovery refresh token that was already exchanged', async () => {
    const user = await createUser(t);
    const tokens = await recoveryTokens(user);
    const rotated = await refreshSession(t, tokens.refreshToken);
    expect(rotated.statusCode).toBe(200);
    expectSessionNotFound(await reset(tokens.accessToken, tokens.refreshToken));
    expect(await passwordChanges(user.id)).toBe(0);
  });

  it('revokes the session when an exchanged refresh token comes back past the grace window, as a refresh does', async () => {
    const user = await createUser(t);
    const tokens = await recoveryTokens(user);
    const rotated = await refreshSession(t, tokens.refreshToken);
    expect(rotated.statusCode).toBe(200);
    t.clock.advance(REFRESH_GRACE_MS + 1000);
    expectSessionNotFound(await reset(tokens.accessToken, tokens.refreshToken));
    // The successor dies with its family, and the reuse is logged.
    expect((await refreshSession(t, refreshCookieOf(rotated))).statusCode).toBe(401);
    const logs = await t.database.db
      .select()
      .from(securityLogs)
      .where(and(eq(securityLogs.eventType, 'refresh_token_reuse'), eq(securityLogs.userId, user.id)));
    expect(logs.map((l) => l.severity)).toEqual(['high']);
    expect(await passwordChanges(user.id)).toBe(0);
  });

  it('changes the password exactly once under 10 concurrent submissions of the same recovery tokens', async () => {
    const user = await createUser(t);
    const tokens = await recoveryTokens(user);
    const before = await passwordHashOf(user.id);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => reset(tokens.accessToken, tokens.refreshToken, `Nouveau2025x${i}`)),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(401)]);
    for (const r of results.filter((r) => r.statusCode === 401)) expect(r.json()).toEqual(sessionNotFound);
    expect(await passwordChanges(user.id)).toBe(1);
    expect(await passwordHashOf(user.id)).not.toBe(before);
    // The winner's password is the one in force.
    const winner = results.findIndex((r) => r.statusCode === 200);
    const signedIn = await call(t, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: `Nouveau2025x${winner}` },
    });
    expect(signedIn.statusCode).toBe(200);
  });
});
