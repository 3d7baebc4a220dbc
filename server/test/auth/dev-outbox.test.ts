/**
 * The dev outbox, the signing secret kept in DATA_DIR, and the guard's
 * optional variant for public routes.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { termsAt } from '@moodmap/core';
import { createMailer } from '../../src/adapters/mail/mailer.ts';
import { buildApp } from '../../src/app.ts';
import { testConfig, type Config } from '../../src/config.ts';
import type { Database } from '../../src/db/client.ts';
import { requireUser } from '../../src/modules/auth/guard.ts';
import { createClock, createUser, freshIp, getChallenge, login, type AuthTestApp } from '../helpers/auth.ts';
import { createTestDatabase } from '../helpers/databases.ts';
import { suiteTestApp } from '../helpers/suite-app.ts';

describe('dev outbox and secret in DATA_DIR', () => {
  let dir: string;
  let database: Database;
  let app: FastifyInstance;
  let config: Config;
  const clock = createClock();

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'moodmap-outbox-'));
    database = await createTestDatabase('pglite');
    config = testConfig({ dataDir: dir, publicUrl: 'http://localhost:3000' });
    app = await buildApp(config, { database, now: clock.now });
    await app.ready();
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function signUp(email: string) {
    const { token, answer } = await getChallenge({ app, database, config, clock } as AuthTestApp);
    clock.advance(2000);
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      remoteAddress: freshIp(),
      payload: {
        email,
        password: 'Soleil2024',
        firstName: 'Noé',
        lastName: 'Bernard',
        challengeToken: token,
        challengeAnswer: answer,
        termsVersion: termsAt(new Date()).current.version,
      },
    });
    expect(res.statusCode).toBe(201);
  }

  it('keeps mails as JSON files under DATA_DIR/outbox and lists them newest first', async () => {
    await signUp('noe@example.fr');
    clock.advance(1000);
    await signUp('ines@example.fr');
    const files = readdirSync(path.join(dir, 'outbox'));
    expect(files).toHaveLength(2);
    expect(statSync(path.join(dir, 'outbox', files[0])).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path.join(dir, 'outbox', files[0]), 'utf8')).to).toBe('noe@example.fr');

    const all = (await app.inject('/dev/mail.json')).json();
    expect(all.map((m: { to: string }) => m.to)).toEqual(['ines@example.fr', 'noe@example.fr']);
    const mine = await app.inject('/dev/mail.json?to=NOE@example.fr');
    expect(mine.headers['cache-control']).toBe('no-store');
    const [mail] = mine.json();
    expect(Object.keys(mail).sort()).toEqual(['html', 'links', 'sentAt', 'subject', 'text', 'to']);
    expect(mail.links[0]).toMatch(/^http:\/\/localhost:3000\/api\/auth\/verify\?type=signup&token=/);
    expect(mail.sentAt).toBe(new Date(Date.parse(mail.sentAt)).toISOString());
  });

  it('shows them as an HTML page with clickable links', async () => {
    const res = await app.inject('/dev/mail');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('<h1>Boîte d&#39;envoi de développement</h1>');
    expect(res.body).toMatch(/<a href="http:\/\/localhost:3000\/api\/auth\/verify\?type=signup&amp;token=[\w-]+">/);
    expect(res.body.indexOf('ines@example.fr')).toBeLessThan(res.body.indexOf('noe@example.fr'));
  });

  it('generates the signing secret once, mode 0600, and reuses it after a restart', async () => {
    const file = path.join(dir, 'secrets', 'jwt.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const user = await createUser({ app, database, config, clock } as AuthTestApp);
    const { accessToken } = await login(
      { app, database, config, clock } as AuthTestApp,
      user.email,
      user.password,
      freshIp(),
    );
    const restarted = await buildApp(config, { database, now: clock.now });
    try {
      const res = await restarted.inject({
        url: '/api/auth/session',
        headers: { authorization: `Bearer ${accessToken}` },
      });
      expect(res.statusCode).toBe(200);
    } finally {
      await restarted.close();
    }
    // Another secret (another deployment) does not accept it.
    const other = await buildApp({ ...config, dataDir: null }, { database, now: clock.now });
    try {
      expect(
        (await other.inject({ url: '/api/auth/session', headers: { authorization: `Bearer ${accessToken}` } }))
          .statusCode,
      ).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('is not served in production', async () => {
    const prod = await buildApp({ ...config, env: 'production', dataDir: null }, { database });
    try {
      expect((await prod.inject('/dev/mail')).statusCode).toBe(404);
      expect((await prod.inject('/dev/mail.json')).statusCode).toBe(404);
    } finally {
      await prod.close();
    }
  });
});

describe('dev mailer', () => {
  it('prints the links of each mail in the server log', async () => {
    const lines: Array<{ obj: Record<string, unknown>; msg: string }> = [];
    const log = {
      info: (obj: Record<string, unknown>, msg: string) => lines.push({ obj, msg }),
    } as unknown as FastifyBaseLogger;
    const mailer = createMailer({ dataDir: null, mailFrom: 'x', smtpUrl: undefined }, log, () => new Date());
    await mailer.send({
      to: 'a@b.fr',
      subject: 'Sujet',
      text: 'Ouvrez https://ex.fr/a?b=1 puis http://ex.fr/c',
      html: '<p>x</p>',
    });
    expect(lines[0].obj).toEqual({ to: 'a@b.fr', subject: 'Sujet', links: ['https://ex.fr/a?b=1', 'http://ex.fr/c'] });
    expect((await mailer.outbox!.list())[0].links).toEqual(['https://ex.fr/a?b=1', 'http://ex.fr/c']);
  });
});

describe('JWT_SECRET shared by instances', () => {
  it('lets any instance with the same secret accept the access token', async () => {
    const database = await createTestDatabase('pglite');
    const secret = 'un-secret-partage-de-plus-de-32-caracteres';
    const a = await buildApp(testConfig({ jwtSecret: secret }), { database });
    const b = await buildApp(testConfig({ jwtSecret: secret }), { database });
    try {
      const t = { app: a, database, config: testConfig(), clock: createClock() } as AuthTestApp;
      const user = await createUser(t);
      const { accessToken } = await login(t, user.email, user.password, freshIp());
      expect(
        (await b.inject({ url: '/api/auth/session', headers: { authorization: `Bearer ${accessToken}` } })).statusCode,
      ).toBe(200);
    } finally {
      await a.close();
      await b.close();
      await database.close();
    }
  }, 60_000);
});

describe('optional authentication for public routes', () => {
  const suite = suiteTestApp('pglite', {}, (app) => {
    app.get('/api/__whoami', { onRequest: app.authenticateOptional }, async (request) => ({
      userId: request.auth?.userId ?? null,
    }));
    app.get('/api/__private', { onRequest: app.authenticate }, async (request) => ({
      userId: requireUser(request).userId,
    }));
  });

  it('treats a missing or bad token as a visitor, and a good one as the user', async () => {
    const { app, database } = suite;
    const t = { app, database, config: testConfig(), clock: createClock() } as AuthTestApp;
    const user = await createUser(t);
    const { accessToken } = await login(t, user.email, user.password, freshIp());
    expect((await app.inject('/api/__whoami')).json()).toEqual({ userId: null });
    expect((await app.inject({ url: '/api/__whoami', headers: { authorization: 'Bearer nope' } })).json()).toEqual({
      userId: null,
    });
    expect(
      (await app.inject({ url: '/api/__whoami', headers: { authorization: `Bearer ${accessToken}` } })).json(),
    ).toEqual({ userId: user.id });
    expect((await app.inject('/api/__private')).statusCode).toBe(401);
    expect(
      (await app.inject({ url: '/api/__private', headers: { authorization: `Bearer ${accessToken}` } })).json(),
    ).toEqual({ userId: user.id });
  });
});
