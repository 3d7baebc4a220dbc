/**
 * A WebSocket's identity lasts as long as its session and its token
 * (docs/architecture.md, A realtime event): after a password change, a sign-out or the token's expiry, private events no
 * longer reach the socket, which is told with a `ready` as a visitor. On PostgreSQL the
 * revocation crosses instances.
 */
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { REFRESH_GRACE_MS } from '../../src/modules/auth/sessions.ts';
import { signAccessToken } from '../../src/modules/auth/tokens.ts';
import {
  call,
  createUser,
  login,
  refreshSession,
  type AuthTestApp,
  type CreatedUser,
  withRefreshCookie,
} from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteListeningApp, suiteTwoInstances } from '../helpers/suite-app.ts';
import { connectSocket, signedSocket, type TestSocket } from '../helpers/ws.ts';

type Frame = TestSocket['frames'][number];
const sessionIdOf = (jwt: string) => (decodeJwt(jwt) as { sid: string }).sid;
const sessionEnded = (f: Frame) =>
  f.type === 'ready' && f.userId === null && (f as { reason?: string }).reason === 'session_ended';
const messageWith = (content: string) => (f: Frame) =>
  f.type === 'message.created' && (f.data as { message: { content: string } }).message.content === content;

interface Signed {
  id: string;
  accessToken: string;
  refreshToken: string;
}

async function signIn(t: AuthTestApp, user: CreatedUser): Promise<Signed> {
  const { accessToken, refreshToken } = await login(t, user.email, user.password);
  return { id: user.id, accessToken, refreshToken };
}

/** A tab signed in as `who`. */
const tabOf = (base: string, who: { id: string; accessToken: string }) => signedSocket(base, who.id, who.accessToken);

/** Léa and Marc with a conversation; returns a function Marc sends messages to Léa with. */
async function pair(t: AuthTestApp) {
  const leaUser = await createUser(t);
  const lea = await signIn(t, leaUser);
  const marc = await signIn(t, await createUser(t));
  const res = await call(t, {
    method: 'POST',
    url: '/api/conversations',
    token: marc.accessToken,
    payload: { userId: lea.id },
  });
  const conversationId = res.json().conversation.id as string;
  // Léa contacted Marc too: accepted, so his messages reach her tabs (a request would be quiet).
  expect(
    (await call(t, { method: 'POST', url: '/api/conversations', token: lea.accessToken, payload: { userId: marc.id } }))
      .statusCode,
  ).toBe(200);
  const send = async (content: string, token = marc.accessToken) => {
    const sent = await call(t, {
      method: 'POST',
      url: `/api/conversations/${conversationId}/messages`,
      token,
      payload: { content },
    });
    expect(sent.statusCode).toBe(201);
  };
  return { leaUser, lea, marc, send };
}

describe.each(engines)('socket identity and session end on %s', (engine) => {
  const t = suiteListeningApp(engine);

  it('ends on a password change made elsewhere: the old tab gets no message sent afterwards', async () => {
    const { leaUser, lea, send } = await pair(t);
    const phone = await tabOf(t.base, lea);
    const laptop = await signIn(t, leaUser);
    const changed = await call(t, {
      method: 'POST',
      url: '/api/auth/password',
      token: laptop.accessToken,
      payload: { password: 'Nouveau2025' },
    });
    expect(changed.statusCode).toBe(200);
    await phone.next(sessionEnded);

    // A tab of the new session receives the next message; the phone's old session does not.
    const fresh = await tabOf(t.base, { id: lea.id, accessToken: changed.json().accessToken });
    await send('Après le changement');
    await fresh.next(messageWith('Après le changement'));
    await t.app.ctx.bus.publish({ type: 'post.deleted', data: { id: 'marqueur' } });
    await phone.next((f) => f.type === 'post.deleted');
    expect(phone.frames.some(messageWith('Après le changement'))).toBe(false);
    // The internal revocation event itself is never forwarded to browsers.
    expect([...phone.frames, ...fresh.frames].some((f) => f.type === 'session.revoked')).toBe(false);
    phone.close();
    fresh.close();
  });

  it('ends on sign-out of that session only', async () => {
    const { leaUser, lea, send } = await pair(t);
    const other = await signIn(t, leaUser);
    const leaving = await tabOf(t.base, lea);
    const staying = await tabOf(t.base, other);
    const out = await call(t, {
      method: 'POST',
      url: '/api/auth/logout',
      // The refresh token as the API takes it: in the cookie (with the CSRF header), or in the body.
      headers: withRefreshCookie(lea.refreshToken),
      payload: { refreshToken: lea.refreshToken },
    });
    expect(out.statusCode).toBe(204);
    await leaving.next(sessionEnded);

    await send('Tu es là ?');
    await staying.next(messageWith('Tu es là ?'));
    await t.app.ctx.bus.publish({ type: 'post.deleted', data: { id: 'marqueur' } });
    await leaving.next((f) => f.type === 'post.deleted');
    expect(leaving.frames.some(messageWith('Tu es là ?'))).toBe(false);
    expect(staying.frames.some(sessionEnded)).toBe(false);
    leaving.close();
    staying.close();
  });

  it('ends when a copied refresh token is replayed and the session is revoked', async () => {
    const { lea, send } = await pair(t);
    const tab = await tabOf(t.base, lea);
    expect((await refreshSession(t, lea.refreshToken)).statusCode).toBe(200);
    t.clock.advance(REFRESH_GRACE_MS + 1000);
    expect((await refreshSession(t, lea.refreshToken)).statusCode).toBe(401);
    await tab.next(sessionEnded);
    await send('Encore là ?');
    await t.app.ctx.bus.publish({ type: 'post.deleted', data: { id: 'marqueur' } });
    await tab.next((f) => f.type === 'post.deleted');
    expect(tab.frames.some(messageWith('Encore là ?'))).toBe(false);
    tab.close();
  });

  it('refuses to authenticate a socket with a token of a revoked session', async () => {
    const { lea } = await pair(t);
    await t.app.ctx.auth.sessions.revoke(sessionIdOf(lea.accessToken));
    const socket = await connectSocket(t.base);
    socket.send({ type: 'auth', token: lea.accessToken });
    await expect.poll(() => socket.frames.filter((f) => f.type === 'ready').length).toBe(2);
    expect(socket.frames.filter((f) => f.type === 'ready')[1].userId).toBeNull();
    socket.close();
  });
});

