import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { testConfig } from '../../src/config.ts';

const serverMain = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/main.ts');

describe('graceful shutdown', () => {
  it('finishes in-flight requests, refuses new ones, then closes the database', async () => {
    const app = await buildApp(testConfig());
    const arrived = Promise.withResolvers<void>();
    const released = Promise.withResolvers<void>();
    app.get('/api/__slow', async () => {
      arrived.resolve();
      await released.promise;
      return { done: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const inFlight = fetch(`http://127.0.0.1:${port}/api/__slow`).then((r) => r.json());
    await arrived.promise;
    const closing = app.close();
    await expect(fetch(`http://127.0.0.1:${port}/api/health`)).rejects.toThrow();
    released.resolve();
    expect(await inFlight).toEqual({ done: true });
    await closing;
    expect(await app.ctx.database.ping()).toBe(false);
  });

  it('exits cleanly on SIGTERM with its data kept', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'moodmap-shutdown-'));
    try {
      const run = () =>
        new Promise<{ code: number | null; healthy: boolean }>((resolve, reject) => {
          const child = spawn(process.execPath, [serverMain], {
            env: {
              ...process.env,
              PORT: '0',
              HOST: '127.0.0.1',
              DATA_DIR: dataDir,
              LOG_LEVEL: 'info',
              WEB_DIST: dataDir,
            },
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          let healthy = false;
          let out = '';
          child.stdout.on('data', async (chunk: Buffer) => {
            out += chunk.toString();
            const match = out.match(/"url":"(http:\/\/127\.0\.0\.1:\d+)"/);
            if (match && !healthy) {
              healthy = true;
              const res = await fetch(`${match[1]}/api/health`);
              healthy = res.status === 200;
              child.kill('SIGTERM');
            }
          });
          child.on('error', reject);
          child.on('exit', (code) => resolve({ code, healthy }));
        });
      const first = await run();
      expect(first).toEqual({ code: 0, healthy: true });
      // The embedded database reopens after a clean stop (migrations already applied).
      const second = await run();
      expect(second).toEqual({ code: 0, healthy: true });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
