/**
 * GET /api/config never publishes ADMIN_EMAIL; it tells the caller only
 * whether they are the admin account.
 */
import { describe, expect, it } from 'vitest';
import { call, createUser, login } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';

describe.each(engines)('GET /api/config on %s', (engine) => {
  const t = suiteAuthApp(engine, { adminEmail: 'chef@moodmap.test' });

  const config = (token?: string) => call(t, { method: 'GET', url: '/api/config', token });

  it('tells a visitor nothing about the admin', async () => {
    const res = await config();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ mapStyleUrl: null, mapStyleUrlDark: null, mapPmtilesUrl: null, isAdmin: false });
    expect(res.body).not.toContain('chef');
  });

  it('answers isAdmin true to the admin account, false to anyone else, never with the address', async () => {
    const admin = await createUser(t, { email: 'Chef@MoodMap.test' });
    const other = await createUser(t);
    const asAdmin = await config((await login(t, admin.email, admin.password)).accessToken);
    const asOther = await config((await login(t, other.email, other.password)).accessToken);
    expect(asAdmin.json()).toEqual({ mapStyleUrl: null, mapStyleUrlDark: null, mapPmtilesUrl: null, isAdmin: true });
    expect(asOther.json()).toEqual({ mapStyleUrl: null, mapStyleUrlDark: null, mapPmtilesUrl: null, isAdmin: false });
    for (const res of [asAdmin, asOther]) expect(res.body.toLowerCase()).not.toContain('chef@moodmap.test');
  });

  it('is private to the caller: no shared cache may keep one answer for all', async () => {
    const res = await config();
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(String(res.headers.vary).toLowerCase()).toContain('authorization');
  });

  it('treats a forged token as a visitor', async () => {
    const res = await config('not.a.jwt');
    expect(res.statusCode).toBe(200);
    expect(res.json().isAdmin).toBe(false);
  });
});
