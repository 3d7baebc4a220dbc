/**
 * What the other person sees once someone they wrote with deletes their account: the messages
 * they received stay in their list and thread, sent by 'Compte supprimé' (no id, no photo, no
 * profile), the text kept and the deleted person's images removed; the conversation cannot be
 * answered; unread marks, 'Demandes' and their data archive still work; their open tab hears it.
 * A conversation nobody is left to see goes whole.
 */
import { sql } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@moodmap/core';
import { call, createUser, login, type AuthTestApp } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteListeningApp } from '../helpers/suite-app.ts';
import { barrier, signedSocket } from '../helpers/ws.ts';
import type { Member } from '../interactions/fixtures.ts';
import { multipart, photo } from '../media/fixtures.ts';

interface Person extends Member {
  password: string;
}

interface Message {
  id: string;
  senderId: string | null;
  content: string;
  imageUrl: string | null;
  read: boolean;
}

const CLOSED = { code: 'conversation_closed', message: 'Ce compte a été supprimé.' };

function helpers(t: AuthTestApp) {
  const person = async (nickname: string): Promise<Person> => {
    const user = await createUser(t, { metadata: { nickname: `${nickname}${Math.floor(Math.random() * 1e6)}` } });
    const session = await login(t, user.email, user.password);
    return {
      id: user.id,
      token: session.accessToken,
      username: session.user.profile.username,
      password: user.password,
    };
  };
  const as = (who: Member, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    call(t, { method, url, token: who.token, payload });
  const open = async (from: Member, to: Member): Promise<string> => {
    const res = await as(from, 'POST', '/api/conversations', { userId: to.id });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json().conversation.id;
  };
  const send = async (from: Member, id: string, content: string): Promise<Message> => {
    const res = await as(from, 'POST', `/api/conversations/${id}/messages`, { content });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().message;
  };
  const sendImage = async (from: Member, id: string, content?: string) => {
    const file = {
      name: 'file',
      file: { filename: 'photo.jpg', contentType: 'image/jpeg', body: await photo(200, 150) },
    };
    const form = multipart(content ? [{ name: 'content', value: content }, file] : [file]);
    return call(t, {
      method: 'POST',
      url: `/api/conversations/${id}/messages`,
      token: from.token,
      payload: form.payload,
      headers: form.headers,
    });
  };
  const deleteAccount = async (who: Person) => {
    const res = await as(who, 'POST', '/api/account/delete', { password: who.password });
    expect(res.statusCode, res.body).toBe(204);
  };
  const list = async (who: Member) =>
    (await as(who, 'GET', '/api/conversations')).json().conversations as Array<
      Record<string, unknown> & { id: string }
    >;
  const requests = async (who: Member) =>
    (await as(who, 'GET', '/api/conversations/requests')).json().conversations as Array<
      Record<string, unknown> & { id: string }
    >;
  const unread = async (who: Member) =>
    (await as(who, 'GET', '/api/conversations/unread')).json().conversationIds as string[];
  const thread = async (who: Member, id: string) =>
    (await as(who, 'GET', `/api/conversations/${id}/messages`)).json().messages as Message[];
  const conversationRows = async (id: string) =>
    (await t.database.db.execute(sql`select id from conversations where id = ${id}`)).rows.length;
  return { person, as, open, send, sendImage, deleteAccount, list, requests, unread, thread, conversationRows };
}

describe.each(engines)('a deleted correspondent on %s', (engine) => {
  const t = suiteListeningApp(engine);
  const h = helpers(t);
  const { as, open, send, sendImage, deleteAccount, list, requests, unread, thread } = h;

  it("leaves Marc the messages he received, sent by 'Compte supprimé', without her images, closed to replies", async () => {
    const [lea, marc] = [await h.person('Léa'), await h.person('Marc')];
    const id = await open(marc, lea);
    const hello = await send(marc, id, 'Salut Léa');
    const marcImage = await sendImage(marc, id);
    expect(marcImage.statusCode, marcImage.body).toBe(201);
    const leaImage = await sendImage(lea, id);
    expect(leaImage.statusCode, leaImage.body).toBe(201);
    const leaCaptioned = await sendImage(lea, id, 'Ma plage');
    expect(leaCaptioned.statusCode, leaCaptioned.body).toBe(201);
    const bye = await send(lea, id, 'Coucou Marc, je pars');
    const leaImageUrl: string = leaImage.json().message.imageUrl;
    const captionedUrl: string = leaCaptioned.json().message.imageUrl;
    const marcImageUrl: string = marcImage.json().message.imageUrl;
    expect(await unread(marc)).toContain(id);
    const marcTab = await signedSocket(t.base, marc.id, marc.token);

    await deleteAccount(lea);

    // His open tab hears it, with nothing of hers but the conversation he already had.
    const closed = await marcTab.next((f) => f.type === 'conversation.closed');
    expect(closed.data).toEqual({ conversationId: id });
    expect(JSON.stringify(marcTab.frames)).not.toContain(lea.id);

    // The list: still there, from 'Compte supprimé', still unread.
    const entry = (await list(marc)).find((c) => c.id === id);
    expect(entry).toMatchObject({
      otherParticipant: { id: null, nickname: 'Compte supprimé', profilePhotoUrl: null },
      lastMessage: { id: bye.id, senderId: null, content: 'Coucou Marc, je pars' },
      unread: true,
      request: false,
    });
    expect([entry?.participant1Id, entry?.participant2Id]).toEqual(expect.arrayContaining([marc.id, null]));
    expect((await as(marc, 'GET', `/api/conversations/${id}`)).json().conversation).toEqual(entry);
    expect(await unread(marc)).toContain(id);

    // The thread: his messages as they were, hers without sender; her text stays, her images go.
    const messages = await thread(marc, id);
    expect(messages.map((m) => [m.senderId, m.content, m.imageUrl !== null])).toEqual([
      [marc.id, 'Salut Léa', false],
      [marc.id, '', true],
      [null, '', false],
      [null, 'Ma plage', false],
      [null, 'Coucou Marc, je pars', false],
    ]);
    expect(messages[0].id).toBe(hello.id);
    expect((await t.app.inject(marcImageUrl)).statusCode).toBe(200);
    expect((await t.app.inject(leaImageUrl)).statusCode).toBe(404);
    expect((await t.app.inject(captionedUrl)).statusCode).toBe(404);

    // Nobody to answer: text or image, refused in French; nothing is added.
    const reply = await as(marc, 'POST', `/api/conversations/${id}/messages`, { content: 'Tu es là ?' });
    expect(reply.statusCode).toBe(403);
    expect(reply.json().error).toEqual(CLOSED);
    const image = await sendImage(marc, id, 'Regarde');
    expect(image.statusCode).toBe(403);
    expect(image.json().error).toEqual(CLOSED);
    expect(await thread(marc, id)).toHaveLength(5);
    // No profile to open, no new conversation with her.
    expect((await as(marc, 'GET', `/api/profiles/${lea.id}`)).statusCode).toBe(404);
    expect((await as(marc, 'POST', '/api/conversations', { userId: lea.id })).json().error.code).toBe(
      'profile_not_found',
    );

    // Reading it clears the unread mark, and only his own tabs hear of it.
    expect((await as(marc, 'POST', `/api/conversations/${id}/read`)).json()).toEqual({ updated: 3 });
    await marcTab.next(
      (f) => f.type === 'message.read' && (f.data as { conversationId: string }).conversationId === id,
    );
    expect(await unread(marc)).not.toContain(id);
    expect((await list(marc)).find((c) => c.id === id)).toMatchObject({ unread: false, lastMessage: { read: true } });
    marcTab.close();
  });

  it("keeps a request she sent in Marc's 'Demandes', to accept or delete; the conversations nobody saw go whole", async () => {
    const [lea, marc, zoe, paul] = [
      await h.person('Léa'),
      await h.person('Marc'),
      await h.person('Zoé'),
      await h.person('Paul'),
    ];
    const toMarc = await open(lea, marc);
    await send(lea, toMarc, 'On se connaît ?');
    const toZoe = await open(lea, zoe);
    await send(lea, toZoe, 'Salut Zoé');
    expect((await as(zoe, 'DELETE', `/api/conversations/${toZoe}/request`)).statusCode).toBe(204);
    const toPaul = await open(lea, paul);
    const zoeTab = await signedSocket(t.base, zoe.id, zoe.token);

    await deleteAccount(lea);

    // Marc's request stays a request: no badge, from 'Compte supprimé'.
    const [request] = await requests(marc);
    expect(request).toMatchObject({
      id: toMarc,
      request: true,
      unread: false,
      otherParticipant: { id: null, nickname: 'Compte supprimé' },
    });
    expect(await unread(marc)).toEqual([]);
    expect((await list(marc)).map((c) => c.id)).not.toContain(toMarc);
    const accepted = await as(marc, 'POST', `/api/conversations/${toMarc}/accept`);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().conversation).toMatchObject({
      id: toMarc,
      request: false,
      unread: true,
      otherParticipant: { id: null },
    });
    expect(await unread(marc)).toEqual([toMarc]);
    expect(
      (await as(marc, 'POST', `/api/conversations/${toMarc}/messages`, { content: 'Bonjour ?' })).json().error,
    ).toEqual(CLOSED);

    // The request Zoé had deleted and the empty one Paul never saw are gone, untold.
    expect(await h.conversationRows(toZoe)).toBe(0);
    expect(await h.conversationRows(toPaul)).toBe(0);
    expect(await requests(zoe)).toEqual([]);
    expect(await list(paul)).toEqual([]);
    await barrier(t.app, [zoeTab]);
    expect(zoeTab.frames.filter((f) => f.type === 'conversation.closed')).toEqual([]);
    zoeTab.close();
  });

  it('removes a conversation entirely once both people have deleted their accounts', async () => {
    const [lea, marc] = [await h.person('Léa'), await h.person('Marc')];
    const id = await open(marc, lea);
    await send(marc, id, 'Salut');
    await send(lea, id, 'Salut Marc');
    await deleteAccount(lea);
    expect(await h.conversationRows(id)).toBe(1);
    await deleteAccount(marc);
    expect(await h.conversationRows(id)).toBe(0);
    expect((await t.database.db.execute(sql`select id from messages where conversation_id = ${id}`)).rows).toEqual([]);
  });

  it('gives Marc his archive with the messages she sent, without her identity', async () => {
    const [lea, marc] = [await h.person('Léa'), await h.person('Marc')];
    const id = await open(marc, lea);
    await send(marc, id, 'Salut Léa');
    await send(lea, id, 'Coucou Marc');
    await deleteAccount(lea);

    expect((await as(marc, 'POST', '/api/account/export')).statusCode).toBeLessThan(300);
    await expect
      .poll(async () => (await as(marc, 'GET', '/api/account/export')).json().status, { timeout: 30_000 })
      .toBe('ready');
    const res = await as(marc, 'GET', '/api/account/export/download');
    expect(res.statusCode).toBe(200);
    const files = unzipSync(new Uint8Array(res.rawPayload));
    const [conversation] = JSON.parse(strFromU8(files['messages.json']));
    expect(conversation.id).toBe(id);
    expect(conversation.with).toEqual({ id: null, username: MESSAGES.account_erased_name });
    expect(
      conversation.messages.map((m: { senderId: string | null; content: string; fromMe: boolean }) => [
        m.senderId,
        m.content,
        m.fromMe,
      ]),
    ).toEqual([
      [marc.id, 'Salut Léa', true],
      [null, 'Coucou Marc', false],
    ]);
    const everything = Object.entries(files)
      .filter(([name]) => name.endsWith('.json'))
      .map(([, bytes]) => strFromU8(bytes))
      .join('\n');
    expect(everything).not.toContain(lea.id);
    expect(everything).not.toContain(lea.username);
  });
});
