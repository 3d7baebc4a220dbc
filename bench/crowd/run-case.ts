/**
 * One case of the crowd bench, start to end: its server processes (the relay, or two app
 * instances), two client processes, then
 *   1. a few sockets opened and closed (first-use code and buffers), the servers' memory read;
 *   2. the viewers connected in batches, left idle, the memory read again: memory per socket;
 *   3. the chatters signed in and their conversations opened;
 *   4. a warm-up of posts and messages at the measured rates, not counted;
 *   5. the measured window: posts at the post rate (from this process) and messages at the
 *      message rate (from the client processes) at once, every delivery waited for; the
 *      servers' and clients' CPU counted from its start to the last delivery.
 * Everything is closed whatever happened.
 */
import { join } from 'node:path';
import WebSocket from 'ws';
import type { BenchUser } from '../messages/clients.ts';
import { forkServer, type ServerProcess } from '../support/server-process.ts';
import { loadLine } from '../support/stats.ts';
import type { Bbox } from '../support/views.ts';
import type { ChatRun } from './chat.ts';
import type { createPoster } from './posts.ts';
import { type ChatterSpec, epochNow, latency, sleep, type Latency, type ViewerSpec } from './shared.ts';
import type { PostReceipts } from './viewers.ts';

const here = import.meta.dirname;
const CLIENT_PROCESSES = 2;
/** How long a delivery may take after the last send before it counts as lost. */
const SETTLE_MS = 10_000;
/** Idle time before the second memory reading: the connections' buffers and timers settle. */
const IDLE_MS = 2000;
/** Extra node flags for the server processes, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`. */
const SERVER_NODE_ARGS = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
/** BENCH_SERVER_LOGS=1: the servers' logs (a line per request) on this process's stdout, to diagnose. */
const SERVER_LOGS = process.env.BENCH_SERVER_LOGS === '1';
/** BENCH_COUNT_QUERIES=1: print the app's most frequent SQL statements of the window (query-count.ts). */
const COUNT_QUERIES = process.env.BENCH_COUNT_QUERIES === '1';

export interface Settings {
  postRate: number;
  messageRate: number;
  windowMs: number;
  warmupMs: number;
  /** Sockets connecting at once, over all client processes. */
  batch: number;
}

export interface Plan {
  settings: Settings;
  views: Bbox[];
  chatters: BenchUser[];
  poster: ReturnType<typeof createPoster>;
}

type Stats = { cpuMs: number; loopP99Ms: number; loopMaxMs: number };
type Memory = { rss: number; heapUsed: number; heapTotal: number; external: number };

interface Server {
  base: string;
  process: ServerProcess;
}

export interface CaseResult {
  case: string;
  round: number;
  load: string;
  instances: number;
  viewers: { connected: number; failed: number; errors: string[]; connectSeconds: number };
  memory: {
    rssPerSocket: number;
    heapPerSocket: number;
    externalPerSocket: number;
    perInstance: Array<{ before: Memory; after: Memory }>;
  };
  posts: Latency & {
    created: number;
    errorKinds: Record<string, number>;
    expected: number;
    missing: number;
    unexpected: number;
    deliveriesPerSecond: number;
  };
  messages: Latency & { sent: number; errorKinds: Record<string, number>; deliveriesPerSecond: number };
  serverCpuSeconds: number[];
  serverLoopP99Ms: number[];
  /** The event loop's longest block in the window, per process: one stall delays every event in flight. */
  serverLoopMaxMs: number[];
  clientCpuSeconds: number[];
  clientLoopP99Ms: number[];
  clientLoopMaxMs: number[];
  socketsLost: number;
}

async function ask<T>(child: ServerProcess, type: string, data?: unknown): Promise<T> {
  const answer = await child.ask<T & { error?: string }>(type, data);
  if (answer.error) throw new Error(`client process, '${type}': ${answer.error}`);
  return answer;
}

