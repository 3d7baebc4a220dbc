/**
 * A lone UTF-16 surrogate (half of a pair, as JSON's "\udfff" writes it) is not a character and
 * PostgreSQL cannot store it: every text the API receives is refused with a French 400 before it
 * reaches SQL, and nothing is stored — never a 500.
 */
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { MESSAGES } from '@moodmap/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { comments, messages, profiles, publications } from '../../src/db/schema.ts';
import { call } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { member, publish, SAINT_DENIS, type Member } from '../interactions/fixtures.ts';

const LONE = [
  ['a low half alone', 'a\udfffb'],
  ['a high half alone', 'a\ud800b'],
  ['a high half at the end', 'Bonjour \ud83d'],
  ['halves swapped', '\ude00\ud83d'],
];
const malformed = { error: { code: 'text_malformed', message: MESSAGES.text_malformed } };

function expectMalformed(res: LightMyRequestResponse): void {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json()).toEqual(malformed);
}

/** A multipart body whose text part declares UTF-16: its bytes may spell a lone surrogate. */
function utf16Form(name: string, text: string): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----moodmaplone';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\nContent-Type: text/plain; charset=utf-16le\r\n\r\n`,
    ),
    Buffer.from(text, 'utf16le'),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe.each(engines)('lone surrogates on %s', (engine) => {
  const t = suiteAuthApp(engine);
  let lea: Member;
  let marc: Member;
  let postId: string;
  let conversationId: string;
  beforeAll(async () => {
    lea = await member(t);
    marc = await member(t);
    postId = (await publish(t, marc.token)).id;
    conversationId = (
      await call(t, { method: 'POST', url: '/api/conversations', token: lea.token, payload: { userId: marc.id } })
    ).json().conversation.id;
  });

  it.each(LONE)(
    'refuses a message with %s, as JSON or as a UTF-16 form field, and stores nothing',
    async (_name, text) => {
      expectMalformed(
        await call(t, {
          method: 'POST',
          url: `/api/conversations/${conversationId}/messages`,
          token: lea.token,
          payload: { content: text },
        }),
      );
      const form = utf16Form('content', text);
      expectMalformed(
        await call(t, {
          method: 'POST',
          url: `/api/conversations/${conversationId}/messages`,
          token: lea.token,
          ...form,
        }),
      );
      expect(await t.database.db.select().from(messages).where(eq(messages.conversationId, conversationId))).toEqual(
        [],
      );
    },
  );

  it.each(LONE)('refuses a post with %s and stores nothing', async (_name, text) => {
    const author = await member(t);
    expectMalformed(
      await call(t, {
        method: 'POST',
        url: '/api/posts',
        token: author.token,
        payload: { category: 'happy', content: text, ...SAINT_DENIS },
      }),
    );
    expect(await t.database.db.select().from(publications).where(eq(publications.userId, author.id))).toEqual([]);
  });

  it.each(LONE)('refuses a comment with %s and stores nothing', async (_name, text) => {
    expectMalformed(
      await call(t, {
        method: 'POST',
        url: `/api/posts/${postId}/comments`,
        token: lea.token,
        payload: { content: text },
      }),
    );
    expect(await t.database.db.select().from(comments).where(eq(comments.publicationId, postId))).toEqual([]);
  });

  it.each(LONE)('refuses a bio with %s and keeps the old one', async (_name, text) => {
    expect(
      (await call(t, { method: 'PATCH', url: '/api/profiles/me', token: lea.token, payload: { bio: 'Ancienne bio' } }))
        .statusCode,
    ).toBe(200);
    expectMalformed(
      await call(t, { method: 'PATCH', url: '/api/profiles/me', token: lea.token, payload: { bio: text } }),
    );
    const [row] = await t.database.db.select({ bio: profiles.bio }).from(profiles).where(eq(profiles.id, lea.id));
    expect(row?.bio).toBe('Ancienne bio');
  });

  it('refuses a lone surrogate in an object key too', async () => {
    expectMalformed(
      await call(t, {
        method: 'POST',
        url: `/api/posts/${postId}/comments`,
        token: lea.token,
        payload: { content: 'Bonjour', 'x\udfff': 1 },
      }),
    );
  });

  it('answers a search whose query spells a surrogate in UTF-8 without a 5xx', async () => {
    // The query parser leaves an invalid escape as typed: the search sees text, never a lone half.
    for (const q of ['a%ED%BF%BFb', '%ED%A0%80', 'caf%C3%A9%ED%A0']) {
      const res = await call(t, { method: 'GET', url: `/api/search?q=${q}`, token: lea.token });
      expect(res.statusCode, `${q}: ${res.body}`).toBeLessThan(500);
      if (res.statusCode >= 400) expect(res.json().error.code).toEqual(expect.any(String));
    }
  });
});
