/**
 * Each instance remembers who has which push devices; a device saved, changed or removed through
 * one instance reaches the pushes of another as soon as the bus tells it, even when that other
 * instance had already read that the person had none.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@moodmap/core';
import { engines } from '../helpers/databases.ts';
import { suiteTwoInstances } from '../helpers/suite-app.ts';
import { member, type Member } from '../interactions/fixtures.ts';
import {
  browserSubscription,
  decryptPush,
  pushesTo,
  suitePushService,
  type BrowserSubscription,
} from './push-service.ts';

describe.runIf(engines.includes('postgres'))('push devices across two instances on PostgreSQL', () => {
  const push = suitePushService();
  const instances = suiteTwoInstances({ config: push.config });
  const first = () => instances.t.app;
  const second = () => instances.second;

  const api = (
    app: FastifyInstance,
    who: Member,
    method: 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
  ): Promise<LightMyRequestResponse> =>
    app.inject({ method, url, headers: { authorization: `Bearer ${who.token}` }, ...(payload ? { payload } : {}) });

  async function subscribe(app: FastifyInstance, who: Member): Promise<BrowserSubscription & { id: string }> {
    const sub = browserSubscription(push.service());
    const res = await api(app, who, 'POST', '/api/push/subscriptions', { endpoint: sub.endpoint, keys: sub.keys });
    expect(res.statusCode, res.body).toBe(201);
    return { ...sub, id: res.json().device.id };
  }
  async function send(app: FastifyInstance, from: Member, conversationId: string, content: string): Promise<void> {
    const res = await api(app, from, 'POST', `/api/conversations/${conversationId}/messages`, { content });
    expect(res.statusCode, res.body).toBe(201);
  }
  const bodies = (sub: BrowserSubscription) =>
    pushesTo(push.service(), sub).map((p) => JSON.parse(decryptPush(p.body, sub)).body);

  /** Sends through `app` until `arrived` holds: the bus's news reaches the other instance within a few sends. */
  async function sendUntil(app: FastifyInstance, from: Member, id: string, content: string, arrived: () => boolean) {
    await expect
      .poll(
        async () => {
          await send(app, from, id, content);
          return arrived();
        },
        { timeout: 10_000, interval: 50 },
      )
      .toBe(true);
  }

  it('pushes through instance B to a device saved, changed and removed through instance A', async () => {
    const lea = await member(instances.t);
    const marc = await member(instances.t);
    const opened = await api(first(), marc, 'POST', '/api/conversations', { userId: lea.id });
    const id = opened.json().conversation.id;
    expect((await api(first(), lea, 'POST', '/api/conversations', { userId: marc.id })).json().conversation.id).toBe(
      id,
    );

    // B pushes to Léa's phone: B has read, and remembers, her devices.
    const phone = await subscribe(first(), lea);
    await send(second(), marc, id, 'Premier message');
    await expect.poll(() => bodies(phone)).toEqual(['Premier message']);

    // A device added through A: B's pushes reach it once the bus has told B.
    const laptop = await subscribe(first(), lea);
    await sendUntil(second(), marc, id, 'Tu me reçois ?', () => bodies(laptop).includes('Tu me reçois ?'));

    // Previews turned off on the phone through A: B's pushes to it stop carrying the text.
    const off = await api(first(), lea, 'PATCH', `/api/push/subscriptions/${phone.id}`, { preview: false });
    expect(off.statusCode, off.body).toBe(200);
    await sendUntil(second(), marc, id, 'Mon code est 4521B', () =>
      bodies(phone).includes(MESSAGES.push_message_generic),
    );

    // The phone removed through A: once B's pushes follow a newer change, none reaches it.
    expect((await api(first(), lea, 'DELETE', `/api/push/subscriptions/${phone.id}`)).statusCode).toBe(200);
    const tablet = await subscribe(first(), lea);
    await sendUntil(second(), marc, id, 'Et maintenant ?', () => bodies(tablet).includes('Et maintenant ?'));
    const onPhone = pushesTo(push.service(), phone).length;
    await send(second(), marc, id, 'Dernier');
    await expect.poll(() => bodies(tablet).at(-1)).toBe('Dernier');
    await expect.poll(() => bodies(laptop).at(-1)).toBe('Dernier');
    expect(pushesTo(push.service(), phone)).toHaveLength(onPhone);
  });
});
