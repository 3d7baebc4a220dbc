import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStorage } from '../../src/adapters/storage/index.ts';
import { createLocalStorage, type LocalMediaStorage } from '../../src/adapters/storage/local.ts';
import { isValidKey } from '../../src/adapters/storage/types.ts';
import { testConfig } from '../../src/config.ts';
import { installErrorHandler } from '../../src/http/error-handler.ts';
import mediaRoutes from '../../src/modules/media/routes.ts';
import { deleteMediaUrls, keysOfUrl } from '../../src/modules/media/service.ts';

describe('local storage', () => {
  let root: string;
  let storage: LocalMediaStorage;
  beforeAll(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'moodmap-local-test-'));
    storage = createLocalStorage({ dir: path.join(root, 'media') });
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('puts a file under its key, gives its root-relative URL, and deletes it', async () => {
    const key = 'publications/0b9c4c53-4a57-4a52-8a3c-5d0f0f6b1e11.webp';
    await storage.put(key, Buffer.from('RIFF....WEBP'), 'image/webp');
    const file = path.join(root, 'media', 'publications', '0b9c4c53-4a57-4a52-8a3c-5d0f0f6b1e11.webp');
    expect(readFileSync(file, 'latin1')).toBe('RIFF....WEBP');
    expect(storage.url(key)).toBe(`/media/${key}`);
    expect(storage.keyFromUrl(storage.url(key))).toBe(key);
    await storage.delete(key);
    expect(existsSync(file)).toBe(false);
    // Deleting twice (a sweeper run again) is fine.
    await expect(storage.delete(key)).resolves.toBeUndefined();
  });

  it('refuses keys that could leave the store', async () => {
    for (const key of [
      '../secret.webp',
      'publications/../../secret.webp',
      '/etc/passwd',
      'a//b.webp',
      'a\\b.webp',
      '',
      '.hidden',
      'publications/.',
      'x/..',
      'nul\0.webp',
    ]) {
      expect(isValidKey(key), key).toBe(false);
      await expect(storage.put(key, Buffer.from('x'), 'image/webp'), key).rejects.toThrow();
      await expect(storage.delete(key), key).rejects.toThrow();
    }
    expect(existsSync(path.join(root, 'secret.webp'))).toBe(false);
  });

  it('knows only /media URLs, relative or written absolute before, and never a key leaving the store', () => {
    expect(storage.keyFromUrl('/media/avatars/a.webp')).toBe('avatars/a.webp');
    // Legacy rows: absolute URLs built from whatever PUBLIC_URL was, any host.
    expect(storage.keyFromUrl('http://localhost:3000/media/publications/a.webp')).toBe('publications/a.webp');
    expect(storage.keyFromUrl('https://moodmap.example/media/avatars/a.webp?v=2')).toBe('avatars/a.webp');
    for (const url of [
      'https://cdn.example/x.webp',
      'https://cdn.example/other/avatars/x.webp',
      '//evil.example/media/avatars/a.webp',
      'ftp://old-host/media/avatars/a.webp',
      '/mediax/avatars/a.webp',
      '/media/',
      '/media/..%2Fsecret.webp',
      'http://old-host:3000/media/..%2Fsecret.webp',
      'http://old-host:3000/media/publications/..%2F..%2Fsecret.webp',
      '/media/%2e%2e/secret.webp',
    ])
      expect(storage.keyFromUrl(url), url).toBeNull();
    expect(keysOfUrl(storage, '/media/publications/a.webp')).toEqual([
      'publications/a.webp',
      'publications/a-thumb.webp',
    ]);
    expect(keysOfUrl(storage, 'http://old-host:3000/media/publications/a.webp')).toEqual([
      'publications/a.webp',
      'publications/a-thumb.webp',
    ]);
    expect(keysOfUrl(storage, '/media/voice-messages/v.webm')).toEqual(['voice-messages/v.webm']);
    expect(keysOfUrl(storage, null)).toEqual([]);
  });

  it('deletes a post image with its thumbnail by URL', async () => {
    await storage.put('publications/p1.webp', Buffer.from('main'), 'image/webp');
    await storage.put('publications/p1-thumb.webp', Buffer.from('thumb'), 'image/webp');
    await storage.put('publications/p2.webp', Buffer.from('main'), 'image/webp');
    await deleteMediaUrls(storage, [
      '/media/publications/p1.webp',
      'https://cdn.other/x.webp',
      null,
      'http://old-host:3000/media/publications/p2.webp',
    ]);
    expect(existsSync(storage.pathOf('publications/p1.webp'))).toBe(false);
    expect(existsSync(storage.pathOf('publications/p1-thumb.webp'))).toBe(false);
    expect(existsSync(storage.pathOf('publications/p2.webp'))).toBe(false);
  });

  it('createStorage: DATA_DIR/media by default, a fresh temporary directory in tests, S3 when configured', async () => {
    const withDir = createStorage(
      testConfig({ dataDir: root, publicUrl: 'http://localhost:3000' }),
    ) as LocalMediaStorage;
    expect(withDir.kind).toBe('local');
    expect(withDir.dir).toBe(path.join(root, 'media'));
    // PUBLIC_URL plays no part: the same URL works from any address the app is opened at.
    expect(withDir.url('avatars/a.webp')).toBe('/media/avatars/a.webp');

    const temp = createStorage(testConfig()) as LocalMediaStorage;
    expect(temp.dir.startsWith(os.tmpdir())).toBe(true);
    await temp.put('avatars/a.webp', Buffer.from('x'), 'image/webp');
    await temp.dispose();
    expect(existsSync(temp.dir)).toBe(false);

    const s3 = createStorage(
      testConfig({
        s3: {
          region: 'eu-west-3',
          bucket: 'moodmap',
          accessKeyId: 'AK',
          secretAccessKey: 'SK',
          publicUrl: 'https://cdn.moodmap.example',
        },
      }),
    );
    expect(s3.kind).toBe('s3');
    expect(s3.url('avatars/a.webp')).toBe('https://cdn.moodmap.example/avatars/a.webp');
  });
});

