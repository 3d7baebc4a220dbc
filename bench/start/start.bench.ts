/**
 * How long `npm start`'s server takes to serve its first page, and what it costs. Each run
 * starts a process as scripts/start.mjs does (this Node, server/src/main.ts) on the embedded
 * defaults — PGlite in a fresh temporary DATA_DIR, an unused port, no DATABASE_URL, REDIS_URL
 * or PUBLIC_URL — asks GET / every BENCH_POLL_MS (20) until it answers 200, and measures:
 *   - cpuS: the server process's CPU seconds (user + system, all its threads: /proc/<pid>/stat)
 *     when the first page arrives;
 *   - wallS: seconds from spawn to that page;
 *   - idleRssMb: its resident memory once quiet (no CPU tick for BENCH_QUIET_MS, 1 000).
 * Measured twice: a first start (a fresh DATA_DIR, PGlite created and migrated) and a restart
 * (the same DATA_DIR started once before, unmeasured). Reference, in the same run: reference-server.ts, a process loading every module main.ts
 * loads then serving the same page from a bare Fastify — the start without its preparation.
 * BENCH_ROUNDS (3) rounds, the two alternated (reference first in odd rounds); median and
 * spread of each figure and of cpuS ÷ reference's cpuS; the machine's load printed. The app's
 * own step lines ("Base de données et migrations : 412 ms") are collected when it logs them.
 * Both processes get npm start's V8 flags (scripts/server-node-args.mjs), or BENCH_NODE_ARGS
 * when set (e.g. "--import tsx", or "" for V8's defaults): to measure a tree whose
 * server Node cannot run alone.
 *
 * Needs the built web app (web/dist; built first when missing).
 * Run: `npm run bench -- start` (or `npx node bench/start/start.bench.ts`).
 * Writes bench/results/start.json.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_ARGS } from '../../scripts/server-node-args.mjs';
import { envPositiveInt } from '../support/env.ts';
import { resultsFile, round, startRun, writeResults } from '../support/results.ts';
import { type Spread, formatSpread, loadLine, sig, spread } from '../support/stats.ts';
import { cpuSeconds, rssMb } from './proc.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const SERVER_MAIN = path.join(root, 'server/src/main.ts');
const REFERENCE = path.join(here, 'reference-server.ts');
const PAGE = path.join(root, 'web/dist/index.html');
const RESULTS = resultsFile('start.json');

const ROUNDS = envPositiveInt('BENCH_ROUNDS', 3);
const POLL_MS = envPositiveInt('BENCH_POLL_MS', 20);
const QUIET_MS = envPositiveInt('BENCH_QUIET_MS', 1000);
const START_TIMEOUT_MS = envPositiveInt('BENCH_START_TIMEOUT_MS', 120_000);
const NODE_ARGS =
  process.env.BENCH_NODE_ARGS === undefined ? SERVER_NODE_ARGS : process.env.BENCH_NODE_ARGS.split(' ').filter(Boolean);

/** 'app': a first start (PGlite created and migrated); 'restart': the same on a data directory started once before. */
type Kind = 'reference' | 'app' | 'restart';

interface Run {
  kind: Kind;
  round: number;
  cpuS: number;
  wallS: number;
  idleRssMb: number;
  /** The app's step lines: label → ms. */
  steps: Record<string, number>;
  load1: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A port nobody listens on now: the kernel's pick for a socket closed at once. */
async function unusedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The environment of `npm start` with nothing configured: every engine embedded. */
function embeddedEnv(port: number, dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir, BENCH_PAGE: PAGE };
  for (const name of [
    'DATABASE_URL',
    'REDIS_URL',
    'PUBLIC_URL',
    'WEB_DIST',
    'MAP_PMTILES',
    'HOST',
    'LOG_LEVEL',
    'NODE_ENV',
    'S3_BUCKET',
    'SMTP_URL',
  ])
    delete env[name];
  return env;
}

/** Status of GET / (0 while nothing listens). */
function firstPageStatus(port: number): Promise<number> {
  return fetch(`http://127.0.0.1:${port}/`).then(
    async (res) => {
      await res.arrayBuffer();
      return res.status;
    },
    () => 0,
  );
}

/** Waits until the process has used no CPU tick for QUIET_MS: its memory then is its idle size. */
async function quietRss(pid: number): Promise<number> {
  let last = cpuSeconds(pid);
  let quietSince = performance.now();
  const deadline = performance.now() + 30_000;
  while (performance.now() - quietSince < QUIET_MS && performance.now() < deadline) {
    await pause(100);
    const now = cpuSeconds(pid);
    if (now !== last) {
      last = now;
      quietSince = performance.now();
    }
  }
  return rssMb(pid);
}

/** The step lines of the app's JSON logs ({ step, stepMs }). */
function collectSteps(child: ChildProcess, steps: Record<string, number>): void {
  let pending = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.includes('"stepMs"')) continue;
      const entry: unknown = JSON.parse(line);
      const label = typeof entry === 'object' && entry !== null ? Reflect.get(entry, 'step') : undefined;
      const ms = typeof entry === 'object' && entry !== null ? Reflect.get(entry, 'stepMs') : undefined;
      if (typeof label === 'string' && typeof ms === 'number') steps[label] = ms;
    }
  });
}

