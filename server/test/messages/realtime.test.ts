/**
 * Messages in real time: every open tab of both participants receives the new message, the
 * conversation update and the read receipt; nobody else does. On PostgreSQL, the same holds
 * when sender and recipient are connected to two different server instances.
 */
import { describe, expect, it } from 'vitest';
import type { MessageCreatedEvent, MessageReadEvent } from '@moodmap/core';
import { call } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteListeningApp, suiteTwoInstances } from '../helpers/suite-app.ts';
import { barrier, connectSocket, signedSocket } from '../helpers/ws.ts';
import { member, type Member } from '../interactions/fixtures.ts';

/** A tab signed in as `who`. */
const tabOf = (base: string, who: Member) => signedSocket(base, who.id, who.token);

const createdWith = (messageId: string) => (f: { type: string; data?: unknown }) =>
  f.type === 'message.created' && (f.data as MessageCreatedEvent).message.id === messageId;

describe.each(engines)('messages in real time on %s', (engine) => {
  const t = suiteListeningApp(engine);

  it("reaches both participants' tabs with the sender for the toast, then the read receipt; nobody else", async () => {
    const lea = await member(t, 'Léa');
    const marc = await member(t, 'Marc');
    const stranger = await member(t);
    const id = (
      await call(t, { method: 'POST', url: '/api/conversations', token: lea.token, payload: { userId: marc.id } })
    ).json().conversation.id;
    // An accepted conversation (a request is quiet: requests.test.ts).
    expect(
      (await call(t, { method: 'POST', url: '/api/conversations', token: marc.token, payload: { userId: lea.id } }))
        .statusCode,
    ).toBe(200);
    const [marcPhone, marcLaptop, leaTab, strangerTab] = await Promise.all([
      tabOf(t.base, marc),
      tabOf(t.base, marc),
      tabOf(t.base, lea),
      tabOf(t.base, stranger),
    ]);
    const visitor = await connectSocket(t.base);

    const sent = await call(t, {
      method: 'POST',
      url: `/api/conversations/${id}/messages`,
      token: lea.token,
      payload: { content: 'On se voit demain ?' },
    });
    const message = sent.json().message;
    for (const socket of [marcPhone, marcLaptop, leaTab]) {
      const frame = await socket.next(createdWith(message.id));
      expect(frame.data).toEqual({ message, sender: { id: lea.id, nickname: 'Léa', profilePhotoUrl: null } });
      // The conversation's creation has its own conversation.updated, which on a busy machine
      // may reach the tabs after they connect: the one looked for is the message's.
      const updated = await socket.next(
        (f) => f.type === 'conversation.updated' && (f.data as { updatedAt: string }).updatedAt === message.createdAt,
      );
      expect(updated.data).toEqual({ conversationId: id, updatedAt: message.createdAt });
    }

    await call(t, { method: 'POST', url: `/api/conversations/${id}/read`, token: marc.token });
    const receipt = await leaTab.next((f) => f.type === 'message.read');
    expect(receipt.data as MessageReadEvent).toEqual({
      conversationId: id,
      readerId: marc.id,
      upTo: message.createdAt,
    });
    await marcLaptop.next((f) => f.type === 'message.read');

    // A public event sent last: had the stranger or the visitor got the private ones, they would be here already.
    await t.app.ctx.bus.publish({ type: 'post.deleted', data: { id: 'marker' } });
    for (const socket of [strangerTab, visitor]) {
      await socket.next((f) => f.type === 'post.deleted');
      expect(socket.frames.map((f) => f.type)).not.toContain('message.created');
      expect(socket.frames.map((f) => f.type)).not.toContain('message.read');
      expect(JSON.stringify(socket.frames)).not.toContain('demain');
    }
    for (const socket of [marcPhone, marcLaptop, leaTab, strangerTab, visitor]) socket.close();
  });

  it("announces a new conversation to its opener's tabs; the person contacted hears of it with its first message", async () => {
    const lea = await member(t);
    const marc = await member(t);
    const [leaTab, marcTab] = [await tabOf(t.base, lea), await tabOf(t.base, marc)];
    const res = await call(t, {
      method: 'POST',
      url: '/api/conversations',
      token: lea.token,
      payload: { userId: marc.id },
    });
    const frame = await leaTab.next((f) => f.type === 'conversation.updated');
    expect(frame.data).toMatchObject({ conversationId: res.json().conversation.id });
    await barrier(t.app, [marcTab]);
    expect(marcTab.frames.map((f) => f.type)).not.toContain('conversation.updated');
    leaTab.close();
    marcTab.close();
  });

  it('stops delivering to a tab that signed out on its socket', async () => {
    const lea = await member(t);
    const marc = await member(t);
    const id = (
      await call(t, { method: 'POST', url: '/api/conversations', token: marc.token, payload: { userId: lea.id } })
    ).json().conversation.id;
    const tab = await tabOf(t.base, marc);
    tab.send({ type: 'auth', token: null });
    await tab.next((f) => f.type === 'ready' && f.userId === null);
    const other = await tabOf(t.base, marc);
    const sent = (
      await call(t, {
        method: 'POST',
        url: `/api/conversations/${id}/messages`,
        token: lea.token,
        payload: { content: 'Toujours là ?' },
      })
    ).json().message;
    await other.next(createdWith(sent.id));
    expect(tab.frames.some(createdWith(sent.id))).toBe(false);
    tab.close();
    other.close();
  });
});

describe.runIf(engines.includes('postgres'))('messages across two server instances on PostgreSQL', () => {
  const instances = suiteTwoInstances();
  const t = instances.t;

  it('a client on instance 1 receives a message sent through instance 2, and the receipt goes back', async () => {
    const lea = await member(t);
    const marc = await member(t);
    const id = (
      await call(t, { method: 'POST', url: '/api/conversations', token: marc.token, payload: { userId: lea.id } })
    ).json().conversation.id;
    const marcOn1 = await tabOf(instances.base1, marc);
    const leaOn2 = await tabOf(instances.base2, lea);

    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${instances.base2}/api/conversations/${id}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${lea.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ content: `Depuis l'instance 2, n° ${i}` }),
      });
      expect(res.status).toBe(201);
      const { message } = (await res.json()) as { message: { id: string } };
      const frame = await marcOn1.next(createdWith(message.id));
      expect((frame.data as MessageCreatedEvent).message.content).toBe(`Depuis l'instance 2, n° ${i}`);
    }

    const read = await fetch(`${instances.base1}/api/conversations/${id}/read`, {
      method: 'POST',
      headers: { authorization: `Bearer ${marc.token}` },
    });
    expect(await read.json()).toEqual({ updated: 5 });
    const receipt = await leaOn2.next((f) => f.type === 'message.read');
    expect(receipt.data).toMatchObject({ conversationId: id, readerId: marc.id });
    marcOn1.close();
    leaOn2.close();
  });
});