export async function runCase(name: string, envs: Array<Record<string, string>>, plan: Plan): Promise<CaseResult> {
  const servers: Server[] = [];
  const clients: ServerProcess[] = [];
  try {
    for (const env of envs) {
      const child = forkServer(join(here, 'server.ts'), env, ['--expose-gc', ...SERVER_NODE_ARGS], !SERVER_LOGS);
      const { port } = await child.next<{ port: number }>('listening');
      servers.push({ base: `http://127.0.0.1:${port}`, process: child });
    }
    for (let c = 0; c < CLIENT_PROCESSES; c++) {
      clients.push(forkServer(join(here, 'client.ts'), {}));
      await clients[c].next('listening');
    }
    return await measure(name, servers, clients, plan);
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all(servers.map((s) => s.process.close()));
  }
}

async function measure(name: string, servers: Server[], clients: ServerProcess[], plan: Plan): Promise<CaseResult> {
  const bases = servers.map((s) => s.base);
  const memories = async () =>
    (await Promise.all(servers.map((s) => s.process.ask<Memory>('memory')))).map(
      ({ rss, heapUsed, heapTotal, external }) => ({ rss, heapUsed, heapTotal, external }),
    );
  await touch(bases);
  const before = await memories();
  const viewers = await connectViewers(clients, bases, plan);
  await sleep(IDLE_MS);
  const after = await memories();
  await connectChatters(clients, bases, plan);
  console.log(`  ${viewers.connected} viewers in ${viewers.connectSeconds} s, chatters signed in; warm-up`);
  await window(clients, bases, plan, plan.settings.warmupMs, 0);
  await Promise.all([...servers.map((s) => s.process), ...clients].map((p) => p.ask('reset')));
  if (COUNT_QUERIES) await Promise.all(servers.map((s) => s.process.ask('reset-queries')));
  const measured = await window(clients, bases, plan, plan.settings.windowMs, 1_000_000);
  if (COUNT_QUERIES) await printQueries(servers, measured);
  const serverStats = await Promise.all(servers.map((s) => s.process.ask<Stats>('stats')));
  const clientStats = await Promise.all(clients.map((c) => c.ask<Stats>('stats')));
  const grown = (key: keyof Memory) =>
    Math.round(after.reduce((sum, m, i) => sum + m[key] - before[i][key], 0) / Math.max(1, viewers.connected));
  const seconds = (s: Stats[]) => s.map((x) => Math.round(x.cpuMs / 10) / 100);
  const loop = (s: Stats[]) => s.map((x) => Math.round(x.loopP99Ms * 10) / 10);
  const loopMax = (s: Stats[]) => s.map((x) => Math.round(x.loopMaxMs));
  return {
    case: name,
    round: 0,
    load: loadLine(),
    instances: servers.length,
    viewers,
    memory: {
      rssPerSocket: grown('rss'),
      heapPerSocket: grown('heapUsed'),
      externalPerSocket: grown('external'),
      perInstance: before.map((b, i) => ({ before: b, after: after[i] })),
    },
    ...measured,
    serverCpuSeconds: seconds(serverStats),
    serverLoopP99Ms: loop(serverStats),
    serverLoopMaxMs: loopMax(serverStats),
    clientCpuSeconds: seconds(clientStats),
    clientLoopP99Ms: loop(clientStats),
    clientLoopMaxMs: loopMax(clientStats),
  };
}

/** The statements the first instance sent in the window, per post and message it took. */
async function printQueries(servers: Server[], measured: { posts: { created: number }; messages: { sent: number } }) {
  const { top } = await servers[0].process.ask<{ top: Array<[string, number]> }>('queries');
  const events = (measured.posts.created + measured.messages.sent) / servers.length;
  console.log(`  SQL of instance 1 in the window (~${Math.round(events)} posts + messages sent through it):`);
  for (const [text, n] of top) console.log(`  ${String(n).padStart(6)}  ${text}`);
}

