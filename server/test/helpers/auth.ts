/**
 * Helpers for the account API tests: an app on a controllable clock, users created directly or
 * through the real sign-up, and a distinct client IP per caller so rate limits (which are real
 * in these tests) only bite where a test means them to.
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { eq } from 'drizzle-orm';
import { CSRF_HEADER, termsAt } from '@moodmap/core';
import { buildApp } from '../../src/app.ts';
import { testConfig, type Config } from '../../src/config.ts';
import type { Database, DbEngine } from '../../src/db/client.ts';
import { users } from '../../src/db/schema.ts';
import { openChallenge } from '../../src/modules/auth/human-check.ts';
import { hash } from '@node-rs/argon2';
import { REFRESH_COOKIE } from '../../src/modules/auth/refresh-cookie.ts';
import { createTestDatabase } from './databases.ts';
import { geoFixture } from './geo-fixture.ts';
import type { GeoEngine } from '../../src/modules/geo/geo-engine.ts';

export interface Clock {
  now: () => Date;
  advance(ms: number): void;
}

export function createClock(start = Date.now()): Clock {
  let current = start;
  return { now: () => new Date(current), advance: (ms) => void (current += ms) };
}

export interface AuthTestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  clock: Clock;
  close(): Promise<void>;
}

/** `geo`: the small fixture unless the test is about geo (geo-fixture.ts). */
export async function createAuthTestApp(
  engine: DbEngine,
  overrides: Partial<Config> = {},
  { geo = geoFixture() }: { geo?: GeoEngine } = {},
): Promise<AuthTestApp> {
  const database = await createTestDatabase(engine);
  const config = testConfig({ publicUrl: 'http://moodmap.test', adminEmail: 'admin@moodmap.test', ...overrides });
  const clock = createClock();
  const app = await buildApp(config, { database, now: clock.now, geo });
  await app.ready();
  return {
    app,
    database,
    config,
    clock,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

let ipCounter = 0;
/** A fresh client address (TEST-NET-2 range and beyond), so each test has its own per-IP counters. */
export function freshIp(): string {
  ipCounter += 1;
  return `198.51.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

let emailCounter = 0;
export function freshEmail(prefix = 'lea'): string {
  emailCounter += 1;
  return `${prefix}.${process.pid}.${emailCounter}.${Math.random().toString(36).slice(2, 8)}@example.fr`;
}

export const PASSWORD = 'Soleil2024';

/** `app.inject` from a given client address. */
export function call(
  t: AuthTestApp,
  options: InjectOptions & { ip?: string; token?: string },
): Promise<LightMyRequestResponse> {
  const { ip, token, headers, ...rest } = options;
  return t.app.inject({
    remoteAddress: ip ?? freshIp(),
    headers: {
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    ...rest,
  } as InjectOptions);
}

/** Fetches a challenge and reads its answer the way only the server can (the test knows the key). */
export async function getChallenge(
  t: AuthTestApp,
  ip?: string,
): Promise<{ token: string; question: string; answer: string; answers: string[] }> {
  const res = await call(t, { method: 'GET', url: '/api/auth/challenge', ip });
  const { token, question } = res.json() as { token: string; question: string };
  const opened = await openChallenge(t.app.ctx.auth.keys.challenge, token);
  if (!opened) throw new Error('challenge not readable');
  return { token, question, answer: opened.answers[0], answers: opened.answers };
}

export interface SignUpFields {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  challengeToken: string;
  challengeAnswer: string;
  website?: string;
  fax?: string;
  termsVersion?: string;
}

/** A solved challenge, answered after 2 s like a person, plus valid fields. */
export async function signUpBody(t: AuthTestApp, fields: Partial<SignUpFields> = {}): Promise<SignUpFields> {
  const challenge = await getChallenge(t);
  t.clock.advance(2000);
  return {
    email: freshEmail(),
    password: PASSWORD,
    firstName: 'Léa',
    lastName: 'Martin',
    challengeToken: challenge.token,
    challengeAnswer: challenge.answer,
    termsVersion: termsAt(t.clock.now()).current.version,
    ...fields,
  };
}

export async function signUp(t: AuthTestApp, fields: Partial<SignUpFields> = {}, ip?: string) {
  const body = await signUpBody(t, fields);
  const res = await call(t, { method: 'POST', url: '/api/auth/signup', payload: body, ip });
  return { res, body };
}

/**
 * Test users' hashes: argon2id on the smallest parameters, computed once per password. Signing in
 * verifies with the parameters a hash carries, so each login is cheap too; sign-up and
 * password-hash.test.ts keep the production parameters under test.
 */
const CHEAP_ARGON2 = { memoryCost: 8, timeCost: 1, parallelism: 1 } as const;
const testHashes = new Map<string, Promise<string>>();

function testPasswordHash(password: string): Promise<string> {
  let hashed = testHashes.get(password);
  if (!hashed) {
    hashed = hash(password, CHEAP_ARGON2);
    testHashes.set(password, hashed);
  }
  return hashed;
}

export interface CreatedUser {
  id: string;
  email: string;
  password: string;
}

/** A user straight in the database (no limits, no challenge): for tests about what follows sign-up. */
export async function createUser(
  t: AuthTestApp,
  options: { email?: string; password?: string; confirmed?: boolean; metadata?: Record<string, string> } = {},
): Promise<CreatedUser> {
  const email = (options.email ?? freshEmail()).toLowerCase();
  const password = options.password ?? PASSWORD;
  const [row] = await t.database.db
    .insert(users)
    .values({
      email,
      passwordHash: await testPasswordHash(password),
      emailConfirmedAt: options.confirmed === false ? null : new Date(),
      metadata: options.metadata ?? { first_name: 'Léa', last_name: 'Martin' },
      // As a sign-up leaves it: the terms in force by the app's clock accepted (writes need them).
      termsVersion: termsAt(t.clock.now()).current.version,
      termsAcceptedAt: new Date(),
    })
    .returning({ id: users.id });
  return { id: row.id, email, password };
}

/** A user straight in the database, then signed in: its id, e-mail, password and access token. */
export async function signedInUser(
  t: AuthTestApp,
  options: Parameters<typeof createUser>[1] = {},
): Promise<CreatedUser & { token: string }> {
  const user = await createUser(t, options);
  const session = await login(t, user.email, user.password);
  return { ...user, token: session.accessToken };
}

export interface SessionBody {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  user: {
    id: string;
    email: string;
    role: string;
    isAdmin: boolean;
    profile: Record<string, unknown> & { username: string };
  };
}

/** The session answer, with the refresh token taken from its cookie (never in the JSON). */
export async function login(t: AuthTestApp, email: string, password: string, ip?: string): Promise<SessionBody> {
  const res = await call(t, { method: 'POST', url: '/api/auth/login', payload: { email, password }, ip });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return { ...(res.json() as Omit<SessionBody, 'refreshToken'>), refreshToken: refreshCookieOf(res) };
}

/**
 * Accepts the terms in force by the app's clock, as a member does at the prompt: a test that moves
 * the clock may cross the day a new version applies, after which writes need it.
 */
export async function acceptTermsInForce(t: AuthTestApp, token: string): Promise<void> {
  const res = await call(t, {
    method: 'POST',
    url: '/api/terms/accept',
    token,
    payload: { version: termsAt(t.clock.now()).current.version },
  });
  if (res.statusCode !== 200) throw new Error(`terms not accepted: ${res.statusCode} ${res.body}`);
}

export { REFRESH_COOKIE };

/** The refresh token an answer set in its HttpOnly cookie. */
export function refreshCookieOf(res: LightMyRequestResponse): string {
  const cookie = (res.cookies as Array<{ name: string; value: string }>).find((c) => c.name === REFRESH_COOKIE);
  if (!cookie) throw new Error(`no refresh cookie in ${res.statusCode} ${res.body}`);
  return cookie.value;
}

/** POST /api/auth/refresh and /logout as the web app sends them: the cookie plus the CSRF header. */
export function withRefreshCookie(token: string): Record<string, string> {
  return { cookie: `${REFRESH_COOKIE}=${token}`, [CSRF_HEADER.name]: CSRF_HEADER.value };
}

/**
 * POST /api/auth/refresh with the token in the cookie (with the CSRF header), as the web app sends
 * it, and in the body as older clients did: the API reads the cookie only.
 */
export function refreshSession(t: AuthTestApp, refreshToken: string): Promise<LightMyRequestResponse> {
  return call(t, {
    method: 'POST',
    url: '/api/auth/refresh',
    headers: withRefreshCookie(refreshToken),
    payload: { refreshToken },
  });
}

export async function confirmUser(t: AuthTestApp, id: string): Promise<void> {
  await t.database.db.update(users).set({ emailConfirmedAt: new Date() }).where(eq(users.id, id));
}

/** The dev outbox's mails to an address, newest first. */
export async function mailsTo(t: AuthTestApp, email: string) {
  const outbox = t.app.ctx.mailer.outbox;
  if (!outbox) throw new Error('no outbox');
  return outbox.list({ to: email });
}

/** The mails to `email` matching `subject`, newest first. */
async function matching(t: AuthTestApp, email: string, subject?: string) {
  return (await mailsTo(t, email)).filter((m) => !subject || m.subject === subject);
}

export const countMails = async (t: AuthTestApp, email: string, subject?: string) =>
  (await matching(t, email, subject)).length;

/**
 * Waits for a mail to `email` matching `subject` (reset mails are sent in the background) and
 * returns the newest. `after`: how many such mails were there before, so an older one sent to
 * the same address is never taken for the one being waited for.
 */
export async function waitForMail(t: AuthTestApp, email: string, subject?: string, { after = 0 } = {}) {
  // Polled until it comes; the bound is far above any send, even on a busy machine.
  const giveUpAt = Date.now() + 30_000;
  while (Date.now() < giveUpAt) {
    const mails = await matching(t, email, subject);
    if (mails.length > after) return mails[0];
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no new mail to ${email}`);
}

/** The hash part of a redirect as key/values. */
export function fragment(location: string): Record<string, string> {
  const hash = location.split('#')[1] ?? '';
  return Object.fromEntries(new URLSearchParams(hash));
}

/** The path and query a link points at, for `inject`. */
export function pathOf(link: string): string {
  const url = new URL(link);
  return url.pathname + url.search;
}
