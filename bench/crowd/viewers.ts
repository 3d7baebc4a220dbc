/**
 * The map viewers of one client process: a socket each, which sends its map's `view` as the web
 * app does and then only listens. A `ping` after the view answers `pong` once the server has
 * read both (a socket's frames are handled in order), so "connected" means "filed under its
 * view". Each `post.created` is stamped on arrival (epoch ms, see shared.ts); which viewers
 * should get a post is decided with the server's own geometry (server/src/realtime/view.ts).
 */
import WebSocket from 'ws';
import { closeAll } from '../support/sockets.ts';
import { parseView, viewContains, type View } from '../../server/src/realtime/view.ts';
import { epochNow, sleep, type SentPost, type ViewerSpec } from './shared.ts';

const READY_TIMEOUT_MS = 30_000;

export interface PostReceipts {
  /** Each delivery's latency, POST issued → frame received (ms). */
  latencies: number[];
  expected: number;
  missing: number;
  /** Deliveries of a measured post to a viewer whose view does not hold it. */
  unexpected: number;
  lastReceipt: number;
}

export function createViewers() {
  const sockets: WebSocket[] = [];
  const views: View[] = [];
  /** Post id → when each of this process's viewers received it. */
  let receipts = new Map<string, number[]>();
  let lost = 0;
  let closing = false;

  function onFrame(raw: WebSocket.RawData): void {
    const frame = JSON.parse(String(raw)) as { type: string; data?: { post?: { id: string } } };
    if (frame.type !== 'post.created' || !frame.data?.post) return;
    const at = epochNow();
    const id = frame.data.post.id;
    const list = receipts.get(id);
    if (list) list.push(at);
    else receipts.set(id, [at]);
  }

  function open(spec: ViewerSpec): Promise<void> {
    const [west, south, east, north] = spec.bbox;
    const socket = new WebSocket(`${spec.base.replace(/^http/, 'ws')}/api/realtime`);
    sockets.push(socket);
    views.push(parseView({ type: 'view', west, south, east, north }) as View);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('viewer not filed within 30 s')), READY_TIMEOUT_MS);
      socket.once('open', () => {
        socket.send(JSON.stringify({ type: 'view', west, south, east, north }));
        socket.send(JSON.stringify({ type: 'ping' }));
      });
      socket.on('message', function awaitPong(raw) {
        if (!String(raw).includes('"pong"')) return;
        clearTimeout(timer);
        socket.off('message', awaitPong);
        socket.on('message', onFrame);
        resolve();
      });
      // Kept after the pong: an error with no listener would end the process.
      socket.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      socket.once('close', () => {
        if (!closing) lost++;
      });
    });
  }

  /** Opens the sockets `batch` at a time, so the servers' accept queues never overflow. */
  async function connect(specs: ViewerSpec[], batch: number) {
    const start = performance.now();
    let failed = 0;
    const errors = new Set<string>();
    for (let i = 0; i < specs.length; i += batch) {
      const outcomes = await Promise.allSettled(specs.slice(i, i + batch).map(open));
      for (const o of outcomes) if (o.status === 'rejected') failed++, errors.add(String(o.reason));
    }
    return { connected: specs.length - failed, failed, errors: [...errors].slice(0, 3), ms: performance.now() - start };
  }

  /** How many of this process's viewers watch the point. */
  const watching = (latitude: number, longitude: number) =>
    views.reduce((n, view) => n + (viewContains(view, latitude, longitude) ? 1 : 0), 0);

  /** Waits (at most `timeoutMs`) for every expected delivery of `posts`, then times them. */
  async function collect(posts: SentPost[], timeoutMs: number): Promise<PostReceipts> {
    const expected = posts.map((p) => watching(p.latitude, p.longitude));
    const deadline = performance.now() + timeoutMs;
    const complete = () => posts.every((p, i) => (receipts.get(p.id)?.length ?? 0) >= expected[i]);
    while (!complete() && performance.now() < deadline) await sleep(50);
    const result: PostReceipts = { latencies: [], expected: 0, missing: 0, unexpected: 0, lastReceipt: 0 };
    posts.forEach((post, i) => {
      const got = receipts.get(post.id) ?? [];
      for (const at of got) result.latencies.push(at - post.t0);
      result.expected += expected[i];
      result.missing += Math.max(0, expected[i] - got.length);
      result.unexpected += Math.max(0, got.length - expected[i]);
      result.lastReceipt = Math.max(result.lastReceipt, ...got);
    });
    return result;
  }

  return {
    connect,
    collect,
    /** Forgets every receipt (after the warm-up). */
    clear: () => void (receipts = new Map()),
    /** Sockets closed since they connected (none should be, in a run). */
    lost: () => lost,
    close: () => {
      closing = true;
      return closeAll(sockets);
    },
  };
}
