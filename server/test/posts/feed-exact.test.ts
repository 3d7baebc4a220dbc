/**
 * The map feed written by PostgreSQL and its exact changes cursor:
 * - the markers of the viewport and changes answers, written as JSON by SQL, are the values
 *   toMarkerDto makes of the same rows (approximate posts, odd nicknames, photos, pulse);
 * - a poll repeated with each answer's cursor sends every new post and deletion once;
 * - a post whose transaction commits after a poll, with a created_at older than that poll, still
 *   reaches the next one (what the former 2 s time overlap was for, whatever the delay now);
 * - a zoomed-out view reads its cell counts and its cursor in one statement (one round trip, and
 *   the cursor is the counts' own snapshot), an empty view included.
 * Posts are inserted straight into the database; each test works in its own stretch of the map.
 */
import { randomUUID } from 'node:crypto';
import { inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { changesResponseSchema, viewportResponseSchema, type MarkerDto } from '@moodmap/core';
import { markerColumns, posts } from '../../src/modules/posts/data.ts';
import { toMarkerDto } from '../../src/modules/posts/dto.ts';
import { call, createUser, login } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';

interface NewPost {
  latitude: number;
  longitude: number;
  ageSeconds?: number;
  userId?: string;
  nickname?: string;
  photoUrl?: string | null;
  pulse?: boolean;
  /** The exact point of an approximate post ('Position approximative'). */
  exact?: { latitude: number; longitude: number };
}

describe.each(engines)('the feed written by SQL, and its exact cursor, on %s', (engine) => {
  const t = suiteAuthApp(engine);

  async function insertPosts(list: NewPost[], db = t.database.db): Promise<string[]> {
    const ids: string[] = [];
    for (const [i, p] of list.entries()) {
      const id = randomUUID();
      let userId = p.userId;
      if (!userId) {
        userId = randomUUID();
        await db.execute(
          sql`insert into users (id, email, password_hash) values (${userId}, ${`${userId}@exact.test`}, 'x')`,
        );
        await db.execute(
          sql`insert into profiles (id, username) values (${userId}, ${`membre ${userId.slice(0, 6)}`})`,
        );
      }
      await db.execute(sql`
        insert into publications (id, user_id, category, content, latitude, longitude, nickname, author_photo_url, has_pulse_effect,
          exact_latitude, exact_longitude, created_at)
        values (${id}, ${userId}, ${(['happy', 'angry', 'party', 'money', 'love'] as const)[i % 5]}, 'Bonjour', ${p.latitude}, ${p.longitude},
          ${p.nickname ?? 'membre'}, ${p.photoUrl ?? null}, ${p.pulse ?? false}, ${p.exact?.latitude ?? null}, ${p.exact?.longitude ?? null},
          now() - ${p.ageSeconds ?? 300} * interval '1 second')`);
      ids.push(id);
    }
    return ids;
  }

  const get = (url: string) => call(t, { method: 'GET', url });
  const query = (q: Record<string, number | string>) =>
    new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)])).toString();

  /** What the former code sent: the rows through Drizzle's driver types and toMarkerDto. */
  async function markersOf(ids: string[]): Promise<MarkerDto[]> {
    const rows = await t.database.db.select(markerColumns).from(posts).where(inArray(posts.id, ids));
    return rows.map(toMarkerDto);
  }

  it('writes the markers of the viewport, its clusters and the changes poll as toMarkerDto did', async () => {
    // (At zoom 11: the zoom 10 answer is read below, after the inserts, which no bus event announces.)
    const since = (
      await get(`/api/posts/viewport?${query({ west: 40, south: 10, east: 41, north: 11, zoom: 11 })}`)
    ).json().cursor as string;
    const ids = await insertPosts([
      {
        latitude: 10.123456789012344,
        longitude: 40.98765432109876,
        nickname: 'Zoé "la" \\ joie\n😀 <b>',
        photoUrl: '/media/p/a"b.jpg',
        pulse: true,
      },
      { latitude: 10.5, longitude: 40.5, exact: { latitude: 10.5012345, longitude: 40.4987654 }, nickname: 'Léa' },
      { latitude: 10.25, longitude: 40.0000001, ageSeconds: 0.0004567, nickname: 'tab\there\u0001' },
      { latitude: 10.75, longitude: 40.75, photoUrl: 'https://cdn.example/é.webp', ageSeconds: 86_000 },
    ]);
    const expected = await markersOf(ids);
    const byId = (list: MarkerDto[]) => Object.fromEntries(list.map((m) => [m.id, m]));

    const res = await get(`/api/posts/viewport?${query({ west: 40, south: 10, east: 41, north: 11, zoom: 10 })}`);
    expect(res.statusCode).toBe(200);
    const answer = viewportResponseSchema.parse(res.json());
    expect(answer).toEqual(res.json());
    expect(byId(answer.points)).toEqual(byId(expected));
    // The same fields in the same order, newest first.
    for (const point of res.json().points as MarkerDto[]) expect(Object.keys(point)).toEqual(Object.keys(expected[0]!));
    expect(answer.points.map((p) => p.createdAt)).toEqual([...answer.points.map((p) => p.createdAt)].sort().reverse());

    // A lone post in a zoomed-out cell is the same marker.
    const [lone] = await insertPosts([{ latitude: -40.5, longitude: -60.5, nickname: 'seul·e', pulse: true }]);
    const world = viewportResponseSchema.parse(
      (await get(`/api/posts/viewport?${query({ west: -61, south: -41, east: -60, north: -40, zoom: 5 })}`)).json(),
    );
    expect(world.points).toEqual(await markersOf([lone!]));

    // The changes poll writes them the same way.
    const changes = await get(
      `/api/posts/changes?since=${encodeURIComponent(since)}&${query({ west: 40, south: 10, east: 41, north: 11 })}`,
    );
    expect(changes.statusCode).toBe(200);
    expect(changes.headers['content-type']).toMatch(/^application\/json/);
    const parsed = changesResponseSchema.parse(changes.json());
    expect(parsed).toEqual(changes.json());
    expect(byId(parsed.created)).toEqual(byId(expected));
  });

  it('sends each new post and each deletion once along a chain of polls, posts at the boundary included', async () => {
    const author = await createUser(t);
    const { accessToken } = await login(t, author.email, author.password);
    const view = query({ west: 50, south: 20, east: 51, north: 21 });
    let cursor = (
      await get(`/api/posts/viewport?${query({ west: 50, south: 20, east: 51, north: 21, zoom: 10 })}`)
    ).json().cursor as string;
    const seenCreated: string[] = [];
    const seenDeleted: string[] = [];
    const poll = async () => {
      const res = await get(`/api/posts/changes?since=${encodeURIComponent(cursor)}&${view}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = changesResponseSchema.parse(res.json());
      seenCreated.push(...body.created.map((p) => p.id));
      seenDeleted.push(...body.deleted);
      cursor = body.cursor;
    };
    const created: string[] = [];
    for (let round = 0; round < 4; round++) {
      // Fresh posts (created this very millisecond, the old overlap's worst case) and back-dated ones.
      created.push(
        ...(await insertPosts([
          { latitude: 20.1 + round / 10, longitude: 50.1, ageSeconds: 0 },
          { latitude: 20.15 + round / 10, longitude: 50.2, ageSeconds: 1 },
        ])),
      );
      await poll();
      await poll(); // nothing new: nothing sent
    }
    const [own] = await insertPosts([{ latitude: 20.9, longitude: 50.9, ageSeconds: 0, userId: author.id }]);
    created.push(own!);
    await poll();
    expect((await call(t, { method: 'DELETE', url: `/api/posts/${own}`, token: accessToken })).statusCode).toBe(204);
    await poll();
    await poll();
    expect([...seenCreated].sort()).toEqual([...created].sort());
    expect(seenDeleted).toEqual([own]);
  });

  it('catches a post whose transaction commits after a poll, with a created_at older than that poll', async () => {
    const view = query({ west: 60, south: 30, east: 61, north: 31 });
    const start = (
      await get(`/api/posts/viewport?${query({ west: 60, south: 30, east: 61, north: 31, zoom: 10 })}`)
    ).json().cursor as string;
    const changes = async (since: string) => {
      const res = await get(`/api/posts/changes?since=${encodeURIComponent(since)}&${view}`);
      expect(res.statusCode, res.body).toBe(200);
      return changesResponseSchema.parse(res.json());
    };
    let late: string;
    let between: Awaited<ReturnType<typeof changes>>;
    if (t.database.pool) {
      // PostgreSQL: a real concurrent transaction, open while the poll runs, stamped 10 s back.
      const client = await t.database.pool.connect();
      try {
        await client.query('begin');
        late = randomUUID();
        const userId = randomUUID();
        await client.query(`insert into users (id, email, password_hash) values ($1, $2, 'x')`, [
          userId,
          `${userId}@late.test`,
        ]);
        await client.query(`insert into profiles (id, username) values ($1, 'en retard')`, [userId]);
        await client.query(
          `insert into publications (id, user_id, category, content, latitude, longitude, nickname, created_at)
          values ($1, $2, 'love', 'Bonjour', 30.5, 60.5, 'en retard', now() - interval '10 seconds')`,
          [late, userId],
        );
        between = await changes(start);
        await client.query('commit');
      } finally {
        client.release();
      }
    } else {
      // PGlite has one connection: the post is written after the poll, stamped 10 s before it.
      between = await changes(start);
      [late] = await insertPosts([{ latitude: 30.5, longitude: 60.5, ageSeconds: 10 }]);
    }
    expect(between.created.map((p) => p.id)).not.toContain(late!);
    const next = await changes(between.cursor);
    expect(next.created.map((p) => p.id)).toEqual([late!]);
    // And only once.
    expect((await changes(next.cursor)).created).toEqual([]);
  });
  it('reads a zoomed-out view in one statement: counts and cursor together, an empty view included', async () => {
    // Two posts in one cell: a cluster, no lone post to read a marker for.
    await insertPosts([
      { latitude: 40.5, longitude: 70.5 },
      { latitude: 40.51, longitude: 70.51 },
    ]);
    const url = (west: number) =>
      `/api/posts/viewport?${query({ west, south: 39, east: west + 3, north: 42, zoom: 5 })}`;
    const statements = { n: 0 };
    const count = () => {
      statements.n++;
    };
    t.database.pool?.on('acquire', count);
    try {
      const res = await get(url(69));
      expect(res.statusCode, res.body).toBe(200);
      const body = viewportResponseSchema.parse(res.json());
      expect(body.clusters.map((c) => c.count)).toEqual([2]);
      if (t.database.pool) expect(statements.n).toBe(1);
      // A view with no post at all still has a cursor, which the changes poll takes.
      const empty = viewportResponseSchema.parse((await get(url(-150))).json());
      expect([empty.points, empty.clusters]).toEqual([[], []]);
      const changes = await get(`/api/posts/changes?since=${encodeURIComponent(empty.cursor)}`);
      expect(changes.statusCode, changes.body).toBe(200);
    } finally {
      t.database.pool?.off('acquire', count);
    }
  });
});
