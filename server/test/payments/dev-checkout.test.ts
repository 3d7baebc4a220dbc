/**
 * The embedded dev checkout: the real checkout route, the French test card page and
 * its test numbers, completing through the signed webhook route like Stripe.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { paymentEvents } from '../../src/db/schema.ts';
import { call, mailsTo, signedInUser } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { deliver, event, sessionObject } from './stripe-events.ts';

describe.each(engines)('dev checkout on %s', (engine) => {
  const t = suiteAuthApp(engine);

  const buyer = () => signedInUser(t);
  const credits = async (token: string) =>
    (await call(t, { method: 'GET', url: '/api/pulse/purchases', token })).json().credits as number;
  async function checkout(token: string, payload: Record<string, unknown> = { quantity: 5 }) {
    const res = await call(t, { method: 'POST', url: '/api/pulse/checkout', token, payload });
    expect(res.statusCode).toBe(200);
    return res.json() as { url: string; sessionId: string };
  }
  const pay = (url: string, fields: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });
  const card = (number: string) => ({ card: number, expiry: '12/39', cvc: '123', name: 'Léa Martin' });

  it('shows a French card form marked as a test payment, with the server’s amount', async () => {
    const lea = await buyer();
    const { url, sessionId } = await checkout(lea.token);
    expect(url).toBe(`/dev/checkout/${sessionId}`);
    const page = await t.app.inject({ method: 'GET', url });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('PAIEMENT DE TEST');
    expect(page.body).toContain('12,50 €');
    expect(page.body).toContain('Numéro de carte');
    expect(page.body).toContain(lea.email);
  });

  it('4242 4242 4242 4242 pays: credited through the webhook, receipt sent, back to the return page', async () => {
    const lea = await buyer();
    const { url } = await checkout(lea.token, { quantity: 5, returnTo: '/create' });
    const res = await pay(url, card('4242 4242 4242 4242'));
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/pulse/retour?statut=ok&retour=%2Fcreate');
    expect(await credits(lea.token)).toBe(5);
    expect((await mailsTo(t, lea.email)).map((m) => m.subject)).toEqual(['Votre reçu MoodMap : crédits Pulse']);
    // The page is closed now; paying again credits nothing.
    expect((await pay(url, card('4242424242424242'))).body).toContain('Cette session de paiement est terminée.');
    expect(await credits(lea.token)).toBe(5);
    const events = await t.database.db.select().from(paymentEvents).where(eq(paymentEvents.provider, 'dev'));
    expect(events.some((e) => e.type === 'checkout.session.completed' && e.outcome === 'credited')).toBe(true);
  });

  it('4000 0000 0000 0002 is declined: an error on the page and nothing credited', async () => {
    const lea = await buyer();
    const { url } = await checkout(lea.token);
    const res = await pay(url, card('4000 0000 0000 0002'));
    expect(res.statusCode).toBe(402);
    expect(res.body).toContain('Votre carte a été refusée.');
    expect(await credits(lea.token)).toBe(0);
  });

  it('4000 0025 0000 3155 asks for a confirmation step; refusing it credits nothing, confirming credits', async () => {
    const lea = await buyer();
    const { url } = await checkout(lea.token, { quantity: 1 });
    const step = await pay(url, card('4000002500003155'));
    expect(step.statusCode).toBe(200);
    expect(step.body).toContain('Confirmation du paiement');
    const refused = await pay(`${url}/confirm`, { decision: 'refuse' });
    expect(refused.body).toContain('La confirmation a échoué.');
    expect(await credits(lea.token)).toBe(0);
    await pay(url, card('4000002500003155'));
    expect((await pay(`${url}/confirm`, { decision: 'confirm' })).statusCode).toBe(303);
    expect(await credits(lea.token)).toBe(1);
  });

  it('a past expiry, a bad CVC or an unknown number is refused', async () => {
    const lea = await buyer();
    const { url } = await checkout(lea.token);
    expect((await pay(url, { ...card('4242424242424242'), expiry: '01/20' })).body).toContain(
      'Date d’expiration invalide ou passée.',
    );
    expect((await pay(url, { ...card('4242424242424242'), cvc: '1' })).body).toContain('CVC invalide');
    expect((await pay(url, card('5555555555554444'))).body).toContain('Numéro de carte non reconnu');
    expect(await credits(lea.token)).toBe(0);
  });

  it('the dev webhook secret is not Stripe’s: an event signed with another secret is refused', async () => {
    const lea = await buyer();
    const { sessionId } = await checkout(lea.token);
    const res = await deliver(
      t.app,
      event('checkout.session.completed', sessionObject({ sessionId, userId: lea.id, quantity: 5, amountTotal: 1250 })),
    );
    expect(res.statusCode).toBe(400);
    expect(await credits(lea.token)).toBe(0);
  });

  it('the purchase history lists date, quantity, amount and status, newest first', async () => {
    const lea = await buyer();
    const first = await checkout(lea.token, { quantity: 1 });
    await pay(first.url, card('4242424242424242'));
    t.clock.advance(60_000);
    await checkout(lea.token, { quantity: 10 });
    const res = await call(t, { method: 'GET', url: '/api/pulse/purchases', token: lea.token });
    expect(res.json()).toMatchObject({
      credits: 1,
      purchases: [
        { quantity: 10, amountCents: 2500, currency: 'EUR', status: 'pending', paidAt: null },
        { quantity: 1, amountCents: 250, currency: 'EUR', status: 'paid' },
      ],
    });
  });
});

describe('payments in production without Stripe keys', () => {
  const t = suiteAuthApp('pglite', { env: 'production' });

  it('has no dev checkout: a checkout answers 503 and /dev/checkout does not exist', async () => {
    const { token } = await signedInUser(t);
    const res = await call(t, { method: 'POST', url: '/api/pulse/checkout', token, payload: { quantity: 1 } });
    expect(res.statusCode).toBe(503);
    expect(res.json().error.code).toBe('payment_unavailable');
    expect((await t.app.inject({ method: 'GET', url: '/dev/checkout/cs_dev_aaaaaaaaaaaaaaaa' })).statusCode).toBe(404);
  });
});
