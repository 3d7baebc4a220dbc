/**
 * Slow clients: a connection that sends its request too slowly, or sits idle,
 * is closed; one address cannot hold more than its share of connections. The app runs on a
 * real port with timeouts of about a second; the waits below are generous bounds ("closed
 * within 15 s"), never timing assertions.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { MESSAGES } from '@moodmap/core';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { connectSocket } from '../helpers/ws.ts';

const BOUND_MS = 15_000;

interface Exchange {
  /** Everything the server sent before closing. */
  text: string;
  closed: boolean;
}

/** Opens a connection and resolves once it is established. */
function open(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Collects what the server sends until it closes the connection, or gives up after `bound` ms. */
function untilClosed(socket: net.Socket, bound = BOUND_MS): Promise<Exchange> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      resolve({ text: Buffer.concat(chunks).toString(), closed });
    };
    const timer = setTimeout(() => finish(false), bound);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => finish(true));
    if (socket.destroyed) finish(true);
  });
}

const statusOf = (text: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
const bodyOf = (text: string) => JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('slow clients are closed', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp('pglite', {
      // A silent socket is closed well after Node's check of the header and request timeouts
      // (every 500 ms here) has answered 408, even when the machine is busy and timers run late.
      timeouts: { headersMs: 1000, requestMs: 1000, keepAliveMs: 500, socketIdleMs: 3000 },
      maxConnectionsPerIp: 0,
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  }, 60_000);
  afterAll(() => t?.close());

  it('30 connections that declare 1000 bytes and send 11 are answered 408 and closed', async () => {
    const sockets = await Promise.all(Array.from({ length: 30 }, () => open(port)));
    const exchanges = sockets.map((socket) => {
      const done = untilClosed(socket);
      socket.write(
        'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":"a',
      );
      return done;
    });
    for (const exchange of await Promise.all(exchanges)) {
      expect(exchange.closed).toBe(true);
      expect(statusOf(exchange.text)).toBe(408);
      expect(bodyOf(exchange.text)).toEqual({ error: { code: 'request_timeout', message: MESSAGES.request_timeout } });
    }
  });

  it('a connection whose headers never end is closed', async () => {
    const socket = await open(port);
    const done = untilClosed(socket);
    socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    const exchange = await done;
    expect(exchange.closed).toBe(true);
    expect(statusOf(exchange.text)).toBe(408);
  });

  it('a connection that never sends anything is closed', async () => {
    const exchange = await untilClosed(await open(port));
    expect(exchange.closed).toBe(true);
  });

  it('an idle keep-alive connection is closed after its answer', async () => {
    const socket = await open(port);
    const done = untilClosed(socket);
    socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
    const exchange = await done;
    expect(statusOf(exchange.text)).toBe(200);
    expect(exchange.closed).toBe(true);
  });

  it('an idle WebSocket stays open past every HTTP timeout', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/realtime`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    let closed = false;
    ws.on('close', () => (closed = true));
    await delay(4000);
    expect(closed).toBe(false);
    ws.close();
  });
});

describe('connections per address', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp('pglite', { maxConnectionsPerIp: 3 });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  }, 60_000);
  afterAll(() => t?.close());

  it('beyond the ceiling (WebSockets included) a connection gets 503 too_many_connections, and a freed place is usable again', async () => {
    const ws = await connectSocket(`http://127.0.0.1:${port}`);
    const held = [await open(port), await open(port)];

    const extra = await untilClosed(await open(port));
    expect(extra.closed).toBe(true);
    expect(statusOf(extra.text)).toBe(503);
    expect(bodyOf(extra.text)).toEqual({
      error: { code: 'too_many_connections', message: MESSAGES.too_many_connections },
    });

    // Once one is released, a new connection is served (the server may see the close a moment later).
    held[0].destroy();
    let status = 0;
    for (let attempt = 0; attempt < 50 && status !== 200; attempt++) {
      const socket = await open(port);
      const done = untilClosed(socket);
      socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      status = statusOf((await done).text);
      if (status !== 200) await delay(100);
    }
    expect(status).toBe(200);
    held[1].destroy();
    ws.close();
  });
});
