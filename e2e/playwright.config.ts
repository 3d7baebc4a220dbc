/**
 * Browser journeys through the real app, in Debian's Chromium. Each worker starts its own server
 * (the built web app and the API, on a free port, with a fresh data directory: support/test.ts),
 * so spec files run side by side; the tests of one file stay in order in one worker.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS } from './chromium-args.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');

export default defineConfig({
  testDir: path.join(here, 'tests'),
  outputDir: path.join(root, 'test-results'),
  // Two-browser journeys are long; leave room for a loaded machine. Two workers on two cores,
  // each drawing maps in software, can keep a page from its next view for more than 15 s.
  timeout: 120_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  reporter: 'list',
  use: {
    locale: 'fr-FR',
    timezoneId: 'Europe/Paris',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
    // As a person who turned motion off: the camera jumps where it would fly, so a map drawn in
    // software paints one frame where a flight paints dozens. The posts and Pulse journeys opt
    // back in, for the flights and the pulse ring's animation.
    reducedMotion: 'reduce',
  },
  projects: [{ name: 'desktop', use: { viewport: { width: 1440, height: 900 } } }],
});
