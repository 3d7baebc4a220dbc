/**
 * Refusals made before any route runs: the router's (a URL that does not
 * decode, a parameter over `maxParamLength`) and the HTTP parser's (headers too large, a broken
 * request) answer in the API's shape and in French, not in Fastify's English format.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@moodmap/core';
import { createTestApp, type TestApp } from '../helpers/app.ts';

const shape = (code: keyof typeof MESSAGES) => ({ error: { code, message: MESSAGES[code] } });

/** Sends raw bytes and reads until the server closes the connection (or `waitMs`). */
function rawExchange(port: number, data: string): Promise<{ status: number; body: unknown; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => finish(false), 15_000);
    function finish(closed: boolean) {
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString();
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      const rawBody = text.slice(text.indexOf('\r\n\r\n') + 4);
      let body: unknown = rawBody;
      try {
        body = JSON.parse(rawBody);
      } catch {
        // not JSON: the assertion on the body shows it
      }
      resolve({ status, body, closed });
    }
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('close', () => finish(true));
    socket.on('error', (error) => (chunks.length > 0 ? finish(true) : reject(error)));
    socket.write(data);
  });
}

describe('errors before any route, in the API shape', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp('pglite');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  }, 60_000);
  afterAll(() => t?.close());

  it('a URL that does not decode is 400 bad_request (once FST_ERR_BAD_URL)', async () => {
    const res = await t.app.inject('/api/posts/%E0%A4%A');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(shape('bad_request'));
  });

  it('a path parameter over the router limit is 414 url_too_long', async () => {
    for (const url of [
      `/api/posts/${'a'.repeat(500)}`,
      `/api/profiles/${'é'.repeat(300)}`,
      `/api/conversations/${'1'.repeat(200)}/messages`,
    ]) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(414);
      expect(res.json()).toEqual(shape('url_too_long'));
    }
  });

  it('an unknown API path or method is 404 not_found', async () => {
    for (const [method, url] of [
      ['GET', '/api/nothing-here'],
      ['PUT', '/api/posts'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(shape('not_found'));
    }
  });

  it('a body of an unsupported type is 415 in the API shape', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: '<login/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual(shape('bad_request'));
  });

  it('headers too large are 431 headers_too_large on the raw socket, then the connection closes', async () => {
    const res = await rawExchange(port, `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.body).toEqual(shape('headers_too_large'));
    expect(res.closed).toBe(true);
  });

  it('a request the HTTP parser refuses is 400 bad_request, then the connection closes', async () => {
    for (const request of [
      'GET /api/health HTTP/1.1\r\nHost: x\r\nbroken header line\r\n\r\n',
      'NOT HTTP AT ALL\r\n\r\n',
      'POST /api/posts HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
    ]) {
      const res = await rawExchange(port, request);
      expect(res.status, request).toBe(400);
      expect(res.body).toEqual(shape('bad_request'));
      expect(res.closed).toBe(true);
    }
  });
});
