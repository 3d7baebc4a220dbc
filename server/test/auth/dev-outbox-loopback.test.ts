/**
 * The dev outbox holds every reset link: it answers only to the machine itself, whatever
 * interface the server listens on and whatever X-Forwarded-For says.
 */
import os from 'node:os';
import { beforeAll, describe, expect, it } from 'vitest';
import { isLoopback } from '../../src/http/dev-only.ts';
import { suiteTestApp } from '../helpers/suite-app.ts';

const notFound = { error: { code: 'not_found', message: 'Ressource introuvable' } };

/** A non-loopback IPv4 address of this machine, if it has one. */
const lanAddress = Object.values(os.networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

describe('isLoopback', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.255.10.3', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['0:0:0:0:0:0:0:1', true],
    ['192.0.2.2', false],
    ['10.0.0.1', false],
    ['::ffff:192.168.1.20', false],
    ['fe80::1', false],
    ['::', false],
    ['128.0.0.1', false],
    ['1270.0.0.1', false],
    ['', false],
    [undefined, false],
  ])('%s → %s', (address, expected) => {
    expect(isLoopback(address)).toBe(expected);
  });
});

describe.each([false, true])('dev outbox reachable from loopback only (TRUST_PROXY %s)', (trustProxy) => {
  const t = suiteTestApp('pglite', { trustProxy });

  it('answers the machine itself', async () => {
    for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      expect((await t.app.inject({ url: '/dev/mail.json', remoteAddress })).statusCode).toBe(200);
      expect((await t.app.inject({ url: '/dev/mail', remoteAddress })).statusCode).toBe(200);
    }
  });

  it('answers 404 to anyone else, even claiming to be loopback in X-Forwarded-For', async () => {
    for (const remoteAddress of ['192.0.2.50', '2001:db8::5', '::ffff:10.0.0.7']) {
      for (const url of ['/dev/mail', '/dev/mail.json', '/dev/mail.json?to=lea@example.fr']) {
        const res = await t.app.inject({ url, remoteAddress, headers: { 'x-forwarded-for': '127.0.0.1' } });
        expect(res.statusCode, `${remoteAddress} ${url}`).toBe(404);
        expect(res.json()).toEqual(notFound);
      }
    }
  });

  it('answers 404 to a request relayed by a proxy or tunnel on this machine', async () => {
    const relayed = await t.app.inject({
      url: '/dev/mail.json',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(relayed.statusCode).toBe(404);
    const forwarded = await t.app.inject({
      url: '/dev/mail.json',
      remoteAddress: '127.0.0.1',
      headers: { forwarded: 'for=203.0.113.9' },
    });
    expect(forwarded.statusCode).toBe(404);
  });
});

describe.runIf(lanAddress)('dev outbox over a real LAN interface', () => {
  const t = suiteTestApp('pglite');
  let port: number;
  beforeAll(async () => {
    // Every interface, as `npm start` does by default.
    await t.app.listen({ port: 0, host: '0.0.0.0' });
    port = (t.app.server.address() as { port: number }).port;
  });

  it(`refuses a connection to ${lanAddress} and serves one to 127.0.0.1`, async () => {
    const lan = await fetch(`http://${lanAddress}:${port}/dev/mail.json`);
    expect(lan.status).toBe(404);
    expect(await lan.json()).toEqual(notFound);
    // The rest of the app stays reachable from the LAN.
    expect((await fetch(`http://${lanAddress}:${port}/api/health`)).status).toBeLessThan(500);
    expect((await fetch(`http://127.0.0.1:${port}/dev/mail.json`)).status).toBe(200);
  });
});
