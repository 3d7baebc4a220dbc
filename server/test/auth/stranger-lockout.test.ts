/**
 * A stranger cannot lock the owner out (docs/security.md): guessing from one
 * IP blocks that IP only; failures spread over many IPs meet the address's ceiling, which the
 * owner's known device passes; reset requests by others never keep the owner's mail from her.
 */
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@moodmap/core';
import { securityLogs } from '../../src/db/schema.ts';
import { RESET_MAILS_PER_HOUR } from '../../src/modules/auth/account-limits.ts';
import { call, countMails, createUser, freshIp, waitForMail } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';

describe.each(engines)('lockout by strangers on %s', (engine) => {
  const t = suiteAuthApp(engine);

  const signIn = (
    email: string,
    password: string,
    ip: string,
    agent = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0',
  ) =>
    call(t, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password },
      ip,
      headers: { 'user-agent': agent },
    });
  const recover = (email: string, ip: string) =>
    call(t, { method: 'POST', url: '/api/auth/recover', payload: { email }, ip });
  const subject = MESSAGES.mail_recovery_subject;

  it("a stranger's wrong passwords for Léa's address block the stranger, not Léa", async () => {
    const lea = await createUser(t);
    const stranger = freshIp();
    for (let i = 0; i < 10; i++) expect((await signIn(lea.email, 'Mauvais2024', stranger)).statusCode).toBe(400);
    const blocked = await signIn(lea.email, 'Mauvais2024', stranger);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBe('300');
    expect(blocked.json()).toEqual({
      error: { code: 'rate_too_many', message: 'Trop de tentatives pour connexion. Bloqué pour 5 minutes.' },
    });
    // Even the right password stays refused from the guesser's IP…
    expect((await signIn(lea.email, lea.password, stranger)).statusCode).toBe(429);
    // …while Léa, from her own IP, signs in.
    expect((await signIn(lea.email, lea.password, freshIp())).statusCode).toBe(200);
  });

  it('failures from many IPs below the ceiling do not keep Léa out', async () => {
    const lea = await createUser(t);
    for (let i = 0; i < 30; i++) expect((await signIn(lea.email, 'Mauvais2024', freshIp())).statusCode).toBe(400);
    expect((await signIn(lea.email, lea.password, freshIp())).statusCode).toBe(200);
    // Only failures count towards the address: her successful sign-ins add nothing.
    for (let i = 0; i < 3; i++) expect((await signIn(lea.email, lea.password, freshIp())).statusCode).toBe(200);
    expect(await t.app.ctx.limits.peek('login_account', `account:${lea.email}`)).toBe(30);
  });

  it("past the address's ceiling, strangers and new devices wait; Léa's known device signs in", async () => {
    const lea = await createUser(t);
    const home = freshIp();
    expect((await signIn(lea.email, lea.password, home)).statusCode).toBe(200);
    // Failures spread over as many IPs as it takes: 98 counted directly, 3 through the API;
    // the 101st starts the block (that attempt itself still answers as a wrong password).
    for (let i = 0; i < 98; i++) await t.app.ctx.limits.consume('login_account', `account:${lea.email}`);
    for (let i = 0; i < 3; i++) expect((await signIn(lea.email, 'Mauvais2024', freshIp())).statusCode).toBe(400);

    const stranger = await signIn(lea.email, 'Mauvais2024', freshIp());
    expect(stranger.statusCode).toBe(429);
    expect(stranger.headers['retry-after']).toBe('900');
    expect(stranger.json()).toEqual({
      error: { code: 'rate_blocked', message: 'Action bloquée pour connexion. Réessayez dans 15 minutes.' },
    });
    // Right password from a device that never signed in: refused during the block too.
    expect((await signIn(lea.email, lea.password, freshIp())).statusCode).toBe(429);
    expect((await signIn(lea.email, lea.password, home, 'Un autre navigateur/1.0')).statusCode).toBe(429);
    // Her own device (same IP and browser as a successful sign-in) passes.
    expect((await signIn(lea.email, lea.password, home)).statusCode).toBe(200);

    t.clock.advance(15 * 60_000);
    expect((await signIn(lea.email, lea.password, freshIp())).statusCode).toBe(200);
  });

  it("a stranger's reset requests block the stranger, and Léa still gets her mail", async () => {
    const lea = await createUser(t);
    const stranger = freshIp();
    for (let i = 0; i < 5; i++) expect((await recover(lea.email, stranger)).statusCode).toBe(200);
    const blocked = await recover(lea.email, stranger);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({ error: { code: 'reset_rate_limited', message: MESSAGES.reset_rate_limited } });
    await waitForMail(t, lea.email, subject, { after: 4 });

    const res = await recover(lea.email, freshIp());
    expect(res.statusCode).toBe(200);
    await waitForMail(t, lea.email, subject, { after: 5 });
  });

  it("past the address's hourly mail ceiling, requests still answer 'sent', and only Léa's known device gets a mail", async () => {
    const lea = await createUser(t);
    const home = freshIp();
    expect((await signIn(lea.email, lea.password, home)).statusCode).toBe(200);
    for (let i = 0; i < RESET_MAILS_PER_HOUR; i++)
      expect((await recover(lea.email, freshIp())).json()).toEqual({ status: 'sent' });
    await waitForMail(t, lea.email, subject, { after: RESET_MAILS_PER_HOUR - 1 });

    const newcomer = freshIp();
    const extra = await recover(lea.email, newcomer);
    expect(extra.statusCode).toBe(200);
    expect(extra.json()).toEqual({ status: 'sent' });
    const withheld = and(eq(securityLogs.eventType, 'password_reset_withheld'), eq(securityLogs.ip, newcomer));
    await expect.poll(async () => (await t.database.db.select().from(securityLogs).where(withheld)).length).toBe(1);
    expect(await countMails(t, lea.email, subject)).toBe(RESET_MAILS_PER_HOUR);

    expect((await recover(lea.email, home)).statusCode).toBe(200);
    await waitForMail(t, lea.email, subject, { after: RESET_MAILS_PER_HOUR });
  });
});
