import { describe, expect, it } from 'vitest';
import { createUser, login } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteListeningApp, suiteTwoInstances } from '../helpers/suite-app.ts';
import { connectSocket, signedSocket } from '../helpers/ws.ts';

describe.each(engines)('realtime hub on %s', (engine) => {
  const t = suiteListeningApp(engine);

  it('delivers public events to visitors and private events only to their user', async () => {
    const visitor = await connectSocket(t.base);
    const member = await connectSocket(t.base);
    const other = await connectSocket(t.base);
    await visitor.next((f) => f.type === 'ready');

    const lea = await createUser(t);
    const session = await login(t, lea.email, lea.password);
    member.send({ type: 'auth', token: session.accessToken });
    expect((await member.next((f) => f.type === 'ready' && f.userId !== null)).userId).toBe(lea.id);
    other.send({ type: 'auth', token: 'forged.token.value' });
    // A forged token gets a second 'ready', as a visitor.
    await expect.poll(() => other.frames.filter((f) => f.type === 'ready').length).toBe(2);
    expect(other.frames.filter((f) => f.type === 'ready')[1].userId).toBeNull();

    await t.app.ctx.bus.publish({ type: 'message.created', data: { id: 'm1' }, targets: [lea.id] });
    await t.app.ctx.bus.publish({ type: 'post.created', data: { id: 'p1' } });
    expect((await member.next((f) => f.type === 'message.created')).data).toEqual({ id: 'm1' });
    await visitor.next((f) => f.type === 'post.created');
    await other.next((f) => f.type === 'post.created');
    // The broadcast came after the private event: had the visitor got it, it would be here.
    expect(visitor.frames.some((f) => f.type === 'message.created')).toBe(false);
    expect(other.frames.some((f) => f.type === 'message.created')).toBe(false);
    for (const s of [visitor, member, other]) s.close();
  });

  it("sends every frame of a batch of events to each of the user's sockets, whole and in order", async () => {
    // The frames of one notification leave together (one write per socket): none may be lost,
    // merged or reordered, and what the socket is sent afterwards still comes after them.
    const lea = await createUser(t);
    const session = await login(t, lea.email, lea.password);
    const tabs = [await connectSocket(t.base), await connectSocket(t.base)];
    for (const tab of tabs) {
      await tab.next((f) => f.type === 'ready');
      tab.send({ type: 'auth', token: session.accessToken });
      await tab.next((f) => f.type === 'ready' && f.userId === lea.id);
    }
    const events = [1, 2, 3].map((n) => ({
      type: 'message.created',
      data: { id: `m${n}` },
      targets: [lea.id],
      more: [{ type: 'conversation.updated', data: { n } }],
    }));
    await t.app.ctx.bus.publishMany(events);
    for (const tab of tabs) {
      // A bus between instances delivers after publishMany resolves: wait for the batch's last frame.
      await tab.next(
        (f) =>
          f.type === 'conversation.updated' &&
          typeof f.data === 'object' &&
          f.data !== null &&
          'n' in f.data &&
          f.data.n === 3,
      );
      tab.send({ type: 'ping' });
      await tab.next((f) => f.type === 'pong');
      const after = tab.frames.slice(tab.frames.findIndex((f) => f.type === 'message.created'));
      expect(after.map((f) => [f.type, f.data ?? null])).toEqual([
        ['message.created', { id: 'm1' }],
        ['conversation.updated', { n: 1 }],
        ['message.created', { id: 'm2' }],
        ['conversation.updated', { n: 2 }],
        ['message.created', { id: 'm3' }],
        ['conversation.updated', { n: 3 }],
        ['pong', null],
      ]);
      tab.close();
    }
  });

  it('ignores frames that are valid JSON but not an object, and keeps serving the socket', async () => {
    const socket = await connectSocket(t.base);
    await socket.next((f) => f.type === 'ready');
    // `null` once made the message listener throw inside an async callback: an unhandled
    // rejection, which ends a Node 20 process.
    for (const frame of [null, 7, 'auth', [], { type: 'auth', token: 42 }]) socket.send(frame);
    socket.send({ type: 'ping' });
    await socket.next((f) => f.type === 'pong');
    const health = await fetch(`${t.base}/api/health`);
    expect(health.status).toBe(200);
    socket.close();
  });

  it('answers a plain GET without Upgrade in the API error shape', async () => {
    const response = await fetch(`${t.base}/api/realtime`);
    expect(response.status).toBe(426);
    expect(await response.json()).toEqual({ error: { code: 'bad_request', message: 'Requête invalide' } });
  });
});

describe.runIf(engines.includes('postgres'))('realtime across two server instances on PostgreSQL', () => {
  const instances = suiteTwoInstances();
  const t = instances.t;

  it('an event published on instance 2 reaches a socket held by instance 1', async () => {
    const lea = await createUser(t);
    const session = await login(t, lea.email, lea.password);
    const socket = await signedSocket(instances.base1, lea.id, session.accessToken);
    await instances.second.ctx.bus.publish({ type: 'message.created', data: { id: 'across' }, targets: [lea.id] });
    const frame = await socket.next((f) => f.type === 'message.created');
    expect(frame.data).toEqual({ id: 'across' });
    socket.close();
  });
});
