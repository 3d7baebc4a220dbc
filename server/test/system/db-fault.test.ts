/**
 * PostgreSQL going away under the API: connections terminated during
 * transactional writes, and a database that cannot be reached at all. The process must live,
 * every answer must be a normal one or a 503 in the API's shape, and the API must serve again
 * as soon as the database is back.
 */
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'drizzle-orm';
import { MESSAGES } from '@moodmap/core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { testConfig } from '../../src/config.ts';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { isDatabaseUnavailable } from '../../src/db/connection-errors.ts';
import { call, createAuthTestApp, createClock, type AuthTestApp } from '../helpers/auth.ts';
import { createPostgresDatabase, engines } from '../helpers/databases.ts';
import { answersReach, createTcpProxy, terminateBackends, type TcpProxy } from '../helpers/db-faults.ts';
import { geoFixture } from '../helpers/geo-fixture.ts';
import { member, publish, type Member } from '../interactions/fixtures.ts';
import { multipart, photo } from '../media/fixtures.ts';

/** What a caller may receive while the database comes and goes: never a 500, never another shape. */
function unexpected(res: LightMyRequestResponse): string | null {
  const what = `${res.statusCode} ${res.body.slice(0, 200)}`;
  if (res.statusCode >= 200 && res.statusCode < 300) return null;
  if (res.statusCode === 503) {
    const body = res.json();
    const ok =
      body?.error?.code === 'database_error' &&
      body.error.message === MESSAGES.database_error &&
      res.headers['retry-after'] === '1';
    return ok ? null : what;
  }
  if (res.statusCode >= 400 && res.statusCode < 500) {
    const body = res.json();
    return typeof body?.error?.code === 'string' && typeof body.error.message === 'string' ? null : what;
  }
  return what;
}

/** Records what reaches the process's last-resort handlers while `run` goes on. */
async function watchProcess(run: () => Promise<void>): Promise<unknown[]> {
  const escaped: unknown[] = [];
  const record = (error: unknown) => escaped.push(error);
  process.on('uncaughtException', record);
  process.on('unhandledRejection', record);
  try {
    await run();
    // An 'error' emitted on a client after its last query settled surfaces a tick later.
    await new Promise((r) => setTimeout(r, 200));
  } finally {
    process.off('uncaughtException', record);
    process.off('unhandledRejection', record);
  }
  return escaped;
}

const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)];

