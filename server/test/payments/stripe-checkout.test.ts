/**
 * What the Stripe adapter asks Stripe for: a Checkout Session in EUR at 250 cents a
 * credit, the quantity, the user id and quantity in its metadata, success and cancel URLs, and
 * an idempotency key per purchase. The official client talks to a local HTTP peer standing in
 * for api.stripe.com (no network here), so the request is the one the package really sends.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStripeProvider } from '../../src/adapters/payments/stripe.ts';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  form: URLSearchParams;
}

describe('Stripe adapter', () => {
  let server: Server;
  let port = 0;
  const received: Received[] = [];
  let answer: { status: number; body: unknown } = { status: 200, body: {} };

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString('utf8');
      });
      req.on('end', () => {
        received.push({
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          form: new URLSearchParams(body),
        });
        res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': 'req_test' });
        res.end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const provider = () =>
    createStripeProvider({
      secretKey: 'sk_test_local',
      webhookSecret: 'whsec_local',
      api: { host: '127.0.0.1', port, protocol: 'http' },
    });
  const request = {
    purchaseId: '0b7c3f7e-4a59-4a53-9d1e-8f2b1f0c9a11',
    userId: '5d1b0c2e-2f7e-4e0a-8f57-0a4b5c6d7e8f',
    email: 'lea@example.fr',
    quantity: 5,
    unitAmountCents: 250,
    currency: 'eur',
    successUrl: 'https://moodmap.example/pulse/retour?statut=ok',
    cancelUrl: 'https://moodmap.example/pulse/retour?statut=annule',
  };

  it('creates a Checkout Session in EUR, 250 cents a credit, with the user and quantity in its metadata', async () => {
    answer = {
      status: 200,
      body: { id: 'cs_test_123', object: 'checkout.session', url: 'https://checkout.stripe.com/c/pay/cs_test_123' },
    };
    const session = await provider().createCheckout(request);
    expect(session).toEqual({ sessionId: 'cs_test_123', url: 'https://checkout.stripe.com/c/pay/cs_test_123' });
    const sent = received.at(-1)!;
    expect(sent.method).toBe('POST');
    expect(sent.url).toBe('/v1/checkout/sessions');
    expect(sent.headers.authorization).toBe('Bearer sk_test_local');
    expect(sent.headers['idempotency-key']).toBe(`pulse-checkout-${request.purchaseId}`);
    const f = sent.form;
    expect(f.get('mode')).toBe('payment');
    expect(f.get('line_items[0][price_data][currency]')).toBe('eur');
    expect(f.get('line_items[0][price_data][unit_amount]')).toBe('250');
    expect(f.get('line_items[0][quantity]')).toBe('5');
    expect(f.get('metadata[user_id]')).toBe(request.userId);
    expect(f.get('metadata[quantity]')).toBe('5');
    expect(f.get('success_url')).toBe(request.successUrl);
    expect(f.get('cancel_url')).toBe(request.cancelUrl);
    expect(f.get('customer_email')).toBe('lea@example.fr');
  });

  it('fails when Stripe refuses, so the route answers the checkout error', async () => {
    answer = { status: 400, body: { error: { type: 'invalid_request_error', message: 'No such price' } } };
    await expect(provider().createCheckout(request)).rejects.toThrow('No such price');
  });
});
