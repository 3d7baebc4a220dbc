/**
 * A database that refuses new connections (`ALTER DATABASE … ALLOW_CONNECTIONS false`, as an
 * operator does during maintenance): PostgreSQL answers each connect with SQLSTATE 55000, and the
 * API must answer the French 503 of an unreachable database, not a 500.
 */
import pg from 'pg';
import { MESSAGES } from '@moodmap/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createAuthTestApp, type AuthTestApp } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { terminateBackends } from '../helpers/db-faults.ts';
import { member, publish, type Member } from '../interactions/fixtures.ts';

/** Runs `statement` on TEST_DATABASE_URL's database (the test database itself may refuse connections). */
async function onServer(statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

describe.runIf(engines.includes('postgres'))('PostgreSQL refusing connections to the database', () => {
  let t: AuthTestApp;
  let lea: Member;
  let postId: string;
  let name: string;
  beforeAll(async () => {
    t = await createAuthTestApp('postgres');
    name = new URL(t.database.connectionString ?? '').pathname.slice(1);
    lea = await member(t, 'Léa');
    postId = (await publish(t, lea.token)).id;
  }, 60_000);
  afterAll(async () => {
    await onServer(`alter database ${name} allow_connections true`).catch(() => {});
    await t?.close();
  });

  it('answers the French 503 with Retry-After, then serves again once connections are allowed', async () => {
    // The pool's open connections would still work: end them, then refuse new ones.
    await terminateBackends(t.database.connectionString ?? '');
    await onServer(`alter database ${name} allow_connections false`);
    for (const request of [
      { method: 'GET' as const, url: `/api/posts/${postId}` },
      { method: 'POST' as const, url: `/api/posts/${postId}/like` },
      { method: 'POST' as const, url: `/api/posts/${postId}/comments`, payload: { content: 'Il y a quelqu’un ?' } },
    ]) {
      const res = await call(t, { ...request, token: lea.token });
      expect(res.statusCode, `${request.method} ${request.url}: ${res.body}`).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.json()).toEqual({ error: { code: 'database_error', message: MESSAGES.database_error } });
    }

    await onServer(`alter database ${name} allow_connections true`);
    expect(
      (await call(t, { method: 'POST', url: `/api/posts/${postId}/like`, token: lea.token })).json(),
    ).toMatchObject({ likesCount: 1 });
  });
});
