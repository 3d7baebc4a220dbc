/**
 * What the real server process (`main.ts`, as `npm start` runs it) says while it starts: one
 * French line per preparation step with its time, the Node it runs on, and a ready line whose
 * address is the one it listens on and answers at. Also the address rule alone.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { localUrl, readyLine } from '../../src/startup-report.ts';

const serverMain = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/main.ts');

interface LogLine {
  msg: string;
  step?: string;
  stepMs?: number;
  node?: string;
  url?: string;
}

const isLogLine = (value: unknown): value is LogLine =>
  typeof value === 'object' && value !== null && typeof Reflect.get(value, 'msg') === 'string';

/** A JSON log line, or null for anything else a library may print. */
function parseLine(text: string): LogLine | null {
  try {
    const value: unknown = JSON.parse(text);
    return isLogLine(value) ? value : null;
  } catch {
    return null;
  }
}

/** Starts the server on every interface and a free port; resolves with its lines up to the ready one. */
function startUntilReady(dataDir: string): Promise<{ lines: LogLine[]; stop: () => Promise<void> }> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', DATA_DIR: dataDir, WEB_DIST: dataDir, LOG_LEVEL: 'info' };
  for (const name of ['HOST', 'PUBLIC_URL', 'DATABASE_URL', 'REDIS_URL']) delete env[name];
  const child = spawn(process.execPath, [serverMain], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    const lines: LogLine[] = [];
    let pending = '';
    let errors = '';
    child.stderr.on('data', (chunk: string) => (errors += chunk));
    child.stdout.on('data', (chunk: string) => {
      const parts = (pending + chunk).split('\n');
      pending = parts.pop() ?? '';
      for (const part of parts) {
        const line = parseLine(part);
        if (!line) continue;
        lines.push(line);
        if (line.url) resolve({ lines, stop });
      }
    });
    child.on('exit', (code) => reject(new Error(`the server exited (${code}) before its ready line:\n${errors}`)));
  });
}

describe("the start's lines", () => {
  it('times each preparation step in French, names its Node, and gives an address that answers', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'moodmap-start-lines-'));
    const { lines, stop } = await startUntilReady(dataDir);
    try {
      const steps = lines.filter((l) => l.step !== undefined);
      for (const label of ['Configuration', 'Base de données et migrations', 'Moteurs et routes']) {
        const line = steps.find((l) => l.step === label);
        expect(line?.msg, label).toMatch(new RegExp(`^${label} : \\d+ ms`));
        expect(line?.stepMs).toBeGreaterThanOrEqual(0);
      }
      expect(steps.find((l) => l.step === 'Base de données et migrations')?.msg).toContain(
        path.join(dataDir, 'pglite'),
      );
      expect(lines[0].node).toBe(process.version);
      expect(lines[0].msg).toContain(`Node ${process.version}`);

      const ready = lines.at(-1);
      const port = ready?.url?.match(/^http:\/\/localhost:(\d+)$/)?.[1];
      expect(port, ready?.msg).toBeDefined();
      expect(ready?.msg).toContain(`MoodMap prêt sur http://localhost:${port} (à l'écoute sur 0.0.0.0:${port}`);
      expect(ready?.msg).toContain(`Node ${process.version}`);
      const health = await fetch(`${ready?.url}/api/health`);
      expect(health.status).toBe(200);
    } finally {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('prints the bound address itself when not bound to every interface, and PUBLIC_URL when it differs', () => {
    expect(localUrl({ address: '127.0.0.1', family: 'IPv4', port: 8080 })).toBe('http://127.0.0.1:8080');
    expect(localUrl({ address: '::1', family: 'IPv6', port: 8080 })).toBe('http://[::1]:8080');
    expect(localUrl({ address: '::', family: 'IPv6', port: 8080 })).toBe('http://localhost:8080');
    const line = readyLine({ address: '192.0.2.7', family: 'IPv4', port: 3000 }, 'https://moodmap.example', 1940);
    expect(line).toBe(
      `MoodMap prêt sur http://192.0.2.7:3000 (à l'écoute sur 192.0.2.7:3000, adresse publique https://moodmap.example) — Node ${process.version}, démarré en 1,9 s`,
    );
    expect(readyLine({ address: '0.0.0.0', family: 'IPv4', port: 3000 }, 'http://localhost:3000', 500)).not.toContain(
      'adresse publique',
    );
  });
});
