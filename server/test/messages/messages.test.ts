import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  CHAT_IMAGE_MAX_BYTES,
  MESSAGE_TEXT_MAX,
  MESSAGES,
  type ConversationSummaryDto,
  type MessageDto,
} from '@moodmap/core';
import { call, createUser, login } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { member, type Member } from '../interactions/fixtures.ts';
import { multipart, photo } from '../media/fixtures.ts';

describe.each(engines)('messages on %s', (engine) => {
  const t = suiteAuthApp(engine);

  async function conversationOf(a: Member, b: Member): Promise<string> {
    const res = await call(t, { method: 'POST', url: '/api/conversations', token: a.token, payload: { userId: b.id } });
    expect([200, 201]).toContain(res.statusCode);
    return res.json().conversation.id;
  }
  const send = (who: Member, id: string, content: unknown) =>
    call(t, {
      method: 'POST',
      url: `/api/conversations/${id}/messages`,
      token: who.token,
      payload: { content } as object,
    });
  const sendForm = (who: Member, id: string, parts: Parameters<typeof multipart>[0]) => {
    const form = multipart(parts);
    return call(t, {
      method: 'POST',
      url: `/api/conversations/${id}/messages`,
      token: who.token,
      payload: form.payload,
      headers: form.headers,
    });
  };
  const thread = async (who: Member, id: string, query = '') => {
    const res = await call(t, { method: 'GET', url: `/api/conversations/${id}/messages${query}`, token: who.token });
    expect(res.statusCode).toBe(200);
    return res.json() as { messages: MessageDto[]; hasMore: boolean };
  };
  const list = async (who: Member, query = '') => {
    const res = await call(t, { method: 'GET', url: `/api/conversations${query}`, token: who.token });
    expect(res.statusCode).toBe(200);
    return res.json() as { conversations: ConversationSummaryDto[]; nextCursor: string | null };
  };
  const unread = async (who: Member) => {
    const res = await call(t, { method: 'GET', url: '/api/conversations/unread', token: who.token });
    expect(res.statusCode).toBe(200);
    return res.json().conversationIds as string[];
  };
  const markRead = (who: Member, id: string) =>
    call(t, { method: 'POST', url: `/api/conversations/${id}/read`, token: who.token });

  it('sends trimmed, sanitised text and returns it oldest first to both participants', async () => {
    const lea = await member(t);
    const marc = await member(t);
    const id = await conversationOf(lea, marc);

    const first = await send(lea, id, '  Salut Marc, <b>ça va</b> ?  ');
    expect(first.statusCode).toBe(201);
    const message = first.json().message as MessageDto;
    expect(message).toMatchObject({
      conversationId: id,
      senderId: lea.id,
      content: 'Salut Marc, ça va ?',
      imageUrl: null,
      read: false,
    });
    expect((await send(marc, id, 'Très bien, merci !')).statusCode).toBe(201);

    for (const who of [lea, marc]) {
      const { messages, hasMore } = await thread(who, id);
      expect(messages.map((m) => m.content)).toEqual(['Salut Marc, ça va ?', 'Très bien, merci !']);
      expect(hasMore).toBe(false);
    }
  });

  it('refuses blank, too long, non-text and attack content with a French message, storing nothing', async () => {
    const lea = await member(t);
    const marc = await member(t);
    const id = await conversationOf(lea, marc);
    const cases: Array<[unknown, number, string]> = [
      ['   ', 400, MESSAGES.message_required],
      [undefined, 400, MESSAGES.message_required],
      ['x'.repeat(MESSAGE_TEXT_MAX + 1), 400, MESSAGES.message_too_long],
      ['<script>alert(1)</script>', 400, MESSAGES.content_forbidden],
    ];
    for (const [content, status, text] of cases) {
      const res = await send(lea, id, content);
      expect(res.statusCode, String(content).slice(0, 20)).toBe(status);
      expect(res.json().error.message).toBe(text);
    }
    expect((await send(lea, id, 42)).statusCode).toBe(400);
    expect((await send(lea, id, 'é'.repeat(MESSAGE_TEXT_MAX))).statusCode).toBe(201);
    expect((await thread(lea, id)).messages).toHaveLength(1);
  });

  it('accepts an image alone or with text, re-encoded without EXIF, and refuses non-images and files over 5 MB', async () => {
    const lea = await member(t);
    const marc = await member(t);
    const id = await conversationOf(lea, marc);

    const jpeg = await photo(800, 600, { gps: true, orientation: 6 });
    const withImage = await sendForm(lea, id, [
      { name: 'content', value: 'Regarde ça' },
      { name: 'file', file: { filename: 'vue.jpg', contentType: 'image/jpeg', body: jpeg } },
    ]);
    expect(withImage.statusCode).toBe(201);
    const message = withImage.json().message as MessageDto;
    expect(message.content).toBe('Regarde ça');
    expect(message.imageUrl).toMatch(/^\/media\/message-images\/[0-9a-f-]+\.\w+$/);
    const stored = await call(t, { method: 'GET', url: message.imageUrl! });
    expect(stored.statusCode).toBe(200);
    const meta = await sharp(stored.rawPayload).metadata();
    expect(meta.exif).toBeUndefined();
    // Orientation 6 was applied, then dropped: the 800×600 photo is now upright, 600×800.
    expect([meta.width, meta.height]).toEqual([600, 800]);

    const alone = await sendForm(lea, id, [
      { name: 'file', file: { filename: 'a.jpg', contentType: 'image/jpeg', body: jpeg } },
    ]);
    expect(alone.statusCode).toBe(201);
    expect(alone.json().message.content).toBe('');

    const text = await sendForm(lea, id, [
      {
        name: 'file',
        file: { filename: 'note.jpg', contentType: 'image/jpeg', body: Buffer.from('pas une image, juste du texte') },
      },
    ]);
    expect(text.statusCode).toBe(400);
    expect(text.json().error.message).toBe(MESSAGES.image_type_invalid);

    const huge = Buffer.concat([jpeg, Buffer.alloc(CHAT_IMAGE_MAX_BYTES)]);
    const tooLarge = await sendForm(lea, id, [
      { name: 'file', file: { filename: 'grand.jpg', contentType: 'image/jpeg', body: huge } },
    ]);
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().error.message).toBe(MESSAGES.image_too_large_5mb);

    const empty = await sendForm(lea, id, [{ name: 'content', value: '  ' }]);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toBe(MESSAGES.message_required);
    expect((await thread(marc, id)).messages).toHaveLength(2);
  });

  it('lists my conversations newest updated first, with the other person, the last message and the unread flag', async () => {
    const me = await member(t, 'Camille');
    const lea = await member(t, 'Léa');
    const marc = await member(t, 'Marc');
    const silent = await member(t, 'Silencieux');
    const withLea = await conversationOf(me, lea);
    const withMarc = await conversationOf(marc, me);
    const empty = await conversationOf(me, silent);
    await send(lea, withLea, 'Coucou');
    await send(me, withMarc, 'Tu viens ce soir ?');

    const { conversations, nextCursor } = await list(me);
    expect(nextCursor).toBeNull();
    expect(conversations.map((c) => c.id)).toEqual([withMarc, withLea, empty]);
    const [marcEntry, leaEntry, emptyEntry] = conversations;
    expect(marcEntry.otherParticipant).toEqual({ id: marc.id, nickname: 'Marc', profilePhotoUrl: null });
    expect(marcEntry.lastMessage).toMatchObject({ senderId: me.id, content: 'Tu viens ce soir ?' });
    expect(marcEntry.unread).toBe(false);
    expect(leaEntry.otherParticipant.nickname).toBe('Léa');
    expect(leaEntry.unread).toBe(true);
    expect(emptyEntry.lastMessage).toBeNull();
    expect(emptyEntry.unread).toBe(false);
    expect(JSON.stringify(conversations)).not.toMatch(/email|phone|date_of_birth|pulse/i);

    // A reply moves the conversation back to the top.
    await send(lea, withLea, 'Tu es là ?');
    expect((await list(me)).conversations[0].id).toBe(withLea);

    const one = await call(t, { method: 'GET', url: `/api/conversations/${empty}`, token: me.token });
    expect(one.statusCode).toBe(200);
    expect(one.json().conversation).toMatchObject({
      id: empty,
      otherParticipant: { nickname: 'Silencieux' },
      lastMessage: null,
    });
  });

  it('pages the list with a cursor', async () => {
    const me = await member(t);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const other = await member(t);
      // Opened by me: accepted, in my list (a stranger's would wait in 'Demandes').
      const id = await conversationOf(me, other);
      await send(other, id, `Message ${i}`);
      ids.unshift(id);
    }
    const first = await list(me, '?limit=2');
    expect(first.conversations.map((c) => c.id)).toEqual(ids.slice(0, 2));
    const second = await list(me, `?limit=2&before=${first.nextCursor}`);
    expect(second.conversations.map((c) => c.id)).toEqual(ids.slice(2, 4));
    const third = await list(me, `?limit=2&before=${second.nextCursor}`);
    expect(third.conversations.map((c) => c.id)).toEqual(ids.slice(4));
    expect(third.nextCursor).toBeNull();
    expect((await call(t, { method: 'GET', url: '/api/conversations?before=nope', token: me.token })).statusCode).toBe(
      400,
    );
  });

  it('pages a long history backwards with before and forwards with after', async () => {
    const lea = await member(t);
    const marc = await member(t);
    const id = await conversationOf(lea, marc);
    // 120 messages straight in the database (the API would hit the hourly limit), one second apart.
    await t.database.db.execute(sql`
      insert into messages (conversation_id, sender_id, content, created_at)
      select ${id}, case when i % 2 = 0 then ${lea.id}::uuid else ${marc.id}::uuid end, 'n° ' || i, now() - make_interval(secs => 200 - i)
      from generate_series(1, 120) i`);

    const latest = await thread(lea, id);
    expect(latest.messages).toHaveLength(50);
    expect(latest.hasMore).toBe(true);
    expect(latest.messages[0].content).toBe('n° 71');
    expect(latest.messages.at(-1)!.content).toBe('n° 120');

    const older = await thread(lea, id, `?before=${latest.messages[0].id}`);
    expect(older.messages.map((m) => m.content)).toEqual(Array.from({ length: 50 }, (_, i) => `n° ${21 + i}`));
    const oldest = await thread(lea, id, `?before=${older.messages[0].id}`);
    expect(oldest.messages).toHaveLength(20);
    expect(oldest.hasMore).toBe(false);

    const caughtUp = await thread(marc, id, `?after=${older.messages.at(-1)!.id}&limit=30`);
    expect(caughtUp.messages.map((m) => m.content)).toEqual(Array.from({ length: 30 }, (_, i) => `n° ${71 + i}`));
    expect(caughtUp.hasMore).toBe(true);

    // A cursor from another conversation, or two cursors, are refused rather than misread.
    const other = await conversationOf(lea, await member(t));
    const foreign = (await send(lea, other, 'ailleurs')).json().message.id;
    expect(
      (await call(t, { method: 'GET', url: `/api/conversations/${id}/messages?before=${foreign}`, token: lea.token }))
        .statusCode,
    ).toBe(404);
    const both = `?before=${latest.messages[0].id}&after=${latest.messages[1].id}`;
    expect(
      (await call(t, { method: 'GET', url: `/api/conversations/${id}/messages${both}`, token: lea.token })).statusCode,
    ).toBe(400);
    expect(
      (await call(t, { method: 'GET', url: `/api/conversations/${id}/messages?limit=0`, token: lea.token })).statusCode,
    ).toBe(400);
  });

  it("marks only the other party's messages read, which clears the unread flag and the badge", async () => {
    const me = await member(t);
    const lea = await member(t);
    const marc = await member(t);
    const withLea = await conversationOf(lea, me);
    // Opened by me, so accepted: Marc's message counts (a request would not: requests.test.ts).
    const withMarc = await conversationOf(me, marc);
    await send(me, withLea, 'Bonjour Léa');
    await send(lea, withLea, 'Bonjour !');
    await send(lea, withLea, 'Ça va ?');
    await send(marc, withMarc, 'Hello');
    expect(await unread(me)).toEqual([withMarc, withLea]);
    expect(await unread(lea)).toEqual([]);

    const res = await markRead(me, withLea);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ updated: 2 });
    const { messages } = await thread(lea, withLea);
    expect(messages.map((m) => [m.senderId === me.id ? 'moi' : 'Léa', m.read])).toEqual([
      ['moi', false],
      ['Léa', true],
      ['Léa', true],
    ]);
    expect(await unread(me)).toEqual([withMarc]);
    expect((await markRead(me, withLea)).json()).toEqual({ updated: 0 });

    // My reply as the last message: the conversation is not unread for me even if Marc's message was not read.
    await send(me, withMarc, 'Salut Marc');
    expect(await unread(me)).toEqual([]);
    expect(await unread(marc)).toEqual([withMarc]);
  });

  it('limits sending to 100 messages an hour per person, with the French text, then lets them send again', async () => {
    const leaUser = await createUser(t);
    const signIn = async (): Promise<Member> => {
      const session = await login(t, leaUser.email, leaUser.password);
      return { id: leaUser.id, token: session.accessToken, username: session.user.profile.username };
    };
    let lea = await signIn();
    const marc = await member(t);
    const id = await conversationOf(lea, marc);
    // 100 messages in bursts of 10.
    for (let batch = 0; batch < 10; batch++) {
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => send(lea, id, `m${batch * 10 + i}`)));
      expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    }
    const refused = await send(lea, id, 'encore un');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toBe(MESSAGES.message_rate_limited);
    expect((await send(marc, id, 'Marc peut toujours répondre')).statusCode).toBe(201);
    t.clock.advance(61 * 60_000);
    lea = await signIn(); // the 15-minute access token has expired meanwhile
    expect((await send(lea, id, 'une heure plus tard')).statusCode).toBe(201);
    expect((await thread(lea, id)).messages.at(-1)!.content).toBe('une heure plus tard');
  }, 60_000);
});
