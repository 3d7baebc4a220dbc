#!/usr/bin/env node
// `npm run dev`: the API server on :3001 (restarted on change by Node's own --watch) and Vite on
// :3000 (hot reload), which proxies /api and the WebSocket to the server.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireNode } from './node-version.mjs';

requireNode();

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Vite's own script, run by this Node: through npx, a SIGTERM would stop npm and leave Vite running.
const vite = path.join(
  path.dirname(createRequire(path.join(root, 'web', 'package.json')).resolve('vite/package.json')),
  'bin',
  'vite.js',
);
const children = [
  spawn(process.execPath, ['--watch', 'server/src/main.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PORT: '3001', WEB_DIST: '/nonexistent' },
  }),
  spawn(process.execPath, [vite, '--port', '3000', '--strictPort'], { cwd: path.join(root, 'web'), stdio: 'inherit' }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children)
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
