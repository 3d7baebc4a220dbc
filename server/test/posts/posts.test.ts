import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call, signedInUser } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { multipart, photo } from '../media/fixtures.ts';
import { recording } from '../media/webm-writer.ts';

const SAINT_DENIS = { latitude: -20.8789, longitude: 55.4481 };
const OPEN_SEA = { latitude: 30, longitude: -40 };

describe.each(engines)('posts on %s', (engine) => {
  const t = suiteAuthApp(engine);

  const member = () => signedInUser(t);
  const create = (token: string, payload: Record<string, unknown>) =>
    call(t, { method: 'POST', url: '/api/posts', token, payload });
  const body = (extra: Record<string, unknown> = {}) => ({
    category: 'happy',
    content: 'Bonjour la Réunion',
    ...SAINT_DENIS,
    ...extra,
  });

  it('requires a signed-in caller', async () => {
    const res = await create('', body());
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toBe('User not authenticated');
  });

  it('refuses bad input with the French texts, and nothing is stored', async () => {
    const { token, id } = await member();
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [body({ category: 'sad' }), 400, 'Catégorie invalide'],
      [body({ content: 'x'.repeat(501) }), 400, 'Le contenu ne doit pas dépasser 500 caractères'],
      [body({ content: '   ' }), 400, 'Veuillez ajouter du contenu, une image ou un message vocal'],
      [body({ content: '<script>alert(1)</script>' }), 400, 'Contenu non autorisé détecté'],
      [body({ latitude: 91 }), 400, 'Coordonnées de localisation invalides'],
      [{ category: 'happy', content: 'x' }, 400, 'Veuillez sélectionner une position sur la carte'],
      [body(OPEN_SEA), 400, 'Publications autorisées uniquement sur terre (îles comprises)'],
    ];
    for (const [payload, status, message] of cases) {
      const res = await create(token, payload);
      expect(res.statusCode, message).toBe(status);
      expect(res.json().error.message).toBe(message);
    }
    const count = await t.database.db.execute(sql`select count(*)::int as n from publications where user_id = ${id}`);
    expect((count.rows[0] as { n: number }).n).toBe(0);
  });

  it('creates a post on land, shows it in the feed and announces it live', async () => {
    const { token, id } = await member();
    const events: unknown[] = [];
    const stop = t.app.ctx.bus.subscribe((e) => events.push(e));
    const res = await create(token, body({ content: 'Plage <b>magnifique</b>' }));
    expect(res.statusCode).toBe(201);
    const post = res.json().post;
    expect(post).toMatchObject({
      userId: id,
      category: 'happy',
      content: 'Plage magnifique',
      isVoiceOnly: false,
      likesCount: 0,
      hasPulseEffect: false,
    });
    const feed = (await call(t, { method: 'GET', url: '/api/posts' })).json().posts as Array<{ id: string }>;
    expect(feed.map((p) => p.id)).toContain(post.id);
    await expect.poll(() => events.length).toBeGreaterThan(0);
    // The event carries the marker (what the map draws) and its place, for the hub to scope it.
    const { id: postId, userId, category, latitude, longitude, nickname, hasPulseEffect, createdAt } = post;
    expect(events).toContainEqual({
      type: 'post.created',
      data: {
        post: {
          id: postId,
          userId,
          category,
          latitude,
          longitude,
          nickname,
          photoUrl: null,
          hasPulseEffect,
          createdAt,
        },
      },
      at: { latitude, longitude },
      // The hub skips the sockets of people who blocked the author (never sent to browsers).
      about: [userId],
    });
    stop();
  });

  it('allows one active post per person, even under ten simultaneous creates', async () => {
    const { token } = await member();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => create(token, body({ content: `essai ${i}` }))),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(9);
    expect(results.find((r) => r.statusCode === 409)!.json().error.message).toBe(
      "Vous avez déjà une publication active. Supprimez-la avant d'en créer une nouvelle.",
    );
    const active = (await call(t, { method: 'GET', url: '/api/posts/mine/active', token })).json().post;
    expect(active.content).toMatch(/^essai \d$/);
  });

  it('lets only the author delete, and deleting frees the slot at once', async () => {
    const author = await member();
    const other = await member();
    const post = (await create(author.token, body())).json().post;
    expect((await call(t, { method: 'DELETE', url: `/api/posts/${post.id}`, token: other.token })).statusCode).toBe(
      403,
    );
    expect((await call(t, { method: 'DELETE', url: `/api/posts/${post.id}`, token: '' })).statusCode).toBe(401);
    expect((await call(t, { method: 'DELETE', url: `/api/posts/${post.id}`, token: author.token })).statusCode).toBe(
      204,
    );
    expect((await call(t, { method: 'DELETE', url: `/api/posts/${post.id}`, token: author.token })).statusCode).toBe(
      404,
    );
    expect((await create(author.token, body())).statusCode).toBe(201);
  });

  it('keeps only posts younger than 24 hours by the database clock, and sweeps the rest with their media', async () => {
    const { token, id } = await member();
    const form = multipart([
      {
        name: 'file',
        file: { filename: 'plage.jpg', contentType: 'image/jpeg', body: await photo(800, 600, { gps: true }) },
      },
    ]);
    const upload = await call(t, {
      method: 'POST',
      url: '/api/uploads/post-image',
      token,
      payload: form.payload,
      headers: form.headers,
    });
    expect(upload.statusCode).toBe(201);
    const { uploadId, url } = upload.json();
    const post = (await create(token, body({ imageUploadId: uploadId }))).json().post;
    expect(post.imageUrl).toBe(url);
    expect(url).toMatch(/^\/media\/publications\/[0-9a-f-]{36}\.webp$/);
    const mediaPath = url as string;
    expect((await t.app.inject(mediaPath)).statusCode).toBe(200);

    const live = await member();
    const livePost = (await create(live.token, body())).json().post;
    await t.database.db.execute(
      sql`update publications set created_at = now() - interval '24 hours 1 second' where user_id = ${id}`,
    );
    const feed = (await call(t, { method: 'GET', url: '/api/posts' })).json().posts as Array<{ id: string }>;
    expect(feed.map((p) => p.id)).not.toContain(post.id);
    expect(feed.map((p) => p.id)).toContain(livePost.id);
    expect((await call(t, { method: 'GET', url: `/api/posts/${post.id}` })).statusCode).toBe(404);
    // The expired post no longer blocks its author.
    expect((await call(t, { method: 'GET', url: '/api/posts/mine/active', token })).json().post).toBeNull();

    const { sweepExpired } = await import('../../src/modules/posts/sweeper.ts');
    const { deleteMediaUrls } = await import('../../src/modules/media/index.ts');
    const swept = await sweepExpired(t.database.db);
    await deleteMediaUrls(t.app.ctx.storage, swept.mediaUrls);
    expect(swept.posts).toContain(post.id);
    expect(swept.posts).not.toContain(livePost.id);
    expect((await t.app.inject(mediaPath)).statusCode).toBe(404);
    expect((await call(t, { method: 'GET', url: `/api/posts/${livePost.id}` })).statusCode).toBe(200);
  });

  it("stores a voice-only post as 'Message vocal', hidden, and refuses someone else's upload", async () => {
    const { token } = await member();
    const form = multipart([
      { name: 'file', file: { filename: 'voice.webm', contentType: 'audio/webm', body: recording(4.5) } },
    ]);
    const upload = await call(t, {
      method: 'POST',
      url: '/api/uploads/voice',
      token,
      payload: form.payload,
      headers: form.headers,
    });
    expect(upload.statusCode).toBe(201);
    expect(upload.json().duration).toBeCloseTo(4.5, 1);
    const intruder = await member();
    expect(
      (await create(intruder.token, body({ content: '', audioUploadId: upload.json().uploadId }))).statusCode,
    ).toBe(400);
    const res = await create(token, body({ content: '', audioUploadId: upload.json().uploadId }));
    expect(res.statusCode).toBe(201);
    expect(res.json().post).toMatchObject({
      content: 'Message vocal',
      isVoiceOnly: true,
      audioDuration: expect.closeTo(4.5, 1),
    });
  });

  it('limits post creation to 10 attempts an hour', async () => {
    const { token } = await member();
    for (let i = 0; i < 10; i++) await create(token, body(OPEN_SEA));
    const res = await create(token, body());
    expect(res.statusCode).toBe(429);
    expect(res.json().error.message).toBe('Trop de publications. Veuillez patienter.');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });
});
