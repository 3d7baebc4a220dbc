/**
 * The real server for one Playwright worker: the built web app and the API on a port the system
 * says is free, with a fresh data directory (embedded PGlite, dev outbox). Each worker has its
 * own, so journeys running side by side never see each other's accounts, posts or mails.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * How long a server may take to answer its health route: compiling the server and migrating a
 * fresh database, as every worker starts at once, took over 2 minutes on a busy 2-core machine.
 */
export const START_TIMEOUT_MS = 300_000;

export interface AppServer {
  port: number;
  base: string;
  /** A free port whose origin the server accepts as a push service: the push journey's stand-in. */
  pushPort: number;
  stop(): Promise<void>;
}

async function healthy(base: string): Promise<boolean> {
  return fetch(`${base}/api/health`).then(
    (r) => r.ok,
    () => false,
  );
}

export async function startAppServer(): Promise<AppServer> {
  const port = await freePort();
  const pushPort = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'moodmap-e2e-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: base,
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    ADMIN_EMAIL: 'admin@moodmap.test',
    // Each journey sends its own X-Forwarded-For (support/test.ts), as users behind a proxy.
    TRUST_PROXY: '1',
    PUSH_EXTRA_ORIGINS: `http://127.0.0.1:${pushPort}`,
  };
  // The embedded database and basemap, whatever the developer's shell points at.
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'MAP_PMTILES']) delete env[name];
  const child: ChildProcess = spawn(process.execPath, [path.join(root, 'server/src/main.ts')], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  let exited: string | undefined;
  const gone = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exited = `the e2e server exited (${code ?? signal}) before answering ${base}/api/health`;
      resolve();
    }),
  );

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await gone;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await healthy(base))) {
    if (exited !== undefined) {
      await stop();
      throw new Error(exited);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the e2e server did not answer ${base}/api/health within ${START_TIMEOUT_MS / 1000} s`);
    }
    await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, 200))]);
  }
  return { port, base, pushPort, stop };
}
