/**
 * Crediting exactly once: Stripe-signed webhooks against the real route and database.
 * Purchases are the rows the checkout route would have written (the Stripe API itself is not
 * called here); events are signed with the stripe package's own helper.
 */
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { testConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/client.ts';
import { profiles, pulsePurchases, securityLogs, users } from '../../src/db/schema.ts';
import { call, mailsTo, signedInUser, waitForMail } from '../helpers/auth.ts';
import { createPostgresDatabase, engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { STRIPE_CONFIG, deliver, event, randomId, sessionObject, sign } from './stripe-events.ts';

const SAINT_DENIS = { latitude: -20.8789, longitude: 55.4481 };

describe.each(engines)('payment webhooks on %s', (engine) => {
  const t = suiteAuthApp(engine, STRIPE_CONFIG);

  const buyer = () => signedInUser(t);
  /** The pending purchase the checkout route writes before redirecting to Stripe. */
  async function pending(userId: string, quantity: number) {
    const sessionId = randomId('cs_test');
    await t.database.db
      .insert(pulsePurchases)
      .values({ userId, provider: 'stripe', sessionId, quantity, amountCents: 250 * quantity, currency: 'EUR' });
    return { sessionId, userId, quantity, amountTotal: 250 * quantity };
  }
  const balance = async (token: string) => {
    const res = await call(t, { method: 'GET', url: '/api/pulse/purchases', token });
    expect(res.statusCode).toBe(200);
    return res.json() as {
      credits: number;
      purchases: Array<{ status: string; quantity: number; amountCents: number }>;
    };
  };

  it('a signed checkout.session.completed credits the purchase once, with a receipt', async () => {
    const lea = await buyer();
    const purchase = await pending(lea.id, 5);
    const res = await deliver(t.app, event('checkout.session.completed', sessionObject(purchase)));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true });
    const after = await balance(lea.token);
    expect(after.credits).toBe(5);
    expect(after.purchases).toMatchObject([{ status: 'paid', quantity: 5, amountCents: 1250 }]);
    const receipt = await waitForMail(t, lea.email, 'Votre reçu MoodMap : crédits Pulse');
    expect(receipt.text).toContain('Crédits Pulse : 5');
    expect(receipt.text).toContain('Montant payé : 12,50 €');
    expect(receipt.text).toMatch(/Date : \d{2}\/\d{2}\/\d{4}/);
  });

  it('the same event replayed 10 times, then sent 10 times at once, credits once', async () => {
    const lea = await buyer();
    const purchase = await pending(lea.id, 10);
    const once = event('checkout.session.completed', sessionObject(purchase));
    for (let i = 0; i < 10; i++) expect((await deliver(t.app, once)).statusCode).toBe(200);
    const results = await Promise.all(Array.from({ length: 10 }, () => deliver(t.app, once)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect((await balance(lea.token)).credits).toBe(10);
    expect(await mailsTo(t, lea.email)).toHaveLength(1);
  });

  it('ten different events about one session sent at once credit it once', async () => {
    const lea = await buyer();
    const purchase = await pending(lea.id, 1);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        deliver(
          t.app,
          event(
            i % 2 ? 'checkout.session.async_payment_succeeded' : 'checkout.session.completed',
            sessionObject(purchase),
          ),
        ),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect((await balance(lea.token)).credits).toBe(1);
  });

  it('a bad, stale or missing signature is a 400 and credits nothing', async () => {
    const lea = await buyer();
    const purchase = await pending(lea.id, 5);
    const body = JSON.stringify(event('checkout.session.completed', sessionObject(purchase)));
    const cases: Array<Record<string, string>> = [
      { 'stripe-signature': sign(body, 'whsec_someone_else') },
      { 'stripe-signature': sign(body, undefined, Math.floor(Date.now() / 1000) - 3600) },
      { 'stripe-signature': 't=1,v1=deadbeef' },
      // Signed, then changed: the signature covers the exact bytes.
      { 'stripe-signature': sign(body.replace('"quantity":"5"', '"quantity":"50"')) },
    ];
    for (const headers of cases) {
      const res = await deliver(t.app, body, headers);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: { code: 'payment_webhook_invalid', message: 'Signature du webhook invalide' },
      });
    }
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json' },
      payload: body,
    });
    expect(missing.statusCode).toBe(400);
    expect((await balance(lea.token)).credits).toBe(0);
    expect((await balance(lea.token)).purchases[0].status).toBe('pending');
  });

  it('an event for a session the server never created credits nothing', async () => {
    const lea = await buyer();
    const res = await deliver(
      t.app,
      event(
        'checkout.session.completed',
        sessionObject({ sessionId: randomId('cs_test'), userId: lea.id, quantity: 10, amountTotal: 2500 }),
      ),
    );
    expect(res.statusCode).toBe(200);
    expect((await balance(lea.token)).credits).toBe(0);
    const logs = await t.database.db
      .select()
      .from(securityLogs)
      .where(eq(securityLogs.eventType, 'payment_event_refused'));
    expect(logs.some((l) => l.eventDescription.includes('unknown_session'))).toBe(true);
  });

  it('an event whose quantity, amount or currency differ from the server’s purchase is refused', async () => {
    const lea = await buyer();
    const tampered: Array<Partial<Parameters<typeof sessionObject>[0]>> = [
      { metadataQuantity: '10' },
      { amountTotal: 1 },
      { currency: 'usd' },
    ];
    for (const change of tampered) {
      const purchase = await pending(lea.id, 1);
      expect(
        (await deliver(t.app, event('checkout.session.completed', sessionObject({ ...purchase, ...change }))))
          .statusCode,
      ).toBe(200);
    }
    const after = await balance(lea.token);
    expect(after.credits).toBe(0);
    expect(after.purchases.every((p) => p.status === 'pending')).toBe(true);
  });

  it('the client only picks 1, 5 or 10 credits: any other quantity or a price is refused', async () => {
    const lea = await buyer();
    for (const payload of [
      { quantity: 3 },
      { quantity: 0 },
      { quantity: '5' },
      { quantity: 5, amountCents: 1 },
      { quantity: 5, returnTo: 'https://evil.example/' },
      { quantity: 5, returnTo: '//evil.example' },
    ]) {
      const res = await call(t, { method: 'POST', url: '/api/pulse/checkout', token: lea.token, payload });
      expect(res.statusCode).toBe(400);
    }
    const signedOut = await call(t, { method: 'POST', url: '/api/pulse/checkout', payload: { quantity: 5 } });
    expect(signedOut.statusCode).toBe(401);
    expect((await balance(lea.token)).purchases).toHaveLength(0);
  });

  it('a refund takes back the unspent credits only, once, and is written to the security log', async () => {
    const lea = await buyer();
    const paymentIntent = randomId('pi');
    const purchase = await pending(lea.id, 5);
    await deliver(t.app, event('checkout.session.completed', sessionObject({ ...purchase, paymentIntent })));
    // One credit is spent on a post: it keeps its pulse for its lifetime.
    const post = await call(t, {
      method: 'POST',
      url: '/api/posts',
      token: lea.token,
      payload: { category: 'happy', content: 'Pulse !', ...SAINT_DENIS, usePulseEffect: true },
    });
    expect(post.statusCode).toBe(201);
    expect((await balance(lea.token)).credits).toBe(4);

    const refund = event('charge.refunded', {
      id: randomId('ch'),
      object: 'charge',
      amount: 1250,
      amount_refunded: 1250,
      currency: 'eur',
      payment_intent: paymentIntent,
      refunded: true,
    });
    expect((await deliver(t.app, refund)).statusCode).toBe(200);
    expect((await deliver(t.app, refund)).statusCode).toBe(200);
    // A dispute on the same payment after the refund takes nothing more.
    expect(
      (
        await deliver(
          t.app,
          event('charge.dispute.created', {
            id: randomId('dp'),
            object: 'dispute',
            amount: 1250,
            currency: 'eur',
            payment_intent: paymentIntent,
            charge: randomId('ch'),
          }),
        )
      ).statusCode,
    ).toBe(200);

    const after = await balance(lea.token);
    expect(after.credits).toBe(0);
    expect(after.purchases[0].status).toBe('refunded');
    const postId: string = post.json().post.id;
    const read = await call(t, { method: 'GET', url: `/api/posts/${postId}`, token: lea.token });
    expect(read.json().post.hasPulseEffect).toBe(true);
    const logs = await t.database.db
      .select()
      .from(securityLogs)
      .where(and(eq(securityLogs.eventType, 'payment_refunded'), eq(securityLogs.userId, lea.id)));
    expect(logs).toHaveLength(1);
    expect(logs[0].eventDescription).toContain('4 crédit(s) non utilisé(s) retiré(s)');
  });

  it('a dispute takes back the purchase’s unspent credits, not others bought later', async () => {
    const lea = await buyer();
    const paymentIntent = randomId('pi');
    await deliver(
      t.app,
      event('checkout.session.completed', sessionObject({ ...(await pending(lea.id, 1)), paymentIntent })),
    );
    await deliver(t.app, event('checkout.session.completed', sessionObject(await pending(lea.id, 5))));
    expect((await balance(lea.token)).credits).toBe(6);
    await deliver(
      t.app,
      event('charge.dispute.created', {
        id: randomId('dp'),
        object: 'dispute',
        amount: 250,
        currency: 'eur',
        payment_intent: paymentIntent,
        charge: randomId('ch'),
      }),
    );
    const after = await balance(lea.token);
    expect(after.credits).toBe(5);
    expect(after.purchases.map((p) => p.status).sort()).toEqual(['disputed', 'paid']);
    const logs = await t.database.db
      .select()
      .from(securityLogs)
      .where(and(eq(securityLogs.eventType, 'payment_disputed'), eq(securityLogs.userId, lea.id)));
    expect(logs).toHaveLength(1);
  });

  it('an async payment failure closes the purchase without credit', async () => {
    const lea = await buyer();
    const purchase = await pending(lea.id, 5);
    await deliver(t.app, event('checkout.session.completed', sessionObject({ ...purchase, paymentStatus: 'unpaid' })));
    await deliver(
      t.app,
      event('checkout.session.async_payment_failed', sessionObject({ ...purchase, paymentStatus: 'unpaid' })),
    );
    await deliver(t.app, event('checkout.session.async_payment_succeeded', sessionObject(purchase)));
    const after = await balance(lea.token);
    expect(after.credits).toBe(0);
    expect(after.purchases[0].status).toBe('failed');
  });
});

