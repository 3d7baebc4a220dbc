/**
 * One post arriving on a map holding 10⁵ (browser.bench.ts's addPostMainThreadMs), A/B, with
 * where its main-thread time goes (issue 15). Same phone, flags, CPU throttling and feeding as the
 * bench's addPostRound: every viewport answer replaced by one holding the seeded posts, 5 s of
 * settling, TaskDuration over 2 s idle, then over 2 s after a post created through the API in view.
 * Two or more builds of the web app, each served by a server process of its own on one shared
 * database, alternated, so a change is measured against its reference in the same run:
 *
 *   PROBE_DISTS=/tmp/before/dist,web/dist npx tsx bench/browser/add-post.probe.ts
 *
 * PROBE_ROUNDS alternations (default 3). PROBE_TRACE=dir writes, for each build's last round, a
 * Chrome trace of the add window (build-N.json, for DevTools; its CPU profile build-N.cpuprofile) and prints its attribution: the
 * main thread's tasks after the socket frame (what ran in each: frames, timers, worker messages,
 * socket events) and the JS functions with the most self time (a CPU profile of the same window).
 * PROBE_EVENTS=1 prints the map's events from the arrival on (our sources' data and tiles, renders,
 * missing images, idle), ms after the socket frame.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { type Browser, type CDPSession, chromium } from 'playwright-core';
import { openDatabase } from '../../server/src/db/client.ts';
import { createPostgresDatabase } from '../../server/test/helpers/databases.ts';
import { seedUsers } from '../messages/messages.bench.ts';
import { envNumber } from '../support/env.ts';
import { type ServerProcess, forkServer } from '../support/server-process.ts';
import { formatSpread, loadLine, spread } from '../support/stats.ts';
import { PARIS } from '../support/world.ts';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.ts';

const here = dirname(fileURLToPath(import.meta.url));
const APP = join(here, '..', 'support', 'app-server.ts');
const DISTS = (process.env.PROBE_DISTS ?? join(here, '..', '..', 'web', 'dist')).split(',').map((d) => resolve(d));
const ROUNDS = envNumber('PROBE_ROUNDS', 3);
const POSTS = envNumber('BENCH_POSTS', 100_000);
const CITY_POSTS = envNumber('BENCH_CITY_POSTS', 250);
const DPR = envNumber('BENCH_DPR', 3);
const CPU_RATE = envNumber('BENCH_CPU_RATE', 4);
const TRACE_DIR = process.env.PROBE_TRACE;
const EVENTS = process.env.PROBE_EVENTS === '1';
const VIEW = { ...PARIS, zoom: 12 };
const WINDOW = 2000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown> };
}

interface Add {
  mainThreadMs: number;
  idleMs: number;
  handlerMs: number;
  longTasksMs: number;
  report: string[];
}

const taskMs = async (cdp: CDPSession) => {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return (metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0) * 1000;
};

/** What a top-level task ran, from its first meaningful child event. */
function describe(children: TraceEvent[]): string {
  const names = new Map<string, number>();
  for (const e of children) {
    const data = e.args?.data ?? {};
    let label: string | null = null;
    if (e.name === 'FireAnimationFrame') label = 'rAF';
    else if (e.name === 'TimerFire') label = 'timer';
    else if (e.name === 'EventDispatch') label = `event:${String(data.type)}`;
    else if (e.name === 'FunctionCall') label = `call:${String(data.functionName || '?')}@${String(data.url ?? '').split('/').pop()}:${String(data.lineNumber ?? '')}`;
    else if (e.name === 'Paint' || e.name === 'UpdateLayoutTree' || e.name === 'Layout' || e.name === 'Commit' || e.name === 'GCEvent' || e.name === 'MajorGC' || e.name === 'MinorGC' || e.name === 'V8.GC_MC_BACKGROUND') label = e.name;
    else if (e.name === 'HandlePostMessage' || e.name === 'ParseHTML' || e.name === 'v8.compile' || e.name === 'ResourceReceivedData') label = e.name;
    if (label) names.set(label, (names.get(label) ?? 0) + (e.dur ?? 0) / 1000);
  }
  return [...names.entries()].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([n, ms]) => `${n} ${ms.toFixed(1)}`).join(', ');
}

