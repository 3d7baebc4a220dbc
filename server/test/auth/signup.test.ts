/** Sign-up: validation, human check, bot check, confirmation e-mail and link. */
import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MESSAGES, termsAt } from '@moodmap/core';
import { profiles, securityLogs, users } from '../../src/db/schema.ts';
import {
  call,
  createUser,
  freshEmail,
  freshIp,
  getChallenge,
  mailsTo,
  pathOf,
  refreshCookieOf,
  signUp,
  signUpBody,
  withRefreshCookie,
} from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';

const TERMS = termsAt(new Date()).current.version;

describe.each(engines)('sign-up on %s', (engine) => {
  const t = suiteAuthApp(engine);

  const post = (payload: unknown, options: { ip?: string; headers?: Record<string, string> } = {}) =>
    call(t, { method: 'POST', url: '/api/auth/signup', payload: payload as object, ...options });

  it('issues a challenge: a French question and an opaque token', async () => {
    const res = await call(t, { method: 'GET', url: '/api/auth/challenge' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { token, question } = res.json();
    expect(question).toMatch(/\?$/);
    // The answer is not readable in the token (encrypted, unlike a plain JWT).
    const challenge = await getChallenge(t);
    for (const part of challenge.token.split('.')) {
      expect(Buffer.from(part, 'base64url').toString('latin1')).not.toContain(`"${challenge.answer}"`);
    }
    expect(typeof token).toBe('string');
  });

  it('creates an unconfirmed account with its profile and sends a French confirmation e-mail', async () => {
    const { res, body } = await signUp(t, { email: freshEmail('Camille').replace('camille', 'Camille') });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ status: 'confirmation_sent', email: body.email.toLowerCase() });

    const [user] = await t.database.db.select().from(users).where(eq(users.email, body.email.toLowerCase()));
    expect(user.emailConfirmedAt).toBeNull();
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    expect(user.passwordHash).not.toContain(body.password);
    const [profile] = await t.database.db.select().from(profiles).where(eq(profiles.id, user.id));
    expect(profile).toMatchObject({ username: 'Léa', firstName: 'Léa', lastName: 'Martin' });

    const mails = await mailsTo(t, body.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe(MESSAGES.mail_confirm_subject);
    expect(mails[0].text).toContain('Bonjour Léa,');
    expect(mails[0].html).toContain(MESSAGES.mail_confirm_action);
    expect(mails[0].links).toHaveLength(1);
    expect(mails[0].links[0]).toMatch(/^http:\/\/moodmap\.test\/api\/auth\/verify\?type=signup&token=[\w-]{43}$/);

    // Not confirmed yet: sign-in says so (only with the right password).
    const early = await call(t, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: body.email, password: body.password },
    });
    expect(early.statusCode).toBe(403);
    expect(early.json()).toEqual({ error: { code: 'email_not_confirmed', message: MESSAGES.email_not_confirmed } });
    const wrong = await call(t, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: body.email, password: 'Autre2024x' },
    });
    expect(wrong.statusCode).toBe(400);
  });

  it('confirms through the link, signs the person in with a refresh token only, and refuses the link twice', async () => {
    const { body } = await signUp(t);
    const [mail] = await mailsTo(t, body.email);
    const res = await call(t, { method: 'GET', url: pathOf(mail.links[0]) });
    expect(res.statusCode).toBe(302);
    const location = res.headers.location as string;
    // The session is in the HttpOnly cookie; the address carries no token.
    expect(location).toBe('/?type=signup');
    expect(res.headers['cache-control']).toBe('no-store');

    const refreshed = await call(t, {
      method: 'POST',
      url: '/api/auth/refresh',
      headers: withRefreshCookie(refreshCookieOf(res)),
    });
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.json().user.email).toBe(body.email);

    const login = await call(t, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: body.email, password: body.password },
    });
    expect(login.statusCode).toBe(200);

    const again = await call(t, { method: 'GET', url: pathOf(mail.links[0]) });
    expect(again.statusCode).toBe(302);
    expect(again.headers.location).toBe('/?error=link_invalid');
  });

  it('redeems a confirmation link exactly once under 10 concurrent clicks', async () => {
    const { body } = await signUp(t);
    const [mail] = await mailsTo(t, body.email);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => call(t, { method: 'GET', url: pathOf(mail.links[0]) })),
    );
    const locations = results.map((r) => r.headers.location as string);
    expect(locations.filter((l) => l === '/?type=signup')).toHaveLength(1);
    expect(locations.filter((l) => l === '/?error=link_invalid')).toHaveLength(9);
  });

  it('refuses an expired or unknown confirmation link', async () => {
    const { body } = await signUp(t);
    const [mail] = await mailsTo(t, body.email);
    expect((await call(t, { method: 'GET', url: '/api/auth/verify?type=signup&token=nope' })).headers.location).toBe(
      '/?error=link_invalid',
    );
    expect((await call(t, { method: 'GET', url: '/api/auth/verify?type=signup' })).headers.location).toBe(
      '/?error=link_invalid',
    );
    t.clock.advance(24 * 3600_000 + 1000);
    expect((await call(t, { method: 'GET', url: pathOf(mail.links[0]) })).headers.location).toBe(
      '/?error=link_invalid',
    );
  });

  it('answers 409 for an address already used, whatever its case', async () => {
    const existing = await createUser(t);
    const { res } = await signUp(t, { email: existing.email.toUpperCase() });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: { code: 'email_taken', message: 'Cette adresse email est déjà utilisée' } });
    // Only a solved challenge learns that an address is taken.
    const unsolved = await signUp(t, { email: existing.email, challengeAnswer: 'faux' });
    expect(unsolved.res.json().error.code).toBe('human_check_failed');
  });

  describe('validation', () => {
    it.each([
      ['missing e-mail', { email: '' }, 'auth_fields_required'],
      ['bad e-mail', { email: 'lea@example' }, 'email_invalid'],
      ['e-mail over 254', { email: `${'a'.repeat(250)}@x.fr` }, 'email_invalid'],
      ['short password', { password: 'Abc123' }, 'password_too_short'],
      ['long password', { password: `Aa1${'x'.repeat(126)}` }, 'password_too_long'],
      ['password without digit', { password: 'SoleilSoleil' }, 'password_weak_rule'],
      ['first name of 1', { firstName: 'L' }, 'first_name_length'],
      ['last name of 19', { lastName: 'M'.repeat(19) }, 'last_name_length'],
      ['missing challenge answer', { challengeAnswer: '' }, 'human_check_required'],
    ])('%s → 400 with its French text', async (_label, fields, code) => {
      const body = await signUpBody(t, fields);
      const res = await post(body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: { code, message: MESSAGES[code as keyof typeof MESSAGES] } });
    });

    it.each([
      ['email', '<script>alert(1)</script>@x.fr', 'email_critical'],
      ['password', "Abc12345' OR 1=1 --", 'password_critical'],
      ['firstName', '<img src=x onerror=alert(1)>', 'first_name_critical'],
      ['lastName', 'javascript:alert(1)', 'last_name_critical'],
    ])('refuses attack input in %s and logs it', async (field, value, code) => {
      const ip = freshIp();
      const body = await signUpBody(t, { [field]: value });
      const res = await post(body, { ip });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toEqual({ code, message: MESSAGES[code as keyof typeof MESSAGES] });
      const [entry] = await t.database.db.select().from(securityLogs).where(eq(securityLogs.ip, ip));
      expect(entry).toMatchObject({ eventType: 'malicious_input', severity: 'high' });
    });

    it('strips harmless markup from names before storing them', async () => {
      const { res, body } = await signUp(t, { firstName: '<b>Zoé</b>' });
      expect(res.statusCode).toBe(201);
      const [user] = await t.database.db.select().from(users).where(eq(users.email, body.email));
      expect(user.metadata.first_name).toBe('Zoé');
    });
  });

  describe('human check', () => {
    it('refuses a wrong answer', async () => {
      const body = await signUpBody(t, { challengeAnswer: 'mauvaise réponse' });
      const res = await post(body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toEqual({ code: 'human_check_failed', message: MESSAGES.human_check_failed });
    });

    it('accepts another spelling of the answer (word rather than digits, any case)', async () => {
      // Accepted spellings are listed digits first, then French, then English words.
      for (const pick of [(a: string[]) => a[1] ?? a[0], (a: string[]) => a[a.length - 1]]) {
        const challenge = await getChallenge(t);
        t.clock.advance(1500);
        const answer = pick(challenge.answers).toUpperCase();
        const res = await post({
          email: freshEmail(),
          password: 'Soleil2024',
          firstName: 'Léa',
          lastName: 'Martin',
          challengeToken: challenge.token,
          challengeAnswer: ` ${answer} `,
          termsVersion: TERMS,
        });
        expect(res.statusCode, `${challenge.question} → ${answer}`).toBe(201);
      }
    });

    it('refuses a correct answer under 1 s once, then accepts the second too-fast attempt', async () => {
      const challenge = await getChallenge(t);
      t.clock.advance(700);
      const body = {
        email: freshEmail(),
        password: 'Soleil2024',
        firstName: 'Léa',
        lastName: 'Martin',
        challengeToken: challenge.token,
        challengeAnswer: challenge.answer,
        termsVersion: TERMS,
      };
      const first = await post(body);
      expect(first.statusCode).toBe(400);
      expect(first.json().error).toEqual({
        code: 'human_check_too_fast',
        message: 'Réponse trop rapide, prenez votre temps (1/2)',
      });
      t.clock.advance(100);
      const second = await post(body);
      expect(second.statusCode).toBe(201);
    });

    it('refuses a challenge used once already, an expired one and a forged one', async () => {
      const { body } = await signUp(t);
      const reuse = await post({ ...body, email: freshEmail() });
      expect(reuse.json().error.code).toBe('human_check_required');

      const old = await signUpBody(t);
      t.clock.advance(3600_000);
      const expired = await post(old);
      expect(expired.json().error).toEqual({ code: 'human_check_required', message: MESSAGES.human_check_required });

      const forged = await post({
        ...(await signUpBody(t)),
        challengeToken: 'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..abc.def.ghi',
      });
      expect(forged.json().error.code).toBe('human_check_required');
    });

    it('stops accepting answers to one challenge after five attempts', async () => {
      const body = await signUpBody(t);
      for (let i = 0; i < 5; i++) {
        // Other addresses and IPs: this is the challenge's own limit, not the register limit.
        const wrong = await post({ ...body, email: freshEmail(), challengeAnswer: 'faux' }, { ip: freshIp() });
        expect(wrong.json().error.code).toBe('human_check_failed');
      }
      expect((await post({ ...body, email: freshEmail() }, { ip: freshIp() })).json().error.code).toBe(
        'human_check_required',
      );
    });
  });

  describe('bot check', () => {
    const botError = { code: 'bot_detected', message: 'Activité suspecte détectée. Veuillez réessayer.' };

    it.each(['website', 'fax'])('refuses a filled %s honeypot and logs it', async (field) => {
      const ip = freshIp();
      const res = await post(await signUpBody(t, { [field]: 'http://spam.example' }), { ip });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toEqual(botError);
      const [entry] = await t.database.db
        .select()
        .from(securityLogs)
        .where(eq(securityLogs.ip, ip))
        .orderBy(desc(securityLogs.createdAt));
      expect(entry.eventType).toBe('bot_detected');
      expect(entry.eventDescription).toContain('honeypot');
    });

    it('refuses scripted clients and spam terms, but not headless Chromium alone', async () => {
      expect(
        (await post(await signUpBody(t), { headers: { 'user-agent': 'python-requests/2.31.0' } })).json().error,
      ).toEqual(botError);
      expect((await post(await signUpBody(t), { headers: { 'user-agent': 'curl/8.5.0' } })).json().error).toEqual(
        botError,
      );
      const spam = await post(await signUpBody(t, { firstName: 'Casino', lastName: 'Viagra' }));
      expect(spam.json().error).toEqual(botError);
      const headless =
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0.0.0 Safari/537.36';
      const browser = await post(await signUpBody(t), { headers: { 'user-agent': headless } });
      expect(browser.statusCode).toBe(201);
    });

    it('lets an empty honeypot through', async () => {
      const res = await post(await signUpBody(t, { website: '', fax: '' }));
      expect(res.statusCode).toBe(201);
    });
  });
});