describe.runIf(engines.includes('postgres'))('two server instances on PostgreSQL receive the same event', () => {
  let first: FastifyInstance;
  let second: FastifyInstance;
  let closeAll: () => Promise<void>;
  beforeAll(async () => {
    const { url, drop } = await createPostgresDatabase();
    // Two processes' worth: each instance has its own pool on the same database.
    const db1 = await openDatabase({ databaseUrl: url, poolSize: 10 });
    const db2 = await openDatabase({ databaseUrl: url, poolSize: 10 });
    const config = testConfig({ publicUrl: 'http://moodmap.test', ...STRIPE_CONFIG });
    first = await buildApp(config, { database: db1 });
    second = await buildApp(config, { database: db2 });
    await Promise.all([first.ready(), second.ready()]);
    closeAll = async () => {
      await Promise.all([first.close(), second.close()]);
      await Promise.all([db1.close(), db2.close()]);
      await drop();
    };
  }, 60_000);
  afterAll(() => closeAll?.());

  it('credits once', async () => {
    // A member straight in the database: the account flow is not what is tested here.
    const [user] = await first.ctx.database.db
      .insert(users)
      .values({ email: `${randomId('pay')}@example.org`, passwordHash: 'x' })
      .returning({ id: users.id });
    const userId = user.id;
    await first.ctx.database.db.insert(profiles).values({ id: userId, username: 'Acheteur' });
    const sessionId = randomId('cs_test');
    await first.ctx.database.db
      .insert(pulsePurchases)
      .values({ userId, provider: 'stripe', sessionId, quantity: 5, amountCents: 1250 });
    const once = event(
      'checkout.session.completed',
      sessionObject({ sessionId, userId, quantity: 5, amountTotal: 1250 }),
    );
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => deliver(i % 2 ? second : first, once)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    const [row] = await second.ctx.database.db
      .select()
      .from(pulsePurchases)
      .where(eq(pulsePurchases.sessionId, sessionId));
    expect(row.status).toBe('paid');
    const [profile] = await second.ctx.database.db
      .select({ credits: profiles.pulseCredits })
      .from(profiles)
      .where(eq(profiles.id, userId));
    expect(profile.credits).toBe(5);
  });
});
