/**
 * A photo change beside the same member's comment or like being written (PostgreSQL: PGlite runs
 * one statement at a time). A comment locks its post first (is it live?), then inserts the comment,
 * whose foreign key takes a KEY SHARE lock on the author's profile row. A photo change locks that
 * profile row, then rewrites the member's posts' marker photo: were its lock FOR UPDATE, on the
 * member's own post each would wait for the other and PostgreSQL would fail one with a deadlock.
 * It takes FOR NO KEY UPDATE, the level PostgreSQL's own UPDATE of a non-key column takes, which
 * foreign keys do not wait for.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createAuthTestApp, type AuthTestApp } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { member, publish, type Member } from '../interactions/fixtures.ts';
import { multipart, photo } from '../media/fixtures.ts';

describe.runIf(engines.includes('postgres'))('a photo change while the same member comments on their own post', () => {
  let t: AuthTestApp;
  let m: Member;
  let postId: string;
  let avatar: Buffer;
  beforeAll(async () => {
    t = await createAuthTestApp('postgres');
    m = await member(t, 'Maëlle');
    postId = (await publish(t, m.token)).id;
    avatar = await photo(160, 160);
  }, 60_000);
  afterAll(() => t?.close());

  it('lets both finish: the photo change answers 200 and the comment is stored', async () => {
    const writer = new pg.Client({ connectionString: t.database.connectionString! });
    await writer.connect();
    try {
      // The comment's transaction as comments/data.ts runs it: the post locked first.
      await writer.query('begin');
      await writer.query('select id from publications where id = $1 for update', [postId]);

      const form = multipart([
        { name: 'file', file: { filename: 'moi.jpg', contentType: 'image/jpeg', body: avatar } },
      ]);
      const change = call(t, {
        method: 'POST',
        url: '/api/profiles/me/photo',
        token: m.token,
        payload: form.payload,
        headers: form.headers,
      });
      // The photo change has reached the post: it waits for the comment's lock on it.
      await waitFor(
        async () =>
          (
            await writer.query<{ n: number }>(
              "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
            )
          ).rows[0]!.n > 0,
      );

      // Then the comment row: its foreign key to the member's profile must not wait on the photo change.
      await writer.query("set local lock_timeout = '3s'");
      await writer.query('insert into comments (publication_id, user_id, content) values ($1, $2, $3)', [
        postId,
        m.id,
        'Ma photo change !',
      ]);
      await writer.query('commit');

      expect((await change).statusCode).toBe(200);
      const stored = await writer.query('select content from comments where publication_id = $1', [postId]);
      expect(stored.rows).toEqual([{ content: 'Ma photo change !' }]);
    } finally {
      await writer.end();
    }
  }, 30_000);
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('the photo change never reached the post');
    await new Promise((r) => setTimeout(r, 20));
  }
}
