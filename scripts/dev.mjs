#!/usr/bin/env node
// `npm run dev`: the API server on :3001 (reloading on change through tsx watch) and Vite on
// :3000 (hot reload), which proxies /api and the WebSocket to the server.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const children = [
  spawn('npx', ['tsx', 'watch', 'server/src/main.ts'], { cwd: root, stdio: 'inherit', env: { ...process.env, PORT: '3001', WEB_DIST: '/nonexistent' } }),
  spawn('npx', ['vite', '--port', '3000', '--strictPort'], { cwd: path.join(root, 'web'), stdio: 'inherit' }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => { stop(); process.exitCode = code ?? 0; });
