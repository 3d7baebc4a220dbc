/**
 * A refund takes back only the refunded purchase's own unspent credits: credits are spent from
 * the oldest purchase first, and a credit another purchase paid for is never taken. Events are
 * Stripe-signed and go through the real webhook route.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { pulsePurchases } from '../../src/db/schema.ts';
import { call, signedInUser } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { STRIPE_CONFIG, deliver, event, randomId, sessionObject } from './stripe-events.ts';

const SAINT_DENIS = { latitude: -20.8789, longitude: 55.4481 };

describe.each(engines)('refunds and spent credits on %s', (engine) => {
  const t = suiteAuthApp(engine, STRIPE_CONFIG);

  /** A paid purchase of `quantity` credits, as the checkout route and its webhook leave it. */
  async function bought(userId: string, quantity: number) {
    const sessionId = randomId('cs_test');
    const paymentIntent = randomId('pi');
    await t.database.db
      .insert(pulsePurchases)
      .values({ userId, provider: 'stripe', sessionId, quantity, amountCents: 250 * quantity, currency: 'EUR' });
    const res = await deliver(
      t.app,
      event(
        'checkout.session.completed',
        sessionObject({ sessionId, userId, quantity, amountTotal: 250 * quantity, paymentIntent }),
      ),
    );
    expect(res.statusCode).toBe(200);
    return { sessionId, paymentIntent, quantity };
  }
  const refundOf = (purchase: { paymentIntent: string; quantity: number }) =>
    event('charge.refunded', {
      id: randomId('ch'),
      object: 'charge',
      amount: 250 * purchase.quantity,
      amount_refunded: 250 * purchase.quantity,
      currency: 'eur',
      payment_intent: purchase.paymentIntent,
      refunded: true,
    });
  const credits = async (token: string): Promise<number> => {
    const res = await call(t, { method: 'GET', url: '/api/pulse/purchases', token });
    expect(res.statusCode).toBe(200);
    return res.json().credits;
  };
  /** Publishes a pulse post, then deletes it, so the next one may be published. */
  async function spend(token: string) {
    const res = await call(t, {
      method: 'POST',
      url: '/api/posts',
      token,
      payload: { category: 'happy', content: 'Pulse !', ...SAINT_DENIS, usePulseEffect: true },
    });
    expect(res.statusCode).toBe(201);
    expect((await call(t, { method: 'DELETE', url: `/api/posts/${res.json().post.id}`, token })).statusCode).toBe(204);
  }
  const row = async (sessionId: string) =>
    (await t.database.db.select().from(pulsePurchases).where(eq(pulsePurchases.sessionId, sessionId)))[0];

  it('refunding A takes only A’s unspent credits; B’s stay, and a replay takes nothing more', async () => {
    const lea = await signedInUser(t);
    const a = await bought(lea.id, 5);
    const b = await bought(lea.id, 5);
    // Three spent: all from A, the oldest purchase.
    for (let i = 0; i < 3; i++) await spend(lea.token);
    expect(await credits(lea.token)).toBe(7);

    const refund = refundOf(a);
    expect((await deliver(t.app, refund)).statusCode).toBe(200);
    expect(await credits(lea.token)).toBe(5);
    // The same event replayed, then a dispute of the same payment: nothing more is taken.
    expect((await deliver(t.app, refund)).statusCode).toBe(200);
    expect(
      (
        await deliver(
          t.app,
          event('charge.dispute.created', {
            id: randomId('dp'),
            object: 'dispute',
            amount: 1250,
            currency: 'eur',
            payment_intent: a.paymentIntent,
            charge: randomId('ch'),
          }),
        )
      ).statusCode,
    ).toBe(200);
    expect(await credits(lea.token)).toBe(5);
    expect(await row(a.sessionId)).toMatchObject({ status: 'refunded', creditsSpent: 3, creditsRemoved: 2 });
    expect(await row(b.sessionId)).toMatchObject({ status: 'paid', creditsSpent: 0, creditsRemoved: 0 });

    // B's credits are all still there to spend.
    for (let i = 0; i < 5; i++) await spend(lea.token);
    expect(await credits(lea.token)).toBe(0);
    expect(await row(b.sessionId)).toMatchObject({ creditsSpent: 5 });
  });

  it('refunding A after all of A’s credits were spent takes nothing from B', async () => {
    const lea = await signedInUser(t);
    const a = await bought(lea.id, 1);
    const b = await bought(lea.id, 5);
    await spend(lea.token);
    expect(await credits(lea.token)).toBe(5);

    expect((await deliver(t.app, refundOf(a))).statusCode).toBe(200);
    expect(await credits(lea.token)).toBe(5);
    expect(await row(a.sessionId)).toMatchObject({ status: 'refunded', creditsSpent: 1, creditsRemoved: 0 });
    expect(await row(b.sessionId)).toMatchObject({ status: 'paid', creditsSpent: 0, creditsRemoved: 0 });
  });

  it('a spend and a refund at once leave every credit accounted for exactly', async () => {
    for (let round = 0; round < 4; round++) {
      const lea = await signedInUser(t);
      const a = await bought(lea.id, 1);
      const b = await bought(lea.id, 2);
      const [post, refund] = await Promise.all([
        call(t, {
          method: 'POST',
          url: '/api/posts',
          token: lea.token,
          payload: { category: 'happy', content: 'Pulse !', ...SAINT_DENIS, usePulseEffect: true },
        }),
        deliver(t.app, refundOf(a)),
      ]);
      expect(post.statusCode).toBe(201);
      expect(refund.statusCode).toBe(200);
      const [rowA, rowB] = [await row(a.sessionId), await row(b.sessionId)];
      // A's one credit was either spent or taken back, never both; B lost only what was spent from it.
      expect(rowA.creditsSpent + rowA.creditsRemoved).toBe(1);
      expect(rowB.creditsRemoved).toBe(0);
      expect(rowA.creditsSpent + rowB.creditsSpent).toBe(1);
      expect(await credits(lea.token)).toBe(2 - rowB.creditsSpent);
    }
  });
});
