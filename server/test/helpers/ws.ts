/** A WebSocket client for tests that records every frame it receives. */
import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';

/** Starts `app` on a free local port; returns its base URL. */
export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return `http://127.0.0.1:${port}`;
}

export interface TestSocket {
  frames: Array<{ type: string; data?: unknown; userId?: string | null }>;
  /** The same frames as the bytes that arrived (text), in order. */
  raw: string[];
  send(message: unknown): void;
  /** Resolves with the first frame (already received or future) matching `predicate`. */
  next(
    predicate: (frame: { type: string; data?: unknown; userId?: string | null }) => boolean,
    timeoutMs?: number,
  ): Promise<{ type: string; data?: unknown; userId?: string | null }>;
  close(): void;
}

export async function connectSocket(baseUrl: string): Promise<TestSocket> {
  const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/api/realtime`);
  const frames: TestSocket['frames'] = [];
  const raw: string[] = [];
  const waiters = new Set<() => void>();
  ws.on('message', (data) => {
    raw.push(String(data));
    frames.push(JSON.parse(String(data)));
    waiters.forEach((w) => w());
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return {
    frames,
    raw,
    send: (message) => ws.send(JSON.stringify(message)),
    next(predicate, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        let seen = 0;
        const check = () => {
          for (; seen < frames.length; seen++) {
            if (predicate(frames[seen])) {
              waiters.delete(check);
              clearTimeout(timer);
              resolve(frames[seen]);
              return;
            }
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(frames)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => ws.close(),
  };
}

/** A socket signed in with `token`; resolves once the hub has taken it as `userId`. */
export async function signedSocket(baseUrl: string, userId: string, token: string): Promise<TestSocket> {
  const socket = await connectSocket(baseUrl);
  socket.send({ type: 'auth', token });
  await socket.next((f) => f.type === 'ready' && f.userId === userId);
  return socket;
}

/**
 * Publishes a public event and waits until every socket got it: frames arrive in order, so had
 * an earlier one been meant for a socket, it would be there by then.
 */
export async function barrier(app: FastifyInstance, sockets: TestSocket[]): Promise<void> {
  const id = `barrier-${Math.random()}`;
  await app.ctx.bus.publish({ type: 'profile.updated', data: { id } });
  for (const s of sockets) await s.next((f) => f.type === 'profile.updated' && (f.data as { id: string }).id === id);
}
