/**
 * A second real server for the PMTiles journey: the same built web app and server as each
 * worker's (support/app-server.ts), started with MAP_PMTILES pointing at an archive of central Paris
 * that the test builds (server/test/helpers/paris-basemap.ts), on a free port with its own data
 * directory. The other journeys keep the embedded basemap of their worker's server.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeParisArchive } from '../../server/test/helpers/paris-basemap.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface PmtilesServer {
  base: string;
  stop(): Promise<void>;
}

export async function startPmtilesServer(): Promise<PmtilesServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'moodmap-e2e-pmtiles-'));
  const archive = writeParisArchive(dataDir, 'gzip');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    NODE_ENV: 'development',
    // The ready line, whose `url` is read below, is an info line.
    LOG_LEVEL: 'info',
    TRUST_PROXY: '1',
    MAP_PMTILES: archive,
  };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'MAP_STYLE_URL', 'MAP_STYLE_URL_DARK', 'PUBLIC_URL'])
    delete env[name];
  const child: ChildProcess = spawn(process.execPath, [path.join(root, 'server/src/main.ts')], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stderr!.on('data', keep);
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      keep(chunk);
      const match = output.match(/"url":"(http:\/\/127\.0\.0\.1:\d+)"/);
      if (match) resolve(match[1]);
    });
    child.on('exit', (code) => reject(new Error(`the PMTiles server exited (${code}) before listening:\n${output}`)));
  });
  return {
    base,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
