/**
 * The map's feed: GET /api/posts/viewport (posts or clusters inside a view) and
 * GET /api/posts/changes (what changed since a cursor, for the fallback poll).
 * Posts are inserted straight into the database (land and limits are not the point here); each
 * test works in its own stretch of the map, so they do not see each other's posts.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import {
  POST_CARDS_MAX,
  changesResponseSchema,
  postCardsResponseSchema,
  viewportResponseSchema,
  type Mood,
} from '@moodmap/core';
import { decodeCursor, encodeCursor, parseViewport, planView, type Cursor } from '../../src/modules/posts/feed.ts';
import { sweepExpired } from '../../src/modules/posts/sweeper.ts';
import { call, createUser, login } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { multipart, photo } from '../media/fixtures.ts';

interface NewPost {
  latitude: number;
  longitude: number;
  category?: Mood;
  /** How old the post is; 300 s by default. */
  ageSeconds?: number;
  userId?: string;
}

interface Answer {
  points: Array<{
    id: string;
    category: Mood;
    latitude: number;
    longitude: number;
    nickname: string;
    photoUrl: string | null;
  }>;
  clusters: Array<{ id: string; latitude: number; longitude: number; count: number; moods: Record<Mood, number> }>;
  cursor: string;
  serverTime: string;
}

