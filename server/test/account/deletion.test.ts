/**
 * Deleting one's account (POST /api/account/delete): confirmed by the password; afterwards no
 * row of any table names the person (id or e-mail) — the kept records carry a pseudonym —,
 * their files and posts are gone from every map, their sockets end, and the address can sign
 * up again. A wrong password deletes nothing.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@moodmap/core';
import { call, createUser, login, signUp, type AuthTestApp } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteListeningApp } from '../helpers/suite-app.ts';
import { connectSocket, signedSocket, type TestSocket } from '../helpers/ws.ts';
import { member, publish, SAINT_DENIS, storedAndActualCount, type Member } from '../interactions/fixtures.ts';
import { multipart, photo } from '../media/fixtures.ts';
import { staff } from '../moderation/fixtures.ts';

type Frame = TestSocket['frames'][number];
const VIEW = { west: 55.4, south: -20.9, east: 55.5, north: -20.8 };
const viewportUrl = `/api/posts/viewport?${new URLSearchParams({ ...Object.fromEntries(Object.entries(VIEW).map(([k, v]) => [k, String(v)])), zoom: '13' })}`;
const sessionEnded = (f: Frame) =>
  f.type === 'ready' && f.userId === null && Reflect.get(f, 'reason') === 'session_ended';
const postDeleted = (id: string) => (f: Frame) => f.type === 'post.deleted' && Reflect.get(Object(f.data), 'id') === id;

/** Every row of every table of the schema, as text, that holds `needle` (case-insensitive). */
async function rowsNaming(t: AuthTestApp, needle: string): Promise<Array<{ table: string; row: string }>> {
  const tables = await t.database.db.execute(sql`
    select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`);
  const found: Array<{ table: string; row: string }> = [];
  for (const { table_name: table } of tables.rows as Array<{ table_name: string }>) {
    const rows = await t.database.db.execute(sql`
      select r::text as row from ${sql.identifier(table)} r where position(lower(${needle}) in lower(r::text)) > 0`);
    for (const { row } of rows.rows as Array<{ row: string }>) found.push({ table, row });
  }
  return found;
}

/** Uploads an image for a post, publishes it, and returns the post and its media URL. */
async function postWithImage(t: AuthTestApp, who: Member) {
  const form = multipart([
    { name: 'file', file: { filename: 'plage.jpg', contentType: 'image/jpeg', body: await photo(400, 300) } },
  ]);
  const upload = await call(t, {
    method: 'POST',
    url: '/api/uploads/post-image',
    token: who.token,
    payload: form.payload,
    headers: form.headers,
  });
  expect(upload.statusCode, upload.body).toBe(201);
  const res = await call(t, {
    method: 'POST',
    url: '/api/posts',
    token: who.token,
    payload: { category: 'happy', content: 'Au revoir', ...SAINT_DENIS, imageUploadId: upload.json().uploadId },
  });
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().post.id as string, imageUrl: upload.json().url as string };
}

