/**
 * A local HTTP server standing in for a browser vendor's push service (RFC 8030), and the
 * browser's side of a subscription: a real P-256 key pair and auth secret, and the RFC 8291
 * decryption a browser runs on what arrives, written here with node:crypto alone so that the
 * server's encryption (web-push) is checked against an independent implementation.
 */
import { createDecipheriv, createECDH, hkdfSync, randomBytes, randomUUID, type ECDH } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import type { Config } from '../../src/config.ts';

export interface ReceivedPush {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface PushService {
  base: string;
  received: ReceivedPush[];
  /** The status the service answers for `path` (201 unless told otherwise). */
  answer(path: string, status: number): void;
  close(): Promise<void>;
}

export async function startPushService(): Promise<PushService> {
  const received: ReceivedPush[] = [];
  const statuses = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = statuses.get(path) ?? 201;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    received,
    answer: (path, status) => void statuses.set(path, status),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * A stand-in for the suite, started before the suite's app is built (call it first) so that the
 * returned config names its origin: the app accepts it as a push service, the only one that
 * is not a browser's. Pass `config` to suiteAuthApp.
 */
export function suitePushService(): { config: Partial<Config>; service: () => PushService } {
  const config: Partial<Config> = {};
  let started: PushService | undefined;
  beforeAll(async () => {
    started = await startPushService();
    config.pushExtraOrigins = [started.base];
  });
  afterAll(() => started?.close());
  return {
    config,
    service: () => {
      if (!started) throw new Error('the push service starts in beforeAll');
      return started;
    },
  };
}

/** A browser's subscription: what it sends to the app, and the private half it keeps. */
export interface BrowserSubscription {
  endpoint: string;
  path: string;
  keys: { p256dh: string; auth: string };
  ecdh: ECDH;
  authSecret: Buffer;
}

export function browserSubscription(service: PushService): BrowserSubscription {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const authSecret = randomBytes(16);
  const path = `/push/${randomUUID()}`;
  return {
    endpoint: `${service.base}${path}`,
    path,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: authSecret.toString('base64url') },
    ecdh,
    authSecret,
  };
}

/** The body of the subscription's pushes, as the browser would read them. */
export function pushesTo(service: PushService, sub: BrowserSubscription): ReceivedPush[] {
  return service.received.filter((r) => r.path === sub.path);
}

/** RFC 8291 §3.4 + RFC 8188: one aes128gcm record, decrypted with the subscription's keys. */
export function decryptPush(body: Buffer, sub: Pick<BrowserSubscription, 'ecdh' | 'authSecret'>): string {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const senderPublic = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const shared = sub.ecdh.computeSecret(senderPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), sub.ecdh.getPublicKey(), senderPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, sub.authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record's plaintext ends with the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('not a final aes128gcm record');
  return padded.subarray(0, end).toString('utf8');
}