describe.each(engines)('socket identity and token expiry on %s', (engine) => {
  const t = suiteListeningApp(engine);

  it('ends when the access token expires: no private frame past the expiry', async () => {
    const { lea, marc, send } = await pair(t);
    const tab = await tabOf(t.base, lea);
    t.clock.advance(15 * 60_000 + 1000);
    // Marc's token expired too: he renews it the way the app does, with his refresh token.
    const renewed = await refreshSession(t, marc.refreshToken);
    expect(renewed.statusCode).toBe(200);
    await send('Message après expiration', renewed.json().accessToken);
    await tab.next(sessionEnded);
    await t.app.ctx.bus.publish({ type: 'post.deleted', data: { id: 'marqueur' } });
    await tab.next((f) => f.type === 'post.deleted');
    expect(tab.frames.some(messageWith('Message après expiration'))).toBe(false);

    // The app re-sends `auth` with its renewed token: private events flow again.
    const leaRenewed = await refreshSession(t, lea.refreshToken);
    tab.send({ type: 'auth', token: leaRenewed.json().accessToken });
    await expect.poll(() => tab.frames.filter((f) => f.type === 'ready' && f.userId === lea.id).length).toBe(2);
    await send('De retour', renewed.json().accessToken);
    await tab.next(messageWith('De retour'));
    tab.close();
  });

  it('tells the socket when its token expires, without waiting for an event', async () => {
    const user = await createUser(t);
    const session = await signIn(t, user);
    const sid = sessionIdOf(session.accessToken);
    // A genuine token of that session issued almost 15 minutes ago: it expires in about a second.
    const nearlyExpired = await signAccessToken(
      t.app.ctx.auth.keys,
      { userId: user.id, email: user.email, sessionId: sid },
      new Date(t.clock.now().getTime() - 899_000),
    );
    const tab = await tabOf(t.base, { id: user.id, accessToken: nearlyExpired });
    await tab.next(sessionEnded, 10_000);
    tab.close();
  });
});

describe.runIf(engines.includes('postgres'))('session end across two server instances on PostgreSQL', () => {
  const instances = suiteTwoInstances({ sharedClock: true });
  const t = instances.t;

  it('a password change through instance 2 ends the identity of a socket held by instance 1', async () => {
    const { leaUser, lea, marc } = await pair(t);
    const onInstance1 = await tabOf(instances.base1, lea);
    const laptop = await signIn(t, leaUser);
    const changed = await fetch(`${instances.base2}/api/auth/password`, {
      method: 'POST',
      headers: { authorization: `Bearer ${laptop.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'Nouveau2025' }),
    });
    expect(changed.status).toBe(200);
    await onInstance1.next(sessionEnded);

    // A message sent through instance 2 afterwards does not reach the old socket.
    const conversation = await fetch(`${instances.base2}/api/conversations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${marc.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ userId: lea.id }),
    });
    const {
      conversation: { id },
    } = (await conversation.json()) as { conversation: { id: string } };
    const sent = await fetch(`${instances.base2}/api/conversations/${id}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${marc.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'Depuis l’instance 2' }),
    });
    expect(sent.status).toBe(201);
    await instances.second.ctx.bus.publish({ type: 'post.deleted', data: { id: 'marqueur' } });
    await onInstance1.next((f) => f.type === 'post.deleted');
    expect(onInstance1.frames.some(messageWith('Depuis l’instance 2'))).toBe(false);
    onInstance1.close();
  });
});
