/**
 * Who may touch a conversation: a matrix over every messaging endpoint. Only the two
 * participants read, post to or mark a conversation; a visitor gets 401, anyone else 404 (the
 * conversation does not exist for them), a malformed id 404 too. A refused call changes nothing.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@moodmap/core';
import { call } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { member, type Member } from '../interactions/fixtures.ts';

interface Endpoint {
  name: string;
  method: 'GET' | 'POST';
  url: (id: string) => string;
  payload?: object;
  /** Status a participant gets. */
  ok: number;
}

const ENDPOINTS: Endpoint[] = [
  { name: 'read the conversation', method: 'GET', url: (id) => `/api/conversations/${id}`, ok: 200 },
  { name: 'read its messages', method: 'GET', url: (id) => `/api/conversations/${id}/messages`, ok: 200 },
  { name: 'read older messages', method: 'GET', url: (id) => `/api/conversations/${id}/messages?limit=10`, ok: 200 },
  {
    name: 'post a message',
    method: 'POST',
    url: (id) => `/api/conversations/${id}/messages`,
    payload: { content: 'Bonjour' },
    ok: 201,
  },
  { name: 'mark it read', method: 'POST', url: (id) => `/api/conversations/${id}/read`, ok: 200 },
];

describe.each(engines)('conversation access on %s', (engine) => {
  const t = suiteAuthApp(engine);
  let lea: Member;
  let marc: Member;
  let intruder: Member;
  let conversationId: string;
  beforeAll(async () => {
    lea = await member(t);
    marc = await member(t);
    intruder = await member(t);
    conversationId = (
      await call(t, { method: 'POST', url: '/api/conversations', token: lea.token, payload: { userId: marc.id } })
    ).json().conversation.id;
    await call(t, {
      method: 'POST',
      url: `/api/conversations/${conversationId}/messages`,
      token: marc.token,
      payload: { content: 'Secret' },
    });
  });

  async function snapshot(): Promise<string> {
    const result = await t.database.db.execute(sql`
      select count(*)::int as n, count(*) filter (where read)::int as r, max(created_at)::text as last
      from messages where conversation_id = ${conversationId}`);
    return JSON.stringify(result.rows[0]);
  }

  const who = () => ({
    visitor: { token: undefined, expected: 401, code: 'not_authenticated' },
    intruder: { token: intruder.token, expected: 404, code: 'conversation_not_found' },
  });

  for (const endpoint of ENDPOINTS) {
    for (const role of ['visitor', 'intruder'] as const) {
      it(`${role}: cannot ${endpoint.name}`, async () => {
        const { token, expected, code } = who()[role];
        const before = await snapshot();
        const res = await call(t, {
          method: endpoint.method,
          url: endpoint.url(conversationId),
          token,
          payload: endpoint.payload,
        });
        expect(res.statusCode).toBe(expected);
        expect(res.json().error.code).toBe(code);
        expect(res.body).not.toContain('Secret');
        expect(await snapshot()).toBe(before);
      });
    }

    it(`anyone signed in: ${endpoint.name} on an unknown or malformed id → 404`, async () => {
      for (const id of [randomUUID(), 'pas-un-id', '1 or 1=1']) {
        const res = await call(t, {
          method: endpoint.method,
          url: endpoint.url(encodeURIComponent(id)),
          token: lea.token,
          payload: endpoint.payload,
        });
        expect(res.statusCode, id).toBe(404);
        expect(res.json().error).toEqual({ code: 'conversation_not_found', message: MESSAGES.conversation_not_found });
      }
    });

    it(`both participants: ${endpoint.name}`, async () => {
      for (const participant of [lea, marc]) {
        const res = await call(t, {
          method: endpoint.method,
          url: endpoint.url(conversationId),
          token: participant.token,
          payload: endpoint.payload,
        });
        expect(res.statusCode).toBe(endpoint.ok);
      }
    });
  }

  it('lists and counts only my own conversations', async () => {
    for (const url of ['/api/conversations', '/api/conversations/unread']) {
      expect((await call(t, { method: 'GET', url })).statusCode).toBe(401);
      const res = await call(t, { method: 'GET', url, token: intruder.token });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(conversationId);
    }
    const mine = await call(t, { method: 'GET', url: '/api/conversations', token: lea.token });
    expect(mine.json().conversations.map((c: { id: string }) => c.id)).toEqual([conversationId]);
  });

  it('cannot be created for someone else or with oneself', async () => {
    // The body names only the other person: the caller is always one participant.
    const res = await call(t, {
      method: 'POST',
      url: '/api/conversations',
      token: intruder.token,
      payload: { userId: marc.id, participant1Id: lea.id, participant2Id: marc.id },
    });
    expect(res.statusCode).toBe(201);
    const created = res.json().conversation;
    expect([created.participant1Id, created.participant2Id].sort()).toEqual([intruder.id, marc.id].sort());
    const self = await call(t, {
      method: 'POST',
      url: '/api/conversations',
      token: lea.token,
      payload: { userId: lea.id },
    });
    expect(self.statusCode).toBe(400);
  });

  it('sets the sender from the session, never from the body', async () => {
    const res = await call(t, {
      method: 'POST',
      url: `/api/conversations/${conversationId}/messages`,
      token: lea.token,
      payload: { content: 'Moi', senderId: marc.id, read: true, conversationId: randomUUID() },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toMatchObject({ senderId: lea.id, read: false, conversationId });
  });
});