describe('GET /media/*', () => {
  let root: string;
  let storage: LocalMediaStorage;
  let app: FastifyInstance;
  const webp = Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 fake image bytes 0123456789', 'latin1');

  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'moodmap-route-test-'));
    storage = createLocalStorage({ dir: path.join(root, 'media') });
    await storage.put('publications/abc.webp', webp, 'image/webp');
    await storage.put('voice-messages/v.webm', Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 1, 2, 3]), 'audio/webm');
    // Targets a traversal would reach if it worked: beside and above the store.
    writeFileSync(path.join(root, 'secret.webp'), 'SECRET');
    writeFileSync(path.join(root, 'media', 'notes.txt'), 'not a media type');
    writeFileSync(path.join(root, 'media', 'publications', 'half.webp.1a2b3c.tmp'), 'partial');
    mkdirSync(path.join(root, 'media', 'avatars.webp'));
    symlinkSync(path.join(root, 'secret.webp'), path.join(root, 'media', 'publications', 'link.webp'));
    app = Fastify();
    installErrorHandler(app);
    await app.register(mediaRoutes, { storage });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('serves a stored file with its type, nosniff and a year of immutable caching', async () => {
    const res = await app.inject('/media/publications/abc.webp');
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(webp)).toBe(true);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-length']).toBe(String(webp.length));
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");

    const audio = await app.inject('/media/voice-messages/v.webm');
    expect(audio.headers['content-type']).toBe('audio/webm');
  });

  it('answers HEAD, conditional and range requests (audio seeking)', async () => {
    const head = await app.inject({ method: 'HEAD', url: '/media/publications/abc.webp' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(webp.length));
    expect(head.body).toBe('');

    const first = await app.inject('/media/publications/abc.webp');
    const again = await app.inject({
      url: '/media/publications/abc.webp',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);

    const part = await app.inject({ url: '/media/publications/abc.webp', headers: { range: 'bytes=4-11' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 4-11/${webp.length}`);
    expect(part.rawPayload.equals(webp.subarray(4, 12))).toBe(true);

    const tail = await app.inject({ url: '/media/publications/abc.webp', headers: { range: 'bytes=-10' } });
    expect(tail.rawPayload.equals(webp.subarray(webp.length - 10))).toBe(true);

    const beyond = await app.inject({ url: '/media/publications/abc.webp', headers: { range: 'bytes=5000-' } });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${webp.length}`);
    expect(beyond.json().error.code).toBe('bad_request');

    // Several ranges: the whole file is a valid answer.
    const several = await app.inject({ url: '/media/publications/abc.webp', headers: { range: 'bytes=0-1,4-5' } });
    expect(several.statusCode).toBe(200);
    expect(several.rawPayload.equals(webp)).toBe(true);

    const audioPart = await app.inject({ url: '/media/voice-messages/v.webm', headers: { range: 'bytes=0-3' } });
    expect(audioPart.statusCode).toBe(206);
    expect(audioPart.headers['content-type']).toBe('audio/webm');
    expect(audioPart.headers['accept-ranges']).toBe('bytes');
    expect(audioPart.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(audioPart.rawPayload.equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]))).toBe(true);
  });

  it('answers a missing file with the JSON 404', async () => {
    const res = await app.inject('/media/publications/missing.webp');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { code: 'not_found', message: 'Ressource introuvable' } });
    expect(res.headers['cache-control']).not.toContain('immutable');
  });

  it('lists no directory and serves no other type, temporary file or link', async () => {
    for (const url of [
      '/media/',
      '/media/publications',
      '/media/publications/',
      '/media/avatars.webp',
      '/media/notes.txt',
      '/media/publications/half.webp.1a2b3c.tmp',
      '/media/publications/link.webp',
    ]) {
      const res = await app.inject(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.code, url).toBe('not_found');
      expect(res.body, url).not.toContain('SECRET');
    }
  });

  it('refuses traversal, encoded or not', async () => {
    for (const url of [
      '/media/..%2fsecret.webp',
      '/media/..%2Fsecret.webp',
      '/media/publications/..%2f..%2fsecret.webp',
      '/media/%2e%2e/secret.webp',
      '/media/%2e%2e%2fsecret.webp',
      '/media/../secret.webp',
      '/media/publications/../../secret.webp',
      '/media/..%5csecret.webp',
      '/media/%2fetc%2fpasswd',
      '/media/publications%2f..%2f..%2fsecret.webp',
      '/media/abc.webp%00.png',
    ]) {
      const res = await app.inject(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('SECRET');
    }
  });
});
