/**
 * Notifications delivered through a local stand-in for the push service: a message,
 * a comment and a moderation outcome reach the right devices, encrypted for each (the test
 * decrypts with the subscription's own keys), signed with the server's VAPID key, with nothing
 * of the content when the device turned previews off; 404 and 410 forget the device.
 */
import { compactVerify, importJWK, decodeJwt } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@moodmap/core';
import { call } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { member, publish, type Member } from '../interactions/fixtures.ts';
import { multipart, photo } from '../media/fixtures.ts';
import { staff } from '../moderation/fixtures.ts';
import {
  browserSubscription,
  decryptPush,
  pushesTo,
  suitePushService,
  type BrowserSubscription,
  type PushService,
} from './push-service.ts';

describe.each(engines)('push delivery on %s', (engine) => {
  const push = suitePushService();
  const t = suiteAuthApp(engine, push.config);
  let service: PushService;
  beforeAll(() => {
    service = push.service();
  });

  async function subscribe(
    who: Member,
    sub = browserSubscription(service),
  ): Promise<BrowserSubscription & { id: string }> {
    const res = await call(t, {
      method: 'POST',
      url: '/api/push/subscriptions',
      token: who.token,
      payload: { endpoint: sub.endpoint, expirationTime: null, keys: sub.keys },
    });
    expect(res.statusCode, res.body).toBe(201);
    return { ...sub, id: res.json().device.id };
  }
  /** An accepted conversation: both have contacted the other (a request pushes nothing: requests.test.ts). */
  async function conversation(a: Member, b: Member): Promise<string> {
    const id = (
      await call(t, { method: 'POST', url: '/api/conversations', token: a.token, payload: { userId: b.id } })
    ).json().conversation.id;
    expect(
      (await call(t, { method: 'POST', url: '/api/conversations', token: b.token, payload: { userId: a.id } })).json()
        .conversation.id,
    ).toBe(id);
    return id;
  }
  async function send(from: Member, conversationId: string, content: string) {
    const res = await call(t, {
      method: 'POST',
      url: `/api/conversations/${conversationId}/messages`,
      token: from.token,
      payload: { content },
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  /** Turns a device's previews off through the API; answers the device as the server returns it. */
  async function previewOff(who: Member, device: { id: string }) {
    const res = await call(t, {
      method: 'PATCH',
      url: `/api/push/subscriptions/${device.id}`,
      token: who.token,
      payload: { preview: false },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().device;
  }
  const devices = async (who: Member) =>
    (await call(t, { method: 'GET', url: '/api/push/subscriptions', token: who.token })).json().devices as Array<{
      id: string;
      preview: boolean;
    }>;
  /** The decrypted payloads `sub` received so far. */
  const payloads = (sub: BrowserSubscription) =>
    pushesTo(service, sub).map((p) => JSON.parse(decryptPush(p.body, sub)));

  it('sends a new message to the recipient, encrypted for their device and signed with the VAPID key', async () => {
    const lea = await member(t, 'Léa');
    const marc = await member(t, 'Marc');
    const leaPhone = await subscribe(lea);
    const marcLaptop = await subscribe(marc);
    const id = await conversation(marc, lea);
    await send(marc, id, 'Salut Léa, on se retrouve au marché de Saint-Paul demain matin ?');

    await expect.poll(() => pushesTo(service, leaPhone).length).toBe(1);
    const [push] = pushesTo(service, leaPhone);
    expect(push!.headers['content-encoding']).toBe('aes128gcm');
    expect(push!.headers['content-type']).toBe('application/octet-stream');
    expect(Number(push!.headers.ttl)).toBe(86_400);
    expect(push!.headers.urgency).toBe('high');
    expect(push!.headers.topic).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
    // The body is not readable as such: only the subscription's keys open it.
    expect(push!.body.toString('latin1')).not.toContain('Saint-Paul');
    expect(payloads(leaPhone)).toEqual([
      {
        title: marc.username,
        body: 'Salut Léa, on se retrouve au marché de Saint-Paul demain matin ?',
        url: `/messages?conversation=${id}`,
        tag: `conversation:${id}`,
      },
    ]);

    // VAPID (RFC 8292): a JWT for the push service's origin, signed by the key /api/push/key gives.
    const authorization = String(push!.headers.authorization);
    const match = /^vapid t=([^,]+), k=([A-Za-z0-9_-]+)$/.exec(authorization);
    expect(match, authorization).not.toBeNull();
    const key = (await call(t, { method: 'GET', url: '/api/push/key', token: lea.token })).json().publicKey;
    expect(match![2]).toBe(key);
    const point = Buffer.from(key, 'base64url');
    const jwk = {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    };
    await compactVerify(match![1]!, await importJWK(jwk, 'ES256'));
    const claims = decodeJwt(match![1]!);
    expect(claims.aud).toBe(service.base);
    expect(claims.sub).toMatch(/^mailto:/);
    expect(claims.exp! * 1000).toBeGreaterThan(Date.now());

    // The sender's own devices hear nothing of their own message: the first push Marc's laptop
    // gets is Léa's answer, sent after it.
    await send(lea, id, 'Oui, à 9 h devant la fontaine');
    await expect.poll(() => pushesTo(service, marcLaptop).length).toBe(1);
    expect(payloads(marcLaptop).map((p) => p.body)).toEqual(['Oui, à 9 h devant la fontaine']);
  });

  it('cuts the preview to 80 characters, and says "a photo" for an image-only message', async () => {
    const lea = await member(t);
    const marc = await member(t);
    const phone = await subscribe(lea);
    const id = await conversation(marc, lea);
    await send(marc, id, 'x'.repeat(300));
    await expect.poll(() => pushesTo(service, phone).length).toBe(1);
    expect(payloads(phone)[0].body).toBe(`${'x'.repeat(80)}…`);
    const form = multipart([
      { name: 'file', file: { filename: 'a.jpg', contentType: 'image/jpeg', body: await photo(64, 48) } },
    ]);
    const res = await call(t, {
      method: 'POST',
      url: `/api/conversations/${id}/messages`,
      token: marc.token,
      payload: form.payload,
      headers: form.headers,
    });
    expect(res.statusCode, res.body).toBe(201);
    await expect.poll(() => pushesTo(service, phone).length).toBe(2);
    expect(payloads(phone)[1].body).toBe(MESSAGES.push_message_photo);
  });

  it('carries no text of the message when the device turned previews off', async () => {
    const lea = await member(t);
    const marc = await member(t);
    const phone = await subscribe(lea);
    const laptop = await subscribe(lea);
    expect(await previewOff(lea, phone)).toMatchObject({ id: phone.id, preview: false });
    const id = await conversation(marc, lea);
    await send(marc, id, 'Mon code de porte est 4521B');

    await expect.poll(() => pushesTo(service, phone).length).toBe(1);
    await expect.poll(() => pushesTo(service, laptop).length).toBe(1);
    const [withoutPreview] = payloads(phone);
    expect(withoutPreview).toEqual({
      title: marc.username,
      body: MESSAGES.push_message_generic,
      url: `/messages?conversation=${id}`,
      tag: `conversation:${id}`,
    });
    expect(decryptPush(pushesTo(service, phone)[0]!.body, phone)).not.toContain('4521');
    // The other device kept its preview.
    expect(payloads(laptop)[0].body).toBe('Mon code de porte est 4521B');
  });

  it('follows the devices as they change: one added, a preview turned off, one removed', async () => {
    const lea = await member(t);
    const marc = await member(t);
    const id = await conversation(marc, lea);
    // A push to Léa's phone: the server has read, and remembers, her devices.
    const phone = await subscribe(lea);
    await send(marc, id, 'Premier message');
    await expect.poll(() => payloads(phone).map((p) => p.body)).toEqual(['Premier message']);

    const laptop = await subscribe(lea);
    await send(marc, id, 'Tu as installé l’app ?');
    await expect.poll(() => payloads(laptop).map((p) => p.body)).toEqual(['Tu as installé l’app ?']);

    await previewOff(lea, phone);
    await send(marc, id, 'Code 4521B');
    await expect.poll(() => payloads(phone).length).toBe(3);
    expect(payloads(phone)[2].body).toBe(MESSAGES.push_message_generic);

    const removed = await call(t, { method: 'DELETE', url: `/api/push/subscriptions/${phone.id}`, token: lea.token });
    expect(removed.statusCode, removed.body).toBe(200);
    const tablet = await subscribe(lea);
    await send(marc, id, 'Dernier');
    // The lookup that found the tablet is the one that would have found the phone.
    await expect.poll(() => payloads(tablet).map((p) => p.body)).toEqual(['Dernier']);
    await expect.poll(() => payloads(laptop).length).toBe(3);
    expect(pushesTo(service, phone)).toHaveLength(3);
  });

  for (const status of [410, 404]) {
    it(`forgets a device whose push service answers ${status}, and keeps one that failed otherwise`, async () => {
      const lea = await member(t);
      const marc = await member(t);
      const gone = await subscribe(lea);
      const flaky = await subscribe(lea);
      service.answer(gone.path, status);
      service.answer(flaky.path, 500);
      const id = await conversation(marc, lea);
      await send(marc, id, 'Tu es là ?');
      await expect.poll(async () => (await devices(lea)).map((d) => d.id)).toEqual([flaky.id]);
      expect(pushesTo(service, gone)).toHaveLength(1);
      expect(pushesTo(service, flaky)).toHaveLength(1);
      // The next message reaches the device left, and still no one else.
      await send(marc, id, 'Encore moi');
      await expect.poll(() => pushesTo(service, flaky).length).toBe(2);
      expect(pushesTo(service, gone)).toHaveLength(1);
    });
  }

  it('tells a post author of a comment, and the earlier commenters of a reply', async () => {
    const author = await member(t);
    const first = await member(t);
    const second = await member(t);
    const post = await publish(t, author.token, { content: 'Coucher de soleil à Boucan' });
    const authorPhone = await subscribe(author);
    const firstPhone = await subscribe(first);
    const secondPhone = await subscribe(second);
    const comment = (who: Member, content: string) =>
      call(t, { method: 'POST', url: `/api/posts/${post.id}/comments`, token: who.token, payload: { content } });

    expect((await comment(first, 'Magnifique !')).statusCode).toBe(201);
    await expect.poll(() => pushesTo(service, authorPhone).length).toBe(1);
    expect(payloads(authorPhone)[0]).toEqual({
      title: first.username,
      body: 'Magnifique !',
      url: '/profile',
      tag: `post:${post.id}`,
    });

    expect((await comment(second, 'Je confirme, superbe')).statusCode).toBe(201);
    await expect.poll(() => pushesTo(service, firstPhone).length).toBe(1);
    await expect.poll(() => pushesTo(service, authorPhone).length).toBe(2);
    expect(payloads(firstPhone)[0]).toEqual({
      title: second.username,
      body: 'Je confirme, superbe',
      url: `/user/${author.id}`,
      tag: `post:${post.id}`,
    });
    // An edit is not news; a commenter never hears of their own comment.
    const own = (await call(t, { method: 'GET', url: `/api/posts/${post.id}/comments` }))
      .json()
      .comments.find((c: { userId: string }) => c.userId === second.id);
    expect(
      (
        await call(t, {
          method: 'PATCH',
          url: `/api/comments/${own.id}`,
          token: second.token,
          payload: { content: 'Je confirme, sublime' },
        })
      ).statusCode,
    ).toBe(200);
    // The author's answer, after the edit, is the first push the second commenter gets.
    expect((await comment(author, 'Merci à vous deux')).statusCode).toBe(201);
    await expect.poll(() => pushesTo(service, secondPhone).length).toBe(1);
    expect(payloads(secondPhone).map((p) => p.body)).toEqual(['Merci à vous deux']);
    await expect.poll(() => pushesTo(service, firstPhone).length).toBe(2);
    expect(pushesTo(service, authorPhone)).toHaveLength(2);
  });

  it('tells the author of a moderated post, with nothing of the decision in the notification', async () => {
    const author = await member(t);
    const reporter = await member(t);
    const mod = await staff(t, 'moderator');
    const post = await publish(t, author.token, { content: 'Texte signalé' });
    const authorPhone = await subscribe(author);
    const reporterPhone = await subscribe(reporter);
    expect(
      (
        await call(t, {
          method: 'POST',
          url: `/api/posts/${post.id}/report`,
          token: reporter.token,
          payload: { reason: 'harassment', details: 'Insultes' },
        })
      ).statusCode,
    ).toBe(201);
    const res = await call(t, {
      method: 'POST',
      url: `/api/moderation/posts/${post.id}/decision`,
      token: mod.token,
      payload: { action: 'remove', reason: 'harassment', note: 'Insulte envers un voisin' },
    });
    expect(res.statusCode, res.body).toBe(200);
    await expect.poll(() => pushesTo(service, authorPhone).length).toBe(1);
    await expect.poll(() => pushesTo(service, reporterPhone).length).toBe(1);
    expect(payloads(authorPhone)[0]).toEqual({
      title: MESSAGES.notice_statement_title,
      body: MESSAGES.push_moderation_body,
      url: '/profile',
      tag: 'moderation:statement',
    });
    expect(payloads(reporterPhone)[0]).toMatchObject({
      title: MESSAGES.notice_report_outcome_title,
      body: MESSAGES.push_moderation_body,
    });
    expect(decryptPush(pushesTo(service, authorPhone)[0]!.body, authorPhone)).not.toContain('voisin');
  });
});
