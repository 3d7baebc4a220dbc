/** Launch tests: members with a staff role, and a local HTTP peer that records what it receives. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StaffRole } from '@moodmap/core';
import { staffRoles } from '../../src/db/schema.ts';
import { signedInUser, type AuthTestApp } from '../helpers/auth.ts';

/** A signed-in member, with a staff role if `role` is given. */
export async function member(t: AuthTestApp, role?: StaffRole) {
  const user = await signedInUser(t);
  if (role) await t.database.db.insert(staffRoles).values({ userId: user.id, role });
  return user;
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

/** A Plausible-compatible events endpoint: answers 202 and keeps every request. */
export async function startRecordingPeer(): Promise<{
  url: string;
  received: RecordedRequest[];
  close(): Promise<void>;
}> {
  const received: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: raw ? JSON.parse(raw) : null,
      });
      res.writeHead(202, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export async function waitFor<T>(read: () => T | undefined, timeoutMs = 5_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