/** The main thread's tasks from the socket frame on, and their sum by kind. */
function attribute(events: TraceEvent[], arrivedMark: string): string[] {
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && events.some((m) => m.pid === e.pid && m.name === arrivedMark));
  if (!main) return ['  (no renderer main thread with the arrival mark in the trace)'];
  const own = events.filter((e) => e.pid === main.pid && e.tid === main.tid);
  const arrived = own.find((e) => e.name === arrivedMark)!.ts;
  const tasks = own.filter((e) => e.ph === 'X' && (e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask') && e.ts + (e.dur ?? 0) >= arrived - 2000).sort((a, b) => a.ts - b.ts);
  const lines: string[] = [];
  const byKind = new Map<string, number>();
  let total = 0;
  for (const task of tasks) {
    const end = task.ts + (task.dur ?? 0);
    const inside = own.filter((e) => e !== task && e.ts >= task.ts && e.ts <= end && e.ph === 'X');
    const what = describe(inside);
    const ms = (task.dur ?? 0) / 1000;
    total += ms;
    const kind = what.split(' ')[0]?.replace(/@.*/, '') || '(other)';
    byKind.set(kind, (byKind.get(kind) ?? 0) + ms);
    if (ms >= 3) lines.push(`  +${((task.ts - arrived) / 1000).toFixed(0).padStart(5)} ms  ${ms.toFixed(1).padStart(6)} ms  ${what}`);
  }
  lines.push(`  tasks from the arrival on: ${total.toFixed(0)} ms; by first kind: ${[...byKind.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, ms]) => `${k} ${ms.toFixed(0)}`).join(', ')}`);
  return lines;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

/** JS self time by function in a CPU profile, the top ones. */
function selfTimes(profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }, top = 25): string[] {
  const byNode = new Map<number, number>();
  profile.samples.forEach((id, i) => byNode.set(id, (byNode.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const byFn = new Map<string, number>();
  for (const node of profile.nodes) {
    const ms = byNode.get(node.id) ?? 0;
    if (!ms) continue;
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    const key = `${functionName || '(anonymous)'} ${url.split('/').pop()}:${lineNumber + 1}:${columnNumber + 1}`;
    byFn.set(key, (byFn.get(key) ?? 0) + ms);
  }
  return [...byFn.entries()].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, ms]) => `  ${ms.toFixed(1).padStart(7)} ms  ${k}`);
}

async function addPost(browser: Browser, base: string, markers: unknown[], user: { token: string; ip: string }, n: number, trace: string | null): Promise<Add> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 }, deviceScaleFactor: DPR, isMobile: true, hasTouch: true, locale: 'fr-FR', timezoneId: 'Europe/Paris',
  });
  try {
    await setUp();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_RATE });
    await cdp.send('Performance.enable');
    await page.route(/\/api\/posts\/viewport\?/, async (route) => {
      const headers = { ...route.request().headers() };
      delete headers['if-none-match'];
      const real = (await (await route.fetch({ headers })).json()) as Record<string, unknown>;
      await route.fulfill({ status: 200, headers: { 'cache-control': 'no-store' }, json: { ...real, points: markers, clusters: [] } });
    });
    await page.goto(`${base}/`);
    await page.waitForFunction(() => {
      const map = (window as unknown as { __MOODMAP_MAP__?: import('maplibre-gl').Map }).__MOODMAP_MAP__;
      return Boolean(map?.isStyleLoaded() && map.areTilesLoaded() && !map.isMoving() && map.getLayer('mm-markers') && map.queryRenderedFeatures({ layers: ['mm-markers'] }).length > 0);
    }, undefined, { timeout: 120_000, polling: 250 });
    await sleep(5000);
    const t0 = await taskMs(cdp);
    await sleep(WINDOW);
    const idleMs = (await taskMs(cdp)) - t0;
    const before = await page.evaluate(() => ({ ...(window as unknown as { __add: { longTasks: number } }).__add }));
    const traced: TraceEvent[] = [];
    if (trace) {
      cdp.on('Tracing.dataCollected', (e) => traced.push(...(e.value as unknown as TraceEvent[])));
      await cdp.send('Tracing.start', {
        transferMode: 'ReportEvents',
        traceConfig: { includedCategories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing', 'toplevel', 'disabled-by-default-devtools.timeline.frame', 'v8', 'blink'] },
      });
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    if (EVENTS) {
      await page.evaluate(() => {
        const log: string[] = [];
        (window as unknown as { __events: string[] }).__events = log;
        const map = (window as unknown as { __MOODMAP_MAP__: import('maplibre-gl').Map }).__MOODMAP_MAP__;
        const at = () => {
          const marks = performance.getEntriesByName('probe-arrived');
          return marks.length ? (performance.now() - marks[0]!.startTime).toFixed(0) : 'before';
        };
        type Data = { sourceId?: string; dataType?: string; sourceDataType?: string; tile?: { tileID: { canonical: { z: number; x: number; y: number } } }; isSourceLoaded?: boolean };
        map.on('data', (e: Data) => {
          if (e.dataType === 'style') return log.push(`${at()} style data`);
          if (e.sourceId?.startsWith('mm-')) log.push(`${at()} ${e.sourceId} ${e.sourceDataType ?? ''}${e.tile ? ` tile ${e.tile.tileID.canonical.z}/${e.tile.tileID.canonical.x}/${e.tile.tileID.canonical.y}` : ''}`);
        });
        map.on('dataloading', (e: Data) => void (e.sourceId?.startsWith('mm-') && log.push(`${at()} ${e.sourceId} dataloading`)));
        map.on('styleimagemissing', (e: { id: string }) => void log.push(`${at()} image missing ${e.id}`));
        map.on('render', () => void log.push(`${at()} render`));
        map.on('idle', () => void log.push(`${at()} idle`));
        const source = map.getSource('mm-markers') as unknown as { getClusterOptions(): { cluster: boolean } };
        log.push(`clustered: ${source.getClusterOptions().cluster}; zoom ${map.getZoom()}`);
      });
    }
    const t1 = await taskMs(cdp);
    const res = await fetch(`${base}/api/posts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json', 'x-forwarded-for': user.ip },
      body: JSON.stringify({ category: 'party', content: 'Concert improvisé place de la République !', latitude: PARIS.latitude + 0.002 * (n + 1), longitude: PARIS.longitude }),
    });
    if (res.status !== 201) throw new Error(`post: ${res.status} ${await res.text()}`);
    const { post } = (await res.json()) as { post: { id: string } };
    await sleep(WINDOW);
    const mainThreadMs = (await taskMs(cdp)) - t1 - idleMs;
    const report: string[] = [];
    if (trace) {
      const { profile } = await cdp.send('Profiler.stop');
      const done = new Promise<void>((r) => cdp.once('Tracing.tracingComplete', () => r()));
      await cdp.send('Tracing.end');
      await done;
      writeFileSync(trace, JSON.stringify({ traceEvents: traced }));
      writeFileSync(trace.replace(/\.json$/, '.cpuprofile'), JSON.stringify(profile));
      report.push(...attribute(traced, 'probe-arrived'), '  JS self time in the window (CPU profile):', ...selfTimes(profile as never));
    }
    const after = await page.evaluate(() => ({ ...(window as unknown as { __add: { handlerMs: number; longTasks: number } }).__add }));
    const drawn = await page.waitForFunction((pid) => {
      const map = (window as unknown as { __MOODMAP_MAP__: import('maplibre-gl').Map }).__MOODMAP_MAP__;
      return map.queryRenderedFeatures({ layers: ['mm-markers'] }).some((f) => f.properties.pid === pid);
    }, post.id, { timeout: 20_000, polling: 500 }).then(() => true, () => false);
    if (!drawn) report.push('  (the new post is not drawn alone: it joined a 100 m group)');
    if (EVENTS) report.push(...(await page.evaluate(() => (window as unknown as { __events: string[] }).__events)).map((l) => `    ${l}`));
    await fetch(`${base}/api/posts/${post.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${user.token}`, 'x-forwarded-for': user.ip } });
    return { mainThreadMs, idleMs, handlerMs: after.handlerMs, longTasksMs: after.longTasks - before.longTasks, report };
  } finally {
    await context.close();
  }

  async function setUp(): Promise<void> {
    await context.addInitScript((view) => {
      (window as unknown as { __name: (f: unknown) => unknown }).__name = (f) => f;
      localStorage.setItem('moodmap.mapLocation', JSON.stringify(view));
      // As browser.bench.ts: the socket handler's own time for post.created frames, long tasks;
      // and a user-timing mark at the frame's arrival, which the trace shows.
      const stats = { handlerMs: 0, longTasks: 0 };
      (window as unknown as { __add: typeof stats }).__add = stats;
      const add = WebSocket.prototype.addEventListener;
      WebSocket.prototype.addEventListener = function (this: WebSocket, type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions) {
        if (type !== 'message' || typeof listener !== 'function') return add.call(this, type, listener, options);
        return add.call(this, type, (event: Event) => {
          const created = typeof (event as MessageEvent).data === 'string' && (event as MessageEvent).data.includes('post.created');
          if (created) performance.mark('probe-arrived');
          const t = performance.now();
          listener.call(this, event);
          if (created) stats.handlerMs += performance.now() - t;
        }, options);
      } as typeof WebSocket.prototype.addEventListener;
      const onmessage = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage')!;
      Object.defineProperty(WebSocket.prototype, 'onmessage', {
        ...onmessage,
        set(this: WebSocket, handler: ((e: MessageEvent) => void) | null) {
          if (handler) this.addEventListener('message', handler as EventListener);
        },
      });
      try {
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) stats.longTasks += entry.duration;
        }).observe({ type: 'longtask', buffered: false });
      } catch {}
    }, VIEW);
  }
}

async function main(): Promise<void> {
  process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
  const jwtSecret = randomBytes(32).toString('base64url');
  const { url, drop } = await createPostgresDatabase();
  const servers: ServerProcess[] = [];
  const loads = [`start ${loadLine()}`];
  const results = DISTS.map(() => [] as Add[]);
  try {
    const bases: string[] = [];
    for (const [i, dist] of DISTS.entries()) {
      const server = forkServer(APP, { BENCH_ENGINE: 'postgres', BENCH_DATABASE_URL: url, BENCH_POSTS: String(i === 0 ? POSTS : 0), BENCH_JWT_SECRET: jwtSecret, BENCH_WEB_DIST: dist }, [], true);
      servers.push(server);
      bases.push(`http://127.0.0.1:${(await server.next<{ port: number }>('listening')).port}`);
    }
    const database = await openDatabase({ databaseUrl: url, poolSize: 2 });
    await database.db.execute(sql.raw(`
      insert into publications (user_id, category, content, latitude, longitude, nickname, created_at, media_urls, has_pulse_effect)
      select md5('bench-user-' || (1 + i % 1000))::uuid, (array['happy','angry','party','money','love'])[1 + floor(random() * 5)::int],
             'Un café en terrasse, rien de mieux',
             ${PARIS.latitude} + g * cos(a) * 0.012, ${PARIS.longitude} + g * sin(a) * 0.018,
             'membre_' || (1 + i % 1000), now() - (60 + random() * 80000) * interval '1 second', '[]'::jsonb, random() < 0.05
      from (select i, sqrt(-2 * ln(1 - random())) as g, 2 * pi() * random() as a from generate_series(1, ${CITY_POSTS}) i) s`));
    await database.db.execute(sql.raw('analyze publications'));
    // As browser.bench.ts's allMarkers: the seeded posts as markers, pulse off.
    const { rows } = await database.db.execute(sql.raw('select id, user_id, category, latitude, longitude, nickname, author_photo_url, created_at from publications'));
    const markers = (rows as Array<Record<string, unknown>>).map((r) => ({
      id: String(r.id), userId: String(r.user_id), category: String(r.category), latitude: Number(r.latitude), longitude: Number(r.longitude),
      nickname: String(r.nickname), photoUrl: (r.author_photo_url as string | null) ?? null, hasPulseEffect: false, createdAt: new Date(r.created_at as string).toISOString(),
    }));
    const users = await seedUsers(database, (ROUNDS + 1) * DISTS.length, jwtSecret);
    await database.close();
    console.log(`${markers.length} markers held; phone 390×844 DPR ${DPR}, CPU ÷${CPU_RATE}`);
    if (TRACE_DIR) mkdirSync(TRACE_DIR, { recursive: true });
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    let u = 0;
    try {
      for (let r = 0; r < ROUNDS; r++) {
        loads.push(`round ${r + 1} ${loadLine()}`);
        const order = DISTS.map((_, i) => i);
        if (r % 2 === 1) order.reverse();
        for (const i of order) {
          const trace = TRACE_DIR && r === ROUNDS - 1 ? join(TRACE_DIR, `build-${i}.json`) : null;
          const add = await addPost(browser, bases[i]!, markers, users[u++]!, r, trace);
          results[i]!.push(add);
          console.log(`round ${r + 1} build ${i}: main thread ${add.mainThreadMs.toFixed(1)} ms (idle ${add.idleMs.toFixed(1)}); socket handler ${add.handlerMs.toFixed(2)} ms; long tasks ${add.longTasksMs.toFixed(0)} ms (load ${loadLine().split(' ')[0]})`);
          if (add.report.length) console.log(add.report.join('\n'));
        }
      }
    } finally {
      await browser.close();
    }
  } finally {
    for (const server of servers) await server.close();
    await drop();
  }
  loads.push(`end ${loadLine()}`);
  for (const [i, dist] of DISTS.entries()) {
    const rounds = results[i]!;
    console.log(`build ${i} ${dist}: add main thread ${formatSpread(spread(rounds.map((a) => a.mainThreadMs)), ' ms')}; handler ${formatSpread(spread(rounds.map((a) => a.handlerMs)), ' ms')}; long tasks ${formatSpread(spread(rounds.map((a) => a.longTasksMs)), ' ms')}`);
  }
  console.log(loads.join('\n'));
}

await main();
