/**
 * A text message sent over the realtime socket (`message.send`): one door more to the same rules.
 * Each request is answered once, on its socket, with what the HTTP route answers the same caller
 * for the same input (the stored message, or the status and error), and stores what it would.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MESSAGE_TEXT_MAX, RATE_LIMITS, SOCKET_REF_MAX } from '@moodmap/core';
import { call, createUser, login, withRefreshCookie, type AuthTestApp } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteListeningApp } from '../helpers/suite-app.ts';
import { barrier, connectSocket, signedSocket, type TestSocket } from '../helpers/ws.ts';
import { member, type Member } from '../interactions/fixtures.ts';

const replySchema = z.object({
  type: z.literal('reply'),
  ref: z.string(),
  data: z.object({ message: z.object({ id: z.string(), content: z.string() }).loose() }).optional(),
  status: z.number().optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  retryAfter: z.number().optional(),
});
type Reply = z.infer<typeof replySchema>;

const replyOf = (frame: object): Reply | null => replySchema.safeParse(frame).data ?? null;

/** Sends a request on `socket` and waits for its reply. */
async function ask(socket: TestSocket, frame: Record<string, unknown>): Promise<Reply> {
  const ref = randomUUID();
  socket.send({ type: 'message.send', ref, ...frame });
  const answer = await socket.next((f) => replyOf(f)?.ref === ref);
  const reply = replyOf(answer);
  if (!reply) throw new Error('not a reply');
  return reply;
}

/** A reply as the access matrix writes an HTTP answer: "201", or "403 account_suspended". */
const socketAnswer = (reply: Reply) => (reply.data ? '201' : `${reply.status} ${reply.error?.code}`);

async function conversationOf(t: AuthTestApp, a: Member, b: Member): Promise<string> {
  const opened = await call(t, {
    method: 'POST',
    url: '/api/conversations',
    token: a.token,
    payload: { userId: b.id },
  });
  await call(t, { method: 'POST', url: '/api/conversations', token: b.token, payload: { userId: a.id } });
  return opened.json().conversation.id;
}

async function storedCount(t: AuthTestApp, conversationId: string): Promise<number> {
  const { rows } = await t.database.db.execute(
    sql`select count(*)::int as n from messages where conversation_id = ${conversationId}`,
  );
  return Number(rows[0]?.n);
}