describe.runIf(engines.includes('postgres'))('PostgreSQL connections terminated during transactional writes', () => {
  let t: AuthTestApp;
  let members: Member[];
  let posts: string[];
  let avatar: Buffer;
  beforeAll(async () => {
    t = await createAuthTestApp('postgres');
    members = await Promise.all(Array.from({ length: 6 }, (_, i) => member(t, `Membre${i}`)));
    posts = [];
    for (const m of members) posts.push((await publish(t, m.token)).id);
    avatar = await photo(160, 160);
  }, 60_000);
  afterAll(() => t?.close());

  const like = (m: Member, postId: string) =>
    call(t, { method: 'POST', url: `/api/posts/${postId}/like`, token: m.token });
  const comment = (m: Member, postId: string) =>
    call(t, {
      method: 'POST',
      url: `/api/posts/${postId}/comments`,
      token: m.token,
      payload: { content: 'Toujours là ?' },
    });
  // The member already has a live post: the create runs its transaction (advisory lock, check) and answers 409.
  const createPost = (m: Member) =>
    call(t, {
      method: 'POST',
      url: '/api/posts',
      token: m.token,
      payload: { category: 'happy', content: 'Encore', latitude: -20.8789, longitude: 55.4481 },
    });
  const replacePhoto = (m: Member) => {
    const form = multipart([{ name: 'file', file: { filename: 'moi.jpg', contentType: 'image/jpeg', body: avatar } }]);
    return call(t, {
      method: 'POST',
      url: '/api/profiles/me/photo',
      token: m.token,
      payload: form.payload,
      headers: form.headers,
    });
  };

  it('keeps the process alive, answers 2xx/4xx or a French 503, and serves again once the drops stop', async () => {
    const answers: LightMyRequestResponse[] = [];
    let killed = 0;
    const escaped = await watchProcess(async () => {
      let stop = false;
      const writers = [
        ...Array.from({ length: 3 }, () => () => like(pick(members), pick(posts))),
        // Comments and uploads are rate-limited per user (a correct 429 once a fast machine sends
        // enough): the first member keeps her allowance for the check afterwards.
        ...Array.from({ length: 2 }, () => () => comment(pick(members.slice(1)), pick(posts))),
        () => createPost(pick(members)),
        () => replacePhoto(pick(members.slice(1))),
      ].map(async (write) => {
        while (!stop) answers.push(await write());
      });
      try {
        for (let round = 0; round < 10; round++) {
          // Between two drops, every writer has had an answer.
          await answersReach(answers, answers.length + writers.length);
          killed += (await terminateBackends(t.database.connectionString!)).length;
        }
      } finally {
        stop = true;
        await Promise.all(writers);
      }
    });

    const statuses = answers.reduce<Record<number, number>>(
      (acc, r) => ({ ...acc, [r.statusCode]: (acc[r.statusCode] ?? 0) + 1 }),
      {},
    );
    console.log(`db-fault: ${killed} backends terminated, ${answers.length} answers`, statuses);
    expect(escaped).toEqual([]);
    expect(killed).toBeGreaterThan(0);
    expect(answers.map(unexpected).filter(Boolean)).toEqual([]);

    // Back to normal at once: no retry needed.
    const [m, postId] = [members[0], posts[1]];
    expect((await like(m, postId)).statusCode).toBe(200);
    expect((await comment(m, postId)).statusCode).toBe(201);
    expect((await replacePhoto(m)).statusCode).toBe(200);
    expect((await call(t, { method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  }, 60_000);
});

describe.runIf(engines.includes('postgres'))('PostgreSQL unreachable (behind a proxy that is cut)', () => {
  let proxy: TcpProxy;
  let t: AuthTestApp;
  let dropDatabase: () => Promise<void>;
  beforeAll(async () => {
    const created = await createPostgresDatabase();
    dropDatabase = created.drop;
    proxy = await createTcpProxy(created.url);
    const database = await openDatabase({ databaseUrl: proxy.via(created.url), poolSize: 4 });
    const config = testConfig({ publicUrl: 'http://moodmap.test' });
    const clock = createClock();
    const app = await buildApp(config, { database, now: clock.now, geo: geoFixture() });
    await app.ready();
    t = {
      app,
      database,
      config,
      clock,
      close: async () => {
        await app.close();
        await database.close();
      },
    };
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await dropDatabase?.();
  });
  afterEach(() => proxy.restore());

  it('answers 503 in French while the database is down, and serves as soon as it is back', async () => {
    const lea = await member(t, 'Léa');
    const post = await publish(t, lea.token);
    await proxy.cut();

    const escaped = await watchProcess(async () => {
      const health = await call(t, { method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(503);
      expect(health.json()).toEqual({ status: 'degraded', database: { engine: 'postgres', reachable: false } });

      for (const request of [
        { method: 'POST' as const, url: `/api/posts/${post.id}/like` },
        { method: 'POST' as const, url: `/api/posts/${post.id}/comments`, payload: { content: 'Il y a quelqu’un ?' } },
        { method: 'GET' as const, url: `/api/posts/${post.id}` },
        { method: 'GET' as const, url: `/api/posts/${post.id}/comments` },
      ]) {
        const res = await call(t, { ...request, token: lea.token });
        expect(res.statusCode, `${request.method} ${request.url}`).toBe(503);
        expect(res.headers['retry-after']).toBe('1');
        expect(res.json()).toEqual({ error: { code: 'database_error', message: MESSAGES.database_error } });
      }
    });
    expect(escaped).toEqual([]);

    await proxy.restore();
    expect((await call(t, { method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect(
      (await call(t, { method: 'POST', url: `/api/posts/${post.id}/like`, token: lea.token })).json(),
    ).toMatchObject({ likesCount: 1 });
    expect(
      (
        await call(t, {
          method: 'POST',
          url: `/api/posts/${post.id}/comments`,
          token: lea.token,
          payload: { content: 'Me revoilà' },
        })
      ).statusCode,
    ).toBe(201);
  });

  describe('a transaction whose connection drops during `begin`', () => {
    let database: Database;
    // Its own pool of two through the same proxy, so nothing else takes its connections.
    beforeEach(async () => {
      database = await openDatabase({ databaseUrl: t.database.connectionString!, poolSize: 2 });
    });
    afterEach(() => database?.close());

    it('gives its connection back: more such failures than the pool holds, and the next transaction still runs', async () => {
      for (let round = 0; round < 3; round++) {
        await database.db.execute(sql`select 1`); // an idle pooled connection for the transaction to take
        const begun = proxy.silenceLiveConnections();
        const outcome = database.db
          .transaction(async (tx) => {
            await tx.execute(sql`select 1`);
          })
          .then(
            () => 'committed',
            (error: unknown) => error,
          );
        await begun; // `begin` is written, and never answered
        await proxy.cut();
        expect(isDatabaseUnavailable(await outcome)).toBe(true);
        await proxy.restore();
      }
      const committed = await database.db.transaction(
        async (tx) => (await tx.execute(sql`select 42 as answer`)).rows[0],
      );
      expect(committed).toEqual({ answer: 42 });
    }, 20_000);
  });
});
