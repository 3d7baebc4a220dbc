import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@moodmap/core';
import { call, createUser } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { member } from '../interactions/fixtures.ts';

describe.each(engines)('opening a conversation on %s', (engine) => {
  const t = suiteAuthApp(engine);

  const open = (token: string, payload: unknown) =>
    call(t, { method: 'POST', url: '/api/conversations', token, payload: payload as object });

  async function rowsBetween(a: string, b: string): Promise<number> {
    const result = await t.database.db.execute(sql`
      select count(*)::int as n from conversations
      where (participant1_id = ${a} and participant2_id = ${b}) or (participant1_id = ${b} and participant2_id = ${a})`);
    return Number((result.rows[0] as { n: number }).n);
  }

  it('creates the conversation once (smaller id first), then returns the same one from either side', async () => {
    const lea = await member(t);
    const marc = await member(t);

    const first = await open(lea.token, { userId: marc.id });
    expect(first.statusCode).toBe(201);
    const { conversation } = first.json();
    const [small, large] = [lea.id, marc.id].sort();
    expect(conversation).toMatchObject({ participant1Id: small, participant2Id: large });
    expect(conversation.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(conversation.createdAt)).not.toBeNaN();
    expect(Date.parse(conversation.updatedAt)).not.toBeNaN();

    const again = await open(lea.token, { userId: marc.id });
    expect(again.statusCode).toBe(200);
    expect(again.json().conversation).toEqual(conversation);

    const reverse = await open(marc.token, { userId: lea.id });
    expect(reverse.statusCode).toBe(200);
    expect(reverse.json().conversation.id).toBe(conversation.id);
    expect(await rowsBetween(lea.id, marc.id)).toBe(1);
  });

  it('yields one conversation when ten contacts race, from both sides', async () => {
    const lea = await member(t);
    const marc = await member(t);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        i % 2 === 0 ? open(lea.token, { userId: marc.id }) : open(marc.token, { userId: lea.id }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    const ids = new Set(results.map((r) => r.json().conversation.id as string));
    expect(ids.size).toBe(1);
    expect(await rowsBetween(lea.id, marc.id)).toBe(1);
  }, 60_000);

  it('refuses a conversation with oneself', async () => {
    const lea = await member(t);
    const res = await open(lea.token, { userId: lea.id });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({ code: 'conversation_self', message: MESSAGES.conversation_self });
    expect(MESSAGES.conversation_self).toBe('Vous ne pouvez pas démarrer une conversation avec vous-même');
    expect(await rowsBetween(lea.id, lea.id)).toBe(0);
  });

  it("answers 'Profil introuvable' for someone who does not exist", async () => {
    const lea = await member(t);
    for (const userId of [randomUUID(), 'pas-un-identifiant']) {
      const res = await open(lea.token, { userId });
      expect(res.statusCode, userId).toBe(404);
      expect(res.json().error).toEqual({ code: 'profile_not_found', message: 'Profil introuvable' });
    }
    // An account that never signed in has no profile yet: nobody to talk to either.
    const silent = await createUser(t);
    const res = await open(lea.token, { userId: silent.id });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe('Profil introuvable');
  });

  it('needs a user id and a signed-in caller', async () => {
    const lea = await member(t);
    const marc = await member(t);
    for (const payload of [{}, { userId: 42 }, { userId: null }]) {
      const res = await open(lea.token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.code).toBe('bad_request');
    }
    const anonymous = await open('', { userId: marc.id });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.message).toBe('User not authenticated');
    expect(await rowsBetween(lea.id, marc.id)).toBe(0);
  });
});
