import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { testConfig } from '../../src/config.ts';
import { engines } from '../helpers/databases.ts';
import { suiteTestApp } from '../helpers/suite-app.ts';

describe.each(engines)('server skeleton on %s', (engine) => {
  // A route that throws a bug, to check what callers see of it.
  const t = suiteTestApp(engine, {}, (app) => {
    app.get('/api/__boom', async () => {
      throw new Error('secret internal detail');
    });
  });

  it('reports database reachability on /api/health', async () => {
    const res = await t.app.inject('/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: { engine, reachable: true } });
  });

  it('answers unknown API paths with the JSON error shape', async () => {
    const res = await t.app.inject('/api/does-not-exist');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { code: 'not_found', message: 'Ressource introuvable' } });
  });

  it('hides a thrown bug behind a generic French 500 without stack', async () => {
    const res = await t.app.inject('/api/__boom');
    expect(res.statusCode).toBe(500);
    expect(res.json().error.message).toBe('Une erreur est survenue. Veuillez réessayer.');
    expect(res.body).not.toContain('secret internal detail');
    expect(res.body).not.toContain('at ');
  });

  it('answers malformed JSON with 400, not 500', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/geo/land',
      headers: { 'content-type': 'application/json' },
      payload: '{bad',
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });

  it('sends security headers', async () => {
    const res = await t.app.inject('/api/health');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('exposes the public client configuration', async () => {
    const res = await t.app.inject('/api/config');
    expect(res.json()).toEqual({ mapStyleUrl: null, mapStyleUrlDark: null, mapPmtilesUrl: null, isAdmin: false });
  });

  it('has applied the schema with its constraints', async () => {
    const { db } = t.database;
    const tables = await db.execute(
      sql`select table_name from information_schema.tables where table_schema = 'public' order by 1`,
    );
    const names = tables.rows.map((r) => (r as { table_name: string }).table_name);
    for (const table of [
      'users',
      'profiles',
      'publications',
      'likes',
      'comments',
      'comments_with_profiles',
      'post_reports',
      'conversations',
      'messages',
      'security_logs',
      'pulse_purchases',
      'staff_roles',
    ]) {
      expect(names).toContain(table);
    }
    const user = await db.execute(sql`insert into users (email, password_hash) values ('a@b.fr', 'x') returning id`);
    const id = (user.rows[0] as { id: string }).id;
    await db.execute(sql`insert into profiles (id, username) values (${id}, 'alice')`);
    // A mood outside the five and a latitude out of range are refused by the database itself.
    await expect(
      db.execute(
        sql`insert into publications (user_id, category, latitude, longitude, nickname) values (${id}, 'sad', 0, 0, 'a')`,
      ),
    ).rejects.toThrow();
    await expect(
      db.execute(
        sql`insert into publications (user_id, category, latitude, longitude, nickname) values (${id}, 'happy', 91, 0, 'a')`,
      ),
    ).rejects.toThrow();
    const post = await db.execute(
      sql`insert into publications (user_id, category, latitude, longitude, nickname) values (${id}, 'happy', 48.8, 2.3, 'a') returning id`,
    );
    const postId = (post.rows[0] as { id: string }).id;
    await db.execute(sql`insert into likes (publication_id, user_id) values (${postId}, ${id})`);
    await expect(
      db.execute(sql`insert into likes (publication_id, user_id) values (${postId}, ${id})`),
    ).rejects.toThrow();
    // A conversation stores the smaller id first, and never with oneself.
    await expect(
      db.execute(sql`insert into conversations (participant1_id, participant2_id) values (${id}, ${id})`),
    ).rejects.toThrow();
  });
});

describe('serving the web app', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'moodmap-web-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>MoodMap</title>');
    writeFileSync(path.join(dir, 'assets', 'app-abc123.js'), 'console.log(1)');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves hashed assets with long cache and index.html for client routes', async () => {
    const app = await buildApp(testConfig({ webDist: dir }));
    try {
      const asset = await app.inject('/assets/app-abc123.js');
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      for (const route of ['/', '/profile', '/user/123', '/anything/else']) {
        const page = await app.inject(route);
        expect(page.statusCode, route).toBe(200);
        expect(page.headers['content-type']).toContain('text/html');
        expect(page.headers['cache-control']).toBe('no-cache');
        expect(page.body).toContain('<title>MoodMap</title>');
      }
      expect((await app.inject('/api/unknown')).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });

  it("sends the build's .br or .gz sibling to a browser that accepts it, the file itself otherwise", async () => {
    const js = `export const moods = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => `humeur-${i}`))};`;
    writeFileSync(path.join(dir, 'assets', 'big-def456.js'), js);
    writeFileSync(path.join(dir, 'assets', 'big-def456.js.br'), brotliCompressSync(js));
    writeFileSync(path.join(dir, 'assets', 'big-def456.js.gz'), gzipSync(js));
    const app = await buildApp(testConfig({ webDist: dir }));
    try {
      const br = await app.inject({
        url: '/assets/big-def456.js',
        headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
      });
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['content-type']).toContain('javascript');
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(br.headers.vary).toContain('accept-encoding');
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(js);

      const gz = await app.inject({ url: '/assets/big-def456.js', headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.rawPayload).toString()).toBe(js);

      const plain = await app.inject({ url: '/assets/big-def456.js', headers: { 'accept-encoding': 'identity' } });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(js);
      // A file the build left uncompressed (too small) is sent as it is.
      const small = await app.inject({ url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'br' } });
      expect(small.statusCode).toBe(200);
      expect(small.headers['content-encoding']).toBeUndefined();
      expect(small.body).toBe('console.log(1)');
    } finally {
      await app.close();
    }
  });
});
