/**
 * A TCP proxy in front of PostgreSQL whose live connections can be frozen the way a network
 * partition freezes them: no byte passes either way, and nothing closes. Even when the client
 * gives up on its side, the server keeps an open, silent peer (unlike db-faults.ts's proxy,
 * which passes a close on), so a backend and the locks it holds outlive the client's view of it.
 */
import net from 'node:net';

export interface FreezableProxy {
  /** `url` with its host and port replaced by the proxy's. */
  via(url: string): string;
  /** The live connections stop carrying bytes and are never closed; new ones work normally. */
  freeze(): void;
  close(): Promise<void>;
}

export async function createFreezableProxy(targetUrl: string): Promise<FreezableProxy> {
  const target = new URL(targetUrl);
  const pairs = new Set<[net.Socket, net.Socket]>();
  const frozen = new Set<[net.Socket, net.Socket]>();

  const server = net.createServer((downstream) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname || '127.0.0.1');
    const pair: [net.Socket, net.Socket] = [downstream, upstream];
    pairs.add(pair);
    const closeBoth = () => {
      if (frozen.has(pair)) return;
      pair.forEach((socket) => socket.destroy());
      pairs.delete(pair);
    };
    for (const socket of pair) {
      socket.on('error', closeBoth);
      socket.on('close', closeBoth);
    }
    downstream.pipe(upstream);
    upstream.pipe(downstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    via(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    freeze() {
      for (const pair of pairs) {
        const [downstream, upstream] = pair;
        frozen.add(pair);
        downstream.unpipe(upstream);
        upstream.unpipe(downstream);
        // Read and drop, so neither end sees back-pressure.
        downstream.on('data', () => {}).resume();
        upstream.on('data', () => {}).resume();
      }
    },
    async close() {
      const closing = new Promise<void>((resolve) => server.close(() => resolve()));
      frozen.clear();
      for (const pair of pairs) pair.forEach((socket) => socket.destroy());
      pairs.clear();
      await closing;
    },
  };
}
