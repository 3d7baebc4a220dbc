/**
 * The devices API: a signed-in person registers, lists, tunes and removes their own
 * devices; anyone else's are 404; every malformed subscription is refused with the API's French
 * error shape, never stored, never a 500.
 */
import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, PUSH_DEVICES_MAX, t as fill } from '@moodmap/core';
import { call } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { member, type Member } from '../interactions/fixtures.ts';

/** A browser's key: a point of P-256, uncompressed. */
const p256dh = () => {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return ecdh.getPublicKey().toString('base64url');
};
const auth = () => randomBytes(16).toString('base64url');
const subscription = (overrides: Record<string, unknown> = {}) => ({
  endpoint: `https://fcm.googleapis.com/fcm/send/${randomUUID()}`,
  expirationTime: null,
  keys: { p256dh: p256dh(), auth: auth() },
  ...overrides,
});

describe.each(engines)('push subscriptions on %s', (engine) => {
  const t = suiteAuthApp(engine);
  let lea: Member;
  let marc: Member;
  beforeAll(async () => {
    lea = await member(t);
    marc = await member(t);
  });

  const subscribe = (who: Member | null, payload: unknown, headers?: Record<string, string>) =>
    call(t, { method: 'POST', url: '/api/push/subscriptions', token: who?.token, payload: payload as object, headers });
  const list = async (who: Member) => {
    const res = await call(t, { method: 'GET', url: '/api/push/subscriptions', token: who.token });
    expect(res.statusCode).toBe(200);
    return res.json().devices as Array<{ id: string; label: string; preview: boolean; createdAt: string }>;
  };
  const stored = async () =>
    Number(
      ((await t.database.db.execute(sql`select count(*)::int as n from push_subscriptions`)).rows[0] as { n: number })
        .n,
    );

  it('needs a session for every route', async () => {
    const id = randomUUID();
    for (const [method, url] of [
      ['GET', '/api/push/key'],
      ['GET', '/api/push/subscriptions'],
      ['POST', '/api/push/subscriptions'],
      ['PATCH', `/api/push/subscriptions/${id}`],
      ['DELETE', `/api/push/subscriptions/${id}`],
    ] as const) {
      const res = await call(t, {
        method,
        url,
        payload: method === 'POST' ? subscription() : method === 'PATCH' ? { preview: false } : undefined,
      });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json().error.code).toBe('not_authenticated');
    }
  });

  it('gives the VAPID public key: an uncompressed P-256 point', async () => {
    const res = await call(t, { method: 'GET', url: '/api/push/key', token: lea.token });
    expect(res.statusCode).toBe(200);
    const key = Buffer.from(res.json().publicKey, 'base64url');
    expect(key).toHaveLength(65);
    expect(key[0]).toBe(4);
  });

  it('registers a device once per endpoint, named after the browser, and lists only the own ones', async () => {
    const sub = subscription();
    const first = await subscribe(lea, sub, {
      'user-agent':
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36',
    });
    expect(first.statusCode, first.body).toBe(201);
    const device = first.json().device;
    expect(device).toEqual({
      id: expect.any(String),
      label: 'Chrome sur Android',
      preview: true,
      createdAt: expect.any(String),
    });
    expect(JSON.stringify(first.json())).not.toContain(sub.keys.p256dh);
    // The same browser again (new keys after a reinstall): the same device, updated.
    const again = await subscribe(lea, { ...sub, keys: { p256dh: p256dh(), auth: auth() }, label: 'Mon téléphone' });
    expect(again.statusCode).toBe(200);
    expect(again.json().device).toMatchObject({ id: device.id, label: 'Mon téléphone' });
    expect((await list(lea)).map((d) => d.id)).toContain(device.id);
    expect((await list(marc)).map((d) => d.id)).not.toContain(device.id);
  });

  it("refuses another person's endpoint with a 409, and leaves their device as it was", async () => {
    const sub = subscription();
    const mine = (await subscribe(lea, sub)).json().device;
    await call(t, {
      method: 'PATCH',
      url: `/api/push/subscriptions/${mine.id}`,
      token: lea.token,
      payload: { preview: false },
    });
    const row = async () =>
      (
        await t.database.db.execute(
          sql`select user_id, p256dh, auth, label, preview from push_subscriptions where id = ${mine.id}`,
        )
      ).rows[0];
    const before = await row();
    const theirs = await subscribe(marc, { ...sub, keys: { p256dh: p256dh(), auth: auth() }, label: 'Volé' });
    expect(theirs.statusCode, theirs.body).toBe(409);
    expect(theirs.json().error).toEqual({ code: 'push_endpoint_taken', message: MESSAGES.push_endpoint_taken });
    expect(await row()).toEqual(before);
    expect((await list(lea)).find((d) => d.id === mine.id)).toMatchObject({ preview: false });
    expect((await list(marc)).map((d) => d.id)).not.toContain(mine.id);
  });

  it('lets only the owner change the preview or remove a device; anyone else gets 404', async () => {
    const device = (await subscribe(lea, subscription())).json().device;
    for (const id of [device.id, randomUUID(), 'pas-un-id', '1 or 1=1']) {
      const patch = await call(t, {
        method: 'PATCH',
        url: `/api/push/subscriptions/${encodeURIComponent(id)}`,
        token: marc.token,
        payload: { preview: false },
      });
      expect(patch.statusCode, id).toBe(404);
      expect(patch.json().error).toEqual({ code: 'push_device_not_found', message: MESSAGES.push_device_not_found });
      const del = await call(t, {
        method: 'DELETE',
        url: `/api/push/subscriptions/${encodeURIComponent(id)}`,
        token: marc.token,
      });
      expect(del.statusCode, id).toBe(404);
    }
    expect((await list(lea)).find((d) => d.id === device.id)).toMatchObject({ preview: true });

    const off = await call(t, {
      method: 'PATCH',
      url: `/api/push/subscriptions/${device.id}`,
      token: lea.token,
      payload: { preview: false },
    });
    expect(off.json().device.preview).toBe(false);
    expect((await list(lea)).find((d) => d.id === device.id)).toMatchObject({ preview: false });
    const del = await call(t, { method: 'DELETE', url: `/api/push/subscriptions/${device.id}`, token: lea.token });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ status: 'deleted' });
    expect((await list(lea)).map((d) => d.id)).not.toContain(device.id);
    expect(
      (await call(t, { method: 'DELETE', url: `/api/push/subscriptions/${device.id}`, token: lea.token })).statusCode,
    ).toBe(404);
  });

  it('refuses a preview setting that is not a boolean', async () => {
    const device = (await subscribe(lea, subscription())).json().device;
    for (const payload of [{ preview: 'non' }, {}, { preview: false, userId: marc.id }]) {
      const res = await call(t, {
        method: 'PATCH',
        url: `/api/push/subscriptions/${device.id}`,
        token: lea.token,
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.message).toMatch(/\S/);
    }
  });

  const endpoint = (value: unknown) => ({
    name: `endpoint ${JSON.stringify(value).slice(0, 40)}`,
    payload: subscription({ endpoint: value }),
    code: 'push_endpoint_invalid',
  });
  const keys = (name: string, k: Record<string, unknown>) => ({
    name,
    payload: subscription({ keys: { p256dh: p256dh(), auth: auth(), ...k } }),
    code: 'push_keys_invalid',
  });
  // Not a browser's push service: the server's own network, other hosts, other schemes and ports.
  const NOT_PUSH_SERVICES = [
    'https://localhost./push/1',
    'https://localhost/push/1',
    'https://127.0.0.1/push/1',
    'https://[::1]/push/1',
    'https://[::ffff:127.0.0.1]/push/1',
    'https://10.0.0.1/push/1',
    'https://172.16.0.1/push/1',
    'https://192.168.1.1/push/1',
    'https://169.254.169.254/latest/meta-data/',
    'https://metadata.google.internal/computeMetadata/v1/',
    'https://[fd00::1]/push/1',
    'https://100.64.0.1/push/1',
    'https://vm:8080/push/1',
    'https://redis:6379/',
    'http://127.0.0.1:9000/push/1',
    'http://fcm.googleapis.com/fcm/send/1',
    'https://fcm.googleapis.com:8443/fcm/send/1',
    'https://fcm.googleapis.com./fcm/send/1',
    'https://fcm.googleapis.com.evil.example/fcm/send/1',
    'https://push.example.net/send/1',
    'https://web.push.apple.com.evil.example/1',
  ];
  const REFUSED = [
    ...NOT_PUSH_SERVICES.map(endpoint),
    endpoint('pas une adresse'),
    endpoint('ftp://push.example.net/x'),
    endpoint('javascript:alert(1)'),
    endpoint('https://user:secret@push.example.net/x'),
    endpoint('http://push.example.net/x'),
    endpoint(`https://push.example.net/${'a'.repeat(1000)}`),
    endpoint(42),
    keys('p256dh of 64 bytes', { p256dh: randomBytes(64).toString('base64url') }),
    keys('p256dh of 66 bytes', { p256dh: Buffer.concat([Buffer.from([4]), randomBytes(65)]).toString('base64url') }),
    keys('p256dh not an uncompressed point', {
      p256dh: Buffer.concat([Buffer.from([2]), randomBytes(64)]).toString('base64url'),
    }),
    keys('p256dh not on the curve', {
      p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString('base64url'),
    }),
    keys('p256dh of random bytes', {
      p256dh: Buffer.concat([Buffer.from([4]), randomBytes(64)]).toString('base64url'),
    }),
    keys('auth of 15 bytes', { auth: randomBytes(15).toString('base64url') }),
    keys('auth of 17 bytes', { auth: randomBytes(17).toString('base64url') }),
    keys('auth in standard base64', { auth: '+/+/+/+/+/+/+/+/+/+/+/' }),
    keys('auth not a string', { auth: 12 }),
    { name: 'no keys', payload: { endpoint: 'https://fcm.googleapis.com/fcm/send/x' }, code: 'push_keys_invalid' },
    { name: 'a label of 61 characters', payload: subscription({ label: 'é'.repeat(61) }), code: 'push_label_invalid' },
    {
      name: 'a label with markup',
      payload: subscription({ label: '<img src=x onerror=alert(1)>' }),
      code: 'push_label_markup',
    },
    {
      name: 'a label with a lone >',
      payload: subscription({ label: 'Téléphone > tablette' }),
      code: 'push_label_markup',
    },
    { name: 'not an object', payload: ['https://fcm.googleapis.com/fcm/send/x'], code: 'push_endpoint_invalid' },
  ];
  for (const { name, payload, code } of REFUSED) {
    it(`refuses ${name} with a French 400`, async () => {
      const before = await stored();
      // A new person each time: refusals count towards the subscription rate limit.
      const res = await subscribe(await member(t), payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toEqual({ code, message: MESSAGES[code as keyof typeof MESSAGES] });
      expect(await stored()).toBe(before);
    });
  }

  it('refuses a NUL character and an oversized body in the API shape', async () => {
    const nul = await subscribe(lea, subscription({ label: 'Mon\u0000téléphone' }));
    expect(nul.statusCode).toBe(400);
    expect(nul.json().error.code).toBe('bad_request');
    const huge = await subscribe(lea, subscription({ label: 'x'.repeat(200_000) }));
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error).toEqual({ code: 'request_too_large', message: MESSAGES.request_too_large });
  });

  it(`keeps at most ${PUSH_DEVICES_MAX} devices per person`, async () => {
    const paul = await member(t);
    const subs = Array.from({ length: PUSH_DEVICES_MAX }, () => subscription());
    for (const sub of subs) expect((await subscribe(paul, sub)).statusCode).toBe(201);
    const over = await subscribe(paul, subscription());
    expect(over.statusCode).toBe(409);
    expect(over.json().error).toEqual({
      code: 'push_devices_too_many',
      message: fill('push_devices_too_many', { max: PUSH_DEVICES_MAX }),
    });
    // A known device may still renew its keys.
    expect((await subscribe(paul, { ...subs[0], keys: { p256dh: p256dh(), auth: auth() } })).statusCode).toBe(200);
    expect(await list(paul)).toHaveLength(PUSH_DEVICES_MAX);
  });

  it('slows down a flood of subscriptions with a 429 and Retry-After', async () => {
    const flood = await member(t);
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++)
      statuses.push(
        (await subscribe(flood, subscription({ endpoint: 'https://fcm.googleapis.com/fcm/send/meme' }))).statusCode,
      );
    expect(statuses.slice(0, 20).every((s) => s === 200 || s === 201)).toBe(true);
    const res = await subscribe(flood, subscription());
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(res.json().error).toEqual({ code: 'push_rate_limited', message: MESSAGES.push_rate_limited });
  });
});
