/**
 * The refresh token lives in an HttpOnly cookie: set by every route that
 * starts or rotates a session, never in a JSON answer, read by refresh and logout behind a
 * CSRF check, cleared by logout.
 */
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { CSRF_HEADER, MESSAGES } from '@moodmap/core';
import { call, createUser, fragment, login, mailsTo, pathOf, signUp, waitForMail } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';

const COOKIE = 'moodmap_refresh';
const CSRF = { [CSRF_HEADER.name]: CSRF_HEADER.value };
const csrfRejected = { error: { code: 'csrf_rejected', message: MESSAGES.csrf_rejected } };
const sessionExpired = { error: { code: 'session_expired', message: MESSAGES.session_expired } };

/** The refresh cookie an answer sets, if any. */
function refreshCookie(res: LightMyRequestResponse) {
  return (
    res.cookies as Array<{
      name: string;
      value: string;
      path?: string;
      httpOnly?: boolean;
      secure?: boolean;
      sameSite?: string;
      maxAge?: number;
      expires?: Date;
    }>
  ).find((c) => c.name === COOKIE);
}

describe.each(engines)('refresh cookie on %s', (engine) => {
  const t = suiteAuthApp(engine);

  const refresh = (token: string | null, headers: Record<string, string> = CSRF) =>
    call(t, {
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { ...headers, ...(token ? { cookie: `${COOKIE}=${token}` } : {}) },
    });
  const logout = (token: string, headers: Record<string, string> = CSRF) =>
    call(t, { method: 'POST', url: '/api/auth/logout', headers: { ...headers, cookie: `${COOKIE}=${token}` } });

  async function signedIn(host?: string) {
    const user = await createUser(t);
    const res = await call(t, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: user.password },
      headers: host ? { host } : {},
    });
    expect(res.statusCode).toBe(200);
    return { user, res, cookie: refreshCookie(res)! };
  }

  describe('sign-in', () => {
    it('sets the cookie HttpOnly, Secure, SameSite=Strict on /api/auth, and leaves the token out of the JSON', async () => {
      const { res, cookie } = await signedIn('localhost:3000');
      expect(res.json()).not.toHaveProperty('refreshToken');
      expect(res.body).not.toContain(cookie.value);
      expect(res.json()).toEqual({
        accessToken: expect.any(String),
        expiresIn: 900,
        user: expect.objectContaining({ role: 'user' }),
      });
      expect(cookie).toMatchObject({
        path: '/api/auth',
        httpOnly: true,
        secure: true,
        sameSite: 'Strict',
        maxAge: 30 * 24 * 3600,
      });
      expect(cookie.value).toMatch(/^[\w-]{43}$/);
    });

    it('is Secure on 127.0.0.1 too, but not on a LAN address over http, where a browser would drop it', async () => {
      expect((await signedIn('127.0.0.1:3000')).cookie.secure).toBe(true);
      const lan = (await signedIn('192.168.1.20:3000')).cookie;
      expect(lan.secure).toBeFalsy();
      expect(lan).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth' });
    });
  });

  describe('refresh', () => {
    it('rotates the cookie with the header and answers a working access token without a refresh token', async () => {
      const { user, cookie } = await signedIn();
      const res = await refresh(cookie.value);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json()).not.toHaveProperty('refreshToken');
      expect(res.json().user.id).toBe(user.id);
      const next = refreshCookie(res)!;
      expect(next).toMatchObject({ path: '/api/auth', httpOnly: true, sameSite: 'Strict' });
      expect(next.value).not.toBe(cookie.value);
      expect(
        (await call(t, { method: 'GET', url: '/api/auth/session', token: res.json().accessToken })).statusCode,
      ).toBe(200);
      expect((await refresh(next.value)).statusCode).toBe(200);
    });

    it('gives tabs refreshing with the same cookie at once the same successor (rotation grace)', async () => {
      const { cookie } = await signedIn();
      const answers = await Promise.all([refresh(cookie.value), refresh(cookie.value), refresh(cookie.value)]);
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
      expect(new Set(answers.map((r) => refreshCookie(r)!.value)).size).toBe(1);
    });

    it('refuses without the X-Requested-With header: 403 in the API shape, and nothing rotates', async () => {
      const { cookie } = await signedIn();
      const res = await refresh(cookie.value, {});
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(csrfRejected);
      expect(refreshCookie(res)).toBeUndefined();
      expect((await refresh(cookie.value, { 'x-requested-with': 'XMLHttpRequest' })).json()).toEqual(csrfRejected);
      // The token was not spent: it still rotates once, and the one after too.
      const ok = await refresh(cookie.value);
      expect(ok.statusCode).toBe(200);
    });

    it.each([
      ['a cross-site Sec-Fetch-Site', { 'sec-fetch-site': 'cross-site' }],
      ['a same-site but cross-origin Sec-Fetch-Site', { 'sec-fetch-site': 'same-site' }],
      ['a foreign Origin', { origin: 'https://evil.example' }],
      ['a foreign Origin on the same host name but another port', { origin: 'http://localhost:8080' }],
      ['Origin: null', { origin: 'null' }],
    ])('refuses %s even with the header', async (_label, headers) => {
      const { cookie } = await signedIn();
      const res = await refresh(cookie.value, { ...CSRF, ...headers });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(csrfRejected);
    });

    it('accepts a same-origin Sec-Fetch-Site, and an Origin naming this host', async () => {
      const { cookie } = await signedIn();
      const first = await refresh(cookie.value, {
        ...CSRF,
        'sec-fetch-site': 'same-origin',
        origin: 'http://elsewhere.example',
      });
      expect(first.statusCode).toBe(200);
      const second = await refresh(refreshCookie(first)!.value, {
        ...CSRF,
        host: 'moodmap.test',
        origin: 'http://moodmap.test',
      });
      expect(second.statusCode).toBe(200);
    });

    it('answers 401 without a cookie, and does not take the token from the body', async () => {
      const { cookie } = await signedIn();
      expect((await refresh(null)).json()).toEqual(sessionExpired);
      const fromBody = await call(t, {
        method: 'POST',
        url: '/api/auth/refresh',
        headers: CSRF,
        payload: { refreshToken: cookie.value },
      });
      expect(fromBody.statusCode).toBe(401);
    });
  });

  describe('logout', () => {
    it('revokes the session and clears the cookie', async () => {
      const { cookie } = await signedIn();
      const res = await logout(cookie.value);
      expect(res.statusCode).toBe(204);
      const cleared = refreshCookie(res)!;
      expect(cleared.value).toBe('');
      expect(cleared.path).toBe('/api/auth');
      expect(cleared.expires!.getTime()).toBeLessThan(Date.now());
      expect((await refresh(cookie.value)).json()).toEqual(sessionExpired);
    });

    it('refuses without the header or from another origin, and the session lives on', async () => {
      const { cookie } = await signedIn();
      expect((await logout(cookie.value, {})).json()).toEqual(csrfRejected);
      expect((await logout(cookie.value, { ...CSRF, 'sec-fetch-site': 'cross-site' })).json()).toEqual(csrfRejected);
      expect((await refresh(cookie.value)).statusCode).toBe(200);
    });
  });

  describe('the flows that start a session', () => {
    it('the confirmation link sets the cookie and lands on /?type=signup with no token in the address', async () => {
      const { body } = await signUp(t);
      const [mail] = await mailsTo(t, body.email);
      const res = await call(t, { method: 'GET', url: pathOf(mail.links[0]) });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('/?type=signup');
      const cookie = refreshCookie(res)!;
      expect(cookie).toMatchObject({ path: '/api/auth', httpOnly: true, sameSite: 'Strict' });
      const session = await refresh(cookie.value);
      expect(session.statusCode).toBe(200);
      expect(session.json().user.email).toBe(body.email);
    });

    it('the reset link keeps its recovery tokens in the fragment; the reset sets the new session in the cookie', async () => {
      const user = await createUser(t);
      await call(t, { method: 'POST', url: '/api/auth/recover', payload: { email: user.email } });
      const mail = await waitForMail(t, user.email, MESSAGES.mail_recovery_subject);
      const link = await call(t, { method: 'GET', url: pathOf(mail.links.find((l) => l.includes('type=recovery'))!) });
      expect(refreshCookie(link)).toBeUndefined();
      const hash = fragment(link.headers.location as string);
      expect(hash).toMatchObject({
        access_token: expect.any(String),
        refresh_token: expect.any(String),
        type: 'recovery',
      });

      const res = await call(t, {
        method: 'POST',
        url: '/api/auth/reset-password',
        payload: { accessToken: hash.access_token, refreshToken: hash.refresh_token, password: 'Nouveau2025' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).not.toHaveProperty('refreshToken');
      const cookie = refreshCookie(res)!;
      expect(cookie).toMatchObject({ path: '/api/auth', httpOnly: true, sameSite: 'Strict' });
      expect(cookie.value).not.toBe(hash.refresh_token);
      expect((await refresh(cookie.value)).statusCode).toBe(200);
    });

    it('a password change puts the new session in the cookie', async () => {
      const user = await createUser(t);
      const session = await login(t, user.email, user.password);
      const res = await call(t, {
        method: 'POST',
        url: '/api/auth/password',
        token: session.accessToken,
        payload: { password: 'Nouveau2025' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).not.toHaveProperty('refreshToken');
      const cookie = refreshCookie(res)!;
      expect((await refresh(cookie.value)).json().user.id).toBe(user.id);
    });
  });
});
