/**
 * Browser journeys through the real app: the built web app served by the real server on a
 * free port, with a fresh data directory (embedded PGlite, dev outbox), in Debian's Chromium.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { freePort } from './support/free-port.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
// A port the system says is free, shared with the workers through the environment, so two runs
// on one machine (a developer's and CI's) never talk to each other's server.
const port = Number(process.env.E2E_PORT ?? (await freePort()));
process.env.E2E_PORT = String(port);
// Evaluated once per process; only the main process starts the server, so one fresh dir is used.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'moodmap-e2e-'));
process.env.E2E_DATA_DIR = dataDir;

export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
];

export default defineConfig({
  testDir: path.join(here, 'tests'),
  outputDir: path.join(root, 'test-results'),
  // Two-browser journeys take ~40 s on an idle 2-core machine; leave room for a loaded one.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: 'list',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: 'fr-FR',
    timezoneId: 'Europe/Paris',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
  },
  projects: [
    { name: 'desktop', use: { viewport: { width: 1440, height: 900 } } },
  ],
  webServer: {
    command: `node --import tsx ${path.join(root, 'server/src/main.ts')}`,
    cwd: root,
    url: `http://127.0.0.1:${port}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: 'admin@moodmap.test',
      // Each journey sends its own X-Forwarded-For (support/test.ts), as users behind a proxy.
      TRUST_PROXY: '1',
    },
  },
});
