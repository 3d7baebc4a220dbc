/**
 * Where a push may go once stored: a push service's name is resolved when sending, and a name
 * that points inside (loopback, private, link-local, metadata…) is refused before any
 * connection, whatever the endpoint looked like when it was registered.
 */
import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressRefused, checkedAddress, isPublicAddress, type Resolve } from '../../src/modules/push/address.ts';
import { saveSubscription } from '../../src/modules/push/data.ts';
import { knownDevices } from '../../src/modules/push/known-devices.ts';
import { createPushSender } from '../../src/modules/push/sender.ts';
import { sendPushRequest } from '../../src/modules/push/transport.ts';
import { engines } from '../helpers/databases.ts';
import { suiteAuthApp } from '../helpers/suite-app.ts';
import { member } from '../interactions/fixtures.ts';

const INSIDE = [
  '127.0.0.1',
  '127.1.2.3',
  '0.0.0.0',
  '10.0.0.1',
  '10.255.255.255',
  '172.16.0.1',
  '172.31.255.254',
  '192.168.1.1',
  '169.254.169.254',
  '100.64.0.1',
  '100.100.100.200',
  '224.0.0.1',
  '255.255.255.255',
  '168.63.129.16',
  '::1',
  '::',
  'fd00::1',
  'fd00:ec2::254',
  'fc00::1',
  'fe80::1',
  'ff02::1',
  '::ffff:127.0.0.1',
  '::ffff:10.0.0.1',
  '64:ff9b::a00:1',
  '2002:7f00:1::1',
  'localhost',
  'pas une adresse',
];
const PUBLIC = [
  '142.250.74.106',
  '17.253.144.10',
  '172.32.0.1',
  '100.128.0.1',
  '2a00:1450:4007:80a::200a',
  '2620:149:a44::1',
];

/** A resolver that answers `addresses` for every name, and remembers the names asked. */
function resolver(...addresses: string[]): Resolve & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (hostname: string) => {
    asked.push(hostname);
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { asked });
}

describe('push addresses', () => {
  it('are public unicast only', () => {
    for (const address of INSIDE) expect(isPublicAddress(address), address).toBe(false);
    for (const address of PUBLIC) expect(isPublicAddress(address), address).toBe(true);
  });

  it('refuse a name when any of its answers points inside, and an IP literal inside', async () => {
    await expect(checkedAddress('fcm.googleapis.com', resolver('142.250.74.106'))).resolves.toEqual({
      address: '142.250.74.106',
      family: 4,
    });
    await expect(checkedAddress('fcm.googleapis.com', resolver('142.250.74.106', '10.0.0.7'))).rejects.toBeInstanceOf(
      AddressRefused,
    );
    await expect(checkedAddress('fcm.googleapis.com', resolver('fd00::1'))).rejects.toBeInstanceOf(AddressRefused);
    await expect(checkedAddress('fcm.googleapis.com', resolver())).rejects.toBeInstanceOf(AddressRefused);
    const never = resolver('142.250.74.106');
    await expect(checkedAddress('[::1]', never)).rejects.toBeInstanceOf(AddressRefused);
    await expect(checkedAddress('169.254.169.254', never)).rejects.toBeInstanceOf(AddressRefused);
    expect(never.asked).toEqual([]);
  });

  describe('a push service whose name resolves inside', () => {
    let listener: Server;
    let port: number;
    let connections = 0;
    beforeAll(async () => {
      listener = createServer((socket) => {
        connections++;
        socket.destroy();
      });
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
      port = (listener.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

    it('is refused before any connection is made', async () => {
      const resolve = resolver('127.0.0.1');
      const request = { method: 'POST', headers: {}, body: Buffer.from('x') };
      await expect(
        sendPushRequest(`https://fcm.googleapis.com:${port}/fcm/send/x`, request, {
          resolve,
          extraOrigins: [],
          timeoutMs: 2000,
        }),
      ).rejects.toBeInstanceOf(AddressRefused);
      expect(resolve.asked).toEqual(['fcm.googleapis.com']);
      expect(connections).toBe(0);
      // Plain http is never used for a push service.
      await expect(
        sendPushRequest(`http://127.0.0.1:${port}/x`, request, { resolve, extraOrigins: [], timeoutMs: 2000 }),
      ).rejects.toThrow(/https/);
      expect(connections).toBe(0);
    });
  });
});

describe.each(engines)('sending to a device whose push service resolves inside, on %s', (engine) => {
  const t = suiteAuthApp(engine);

  it('sends nothing, says why in the log, and keeps the device', async () => {
    const lea = await member(t);
    const browser = createECDH('prime256v1');
    browser.generateKeys();
    const endpoint = `https://fcm.googleapis.com/fcm/send/${randomUUID()}`;
    const saved = await saveSubscription(
      t.database.db,
      lea.id,
      {
        endpoint,
        p256dh: browser.getPublicKey().toString('base64url'),
        auth: randomBytes(16).toString('base64url'),
        label: '',
      },
      10,
    );
    expect(saved.ok).toBe(true);

    const lines: Array<{ level: number; msg: string; err?: { code?: string } }> = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const resolve = resolver('169.254.169.254');
    const sender = createPushSender(
      t.database.db,
      knownDevices(t.database.db, t.app.ctx.bus),
      { ...webpush.generateVAPIDKeys(), subject: 'mailto:test@moodmap.re' },
      log,
      { resolve, extraOrigins: [] },
    );
    sender.notify([
      {
        userId: lea.id,
        title: 'Marc',
        preview: 'Salut',
        generic: 'Vous a envoyé un message',
        url: '/messages',
        tag: 'conversation:x',
        urgency: 'high',
        ttl: 60,
      },
    ]);
    await sender.drain();

    expect(resolve.asked).toEqual(['fcm.googleapis.com']);
    expect(lines.filter((l) => l.err?.code === 'PUSH_ADDRESS_REFUSED')).toHaveLength(1);
    const rows = await t.database.db.execute(
      sql`select count(*)::int as n from push_subscriptions where endpoint = ${endpoint}`,
    );
    expect(rows.rows[0]).toEqual({ n: 1 });
  });
});