describe.each(engines)('messages sent over the socket on %s', (engine) => {
  const t = suiteListeningApp(engine);

  it("stores the message, answers it to the sending tab and delivers it to both people's other tabs", async () => {
    const lea = await member(t, 'Léa');
    const marc = await member(t, 'Marc');
    const id = await conversationOf(t, lea, marc);
    const [leaTab, leaPhone, marcTab] = await Promise.all([
      signedSocket(t.base, lea.id, lea.token),
      signedSocket(t.base, lea.id, lea.token),
      signedSocket(t.base, marc.id, marc.token),
    ]);

    const reply = await ask(leaTab, { conversationId: id, content: '  On se voit <b>demain</b> ?  ' });
    const message = reply.data?.message;
    expect(message).toMatchObject({ conversationId: id, senderId: lea.id, content: 'On se voit demain ?' });
    const isIt = (f: { type: string; data?: unknown }) =>
      f.type === 'message.created' && (f.data as { message: { id: string } }).message.id === message?.id;
    for (const tab of [leaPhone, marcTab]) {
      const created = await tab.next(isIt);
      expect(created.data).toEqual({ message, sender: { id: lea.id, nickname: 'Léa', profilePhotoUrl: null } });
    }
    // The sending tab has the message in its reply: the event's copy is not sent to it again.
    await barrier(t.app, [leaTab]);
    expect(leaTab.frames.filter(isIt)).toEqual([]);
    const page = await call(t, { method: 'GET', url: `/api/conversations/${id}/messages`, token: marc.token });
    expect(page.json().messages.at(-1)).toEqual(message);
    for (const tab of [leaTab, leaPhone, marcTab]) tab.close();
  });

  it('answers each caller and each input as the HTTP route does, and stores as much', async () => {
    const cases: Array<{ name: string; sender: Member | null; conversation: string; content: unknown }> = [];
    const add = async (
      name: string,
      content: unknown = 'Salut',
      setup?: (sender: Member, other: Member) => unknown,
    ) => {
      const sender = await member(t);
      const other = await member(t);
      const conversation = await conversationOf(t, sender, other);
      await setup?.(sender, other);
      cases.push({ name, sender, conversation, content });
      return { sender, other, conversation };
    };
    await add('participant');
    await add('empty', '   ');
    await add('too long', 'x'.repeat(MESSAGE_TEXT_MAX + 1));
    await add('not text', 42);
    await add('NUL', 'a\u0000b');
    await add('lone surrogate', 'a\uD800b');
    await add('blocked by the other', 'Salut', (sender, other) =>
      call(t, { method: 'PUT', url: `/api/blocks/${sender.id}`, token: other.token }),
    );
    await add('suspended', 'Salut', (sender) =>
      t.database.db.execute(sql`update users set suspended_until = now() + interval '7 days' where id = ${sender.id}`),
    );
    await add('banned, token still valid', 'Salut', (sender) =>
      t.database.db.execute(sql`update users set banned_at = now() where id = ${sender.id}`),
    );
    const outsider = await add('not a participant');
    cases[cases.length - 1] = { ...cases[cases.length - 1], sender: await member(t) };
    cases.push({ name: 'not an id', sender: outsider.sender, conversation: 'abc', content: 'Salut' });
    cases.push({ name: 'visitor', sender: null, conversation: outsider.conversation, content: 'Salut' });

    const answers: Record<string, { http: string; socket: string }> = {};
    for (const { name, sender, conversation, content } of cases) {
      const before = conversation === 'abc' ? 0 : await storedCount(t, conversation);
      const http = await call(t, {
        method: 'POST',
        url: `/api/conversations/${conversation}/messages`,
        token: sender?.token,
        payload: { content },
      });
      const socket = sender ? await signedSocket(t.base, sender.id, sender.token) : await connectSocket(t.base);
      const reply = await ask(socket, { conversationId: conversation, content });
      socket.close();
      const httpAnswer = http.statusCode === 201 ? '201' : `${http.statusCode} ${http.json().error.code}`;
      answers[name] = { http: httpAnswer, socket: socketAnswer(reply) };
      if (reply.error) expect(reply.error.message).toBe(http.json().error.message);
      const after = conversation === 'abc' ? 0 : await storedCount(t, conversation);
      expect(after - before, name).toBe(httpAnswer === '201' ? 2 : 0);
    }
    for (const [name, { http, socket }] of Object.entries(answers)) expect(socket, name).toBe(http);
    // The table is not all one answer: the rules were exercised, not skipped.
    expect(answers.participant.socket).toBe('201');
    expect(answers.visitor.socket).toBe('401 not_authenticated');
    expect(answers.suspended.socket).toBe('403 account_suspended');
    expect(answers['lone surrogate'].socket).toBe('400 text_malformed');
    expect(answers['not a participant'].socket).toBe('404 conversation_not_found');
  });

  it('answers nothing to a request it cannot name, and goes on answering the others', async () => {
    const lea = await member(t);
    const id = await conversationOf(t, lea, await member(t));
    const tab = await signedSocket(t.base, lea.id, lea.token);
    tab.send({ type: 'message.send', conversationId: id, content: 'Sans référence' });
    tab.send({ type: 'message.send', ref: 'x'.repeat(SOCKET_REF_MAX + 1), conversationId: id, content: 'Trop longue' });
    tab.send({ type: 'message.send', ref: 7, conversationId: id, content: 'Un nombre' });
    const answered = await ask(tab, { conversationId: id, content: 'Avec référence' });
    expect(answered.data?.message.content).toBe('Avec référence');
    expect(tab.frames.filter((f) => f.type === 'reply')).toHaveLength(1);
    expect(await storedCount(t, id)).toBe(1);
    tab.close();
  });

  it('answers every request of a flood once, refusing the excess, and stores each message it accepted', async () => {
    const lea = await member(t);
    const id = await conversationOf(t, lea, await member(t));
    const tab = await signedSocket(t.base, lea.id, lea.token);
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, k) => ask(tab, { conversationId: id, content: `Message ${k}` })),
    );
    const accepted = replies.filter((r) => r.data);
    expect(accepted.length).toBeGreaterThan(0);
    for (const refused of replies.filter((r) => !r.data)) {
      expect(socketAnswer(refused)).toBe('429 message_rate_limited');
    }
    expect(tab.frames.filter((f) => f.type === 'reply')).toHaveLength(40);
    expect(await storedCount(t, id)).toBe(accepted.length);
    tab.close();
  });

  it("refuses a send past the sender's hourly limit with when to try again", async () => {
    const lea = await member(t);
    const id = await conversationOf(t, lea, await member(t));
    for (let k = 0; k < RATE_LIMITS.message_send.points; k++)
      await t.app.ctx.limits.consume('message_send', `user:${lea.id}`);
    const tab = await signedSocket(t.base, lea.id, lea.token);
    const reply = await ask(tab, { conversationId: id, content: 'Encore un' });
    expect(socketAnswer(reply)).toBe('429 message_rate_limited');
    expect(reply.retryAfter).toBeGreaterThan(0);
    expect(await storedCount(t, id)).toBe(0);
    tab.close();
  });

  it('refuses a send once the socket’s session has ended', async () => {
    const user = await createUser(t);
    const session = await login(t, user.email, user.password);
    const lea = { id: user.id, token: session.accessToken, username: '' };
    const id = await conversationOf(t, lea, await member(t));
    const tab = await signedSocket(t.base, lea.id, lea.token);
    const out = await call(t, {
      method: 'POST',
      url: '/api/auth/logout',
      headers: withRefreshCookie(session.refreshToken),
      payload: { refreshToken: session.refreshToken },
    });
    expect(out.statusCode).toBe(204);
    await tab.next((f) => f.type === 'ready' && f.userId === null);
    const reply = await ask(tab, { conversationId: id, content: 'Après la déconnexion' });
    expect(socketAnswer(reply)).toBe('401 not_authenticated');
    expect(await storedCount(t, id)).toBe(0);
    tab.close();
  });
});