/** The centre of grid cell (cx, cy) at `zoom` (60 px web-mercator cells), to place posts well inside one. */
function cellCentre(zoom: number, cx: number, cy: number): { latitude: number; longitude: number } {
  const perWorld = (256 * 2 ** zoom) / 60;
  const y = (cy + 0.5) / perWorld;
  return {
    longitude: ((cx + 0.5) / perWorld) * 360 - 180,
    latitude: (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI,
  };
}

describe.each(engines)('map feed on %s', (engine) => {
  const t = suiteAuthApp(engine);

  /** Users, profiles and posts in three statements, whatever the number of posts. */
  async function insertPosts(posts: NewPost[]): Promise<string[]> {
    const rows = posts.map((p, i) => ({
      id: randomUUID(),
      u: p.userId ?? null,
      nu: p.userId ? null : randomUUID(),
      lat: p.latitude,
      lon: p.longitude,
      c: p.category ?? (['happy', 'angry', 'party', 'money', 'love'] as const)[i % 5],
      age: p.ageSeconds ?? 300,
    }));
    const json = JSON.stringify(rows);
    const recordset = sql`json_to_recordset(${json}::json) as x(id uuid, u uuid, nu uuid, lat float8, lon float8, c text, age float8)`;
    await t.database.db.execute(sql`
      insert into users (id, email, password_hash) select nu, nu::text || '@feed.test', 'x' from ${recordset} where nu is not null`);
    await t.database.db.execute(sql`
      insert into profiles (id, username) select nu, 'membre ' || left(nu::text, 6) from ${recordset} where nu is not null`);
    await t.database.db.execute(sql`
      insert into publications (id, user_id, category, content, latitude, longitude, nickname, created_at)
      select x.id, coalesce(x.u, x.nu), x.c, 'Bonjour', x.lat, x.lon, pr.username, now() - x.age * interval '1 second'
      from ${recordset} join profiles pr on pr.id = coalesce(x.u, x.nu)`);
    return rows.map((r) => r.id);
  }

  const viewport = (query: Record<string, string | number>, token?: string) =>
    call(t, {
      method: 'GET',
      url: `/api/posts/viewport?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`,
      token,
    });
  const answer = async (query: Record<string, string | number>, token?: string): Promise<Answer> => {
    const res = await viewport(query, token);
    expect(res.statusCode, res.body).toBe(200);
    // The answer is exactly core's declared shape (parsing drops no field and changes no value).
    expect(viewportResponseSchema.parse(res.json())).toEqual(res.json());
    return res.json() as Answer;
  };
  const changes = (since: string) =>
    call(t, { method: 'GET', url: `/api/posts/changes?since=${encodeURIComponent(since)}` });
  /** The database's cursor now (its clock moved by `shiftMs`), as a viewport answer read now would carry. */
  const dbCursor = async (shiftMs = 0): Promise<Cursor> => {
    const row = (
      await t.database.db.execute(
        sql`select date_trunc('milliseconds', now()) as now, pg_current_snapshot()::text as snapshot`,
      )
    ).rows[0]!;
    return {
      time: new Date(new Date(String(row.now instanceof Date ? row.now.toISOString() : row.now)).getTime() + shiftMs),
      snapshot: String(row.snapshot),
    };
  };
  const total = (a: Answer) => a.points.length + a.clusters.reduce((sum, c) => sum + c.count, 0);

  it('returns, at city zooms, exactly the live posts inside the view, newest first, with their authors', async () => {
    const [inA, inB, , , , expired] = await insertPosts([
      { latitude: 30.1, longitude: 20.1, ageSeconds: 600 },
      { latitude: 30.2, longitude: 20.4, ageSeconds: 60 },
      { latitude: 30.1, longitude: 20.6 }, // east of the view
      { latitude: 30.4, longitude: 20.1 }, // north of the view
      { latitude: 29.9, longitude: 19.9 }, // south-west of the view
      { latitude: 30.15, longitude: 20.15, ageSeconds: 24 * 3600 + 1 }, // expired
    ]);
    const a = await answer({ west: 20, south: 30, east: 20.5, north: 30.3, zoom: 12 });
    expect(a.clusters).toEqual([]);
    expect(a.points.map((p) => p.id)).toEqual([inB, inA]);
    expect(a.points.map((p) => p.id)).not.toContain(expired);
    // Markers only: no text, media, counts or viewer-specific field.
    expect(Object.keys(a.points[0]).sort()).toEqual([
      'category',
      'createdAt',
      'hasPulseEffect',
      'id',
      'latitude',
      'longitude',
      'nickname',
      'photoUrl',
      'userId',
    ]);
    expect(a.points[0]).toMatchObject({
      latitude: 30.2,
      longitude: 20.4,
      nickname: expect.stringMatching(/^membre /),
      photoUrl: null,
    });
    expect(typeof a.cursor).toBe('string');
    expect(Math.abs(Date.parse(a.serverTime) - Date.now())).toBeLessThan(60_000);
  });

  it("handles a view across the antimeridian, given as west > east or as MapLibre's unwrapped bounds", async () => {
    const [east, west] = await insertPosts([
      { latitude: -17.5, longitude: 179.5 },
      { latitude: -17.6, longitude: -179.5 },
      { latitude: -17.5, longitude: 178.5 }, // west of the view
      { latitude: -17.5, longitude: -178.5 }, // east of the view
    ]);
    const crossing = await answer({ west: 179, south: -18, east: -179, north: -17, zoom: 10 });
    expect(crossing.points.map((p) => p.id).sort()).toEqual([east, west].sort());
    const unwrapped = await answer({ west: 179, south: -18, east: 181, north: -17, zoom: 10 });
    expect(unwrapped.points.map((p) => p.id).sort()).toEqual([east, west].sort());
    const shifted = await answer({ west: -181, south: -18, east: -179, north: -17, zoom: 10 });
    expect(shifted.points.map((p) => p.id).sort()).toEqual([east, west].sort());
    // Zoomed out across the line: all four count, on both sides.
    const wide = await answer({ west: 170, south: -25, east: -170, north: -10, zoom: 5 });
    expect(total(wide)).toBe(4);
    const sides = [...wide.points, ...wide.clusters].map((c) => Math.sign(c.longitude));
    expect(sides).toContain(1);
    expect(sides).toContain(-1);
    // A view wider than the world is the whole world.
    const world = await answer({ west: -250, south: -18, east: 310, north: -17, zoom: 1 });
    expect(total(world)).toBeGreaterThanOrEqual(4);
  });

  it('clusters below zoom 9 per ~60 px cell with counts per mood, and sends a lone post as itself', async () => {
    const centre = cellCentre(5, 70, 40);
    const lone = cellCentre(5, 72, 41);
    const near = (dLat: number, dLon: number) => ({
      latitude: centre.latitude + dLat,
      longitude: centre.longitude + dLon,
    });
    const ids = await insertPosts([
      { ...near(0.01, 0.01), category: 'happy' },
      { ...near(-0.02, 0.03), category: 'happy' },
      { ...near(0.03, -0.02), category: 'love' },
      { ...lone, category: 'party' },
    ]);
    const view = {
      west: centre.longitude - 3,
      south: centre.latitude - 4,
      east: lone.longitude + 2,
      north: centre.latitude + 2,
    };

    const zoomedOut = await answer({ ...view, zoom: 5.7 });
    expect(zoomedOut.clusters).toHaveLength(1);
    const [cluster] = zoomedOut.clusters;
    expect(cluster).toMatchObject({ count: 3, moods: { happy: 2, love: 1, party: 0, angry: 0, money: 0 } });
    expect(cluster.latitude).toBeCloseTo(centre.latitude + 0.02 / 3, 5);
    expect(cluster.longitude).toBeCloseTo(centre.longitude + 0.02 / 3, 5);
    expect(zoomedOut.points.map((p) => p.id)).toEqual([ids[3]]);
    expect(zoomedOut.points[0]).toMatchObject({
      category: 'party',
      latitude: lone.latitude,
      longitude: lone.longitude,
      nickname: expect.any(String),
    });

    const city = await answer({ ...view, zoom: 9 });
    expect(city.clusters).toEqual([]);
    expect(city.points.map((p) => p.id).sort()).toEqual([...ids].sort());

    // The mood filter runs in SQL, for clusters and points alike.
    const happy = await answer({ ...view, zoom: 5, moods: 'happy' });
    expect(happy.clusters).toEqual([
      expect.objectContaining({ count: 2, moods: { happy: 2, angry: 0, party: 0, money: 0, love: 0 } }),
    ]);
    expect(happy.points).toEqual([]);
    const some = await answer({ ...view, zoom: 9, moods: 'party,love' });
    expect(some.points.map((p) => p.category).sort()).toEqual(['love', 'party']);
  });

  it('clusters a city view holding more than 2000 posts instead of sending them all', async () => {
    const posts = Array.from({ length: 2001 }, (_, i) => ({
      latitude: 10 + (i % 50) * 0.001,
      longitude: 40 + Math.floor(i / 50) * 0.001,
    }));
    await insertPosts(posts);
    const a = await answer({ west: 39.99, south: 9.99, east: 40.1, north: 10.1, zoom: 12 });
    expect(a.clusters.length).toBeGreaterThan(0);
    expect(total(a)).toBe(2001);
    expect(a.points.length).toBeLessThan(2001);
    const moods = a.clusters.reduce((sum, c) => sum + Object.values(c.moods).reduce((x, y) => x + y, 0), 0);
    expect(moods + a.points.length).toBe(2001);
  });

  it('clusters a dense city view per cell and mood, its lone posts sent as themselves, the mood filter applied', async () => {
    const dense = Array.from({ length: 2001 }, (_, i) => ({
      latitude: 12 + (i % 50) * 0.001,
      longitude: 44 + Math.floor(i / 50) * 0.001,
    }));
    const ids = await insertPosts(dense);
    const [lone] = await insertPosts([{ latitude: 12.09, longitude: 44.09, category: 'love', ageSeconds: 10 }]);
    const view = { west: 43.99, south: 11.99, east: 44.1, north: 12.1, zoom: 12 };
    const all = await answer(view);
    expect(total(all)).toBe(2002);
    expect(all.points).toEqual([
      expect.objectContaining({ id: lone, category: 'love', latitude: 12.09, longitude: 44.09 }),
    ]);
    for (const c of all.clusters) expect(c.count).toBe(Object.values(c.moods).reduce((x, y) => x + y, 0));
    const moods = { happy: 0, angry: 0, party: 0, money: 0, love: 0 };
    ids.forEach((_, i) => (moods[(['happy', 'angry', 'party', 'money', 'love'] as const)[i % 5]] += 1));
    const summed = { happy: 0, angry: 0, party: 0, money: 0, love: 0 };
    for (const c of all.clusters) for (const m of Object.keys(summed) as Mood[]) summed[m] += c.moods[m];
    expect(summed).toEqual(moods);

    // Two moods of five: fewer than 2001 posts, so every one of them is sent as a marker.
    const some = await answer({ ...view, moods: 'love,party' });
    expect(some.clusters).toEqual([]);
    expect(some.points).toHaveLength(moods.love + moods.party + 1);
    expect(new Set(some.points.map((p) => p.category))).toEqual(new Set(['love', 'party']));
  });

  it('reads a dense city view in two statements, its cursor in the statement of its cell counts', async () => {
    const dense = Array.from({ length: 2001 }, (_, i) => ({
      latitude: 14 + (i % 50) * 0.001,
      longitude: 48 + Math.floor(i / 50) * 0.001,
    }));
    await insertPosts(dense);
    const bounds = { west: 47.99, south: 13.99, east: 48.1, north: 14.1 };
    const statements = { n: 0 };
    const count = () => {
      statements.n++;
    };
    t.database.pool?.on('acquire', count);
    let dense12: Answer;
    try {
      dense12 = await answer({ ...bounds, zoom: 12 });
    } finally {
      t.database.pool?.off('acquire', count);
    }
    expect(total(dense12)).toBe(2001);
    // The count of the view, then its cells with the clock and snapshot: no statement for the cursor alone.
    if (t.database.pool) expect(statements.n).toBe(2);
    // That cursor is the counts' own: the next poll sends a post created since, none of those counted.
    const [late] = await insertPosts([{ latitude: 14.05, longitude: 48.05, ageSeconds: 1 }]);
    const res = await call(t, {
      method: 'GET',
      url: `/api/posts/changes?${new URLSearchParams({ since: dense12.cursor, ...Object.fromEntries(Object.entries(bounds).map(([k, v]) => [k, String(v)])) })}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(changesResponseSchema.parse(res.json()).created.map((p) => p.id)).toEqual([late]);
  });

  it('reads a city view on every band of latitude it crosses, posts on band edges and south of the equator included', async () => {
    // publications_marker_idx leads with floor(latitude × 32): these lie on its edges, on both sides
    // of 0, and at the north and south edges of the view's tiles (its first and last bands).
    const query = { west: 110, south: -0.1, east: 110.1, north: 0.1, zoom: 11 };
    const { area } = planView(parseViewport(Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)]))));
    const latitudes = [
      0,
      -0,
      1 / 32,
      -1 / 32,
      -1 / 32 - 1e-12,
      0.06,
      -0.06,
      2 / 32,
      area.north - 1e-9,
      area.south + 1e-9,
    ];
    const inside = await insertPosts(latitudes.map((latitude, i) => ({ latitude, longitude: 110.01 + i * 0.005 })));
    await insertPosts([
      { latitude: area.north + 1e-9, longitude: 110.05 },
      { latitude: area.south - 1e-9, longitude: 110.05 },
    ]); // just out
    const a = await answer(query);
    expect(a.clusters).toEqual([]);
    expect(a.points.map((p) => p.id).sort()).toEqual([...inside].sort());

    // Zoomed out, a lone post is found again by its cell's position (numeric sums, rounded): the
    // float just under a band's edge rounds onto the edge, in the band above.
    const [lone] = await insertPosts([{ latitude: 3 / 32 - 2 ** -56, longitude: 116 }]);
    const zoomedOut = await answer({ west: 115, south: -1, east: 117, north: 1, zoom: 5 });
    expect(zoomedOut.points.map((p) => p.id)).toEqual([lone]);
  });

  it('answers the same bytes to every viewer of the same cells, with an ETag that a revalidation turns into a 304', async () => {
    const centre = cellCentre(5, 121, 80);
    const view = {
      west: centre.longitude - 4,
      south: centre.latitude - 4,
      east: centre.longitude + 4,
      north: centre.latitude + 4,
      zoom: 5,
    };
    await insertPosts([{ ...centre }, { latitude: centre.latitude + 0.1, longitude: centre.longitude }]);
    const url = (v: Record<string, number>) =>
      `/api/posts/viewport?${new URLSearchParams(Object.entries(v).map(([k, x]): [string, string] => [k, String(x)]))}`;
    const first = await t.app.inject({ method: 'GET', url: url(view), headers: { 'accept-encoding': 'gzip' } });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-encoding']).toBe('gzip');
    expect(first.headers['cache-control']).toMatch(/max-age=\d+/);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[^"]+"$/);
    const body = JSON.parse(gunzipSync(first.rawPayload).toString());
    expect(total(body)).toBe(2);
    // A slightly moved view covering the same cells: the same answer, so a revalidation is a 304.
    const moved = { ...view, west: view.west + 0.01, east: view.east + 0.01 };
    const again = await t.app.inject({
      method: 'GET',
      url: url(moved),
      headers: { 'accept-encoding': 'gzip', 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    // Without gzip: the same JSON, its own ETag.
    const plain = await t.app.inject({ method: 'GET', url: url(view) });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toEqual(body);
    expect(plain.headers.etag).not.toBe(etag);
  });

  it('drops a cached answer when a post is created or deleted inside it, and only then', async () => {
    const author = await createUser(t);
    const { accessToken } = await login(t, author.email, author.password);
    const centre = cellCentre(5, 118, 77);
    const view = {
      west: centre.longitude - 3,
      south: centre.latitude - 3,
      east: centre.longitude + 3,
      north: centre.latitude + 3,
      zoom: 5,
    };
    await insertPosts([{ ...centre }, { latitude: centre.latitude + 0.1, longitude: centre.longitude }]);
    const first = await viewport(view);
    expect(total(first.json())).toBe(2);
    // Written behind the app's back (no event): the cached answer stands.
    await insertPosts([{ latitude: centre.latitude - 0.1, longitude: centre.longitude }]);
    expect((await viewport(view)).headers.etag).toBe(first.headers.etag);
    // A post.created event at a place inside it (as the create route publishes) drops it.
    await t.app.ctx.bus.publish({
      type: 'post.created',
      data: {},
      at: { latitude: centre.latitude, longitude: centre.longitude },
    });
    await expect.poll(async () => total((await viewport(view)).json())).toBe(3);
    // The author deletes their post through the API: gone from the next answer at once.
    const [own] = await insertPosts([
      { latitude: centre.latitude + 0.2, longitude: centre.longitude, userId: author.id },
    ]);
    await t.app.ctx.bus.publish({
      type: 'post.created',
      data: {},
      at: { latitude: centre.latitude, longitude: centre.longitude },
    });
    await expect.poll(async () => total((await viewport(view)).json())).toBe(4);
    expect((await call(t, { method: 'DELETE', url: `/api/posts/${own}`, token: accessToken })).statusCode).toBe(204);
    await expect.poll(async () => total((await viewport(view)).json())).toBe(3);
  });

  it('counts the cells at the edges of a zoomed-out view whole', async () => {
    const centre = cellCentre(5, 125, 84);
    const [inside, justOutside] = await insertPosts([
      { ...centre, category: 'money' },
      { latitude: centre.latitude, longitude: centre.longitude + 0.5, category: 'money' },
    ]);
    // The view ends between the two posts, inside the cell holding both.
    const a = await answer({
      west: centre.longitude - 3,
      south: centre.latitude - 3,
      east: centre.longitude + 0.25,
      north: centre.latitude + 3,
      zoom: 5,
    });
    expect(a.points.map((p) => p.id)).toEqual([]);
    expect(a.clusters).toEqual([expect.objectContaining({ count: 2, moods: expect.objectContaining({ money: 2 }) })]);
    const city = await answer({
      west: centre.longitude - 0.2,
      south: centre.latitude - 0.2,
      east: centre.longitude + 0.25,
      north: centre.latitude + 0.2,
      zoom: 10,
    });
    expect(city.points.map((p) => p.id)).toEqual([inside]);
    expect(city.points.map((p) => p.id)).not.toContain(justOutside);
  });

  it("answers markers without the viewer's likes, and cards by ids with them, newest first, live ones only", async () => {
    const user = await createUser(t);
    const { accessToken } = await login(t, user.email, user.password);
    const [liked, other, gone] = await insertPosts([
      { latitude: -40.1, longitude: -60.1, ageSeconds: 100 },
      { latitude: -40.8, longitude: -60.8, ageSeconds: 50 },
      { latitude: -40.5, longitude: -60.5, ageSeconds: 24 * 3600 + 1 },
    ]);
    await t.database.db.execute(sql`insert into likes (publication_id, user_id) values (${liked}, ${user.id})`);
    const view = { west: -61, south: -41, east: -60, north: -40, zoom: 10 };
    const asVisitor = await viewport(view);
    const asMember = await viewport(view, accessToken);
    expect(asMember.body).toBe(asVisitor.body);
    expect(asMember.headers.etag).toBe(asVisitor.headers.etag);

    const cards = await call(t, {
      method: 'GET',
      url: `/api/posts/cards?ids=${[liked, gone, other].join(',')}`,
      token: accessToken,
    });
    expect(cards.statusCode).toBe(200);
    expect(postCardsResponseSchema.parse(cards.json())).toEqual(cards.json());
    const posts = cards.json().posts as Array<{ id: string; isLikedByUser: boolean; content: string }>;
    expect(posts.map((p) => p.id)).toEqual([other, liked]);
    expect(posts.map((p) => p.isLikedByUser)).toEqual([false, true]);
    expect(posts[0].content).toBe('Bonjour');
    // A visitor gets the same cards without likes.
    const visitor = await call(t, { method: 'GET', url: `/api/posts/cards?ids=${liked}` });
    expect(visitor.json().posts.map((p: { isLikedByUser: boolean }) => p.isLikedByUser)).toEqual([false]);
  });

  it('refuses bad card ids and too many of them, in the API shape', async () => {
    const many = Array.from({ length: POST_CARDS_MAX + 1 }, () => randomUUID()).join(',');
    for (const ids of ['abc', `${randomUUID()},nope`, '', many]) {
      const res = await call(t, { method: 'GET', url: `/api/posts/cards?ids=${ids}` });
      expect(res.statusCode, ids.slice(0, 40)).toBe(400);
      expect(res.json()).toEqual({ error: { code: expect.any(String), message: expect.any(String) } });
    }
    expect((await call(t, { method: 'GET', url: '/api/posts/cards' })).statusCode).toBe(400);
    const exactly = Array.from({ length: POST_CARDS_MAX }, () => randomUUID()).join(',');
    const res = await call(t, { method: 'GET', url: `/api/posts/cards?ids=${exactly}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ posts: [] });
  });

  it("scopes the changes poll's deletions to its view: deleted, swept, expiring and hidden posts", async () => {
    const author = await createUser(t);
    const { accessToken } = await login(t, author.email, author.password);
    const ages = { ageSeconds: 300 };
    const [parisDeleted, lyonDeleted] = await insertPosts([
      { latitude: 48.851, longitude: 2.301, ...ages, userId: author.id },
      { latitude: 45.751, longitude: 4.801, ...ages },
    ]);
    const [parisSwept, lyonSwept, parisHidden, lyonHidden] = await insertPosts([
      { latitude: 48.852, longitude: 2.312 },
      { latitude: 45.752, longitude: 4.802 },
      { latitude: 48.853, longitude: 2.313 },
      { latitude: 45.753, longitude: 4.803 },
    ]);
    const [parisExpiring, lyonExpiring] = await insertPosts([
      { latitude: 48.854, longitude: 2.304, ageSeconds: 24 * 3600 + 5 },
      { latitude: 45.754, longitude: 4.804, ageSeconds: 24 * 3600 + 5 },
    ]);
    // Now, its clock 20 s back: the posts that expired 5 s ago are in its window.
    const since = encodeCursor(await dbCursor(-20_000));
    expect(
      (await call(t, { method: 'DELETE', url: `/api/posts/${parisDeleted}`, token: accessToken })).statusCode,
    ).toBe(204);
    await t.database.db.execute(sql`delete from publications where id = ${lyonDeleted}`); // no tombstone: stands for an old row
    await t.database.db.execute(sql`insert into post_tombstones (post_id) values (${lyonDeleted})`);
    await t.database.db.execute(
      sql`update publications set created_at = now() - interval '24 hours 1 minute' where id in (${parisSwept}, ${lyonSwept})`,
    );
    await t.database.db.execute(
      sql`update publications set hidden_state = 'removed' where id in (${parisHidden}, ${lyonHidden})`,
    );
    await sweepExpired(t.database.db);

    const parisView = 'west=2.2&south=48.8&east=2.5&north=48.95';
    const res = await call(t, {
      method: 'GET',
      url: `/api/posts/changes?since=${encodeURIComponent(since)}&${parisView}`,
    });
    expect(res.statusCode).toBe(200);
    const deleted = res.json().deleted as string[];
    expect(deleted).toEqual(expect.arrayContaining([parisDeleted, parisSwept, parisHidden, parisExpiring]));
    for (const far of [lyonSwept, lyonHidden, lyonExpiring]) expect(deleted).not.toContain(far);
    // A tombstone without a position (written before they had one) still reaches every view.
    expect(deleted).toContain(lyonDeleted);
    // The whole world's poll hears of all of them.
    const world = (await changes(since)).json().deleted as string[];
    expect(world).toEqual(
      expect.arrayContaining([
        parisDeleted,
        parisSwept,
        parisHidden,
        parisExpiring,
        lyonSwept,
        lyonHidden,
        lyonExpiring,
      ]),
    );
  });

  it("scopes the changes poll's new posts to its view", async () => {
    const since = encodeCursor(await dbCursor());
    const [paris, lyon] = await insertPosts([
      { latitude: 48.8566, longitude: 2.3522, ageSeconds: 0 },
      { latitude: 45.764, longitude: 4.8357, ageSeconds: 0 },
    ]);
    const parisView = 'west=2.2&south=48.8&east=2.5&north=48.95';
    const res = await call(t, {
      method: 'GET',
      url: `/api/posts/changes?since=${encodeURIComponent(since)}&${parisView}`,
    });
    expect(res.statusCode).toBe(200);
    const ids = (res.json().created as Array<{ id: string }>).map((p) => p.id);
    expect(ids).toContain(paris);
    expect(ids).not.toContain(lyon);
    expect(Object.keys(res.json().created[0]).sort()).toEqual([
      'category',
      'createdAt',
      'hasPulseEffect',
      'id',
      'latitude',
      'longitude',
      'nickname',
      'photoUrl',
      'userId',
    ]);
    const world = await call(t, { method: 'GET', url: `/api/posts/changes?since=${encodeURIComponent(since)}` });
    expect((world.json().created as Array<{ id: string }>).map((p) => p.id)).toEqual(
      expect.arrayContaining([paris, lyon]),
    );
    // A partial view is refused.
    const partial = await call(t, {
      method: 'GET',
      url: `/api/posts/changes?since=${encodeURIComponent(since)}&west=2`,
    });
    expect(partial.statusCode).toBe(400);
    expect(partial.json().error.message).toBe('Coordonnées de localisation invalides');
  });

  it('keeps the cell counts equal to a brute-force count of the posts after inserts, deletes and expiry', async () => {
    const author = await createUser(t);
    const { accessToken } = await login(t, author.email, author.password);
    const random = (i: number) => ({
      latitude: -60 + ((i * 37) % 140) + (i % 7) * 0.013,
      longitude: -179 + ((i * 53) % 358) + (i % 5) * 0.021,
    });
    const ids = await insertPosts(
      Array.from({ length: 300 }, (_, i) => ({ ...random(i), ageSeconds: i % 10 === 0 ? 24 * 3600 - 30 : 300 })),
    );
    const [own] = await insertPosts([{ latitude: 12.5, longitude: 12.5, userId: author.id }]);
    // The same arithmetic, brute force over publications (every stored row that is not hidden by moderation).
    const differences = async () =>
      (
        await t.database.db.execute(sql`
      with brute as (
        select k.zoom, k.cx, k.cy, p.category, count(*)::int as n, sum(p.latitude::numeric) as sum_lat, sum(p.longitude::numeric) as sum_lon
        from publications p, post_cell_keys(p.latitude, p.longitude) k where p.hidden_state is null group by 1, 2, 3, 4
      )
      select count(*)::int as n from (
        (select * from brute except select zoom, cx, cy, category, n, sum_lat, sum_lon from post_cells)
        union all
        (select zoom, cx, cy, category, n, sum_lat, sum_lon from post_cells except select * from brute)
      ) d`)
      ).rows[0];
    expect(await differences()).toEqual({ n: 0 });
    // Deleted by the API and behind it, several in one statement.
    expect((await call(t, { method: 'DELETE', url: `/api/posts/${own}`, token: accessToken })).statusCode).toBe(204);
    await t.database.db.execute(sql`delete from publications where id in (${ids[1]}, ${ids[2]}, ${ids[3]})`);
    expect(await differences()).toEqual({ n: 0 });
    // Expired and swept: the cells lose them, and the world's clusters count exactly the live posts.
    await t.database.db.execute(
      sql`update publications set created_at = now() - interval '25 hours' where id in (${ids[0]}, ${ids[10]}, ${ids[20]})`,
    );
    await sweepExpired(t.database.db);
    expect(await differences()).toEqual({ n: 0 });
    const live = (
      await t.database.db.execute(
        sql`select count(*)::int as n from publications where created_at > now() - interval '24 hours' and hidden_state is null`,
      )
    ).rows[0];
    const world = await answer({ west: -180, south: -85, east: 180, north: 85, zoom: 2 });
    expect({ n: total(world) }).toEqual(live);
  });

  it("shows an author's new photo on their marker in the next answer, not a stale cached one", async () => {
    const author = await createUser(t);
    const { accessToken } = await login(t, author.email, author.password);
    const [own] = await insertPosts([{ latitude: -30.5, longitude: -50.5, userId: author.id }]);
    const view = { west: -51, south: -31, east: -50, north: -30, zoom: 10 };
    const before = (await answer(view)).points.find((p) => p.id === own);
    expect(before?.photoUrl).toBeNull();
    const form = multipart([
      { name: 'file', file: { filename: 'moi.jpg', contentType: 'image/jpeg', body: await photo(300, 300) } },
    ]);
    const uploaded = await call(t, {
      method: 'POST',
      url: '/api/profiles/me/photo',
      token: accessToken,
      payload: form.payload,
      headers: form.headers,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const stored = await t.database.db.execute(sql`select profile_photo_url from profiles where id = ${author.id}`);
    const photoUrl = stored.rows[0]?.profile_photo_url;
    await expect.poll(async () => (await answer(view)).points.find((p) => p.id === own)?.photoUrl).toBe(photoUrl);
    expect(photoUrl).toEqual(expect.any(String));
  });

  it('refuses bad views with the French text', async () => {
    const good = { west: 0, south: 0, east: 1, north: 1, zoom: 10 };
    const bad: Array<Record<string, string | number>> = [
      { ...good, south: -91 },
      { ...good, north: 90.5 },
      { ...good, south: 2, north: 1 },
      { ...good, zoom: 23 },
      { ...good, zoom: -1 },
      { ...good, west: 'abc' },
      { ...good, east: 'Infinity' },
      { ...good, east: '' },
      { west: 0, south: 0, east: 1, north: 1 },
    ];
    for (const query of bad) {
      const res = await viewport(query);
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json().error.message).toBe('Coordonnées de localisation invalides');
    }
    const mood = await viewport({ ...good, moods: 'happy,sad' });
    expect(mood.statusCode).toBe(400);
    expect(mood.json().error.message).toBe('Catégorie invalide');
  });

  it('tells what changed since a cursor: new posts, deleted ones, swept ones', async () => {
    const author = await createUser(t);
    const { accessToken } = await login(t, author.email, author.password);
    const region = { west: 100, south: 60, east: 101, north: 61, zoom: 10 };
    const [old] = await insertPosts([{ latitude: 60.5, longitude: 100.5 }]);
    const { cursor: first } = await answer(region);

    const [fresh] = await insertPosts([{ latitude: 60.4, longitude: 100.4, ageSeconds: 0, userId: author.id }]);
    const one = await changes(first);
    expect(one.statusCode).toBe(200);
    expect(changesResponseSchema.parse(one.json())).toEqual(one.json());
    const afterCreate = one.json() as { created: Array<{ id: string }>; deleted: string[]; cursor: string };
    expect(afterCreate.created.map((p) => p.id)).toContain(fresh);
    expect(afterCreate.created.map((p) => p.id)).not.toContain(old);
    expect(afterCreate.deleted).not.toContain(fresh);

    // Deleted by its author.
    expect((await call(t, { method: 'DELETE', url: `/api/posts/${fresh}`, token: accessToken })).statusCode).toBe(204);
    const afterDelete = (await changes(afterCreate.cursor)).json() as {
      created: Array<{ id: string }>;
      deleted: string[];
      cursor: string;
    };
    expect(afterDelete.deleted).toContain(fresh);
    expect(afterDelete.created.map((p) => p.id)).not.toContain(fresh);

    // Expired and swept: the sweeper leaves a tombstone.
    await t.database.db.execute(
      sql`update publications set created_at = now() - interval '24 hours 1 minute' where id = ${old}`,
    );
    await sweepExpired(t.database.db);
    expect((await t.database.db.execute(sql`select 1 from publications where id = ${old}`)).rows).toHaveLength(0);
    const afterSweep = (await changes(afterDelete.cursor)).json() as { deleted: string[] };
    expect(afterSweep.deleted).toContain(old);
  });

  it('lists posts that expired since the cursor even before the sweeper runs', async () => {
    const [expiring] = await insertPosts([{ latitude: 61.5, longitude: 101.5, ageSeconds: 24 * 3600 + 5 }]);
    const now = decodeCursor((await answer({ west: 0, south: 0, east: 1, north: 1, zoom: 10 })).cursor);
    const before = encodeCursor({ ...now, time: new Date(now.time.getTime() - 10_000) }); // it expired 5 s ago, after this cursor
    const res = await changes(before);
    expect(res.statusCode).toBe(200);
    expect(res.json().deleted).toContain(expiring);
    // From a cursor taken after it expired it is not listed again (unless the app's own sweeper
    // has run since and left a tombstone, which is listed: duplicates are harmless).
    const later = (await changes(encodeCursor(now))).json() as { deleted: string[] };
    const tombstone = await t.database.db.execute(sql`select 1 from post_tombstones where post_id = ${expiring}`);
    if (tombstone.rows.length === 0) expect(later.deleted).not.toContain(expiring);
  });

  it('prunes tombstones after 25 hours', async () => {
    const id = randomUUID();
    await t.database.db.execute(
      sql`insert into post_tombstones (post_id, deleted_at) values (${id}, now() - interval '25 hours 1 second')`,
    );
    await sweepExpired(t.database.db);
    const left = await t.database.db.execute(sql`select 1 from post_tombstones where post_id = ${id}`);
    expect(left.rows).toHaveLength(0);
  });

  it('answers 410 for a cursor older than 24 hours, 400 for a forged one', async () => {
    const now = decodeCursor((await answer({ west: 0, south: 0, east: 1, north: 1, zoom: 10 })).cursor);
    const stale = await changes(encodeCursor({ ...now, time: new Date(now.time.getTime() - 24 * 3600_000 - 60_000) }));
    expect(stale.statusCode).toBe(410);
    expect(stale.json().error.code).toBe('cursor_expired');
    // A cursor of the former kind (a time only) makes the client reload its view.
    const legacy = await changes(Buffer.from(`t:${now.time.toISOString()}`).toString('base64url'));
    expect(legacy.statusCode).toBe(410);
    expect(legacy.json().error.code).toBe('cursor_expired');
    const forgedSnapshots = ['0:0:', '10:5:', '5:10:12', '5:10:7,6', `1:${'9'.repeat(20)}:`, '1:2:x'];
    for (const forged of [
      '',
      'abc',
      Buffer.from('t:hier').toString('base64url'),
      ...forgedSnapshots.map((snap) => Buffer.from(`s:1:${snap}`).toString('base64url')),
    ]) {
      expect((await changes(forged)).statusCode, forged).toBe(400);
    }
    expect((await call(t, { method: 'GET', url: '/api/posts/changes' })).statusCode).toBe(400);
  });
});
