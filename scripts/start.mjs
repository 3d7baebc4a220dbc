#!/usr/bin/env node
// `npm start`: builds the web app when its build is missing or older than its sources, then
// runs the server's TypeScript with Node's own type stripping, on the embedded defaults unless
// configured (Node 24: node-version.mjs).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireNode } from './node-version.mjs';
import { SERVER_NODE_ARGS } from './server-node-args.mjs';

requireNode();

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const builtIndex = path.join(root, 'web', 'dist', 'index.html');

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

const checkStarted = performance.now();
const sources = ['web/src', 'web/public', 'web/index.html', 'web/vite.config.ts', 'core/src'].map((p) =>
  path.join(root, p),
);
const builtAt = existsSync(builtIndex) ? statSync(builtIndex).mtimeMs : 0;
if (builtAt < Math.max(...sources.map(newestMtime))) {
  console.log(
    builtAt
      ? 'Application web plus ancienne que ses sources : construction…'
      : 'Application web pas encore construite : construction…',
  );
  const build = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  console.log(`Application web : ${Math.round(performance.now() - checkStarted)} ms (construite)`);
} else {
  console.log(`Application web : ${Math.round(performance.now() - checkStarted)} ms (à jour)`);
}

const server = spawn(process.execPath, [...SERVER_NODE_ARGS, path.join(root, 'server', 'src', 'main.ts')], {
  cwd: process.cwd(),
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
