/**
 * Message requests: a stranger's first messages wait in 'Demandes' (no list entry, no unread
 * badge, no toast frame, no push) until the recipient accepts or replies; the sender sees them
 * sent. Deleting a request removes it for the recipient only; a blocked requester cannot write.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type MessageCreatedEvent } from '@moodmap/core';
import { call, type AuthTestApp } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp, suiteListeningApp } from '../helpers/suite-app.ts';
import { barrier, signedSocket } from '../helpers/ws.ts';
import { member, type Member } from '../interactions/fixtures.ts';
import {
  browserSubscription,
  decryptPush,
  pushesTo,
  suitePushService,
  type PushService,
} from '../push/push-service.ts';

const ids = (list: Array<{ id: string }>) => list.map((c) => c.id);

function helpers(t: AuthTestApp) {
  const as = (who: Member, method: 'GET' | 'POST' | 'DELETE' | 'PUT', url: string, payload?: object) =>
    call(t, { method, url, token: who.token, payload });
  const open = async (from: Member, to: Member): Promise<string> =>
    (await as(from, 'POST', '/api/conversations', { userId: to.id })).json().conversation.id;
  const send = async (from: Member, id: string, content: string) => {
    const res = await as(from, 'POST', `/api/conversations/${id}/messages`, { content });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().message as { id: string; content: string; createdAt: string };
  };
  const list = async (who: Member) => (await as(who, 'GET', '/api/conversations')).json().conversations;
  const requests = async (who: Member) => (await as(who, 'GET', '/api/conversations/requests')).json().conversations;
  const unread = async (who: Member) => (await as(who, 'GET', '/api/conversations/unread')).json().conversationIds;
  return { as, open, send, list, requests, unread };
}

describe.each(engines)('message requests on %s', (engine) => {
  const t = suiteListeningApp(engine);
  const { as, open, send, list, requests, unread } = helpers(t);
  const tab = (who: Member) => signedSocket(t.base, who.id, who.token);
  const createdWith = (messageId: string) => (f: { type: string; data?: unknown }) =>
    f.type === 'message.created' && (f.data as MessageCreatedEvent).message.id === messageId;

  it("puts a stranger's first message in 'Demandes', quietly, and shows it sent to its sender", async () => {
    const lea = await member(t, 'Léa');
    const marc = await member(t, 'Marc');
    const [leaTab, marcTab] = [await tab(lea), await tab(marc)];
    const id = await open(lea, marc);
    const message = await send(lea, id, 'Je te vois au marché ?');

    // The sender: in their list, sent, and their own tabs hear it as usual.
    const mine = (await list(lea)).find((c: { id: string }) => c.id === id);
    expect(mine).toMatchObject({
      request: false,
      unread: false,
      lastMessage: { id: message.id, content: 'Je te vois au marché ?' },
    });
    await leaTab.next(createdWith(message.id));

    // The recipient: a quiet frame, nothing in the list, no badge, the request in 'Demandes'.
    const quiet = await marcTab.next((f) => f.type === 'message.request');
    expect(quiet.data).toEqual({ conversationId: id });
    await barrier(t.app, [marcTab]);
    expect(marcTab.frames.filter((f) => f.type === 'message.created' || f.type === 'conversation.updated')).toEqual([]);
    expect(JSON.stringify(marcTab.frames)).not.toContain('marché');
    expect(ids(await list(marc))).not.toContain(id);
    expect(await unread(marc)).toEqual([]);
    const [request] = await requests(marc);
    expect(request).toMatchObject({
      id,
      request: true,
      unread: false,
      otherParticipant: { id: lea.id, nickname: 'Léa' },
      lastMessage: { content: 'Je te vois au marché ?' },
    });
    expect(await requests(lea)).toEqual([]);

    // Opening the request shows its messages; reading it tells the sender nothing.
    expect(
      (await as(marc, 'GET', `/api/conversations/${id}/messages`)).json().messages.map((m: { id: string }) => m.id),
    ).toEqual([message.id]);
    expect((await as(marc, 'POST', `/api/conversations/${id}/read`)).json()).toEqual({ updated: 0 });
    expect((await as(lea, 'GET', `/api/conversations/${id}/messages`)).json().messages[0].read).toBe(false);
    leaTab.close();
    marcTab.close();
  });

  it('moves an accepted request to the list with its history, then delivers and counts as usual', async () => {
    const lea = await member(t);
    const marc = await member(t);
    const id = await open(lea, marc);
    const first = await send(lea, id, 'Premier message');
    const accepted = await as(marc, 'POST', `/api/conversations/${id}/accept`);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().conversation).toMatchObject({
      id,
      request: false,
      unread: true,
      lastMessage: { id: first.id },
    });
    expect(await requests(marc)).toEqual([]);
    expect(ids(await list(marc))).toContain(id);
    expect(await unread(marc)).toEqual([id]);

    const marcTab = await tab(marc);
    const next = await send(lea, id, 'Deuxième message');
    await marcTab.next(createdWith(next.id));
    await marcTab.next(
      (f) => f.type === 'conversation.updated' && (f.data as { updatedAt: string }).updatedAt === next.createdAt,
    );
    expect(
      (await as(marc, 'GET', `/api/conversations/${id}/messages`))
        .json()
        .messages.map((m: { content: string }) => m.content),
    ).toEqual(['Premier message', 'Deuxième message']);
    expect((await as(marc, 'POST', `/api/conversations/${id}/read`)).json()).toEqual({ updated: 2 });
    expect(await unread(marc)).toEqual([]);
    // Accepting again changes nothing.
    expect((await as(marc, 'POST', `/api/conversations/${id}/accept`)).statusCode).toBe(200);
    marcTab.close();
  });

  it('accepts a request when its recipient replies, or contacts the sender themself', async () => {
    const [lea, marc, zoe] = [await member(t), await member(t), await member(t)];
    const id = await open(lea, marc);
    await send(lea, id, 'Salut');
    const leaTab = await tab(lea);
    const reply = await send(marc, id, 'Bonjour !');
    await leaTab.next(createdWith(reply.id));
    expect(await requests(marc)).toEqual([]);
    expect(ids(await list(marc))).toContain(id);
    await send(lea, id, 'Ça va ?');
    expect(await unread(marc)).toEqual([id]);

    const other = await open(zoe, marc);
    await send(zoe, other, 'Coucou');
    expect(ids(await requests(marc))).toEqual([other]);
    expect(await open(marc, zoe)).toBe(other);
    expect(await requests(marc)).toEqual([]);
    expect(await unread(marc)).toEqual([other, id]);
    leaTab.close();
  });

  it('deletes a request for its recipient only, without telling the sender', async () => {
    const lea = await member(t);
    const marc = await member(t);
    const id = await open(lea, marc);
    await send(lea, id, 'Tu es là ?');
    const leaTab = await tab(lea);
    const gone = await as(marc, 'DELETE', `/api/conversations/${id}/request`);
    expect(gone.statusCode, gone.body).toBe(204);
    expect(await requests(marc)).toEqual([]);
    expect(ids(await list(marc))).not.toContain(id);
    expect((await as(marc, 'GET', `/api/conversations/${id}`)).statusCode).toBe(404);
    expect((await as(marc, 'GET', `/api/conversations/${id}/messages`)).statusCode).toBe(404);
    const again = await as(marc, 'DELETE', `/api/conversations/${id}/request`);
    expect(again.statusCode).toBe(404);
    expect(again.json().error).toEqual({ code: 'request_not_found', message: MESSAGES.request_not_found });

    // The sender still has it, may write, and the recipient sees nothing of it.
    expect((await list(lea)).find((c: { id: string }) => c.id === id)).toMatchObject({
      lastMessage: { content: 'Tu es là ?' },
    });
    await send(lea, id, 'Allô ?');
    expect(await requests(marc)).toEqual([]);
    expect(await unread(marc)).toEqual([]);
    await barrier(t.app, [leaTab]);
    expect(leaTab.frames.map((f) => f.type)).not.toContain('message.read');
    // Only a request can be deleted: an accepted conversation is not one.
    expect((await as(lea, 'DELETE', `/api/conversations/${id}/request`)).statusCode).toBe(404);
    leaTab.close();
  });

  it('refuses a blocked requester (403) and drops their request from the box', async () => {
    const lea = await member(t);
    const marc = await member(t);
    const id = await open(lea, marc);
    await send(lea, id, 'Réponds-moi');
    expect((await as(marc, 'PUT', `/api/blocks/${lea.id}`)).statusCode).toBe(200);
    const refused = await as(lea, 'POST', `/api/conversations/${id}/messages`, { content: 'Encore moi' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toEqual({ code: 'user_blocked_you', message: MESSAGES.user_blocked_you });
    expect(await requests(marc)).toEqual([]);
  });

  it('counts conversations stored without sides as accepted on both', async () => {
    const lea = await member(t);
    const marc = await member(t);
    const id = randomUUID();
    const [p1, p2] = [lea.id, marc.id].sort();
    await t.database.db.execute(
      sql`insert into conversations (id, participant1_id, participant2_id) values (${id}, ${p1}, ${p2})`,
    );
    await t.database.db.execute(
      sql`insert into messages (conversation_id, sender_id, content) values (${id}, ${lea.id}, 'Ancien message')`,
    );
    expect(ids(await list(marc))).toContain(id);
    expect(ids(await list(lea))).toContain(id);
    expect(await unread(marc)).toEqual([id]);
  });
});

describe.each(engines)('message requests and push on %s', (engine) => {
  const push = suitePushService();
  const t = suiteAuthApp(engine, push.config);
  const { as, open, send } = helpers(t);
  let service: PushService;
  beforeAll(() => {
    service = push.service();
  });

  it('pushes nothing for a request, and the usual notification once accepted', async () => {
    const lea = await member(t, 'Léa');
    const marc = await member(t);
    const sub = browserSubscription(service);
    const res = await as(lea, 'POST', '/api/push/subscriptions', {
      endpoint: sub.endpoint,
      expirationTime: null,
      keys: sub.keys,
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = await open(marc, lea);
    await send(marc, id, 'Une demande');
    expect((await as(lea, 'POST', `/api/conversations/${id}/accept`)).statusCode).toBe(200);
    await send(marc, id, 'Après acceptation');
    await expect.poll(() => pushesTo(service, sub).length).toBe(1);
    expect(pushesTo(service, sub).map((p) => JSON.parse(decryptPush(p.body, sub)).body)).toEqual(['Après acceptation']);
  });
});
