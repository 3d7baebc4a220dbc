/**
 * Database faults for the fault suites: terminating a database's connections the way an
 * operator or a failover does, and a TCP proxy in front of PostgreSQL that a test can cut,
 * freeze and restore — a database that goes away without touching the machine's PostgreSQL,
 * which other suites use.
 */
import net from 'node:net';
import pg from 'pg';
import { vi } from 'vitest';

/**
 * Terminates every other backend of `url`'s database (optionally only those of one
 * application_name); returns their pids, once PostgreSQL reports them gone.
 */
export async function terminateBackends(url: string, applicationName?: string): Promise<number[]> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    // In the select list, not the where clause: PostgreSQL may evaluate where-conditions in any
    // order, and this connection must not terminate itself.
    const { rows } = await admin.query<{ pid: number; terminated: boolean }>(
      `select pid, pg_terminate_backend(pid) as terminated from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid() and ($1::text is null or application_name = $1)`,
      [applicationName ?? null],
    );
    const pids = rows.filter((r) => r.terminated).map((r) => r.pid);
    // pg_terminate_backend only signals; wait until the backends have really exited, so what
    // a test does next meets a database without them.
    for (let i = 0; i < 500; i++) {
      const alive = await admin.query('select 1 from pg_stat_activity where pid = any($1::int[])', [pids]);
      if (alive.rows.length === 0) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    return pids;
  } finally {
    await admin.end();
  }
}

export interface TcpProxy {
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  via(url: string): string;
  /** Destroys every live connection and refuses new ones (ECONNREFUSED): the server is down. */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  /**
   * The live connections stop carrying bytes without being closed (a cut link, a frozen peer:
   * no FIN, no error); new connections work normally. Settles once a client has written into one
   * of them (a query sent, never answered).
   */
  silenceLiveConnections(): Promise<void>;
  /**
   * What clients send on the live connections is held, not passed on (a link that stopped
   * carrying bytes); the function returned passes it on, as a link that comes back would.
   */
  holdLiveConnections(): () => void;
  close(): Promise<void>;
}

export async function createTcpProxy(targetUrl: string): Promise<TcpProxy> {
  const target = new URL(targetUrl);
  const targetPort = Number(target.port || 5432);
  const targetHost = target.hostname || '127.0.0.1';
  const pairs = new Set<[net.Socket, net.Socket]>();

  const createServer = () =>
    net.createServer((downstream) => {
      const upstream = net.connect(targetPort, targetHost);
      const pair: [net.Socket, net.Socket] = [downstream, upstream];
      pairs.add(pair);
      for (const socket of pair) {
        // Either side failing takes the pair down, like a broken link.
        socket.on('error', () => pair.forEach((s) => s.destroy()));
        socket.on('close', () => {
          pair.forEach((s) => s.destroy());
          pairs.delete(pair);
        });
      }
      downstream.pipe(upstream);
      upstream.pipe(downstream);
    });

  const listen = (server: net.Server, port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
    });

  let server: net.Server | null = createServer();
  const port = await listen(server, 0);

  async function cut(): Promise<void> {
    if (!server) return;
    const closing = new Promise<void>((resolve) => server!.close(() => resolve()));
    server = null;
    for (const pair of pairs) pair.forEach((s) => s.destroy());
    await closing;
  }

  return {
    port,
    via(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    cut,
    async restore() {
      if (server) return;
      const next = createServer();
      await listen(next, port);
      server = next;
    },
    silenceLiveConnections() {
      const written = Promise.withResolvers<void>();
      for (const [downstream, upstream] of pairs) {
        downstream.unpipe(upstream);
        upstream.unpipe(downstream);
        // Read and drop, so neither end sees back-pressure or a close.
        downstream.on('data', () => written.resolve()).resume();
        upstream.on('data', () => {}).resume();
      }
      return written.promise;
    },
    holdLiveConnections() {
      const held = [...pairs];
      for (const [downstream, upstream] of held) {
        downstream.unpipe(upstream);
        downstream.pause();
      }
      return () => {
        for (const [downstream, upstream] of held) downstream.pipe(upstream).resume();
      };
    },
    close: cut,
  };
}

/** Settles once `answers` holds `count` entries: a load's pace, set by its own progress. */
export async function answersReach(answers: readonly unknown[], count: number): Promise<void> {
  await vi.waitFor(
    () => {
      if (answers.length < count) throw new Error(`${answers.length} of ${count} answers`);
    },
    { timeout: 60_000, interval: 5 },
  );
}