async function startOnce(kind: Kind, roundNo: number, keptDataDir?: string): Promise<Run> {
  const port = await unusedPort();
  const dataDir = keptDataDir ?? mkdtempSync(path.join(os.tmpdir(), 'moodmap-start-bench-'));
  const steps: Record<string, number> = {};
  const started = performance.now();
  const child = spawn(process.execPath, [...NODE_ARGS, kind === 'reference' ? REFERENCE : SERVER_MAIN], {
    cwd: root,
    env: embeddedEnv(port, dataDir),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${kind}: spawn failed`);
  collectSteps(child, steps);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    let status = 0;
    while (status !== 200) {
      if (child.exitCode !== null) throw new Error(`${kind} exited (${child.exitCode}) before its first page`);
      if (performance.now() - started > START_TIMEOUT_MS)
        throw new Error(`${kind}: no first page after ${START_TIMEOUT_MS} ms`);
      status = await firstPageStatus(port);
      if (status !== 200 && status !== 0) throw new Error(`${kind}: GET / answered ${status} (is web/dist built?)`);
      if (status !== 200) await pause(POLL_MS);
    }
    const cpuS = cpuSeconds(pid);
    const wallS = (performance.now() - started) / 1000;
    const idleRssMb = await quietRss(pid);
    return { kind, round: roundNo, cpuS, wallS, idleRssMb, steps, load1: os.loadavg()[0] };
  } finally {
    child.kill('SIGTERM');
    await exited;
    if (!keptDataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A restart: the app started once on a fresh data directory (not measured), then again on it. */
async function restartOnce(roundNo: number): Promise<Run> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'moodmap-start-bench-'));
  try {
    await startOnce('app', roundNo, dataDir);
    return await startOnce('restart', roundNo, dataDir);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function ensureWebBuild(): void {
  if (existsSync(PAGE)) return;
  console.log('web/dist missing: building it once (not measured)');
  const build = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('web build failed');
}

const figure = (runs: Run[], kind: Kind, pick: (r: Run) => number) =>
  spread(runs.filter((r) => r.kind === kind).map((r) => round(pick(r), 2)));

async function main() {
  ensureWebBuild();
  const runInfo = startRun();
  const loads = [loadLine()];
  console.log(
    `start bench: ${ROUNDS} rounds, Node ${process.version}${NODE_ARGS.length ? ` ${NODE_ARGS.join(' ')}` : ''} (load ${loads[0]})`,
  );
  const runs: Run[] = [];
  for (let r = 1; r <= ROUNDS; r++) {
    const order: Kind[] = r % 2 === 1 ? ['reference', 'app', 'restart'] : ['restart', 'app', 'reference'];
    for (const kind of order) {
      const run = kind === 'restart' ? await restartOnce(r) : await startOnce(kind, r);
      runs.push(run);
      const steps = Object.entries(run.steps)
        .map(([label, ms]) => `${label} ${ms} ms`)
        .join(', ');
      console.log(
        `round ${r} ${kind.padEnd(9)} cpu ${run.cpuS.toFixed(2)} s  wall ${run.wallS.toFixed(2)} s  idle rss ${run.idleRssMb.toFixed(0)} MB  load ${run.load1.toFixed(2)}${steps ? `  [${steps}]` : ''}`,
      );
    }
    loads.push(loadLine());
  }

  const ratios = (kind: Kind) =>
    Array.from({ length: ROUNDS }, (_, i) => {
      const app = runs.find((x) => x.kind === kind && x.round === i + 1);
      const ref = runs.find((x) => x.kind === 'reference' && x.round === i + 1);
      return app && ref ? sig(app.cpuS / ref.cpuS) : Number.NaN;
    });
  const stepLabels = [...new Set(runs.flatMap((r) => Object.keys(r.steps)))];
  const stepsOf = (kind: Kind): Record<string, Spread> =>
    Object.fromEntries(
      stepLabels.map((label) => [
        label,
        spread(runs.filter((r) => r.kind === kind).map((r) => r.steps[label] ?? Number.NaN)),
      ]),
    );
  const of = (kind: Kind) => ({
    cpuS: figure(runs, kind, (r) => r.cpuS),
    wallS: figure(runs, kind, (r) => r.wallS),
    idleRssMb: figure(runs, kind, (r) => r.idleRssMb),
  });
  const summary = {
    app: of('app'),
    restart: of('restart'),
    reference: of('reference'),
    cpuRatio: spread(ratios('app')),
    restartCpuRatio: spread(ratios('restart')),
    stepsMs: stepsOf('app'),
    restartStepsMs: stepsOf('restart'),
  };
  console.log('\nmedian (min–max) over the rounds');
  for (const kind of ['app', 'restart', 'reference'] as const) {
    const s = summary[kind];
    console.log(
      `${kind.padEnd(9)} cpu ${formatSpread(s.cpuS, ' s')}  wall ${formatSpread(s.wallS, ' s')}  idle rss ${formatSpread(s.idleRssMb, ' MB')}`,
    );
  }
  console.log(
    `app cpu ÷ reference cpu: ${formatSpread(summary.cpuRatio)}; restart cpu ÷ reference cpu: ${formatSpread(summary.restartCpuRatio)}`,
  );
  for (const [kind, steps] of [
    ['app', summary.stepsMs],
    ['restart', summary.restartStepsMs],
  ] as const) {
    for (const [label, s] of Object.entries(steps)) console.log(`  ${kind} ${label}: ${formatSpread(s, ' ms')}`);
  }
  console.log(`load at end ${loadLine()}`);
  writeResults(RESULTS, runInfo, {
    rounds: ROUNDS,
    nodeArgs: NODE_ARGS,
    pollMs: POLL_MS,
    quietMs: QUIET_MS,
    loads,
    summary,
    runs,
  });
}

await main();
