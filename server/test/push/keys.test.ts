/** The VAPID key pair's origin and persistence, and where the server agrees to send. */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import webpush from 'web-push';
import { afterEach, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.ts';
import { endpointAllowed } from '../../src/modules/push/endpoint.ts';
import { loadVapidKeys, subjectOf } from '../../src/modules/push/vapid.ts';

describe('VAPID keys', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  });
  const dataDir = async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'moodmap-vapid-'));
    dirs.push(dir);
    return dir;
  };

  it('are generated once into DATA_DIR (owner-only) and the same after a restart', async () => {
    const dir = await dataDir();
    const config = testConfig({ dataDir: dir });
    const first = await loadVapidKeys(config);
    const second = await loadVapidKeys(config);
    expect(second).toEqual(first);
    const file = path.join(dir, 'secrets', 'vapid.json');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      publicKey: first.publicKey,
      privateKey: first.privateKey,
    });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(Buffer.from(first.publicKey, 'base64url')).toHaveLength(65);
  });

  it('come from VAPID_* when set, both together', async () => {
    const pair = webpush.generateVAPIDKeys();
    const config = testConfig({
      dataDir: await dataDir(),
      vapid: { ...pair, subject: 'https://moodmap.example/contact' },
    });
    expect(await loadVapidKeys(config)).toEqual({ ...pair, subject: 'https://moodmap.example/contact' });
    await expect(loadVapidKeys(testConfig({ vapid: { publicKey: pair.publicKey } }))).rejects.toThrow(
      /VAPID_PRIVATE_KEY/,
    );
    await expect(loadVapidKeys(testConfig({ vapid: { publicKey: 'abc', privateKey: 'def' } }))).rejects.toThrow(
      /VAPID/,
    );
  });

  it('refuse to start on a damaged key file rather than silently replace it', async () => {
    const dir = await dataDir();
    await loadVapidKeys(testConfig({ dataDir: dir }));
    await writeFile(path.join(dir, 'secrets', 'vapid.json'), '{"publicKey":"tronqué');
    await expect(loadVapidKeys(testConfig({ dataDir: dir }))).rejects.toThrow(/VAPID/);
  });

  it('name the sender address as contact unless VAPID_SUBJECT says otherwise', () => {
    expect(subjectOf({ vapid: {}, mailFrom: 'MoodMap <bonjour@moodmap.re>' })).toBe('mailto:bonjour@moodmap.re');
    expect(subjectOf({ vapid: {}, mailFrom: 'bonjour@moodmap.re' })).toBe('mailto:bonjour@moodmap.re');
    expect(subjectOf({ vapid: { subject: 'mailto:ops@moodmap.re' }, mailFrom: 'x@y.z' })).toBe('mailto:ops@moodmap.re');
  });
});

describe('push endpoints', () => {
  it("are https on the browsers' push services only", () => {
    for (const url of [
      'https://fcm.googleapis.com/fcm/send/abc',
      'https://android.googleapis.com/gcm/send/abc',
      'https://updates.push.services.mozilla.com/wpush/v2/abc',
      'https://web.push.apple.com/QGx2',
      'https://wns2-par02p.notify.windows.com/w/?token=abc',
      'https://fcm.googleapis.com:443/fcm/send/abc',
    ])
      expect(endpointAllowed(url, []), url).toBe(true);
    for (const url of [
      'http://fcm.googleapis.com/fcm/send/abc',
      'https://fcm.googleapis.com:8443/fcm/send/abc',
      'https://fcm.googleapis.com./x',
      'https://fcm.googleapis.com.evil.example/x',
      'https://evilfcm.googleapis.com/x',
      'https://push.apple.com.evil.example/x',
      'https://evil-push.apple.com/x',
      'https://user:pw@fcm.googleapis.com/x',
      'https://localhost/push',
      'https://127.0.0.1/push',
    ])
      expect(endpointAllowed(url, []), url).toBe(false);
  });

  it("take an extra origin only as configured: the tests' stand-in, port included", () => {
    expect(endpointAllowed('http://127.0.0.1:9000/push/1', ['http://127.0.0.1:9000'])).toBe(true);
    expect(endpointAllowed('http://127.0.0.1:9001/push/1', ['http://127.0.0.1:9000'])).toBe(false);
    expect(endpointAllowed('http://127.0.0.1:9000/push/1', [])).toBe(false);
    expect(endpointAllowed('http://user:pw@127.0.0.1:9000/push/1', ['http://127.0.0.1:9000'])).toBe(false);
    expect(testConfig().pushExtraOrigins).toEqual([]);
  });
});
