/**
 * Which reports hide a post: only those of confirmed accounts a day old, one per network (IPv4
 * /24, IPv6 /48); the others still reach the queue. Reports are rate-limited per account and per
 * address.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call } from '../helpers/auth.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { member, publish, type Member } from '../interactions/fixtures.ts';
import { networkPrefix } from '../../src/modules/reports/network.ts';
import { as, staff } from './fixtures.ts';

const VIEW = { west: 55.4, south: -20.9, east: 55.5, north: -20.8, zoom: 13 };

describe('a reporter’s network', () => {
  it('is the /24 of an IPv4 address and the /48 of an IPv6 one', () => {
    expect(networkPrefix('203.0.113.77')).toBe('203.0.113.0/24');
    expect(networkPrefix('::ffff:203.0.113.9')).toBe('203.0.113.0/24');
    expect(networkPrefix('2001:db8:abcd:12::1')).toBe('2001:db8:abcd::/48');
    expect(networkPrefix('2001:db8:abcd:ffff:1:2:3:4')).toBe('2001:db8:abcd::/48');
    expect(networkPrefix('2001:db8::5')).toBe('2001:db8::/48');
  });
});

describe.each(engines)('reports toward hiding on %s', (engine) => {
  const t = suiteAuthApp(engine);
  /** A new /24 at each call, so no two reports share one unless a test means them to. */
  let octet = 20;
  const network = () => `10.${octet++}.7`;

  /** The viewport's ids; on PostgreSQL the cache hears of a change a moment after it: poll. */
  const viewportIds = async () => {
    const res = await call(t, {
      method: 'GET',
      url: `/api/posts/viewport?${new URLSearchParams(Object.entries(VIEW).map(([k, v]): [string, string] => [k, String(v)]))}`,
    });
    return (res.json().points as Array<{ id: string }>).map((p) => p.id);
  };
  const report = (who: Member, postId: string, ip: string) =>
    call(t, {
      method: 'POST',
      url: `/api/posts/${postId}/report`,
      token: who.token,
      ip,
      payload: { reason: 'harassment' },
    });
  const hiddenState = async (postId: string) =>
    (await t.database.db.execute(sql`select hidden_state from publications where id = ${postId}`)).rows[0]
      ?.hidden_state;
  /** Makes the account two days old. */
  const age = (who: Member) =>
    t.database.db.execute(sql`update users set created_at = now() - interval '2 days' where id = ${who.id}`);
  async function members(n: number, aged: boolean) {
    const list: Member[] = [];
    for (let i = 0; i < n; i++) {
      const m = await member(t);
      if (aged) await age(m);
      list.push(m);
    }
    return list;
  }
  async function livePost() {
    const author = await member(t);
    return publish(t, author.token, { content: 'Texte signalé' });
  }

  it('three fresh accounts from one address leave the post on the map, and their reports reach the queue', async () => {
    const post = await livePost();
    const ip = `${network()}.1`;
    for (const reporter of await members(3, false)) expect((await report(reporter, post.id, ip)).statusCode).toBe(201);
    expect(await hiddenState(post.id)).toBeNull();
    await expect.poll(() => viewportIds()).toContain(post.id);
    expect((await call(t, { method: 'GET', url: `/api/posts/${post.id}` })).statusCode).toBe(200);
    const mod = await staff(t, 'moderator');
    const queue = (await as(t, mod, { method: 'GET', url: '/api/moderation/queue' })).json();
    expect(queue.reports.find((g: { postId: string }) => g.postId === post.id)).toMatchObject({
      postState: 'live',
      count: 3,
    });
    // No address is stored, only a keyed hash of its network.
    const rows = (
      await t.database.db.execute(sql`select reporter_network from post_reports where post_id = ${post.id}`)
    ).rows;
    expect(new Set(rows.map((r) => r.reporter_network)).size).toBe(1);
    expect(JSON.stringify(rows)).not.toContain(ip.split('.').slice(0, 3).join('.'));
  });

  it('three aged accounts from one network, or unconfirmed ones, leave it on the map too', async () => {
    const post = await livePost();
    const net = network();
    const aged = await members(3, true);
    for (const [i, reporter] of aged.entries())
      expect((await report(reporter, post.id, `${net}.${10 + i}`)).statusCode).toBe(201);
    const unconfirmed = await members(2, true);
    for (const m of unconfirmed)
      await t.database.db.execute(sql`update users set email_confirmed_at = null where id = ${m.id}`);
    for (const reporter of unconfirmed)
      expect((await report(reporter, post.id, `${network()}.1`)).statusCode).toBe(201);
    expect(await hiddenState(post.id)).toBeNull();
    await expect.poll(() => viewportIds()).toContain(post.id);
  });

  it('three aged, confirmed accounts from three networks hide it', async () => {
    const post = await livePost();
    await expect.poll(() => viewportIds()).toContain(post.id);
    for (const reporter of await members(3, true))
      expect((await report(reporter, post.id, `${network()}.1`)).statusCode).toBe(201);
    expect(await hiddenState(post.id)).toBe('pending');
    await expect.poll(() => viewportIds()).not.toContain(post.id);
  });

  it('answers 429 with the rate-limit text past 10 report attempts an hour by one account', async () => {
    const post = await livePost();
    const [reporter] = await members(1, false);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await report(reporter!, post.id, `${network()}.1`)).statusCode);
    expect(statuses).toEqual([201, ...Array(9).fill(409)]);
    const res = await report(reporter!, post.id, `${network()}.1`);
    expect(res.statusCode).toBe(429);
    expect(res.json().error).toEqual({
      code: 'rate_too_many',
      message: 'Trop de tentatives pour signalement. Bloqué pour 30 minutes.',
    });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('answers 429 past 30 report attempts an hour from one address, whatever the account', async () => {
    const post = await livePost();
    const ip = `${network()}.1`;
    const reporters = await members(4, false);
    for (const reporter of reporters.slice(0, 3)) {
      for (let i = 0; i < 10; i++) expect((await report(reporter, post.id, ip)).statusCode).not.toBe(429);
    }
    const res = await report(reporters[3]!, post.id, ip);
    expect(res.statusCode).toBe(429);
    expect(res.json().error.message).toBe('Trop de tentatives pour signalement. Bloqué pour 30 minutes.');
    // The same account from another address is not limited.
    expect((await report(reporters[3]!, post.id, `${network()}.1`)).statusCode).toBe(201);
  });
});