async function profilePhoto(t: AuthTestApp, who: Member): Promise<string> {
  const form = multipart([
    { name: 'file', file: { filename: 'moi.jpg', contentType: 'image/jpeg', body: await photo(300, 300) } },
  ]);
  const res = await call(t, {
    method: 'POST',
    url: '/api/profiles/me/photo',
    token: who.token,
    payload: form.payload,
    headers: form.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().user.profile.profilePhotoUrl as string;
}

/** A tab of a visitor watching Saint-Denis; resolves once the hub has taken the view. */
async function watchingSaintDenis(base: string): Promise<TestSocket> {
  const socket = await connectSocket(base);
  await socket.next((f) => f.type === 'ready');
  socket.send({ type: 'view', ...VIEW });
  socket.send({ type: 'ping' });
  await socket.next((f) => f.type === 'pong');
  return socket;
}

const pointIds = async (t: AuthTestApp) =>
  ((await call(t, { method: 'GET', url: viewportUrl })).json().points as Array<{ id: string }>).map((p) => p.id);

describe.each(engines)('account deletion on %s', (engine) => {
  const t = suiteListeningApp(engine);

  /** Léa, signed in, with something of everything an account holds; Marc and an admin around her. */
  async function lea() {
    const user = await createUser(t);
    const session = await login(t, user.email, user.password);
    const me: Member = { id: user.id, token: session.accessToken, username: session.user.profile.username };
    const marc = await member(t);
    const admin = await staff(t, 'admin');
    const marcPost = await publish(t, marc.token, { content: 'Salut' });
    const mine = await postWithImage(t, me);
    const photoUrl = await profilePhoto(t, me);
    const ok = (res: { statusCode: number; body: string }) => expect(res.statusCode, res.body).toBeLessThan(300);
    ok(await call(t, { method: 'POST', url: `/api/posts/${marcPost.id}/like`, token: me.token }));
    ok(
      await call(t, {
        method: 'POST',
        url: `/api/posts/${marcPost.id}/comments`,
        token: me.token,
        payload: { content: 'Joli' },
      }),
    );
    ok(await call(t, { method: 'POST', url: `/api/posts/${mine.id}/like`, token: marc.token }));
    ok(
      await call(t, {
        method: 'POST',
        url: `/api/posts/${mine.id}/comments`,
        token: marc.token,
        payload: { content: 'Bravo' },
      }),
    );
    ok(
      await call(t, {
        method: 'POST',
        url: `/api/posts/${marcPost.id}/report`,
        token: me.token,
        payload: { reason: 'spam' },
      }),
    );
    ok(
      await call(t, {
        method: 'POST',
        url: `/api/posts/${mine.id}/report`,
        token: marc.token,
        payload: { reason: 'spam' },
      }),
    );
    // An illegal-content notice she filed under her name and address (kept, without either).
    ok(
      await call(t, {
        method: 'POST',
        url: '/api/dsa-notices',
        token: me.token,
        payload: {
          explanation: 'Ce contenu diffuse mon adresse sans mon accord.',
          location: `http://moodmap.test/?post=${marcPost.id}`,
          name: 'Léa Martin',
          email: user.email,
          goodFaith: true,
        },
      }),
    );
    const conversation = await call(t, {
      method: 'POST',
      url: '/api/conversations',
      token: marc.token,
      payload: { userId: me.id },
    });
    ok(conversation);
    ok(
      await call(t, {
        method: 'POST',
        url: `/api/conversations/${conversation.json().conversation.id}/messages`,
        token: me.token,
        payload: { content: 'Coucou Marc' },
      }),
    );
    ok(
      await call(t, {
        method: 'PUT',
        url: `/api/staff/users/${me.id}/tier`,
        token: admin.token,
        payload: { tier: 'Plus' },
      }),
    );
    // A failed sign-in (the security log names her) and a second device.
    expect(
      (await call(t, { method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: 'mauvais1' } }))
        .statusCode,
    ).toBe(400);
    const phone = await login(t, user.email, user.password);
    // A paid purchase (kept for the accounts, anonymous) and a pending checkout (deleted).
    const purchases = await t.database.db.execute(sql`
      insert into pulse_purchases (user_id, provider, session_id, quantity, amount_cents, status, paid_at)
      values (${me.id}, 'dev', ${`cs_paid_${randomUUID()}`}, 2, 500, 'paid', now()), (${me.id}, 'dev', ${`cs_pending_${randomUUID()}`}, 1, 250, 'pending', null)
      returning id, status`);
    const paidId = (purchases.rows as Array<{ id: string; status: string }>).find((r) => r.status === 'paid')!.id;
    await t.database.db.execute(sql`
      insert into moderation_decisions (post_id, author_id, moderator_id, action, reason_key, post_snapshot, appeal_until)
      values (null, ${me.id}, ${admin.id}, 'warn', 'spam', ${JSON.stringify({ nickname: me.username, content: 'Ancien' })}::jsonb, now() + interval '6 months')`);
    return { user, me, phone, marc, marcPost, mine, photoUrl, paidId };
  }

  it('leaves no row naming the person, keeps the legal records pseudonymised, ends the sockets and clears the map', async () => {
    const { user, me, phone, marc, marcPost, mine, photoUrl, paidId } = await lea();
    expect((await t.app.inject(mine.imageUrl)).statusCode).toBe(200);
    expect((await t.app.inject(photoUrl)).statusCode).toBe(200);
    expect(await pointIds(t)).toContain(mine.id);
    const laptopTab = await signedSocket(t.base, me.id, me.token);
    const phoneTab = await signedSocket(t.base, me.id, phone.accessToken);
    const viewer = await watchingSaintDenis(t.base);

    const res = await call(t, {
      method: 'POST',
      url: '/api/account/delete',
      token: me.token,
      payload: { password: user.password },
    });
    expect(res.statusCode, res.body).toBe(204);

    // Every open socket of hers ends at once; the post leaves the viewer's map live and on reload.
    await laptopTab.next(sessionEnded);
    await phoneTab.next(sessionEnded);
    await viewer.next(postDeleted(mine.id));
    expect(await pointIds(t)).not.toContain(mine.id);
    expect(await pointIds(t)).toContain(marcPost.id);
    for (const s of [laptopTab, phoneTab, viewer]) s.close();

    expect(await rowsNaming(t, me.id)).toEqual([]);
    expect(await rowsNaming(t, user.email)).toEqual([]);
    // Her files are gone from the store.
    expect((await t.app.inject(mine.imageUrl)).statusCode).toBe(404);
    expect((await t.app.inject(photoUrl)).statusCode).toBe(404);
    // Marc's post counts neither her like nor her comment any more.
    expect(await storedAndActualCount(t, marcPost.id, 'likes')).toEqual({ stored: 0, actual: 0 });
    expect(await storedAndActualCount(t, marcPost.id, 'comments')).toEqual({ stored: 0, actual: 0 });
    // Kept without her identity: the paid purchase, the decision, the staff action in the log.
    const kept = await t.database.db.execute(
      sql`select amount_cents, status from retained_payments where id = ${paidId}`,
    );
    expect(kept.rows).toEqual([{ amount_cents: 500, status: 'paid' }]);
    const decisions = await t.database.db.execute(
      sql`select author_id, post_snapshot->>'nickname' as nickname from moderation_decisions where post_snapshot->>'content' = 'Ancien'`,
    );
    expect(decisions.rows).toContainEqual({ author_id: null, nickname: 'Compte supprimé' });
    const tierSet =
      await t.database.db.execute(sql`select target_id::text as target from security_logs where event_type = 'tier_set' and reason = 'Plus'
      and target_id in (select target_id from security_logs where event_type = 'account_deleted')`);
    expect(tierSet.rows).toHaveLength(1);

    // Her tokens are dead, her sign-in refused, and her address may sign up again.
    expect((await call(t, { method: 'GET', url: '/api/auth/session', token: me.token })).statusCode).toBe(401);
    const again = await call(t, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: user.password },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.message).toBe(MESSAGES.invalid_credentials);
    expect((await signUp(t, { email: user.email })).res.statusCode).toBe(201);
    // Marc still has his account and his post.
    expect((await call(t, { method: 'GET', url: '/api/auth/session', token: marc.token })).statusCode).toBe(200);
  });

  it('refuses a wrong password in French and deletes nothing', async () => {
    const { user, me, mine } = await lea();
    const res = await call(t, {
      method: 'POST',
      url: '/api/account/delete',
      token: me.token,
      payload: { password: 'PasLeBon2024' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toEqual({
      code: 'account_delete_wrong_password',
      message: MESSAGES.account_delete_wrong_password,
    });
    expect((await call(t, { method: 'GET', url: '/api/auth/session', token: me.token })).statusCode).toBe(200);
    expect(await pointIds(t)).toContain(mine.id);
    expect((await t.app.inject(mine.imageUrl)).statusCode).toBe(200);
    expect(
      (
        await call(t, {
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: user.email, password: user.password },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('counts attempts under the sign-in limit of the address: the eleventh in 5 minutes is 429', async () => {
    const user = await createUser(t);
    const { accessToken } = await login(t, user.email, user.password);
    // An address of its own (the counters may live in a Redis shared by runs).
    const ip = `198.18.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}`;
    for (let i = 0; i < 10; i++) {
      expect(
        (
          await call(t, {
            method: 'POST',
            url: '/api/account/delete',
            token: accessToken,
            ip,
            payload: { password: 'PasLeBon2024' },
          })
        ).statusCode,
      ).toBe(403);
    }
    const blocked = await call(t, {
      method: 'POST',
      url: '/api/account/delete',
      token: accessToken,
      ip,
      payload: { password: user.password },
    });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await call(t, { method: 'GET', url: '/api/auth/session', token: accessToken })).statusCode).toBe(200);
  });
});
