/** Password reset by e-mail and password change (docs/product.md, Accounts). */
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@moodmap/core';
import { securityLogs, users } from '../../src/db/schema.ts';
import {
  call,
  countMails,
  createUser,
  fragment,
  freshEmail,
  freshIp,
  login,
  mailsTo,
  pathOf,
  waitForMail,
  withRefreshCookie,
  type CreatedUser,
} from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';

const sessionNotFound = {
  error: { code: 'session_not_found', message: 'Session de récupération expirée. Veuillez demander un nouveau lien.' },
};
const weakPassword = {
  error: { code: 'weak_password', message: 'Mot de passe trop faible. Veuillez choisir un mot de passe plus fort.' },
};

describe.each(engines)('password reset on %s', (engine) => {
  const t = suiteAuthApp(engine);

  const recover = (email: string, ip?: string) =>
    call(t, { method: 'POST', url: '/api/auth/recover', payload: { email }, ip });

  /** Requests a reset and returns the e-mail's link. */
  async function resetLink(user: CreatedUser): Promise<string> {
    const before = await countMails(t, user.email, MESSAGES.mail_recovery_subject);
    expect((await recover(user.email)).statusCode).toBe(200);
    const mail = await waitForMail(t, user.email, MESSAGES.mail_recovery_subject, { after: before });
    expect(mail.links).toHaveLength(1);
    return mail.links[0];
  }

  /** Opens the link like the browser and returns the fragment the app receives. */
  async function openLink(link: string) {
    const res = await call(t, { method: 'GET', url: pathOf(link) });
    expect(res.statusCode).toBe(302);
    return { location: res.headers.location as string, hash: fragment(res.headers.location as string) };
  }

  const reset = (payload: Record<string, unknown>) =>
    call(t, { method: 'POST', url: '/api/auth/reset-password', payload });

  it('answers an unknown address exactly like a known one, and mails only the known one', async () => {
    const user = await createUser(t);
    const unknown = freshEmail();
    const known = await recover(user.email);
    const other = await recover(unknown);
    expect(known.statusCode).toBe(200);
    expect(other.statusCode).toBe(200);
    expect(other.body).toBe(known.body);
    expect(known.json()).toEqual({ status: 'sent' });
    const pick = (h: Record<string, unknown>) =>
      Object.keys(h)
        .filter((k) => k !== 'date')
        .sort()
        .map((k) => [k, h[k]]);
    expect(pick(other.headers)).toEqual(pick(known.headers));
    await waitForMail(t, user.email, MESSAGES.mail_recovery_subject);
    expect(await mailsTo(t, unknown)).toHaveLength(0);
  });

  it('sends a French e-mail whose link opens /reset-password with both tokens and type=recovery', async () => {
    const user = await createUser(t);
    const link = await resetLink(user);
    expect(link).toMatch(/^http:\/\/moodmap\.test\/api\/auth\/verify\?type=recovery&token=[\w-]{43}$/);
    const mail = (await mailsTo(t, user.email))[0];
    expect(mail.text).toContain(MESSAGES.mail_recovery_intro);
    expect(mail.html).toContain(MESSAGES.mail_recovery_action);

    const { location, hash } = await openLink(link);
    expect(location.startsWith('/reset-password#')).toBe(true);
    expect(hash).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      type: 'recovery',
      expires_in: '900',
    });
    // The recovery session is a real session.
    expect((await call(t, { method: 'GET', url: '/api/auth/session', token: hash.access_token })).statusCode).toBe(200);
  });

  it('changes the password, ends every earlier session, and signs in with the new one', async () => {
    const user = await createUser(t);
    const laptop = await login(t, user.email, user.password);
    const { hash } = await openLink(await resetLink(user));

    const res = await reset({
      accessToken: hash.access_token,
      refreshToken: hash.refresh_token,
      password: 'Nouveau2025',
    });
    expect(res.statusCode).toBe(200);
    const fresh = res.json();
    expect(fresh.user.id).toBe(user.id);
    expect((await call(t, { method: 'GET', url: '/api/auth/session', token: fresh.accessToken })).statusCode).toBe(200);

    // No token issued before the change works after it: not the other device's, not the link's.
    for (const refreshToken of [laptop.refreshToken, hash.refresh_token]) {
      expect(
        (await call(t, { method: 'POST', url: '/api/auth/refresh', headers: withRefreshCookie(refreshToken) }))
          .statusCode,
      ).toBe(401);
    }
    for (const token of [laptop.accessToken, hash.access_token]) {
      expect((await call(t, { method: 'GET', url: '/api/auth/session', token })).statusCode).toBe(401);
    }
    expect(
      (
        await call(t, {
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: user.email, password: user.password },
        })
      ).statusCode,
    ).toBe(400);
    expect((await login(t, user.email, 'Nouveau2025')).user.id).toBe(user.id);

    const [log] = await t.database.db
      .select()
      .from(securityLogs)
      .where(and(eq(securityLogs.eventType, 'password_change'), eq(securityLogs.userId, user.id)));
    expect(log).toMatchObject({ severity: 'medium' });
  });

  it('refuses a reset link used twice', async () => {
    const user = await createUser(t);
    const link = await resetLink(user);
    expect((await openLink(link)).hash.access_token).toBeTruthy();
    const second = await openLink(link);
    expect(second.location).toBe('/reset-password#error=link_invalid&type=recovery');
  });

  it('redeems a reset link exactly once under 10 concurrent clicks', async () => {
    const user = await createUser(t);
    const link = await resetLink(user);
    const results = await Promise.all(Array.from({ length: 10 }, () => call(t, { method: 'GET', url: pathOf(link) })));
    const locations = results.map((r) => r.headers.location as string);
    expect(locations.filter((l) => l.includes('access_token='))).toHaveLength(1);
    expect(locations.filter((l) => l === '/reset-password#error=link_invalid&type=recovery')).toHaveLength(9);
  });

  it('refuses a reset link after its hour, and older links once the password changed', async () => {
    const user = await createUser(t);
    const stale = await resetLink(user);
    t.clock.advance(3600_000 + 1000);
    expect((await openLink(stale)).location).toBe('/reset-password#error=link_invalid&type=recovery');

    const first = await resetLink(user);
    t.clock.advance(1000);
    const { hash } = await openLink(await resetLink(user));
    expect(
      (await reset({ accessToken: hash.access_token, refreshToken: hash.refresh_token, password: 'Nouveau2025' }))
        .statusCode,
    ).toBe(200);
    expect((await openLink(first)).location).toBe('/reset-password#error=link_invalid&type=recovery');
  });

  it('confirms a never-confirmed address when its reset link is used', async () => {
    const user = await createUser(t, { confirmed: false });
    await openLink(await resetLink(user));
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row.emailConfirmedAt).not.toBeNull();
  });

  it('answers weak_password for a password breaking the rules', async () => {
    const user = await createUser(t);
    const { hash } = await openLink(await resetLink(user));
    for (const password of ['court1A', 'toutenminuscule1', 'SansChiffre', '']) {
      const res = await reset({ accessToken: hash.access_token, refreshToken: hash.refresh_token, password });
      expect(res.statusCode, password).toBe(400);
      expect(res.json()).toEqual(weakPassword);
    }
    // Nothing changed: the recovery session still works.
    expect(
      (await reset({ accessToken: hash.access_token, refreshToken: hash.refresh_token, password: 'Correct2025' }))
        .statusCode,
    ).toBe(200);
  });

  it('answers session_not_found for tokens that are not one live session', async () => {
    const user = await createUser(t);
    const other = await login(t, (await createUser(t)).email, 'Soleil2024');
    const { hash } = await openLink(await resetLink(user));
    const cases = [
      { accessToken: 'garbage', refreshToken: hash.refresh_token },
      { accessToken: hash.access_token, refreshToken: 'garbage' },
      // Two genuine tokens, but of different sessions.
      { accessToken: hash.access_token, refreshToken: other.refreshToken },
      { accessToken: other.accessToken, refreshToken: hash.refresh_token },
    ];
    for (const tokens of cases) {
      const res = await reset({ ...tokens, password: 'Nouveau2025' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(sessionNotFound);
    }
    // Signed out since: expired too.
    await call(t, { method: 'POST', url: '/api/auth/logout', headers: withRefreshCookie(hash.refresh_token) });
    expect(
      (
        await reset({ accessToken: hash.access_token, refreshToken: hash.refresh_token, password: 'Nouveau2025' })
      ).json(),
    ).toEqual(sessionNotFound);
  });

  it('still accepts the reset after the access token expired, while the refresh token is live', async () => {
    const user = await createUser(t);
    const { hash } = await openLink(await resetLink(user));
    t.clock.advance(20 * 60_000);
    const res = await reset({
      accessToken: hash.access_token,
      refreshToken: hash.refresh_token,
      password: 'Nouveau2025',
    });
    expect(res.statusCode).toBe(200);
  });

  it('says which tokens are missing', async () => {
    const res = await reset({ password: 'Nouveau2025' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: { code: 'reset_tokens_missing', message: MESSAGES.reset_tokens_missing } });
  });

  it('validates the forgot-password form', async () => {
    expect((await recover('')).json()).toEqual({
      error: { code: 'forgot_email_required', message: 'Veuillez entrer votre adresse email' },
    });
    expect((await recover('nope')).json()).toEqual({
      error: { code: 'email_invalid', message: MESSAGES.email_invalid },
    });
  });

  it('limits reset requests with the French text and Retry-After', async () => {
    const email = freshEmail();
    const ip = freshIp();
    for (let i = 0; i < 5; i++) expect((await recover(email, ip)).statusCode).toBe(200);
    const res = await recover(email, ip);
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({
      error: { code: 'reset_rate_limited', message: 'Trop de demandes. Veuillez patienter avant de réessayer.' },
    });
    expect(Number(res.headers['retry-after'])).toBe(15 * 60);
  });

  describe('password change when signed in', () => {
    it('changes the password and ends the other sessions', async () => {
      const user = await createUser(t);
      const phone = await login(t, user.email, user.password);
      const laptop = await login(t, user.email, user.password);
      const res = await call(t, {
        method: 'POST',
        url: '/api/auth/password',
        token: laptop.accessToken,
        payload: { password: 'Nouveau2025' },
      });
      expect(res.statusCode).toBe(200);
      const fresh = res.json();
      expect((await call(t, { method: 'GET', url: '/api/auth/session', token: fresh.accessToken })).statusCode).toBe(
        200,
      );
      for (const s of [phone, laptop]) {
        expect(
          (await call(t, { method: 'POST', url: '/api/auth/refresh', headers: withRefreshCookie(s.refreshToken) }))
            .statusCode,
        ).toBe(401);
      }
      expect((await login(t, user.email, 'Nouveau2025')).user.id).toBe(user.id);
    });

    it('needs a signed-in caller and a strong password', async () => {
      const anonymous = await call(t, {
        method: 'POST',
        url: '/api/auth/password',
        payload: { password: 'Nouveau2025' },
      });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json().error.code).toBe('not_authenticated');
      const user = await createUser(t);
      const s = await login(t, user.email, user.password);
      const weak = await call(t, {
        method: 'POST',
        url: '/api/auth/password',
        token: s.accessToken,
        payload: { password: 'faible' },
      });
      expect(weak.json()).toEqual(weakPassword);
    });
  });
});
