/** Terms of use at sign-up and after: refused without them, version and time stored. */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MESSAGES, termsAt } from '@moodmap/core';
import { users } from '../../src/db/schema.ts';
import { call, signUpBody } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { member } from './fixtures.ts';

describe.each(engines)('terms of use on %s', (engine) => {
  const t = suiteAuthApp(engine);
  const current = () => termsAt(t.clock.now()).current.version;

  it('refuses a sign-up that did not accept the terms, and creates no account', async () => {
    const { termsVersion: _omitted, ...body } = await signUpBody(t);
    const res = await call(t, { method: 'POST', url: '/api/auth/signup', payload: body });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({ code: 'terms_required', message: MESSAGES.terms_required });
    expect(await t.database.db.select().from(users).where(eq(users.email, body.email))).toHaveLength(0);
  });

  it('refuses a version that is not the one in force', async () => {
    const body = await signUpBody(t, { termsVersion: '1999-01-01' });
    const res = await call(t, { method: 'POST', url: '/api/auth/signup', payload: body });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('terms_version_outdated');
  });

  it('stores the accepted version and the time of acceptance', async () => {
    const body = await signUpBody(t);
    const res = await call(t, { method: 'POST', url: '/api/auth/signup', payload: body });
    expect(res.statusCode).toBe(201);
    const [row] = await t.database.db.select().from(users).where(eq(users.email, body.email));
    expect(row.termsVersion).toBe(current());
    expect(Math.abs(row.termsAcceptedAt!.getTime() - t.clock.now().getTime())).toBeLessThan(1000);
  });

  it('asks a member without an accepted version to accept the current one, then stops asking', async () => {
    const lea = await member(t);
    // An account from before the terms existed.
    await t.database.db.update(users).set({ termsVersion: null, termsAcceptedAt: null }).where(eq(users.id, lea.id));
    const before = await call(t, { method: 'GET', url: '/api/terms', token: lea.token });
    expect(before.json()).toMatchObject({ current: { version: current() }, acceptedVersion: null, mustAccept: true });
    const accepted = await call(t, {
      method: 'POST',
      url: '/api/terms/accept',
      token: lea.token,
      payload: { version: current() },
    });
    expect(accepted.statusCode).toBe(200);
    const after = await call(t, { method: 'GET', url: '/api/terms', token: lea.token });
    expect(after.json()).toMatchObject({ acceptedVersion: current(), mustAccept: false });
    const anonymous = await call(t, { method: 'GET', url: '/api/terms' });
    expect(anonymous.json()).toMatchObject({ acceptedVersion: null, mustAccept: false });
  });
});

describe('terms versions over time', () => {
  const versions = [
    { version: 'v1', effectiveAt: '2026-01-01T00:00:00.000Z' },
    { version: 'v2', effectiveAt: '2026-06-01T00:00:00.000Z' },
  ];
  it('announces a new version 30 days before it applies, then applies it', () => {
    expect(termsAt(new Date('2026-04-30T00:00:00Z'), versions)).toEqual({ current: versions[0], upcoming: null });
    expect(termsAt(new Date('2026-05-03T00:00:00Z'), versions)).toEqual({
      current: versions[0],
      upcoming: versions[1],
    });
    expect(termsAt(new Date('2026-06-01T00:00:00Z'), versions)).toEqual({ current: versions[1], upcoming: null });
  });
});