/** Opens and closes a few viewer sockets on each server, so the first reading is not of cold code. */
async function touch(bases: string[]): Promise<void> {
  const open = (base: string) =>
    new Promise<void>((resolve) => {
      const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/api/realtime`);
      socket.once('open', () => {
        socket.send('{"type":"view","west":2,"south":48,"east":3,"north":49}');
        socket.send('{"type":"ping"}');
      });
      socket.on('message', (raw) => String(raw).includes('"pong"') && socket.close());
      socket.once('close', () => resolve());
      socket.once('error', () => resolve());
    });
  await Promise.all(bases.flatMap((base) => Array.from({ length: 20 }, () => open(base))));
  await sleep(500);
}

/** Viewer j: client process j mod 2, each process's viewers spread over every instance. */
async function connectViewers(clients: ServerProcess[], bases: string[], plan: Plan) {
  const specs: ViewerSpec[][] = clients.map(() => []);
  plan.views.forEach((bbox, j) => {
    const c = j % clients.length;
    specs[c].push({ base: bases[specs[c].length % bases.length], bbox });
  });
  const batch = Math.max(1, Math.floor(plan.settings.batch / clients.length));
  type Connected = { connected: number; failed: number; errors: string[]; ms: number };
  const answers = await Promise.all(clients.map((c, i) => ask<Connected>(c, 'viewers', { specs: specs[i], batch })));
  return {
    connected: answers.reduce((n, a) => n + a.connected, 0),
    failed: answers.reduce((n, a) => n + a.failed, 0),
    errors: answers.flatMap((a) => a.errors),
    connectSeconds: Math.round(Math.max(...answers.map((a) => a.ms)) / 100) / 10,
  };
}

/** Pair k in client process k mod 2; its two people on different instances (user i on i mod n). */
async function connectChatters(clients: ServerProcess[], bases: string[], plan: Plan): Promise<void> {
  const specs: ChatterSpec[][] = clients.map(() => []);
  plan.chatters.forEach((user, i) => {
    specs[Math.floor(i / 2) % clients.length].push({ base: bases[i % bases.length], user });
  });
  const batch = Math.max(1, Math.floor(plan.settings.batch / clients.length));
  await Promise.all(clients.map((c, i) => ask(c, 'chatters', { specs: specs[i], batch })));
}

/** Posts and messages at their rates for `ms`, then every delivery of both waited for and timed. */
async function window(clients: ServerProcess[], bases: string[], plan: Plan, ms: number, first: number) {
  const { postRate, messageRate } = plan.settings;
  const chatting = Promise.all(
    clients.map((c) => ask<ChatRun>(c, 'chat', { rate: messageRate / clients.length, ms, first, settle: SETTLE_MS })),
  );
  const [chats, posted] = await Promise.all([chatting, plan.poster.post(bases, postRate, ms)]);
  type Receipts = PostReceipts & { lost: number };
  const receipts = await Promise.all(
    clients.map((c) => ask<Receipts>(c, 'posts', { posts: posted.posts, timeoutMs: SETTLE_MS })),
  );
  const firstPost = Math.min(...posted.posts.map((p) => p.t0), epochNow());
  const lastPost = Math.max(...receipts.map((r) => r.lastReceipt), firstPost);
  const postLatency = latency(receipts.flatMap((r) => r.latencies));
  const messageLatency = latency(chats.flatMap((c) => c.latencies));
  const chatSpan = Math.max(...chats.map((c) => c.last)) - Math.min(...chats.map((c) => c.first));
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const messageErrors: Record<string, number> = {};
  for (const c of chats)
    for (const [k, n] of Object.entries(c.errorKinds)) messageErrors[k] = (messageErrors[k] ?? 0) + n;
  return {
    posts: {
      ...postLatency,
      created: posted.posts.length,
      errorKinds: posted.errorKinds,
      expected: sum(receipts.map((r) => r.expected)),
      missing: sum(receipts.map((r) => r.missing)),
      unexpected: sum(receipts.map((r) => r.unexpected)),
      deliveriesPerSecond: Math.round(postLatency.count / Math.max(0.001, (lastPost - firstPost) / 1000)),
    },
    messages: {
      ...messageLatency,
      sent: sum(chats.map((c) => c.sent)),
      errorKinds: messageErrors,
      deliveriesPerSecond: Math.round(messageLatency.count / Math.max(0.001, chatSpan / 1000)),
    },
    socketsLost: sum(receipts.map((r) => r.lost)),
  };
}
