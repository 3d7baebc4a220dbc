/**
 * The phone's first load only, A/B: the browser bench's phone (browser.bench.ts: same
 * flags, DPR, CPU throttling, Paris view, seeded posts) opening two or more builds of the web app
 * alternated, each served by a server process of its own on one shared database, so a change to
 * the first load is measured against its reference in the same run and under the same load.
 *
 *   PROBE_DISTS=/tmp/a/dist,web/dist npx node bench/browser/first-load.probe.ts
 *
 * PROBE_ROUNDS alternations (default 5, after one unmeasured warm-up per build: the servers'
 * caches). Per build: map ready as browser.bench.ts has it (navigation → data-map-loaded="true"
 * and the map idle with its markers laid out; the attribute's own time beside it) and the JS
 * fetched by then (gzip), median and spread. PROBE_TIMELINE=1 prints each round's requests until map ready (start
 * → end, ms after navigation): the critical path. PROBE_TRACE=dir writes a Chrome performance
 * trace of each build's last round there (open it in chrome://tracing or DevTools), and
 * PROBE_PROFILE=dir a JS CPU profile (.cpuprofile) of it. PROBE_MARKS=1 prints when the map was
 * created and its first events ('style.load', 'load', sources loaded, 'idle', the first idle
 * with markers).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { type Browser, chromium } from 'playwright-core';
import { openDatabase } from '../../server/src/db/client.ts';
import { createPostgresDatabase } from '../../server/test/helpers/databases.ts';
import { envNumber } from '../support/env.ts';
import { type ServerProcess, forkServer } from '../support/server-process.ts';
import { formatSpread, loadLine, spread } from '../support/stats.ts';
import { PARIS } from '../support/world.ts';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.ts';

const here = dirname(fileURLToPath(import.meta.url));
const APP = join(here, '..', 'support', 'app-server.ts');
const DISTS = (process.env.PROBE_DISTS ?? join(here, '..', '..', 'web', 'dist')).split(',').map((d) => resolve(d));
const ROUNDS = envNumber('PROBE_ROUNDS', 5);
const POSTS = envNumber('BENCH_POSTS', 100_000);
const CITY_POSTS = envNumber('BENCH_CITY_POSTS', 250);
const DPR = envNumber('BENCH_DPR', 3);
const CPU_RATE = envNumber('BENCH_CPU_RATE', 4);
const TIMELINE = process.env.PROBE_TIMELINE === '1';
const TRACE_DIR = process.env.PROBE_TRACE;
const PROFILE_DIR = process.env.PROBE_PROFILE;
const MARKS = process.env.PROBE_MARKS === '1';
const VIEW = { ...PARIS, zoom: 12 };

interface Load {
  /** Navigation → data-map-loaded and the map idle with its markers (browser.bench.ts's map ready). */
  mapReadyS: number;
  /** Navigation → data-map-loaded="true" alone. */
  mapLoadedS: number;
  jsGzip: number;
  /** Marker features in the map's source then, and pictures in its atlas. */
  markers: number;
  images: number;
  timeline: string[];
}

async function firstLoad(browser: Browser, base: string, trace: string | null, profile: string | null): Promise<Load> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: DPR,
    isMobile: true,
    hasTouch: true,
    locale: 'fr-FR',
    timezoneId: 'Europe/Paris',
  });
  try {
    await context.addInitScript((view) => {
      localStorage.setItem('moodmap.mapLocation', JSON.stringify(view));
      // As browser.bench.ts: ready = data-map-loaded and the map idle with its markers laid out.
      const bench = { mapLoadedAt: 0, mapReadyAt: 0, markers: 0, images: 0 };
      (window as unknown as { __bench: typeof bench }).__bench = bench;
      new MutationObserver((_, observer) => {
        if (!document.querySelector('[data-testid="map-canvas"][data-map-loaded="true"]')) return;
        bench.mapLoadedAt = performance.now();
        observer.disconnect();
        type ProbeMap = {
          getSource(id: string): unknown;
          querySourceFeatures(id: string): unknown[];
          listImages(): string[];
          on(e: string, f: () => void): void;
          off(e: string, f: () => void): void;
        };
        const map = (window as unknown as { __MOODMAP_MAP__: ProbeMap }).__MOODMAP_MAP__;
        const check = () => {
          bench.markers = map.getSource('mm-markers') ? map.querySourceFeatures('mm-markers').length : 0;
          if (bench.markers === 0) return false;
          bench.mapReadyAt = performance.now();
          bench.images = map.listImages().length;
          map.off('idle', check);
          return true;
        };
        if (!check()) map.on('idle', check);
      }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-map-loaded'] });
    }, VIEW);
    if (MARKS) {
      await context.addInitScript(() => {
        const marks: Array<[string, number]> = [];
        (window as unknown as { __marks: typeof marks }).__marks = marks;
        const mark = (name: string) => marks.push([name, performance.now()]);
        document.addEventListener('DOMContentLoaded', () => mark('DOMContentLoaded'));
        // exposeMap (map-store.ts) defines the hook with Object.defineProperty once the map exists.
        const define = Object.defineProperty;
        Object.defineProperty = ((target: object, key: PropertyKey, descriptor: PropertyDescriptor) => {
          if (
            target === window &&
            key === '__MOODMAP_MAP__' &&
            descriptor.value &&
            !marks.some(([n]) => n === 'map exposed')
          ) {
            mark('map exposed');
            const map = descriptor.value as {
              on: (e: string, f: (e: { sourceId?: string; isSourceLoaded?: boolean }) => void) => void;
              once: (e: string, f: () => void) => void;
            };
            for (const name of ['style.load', 'load', 'idle']) map.once(name, () => mark(name));
            // The first quiet map with its markers laid out (an earlier 'idle' may have none yet).
            const withMarkers = () => {
              const m = map as unknown as {
                getSource: (id: string) => unknown;
                querySourceFeatures: (id: string) => unknown[];
                off: (e: string, f: () => void) => void;
              };
              if (!m.getSource('mm-markers') || m.querySourceFeatures('mm-markers').length === 0) return;
              mark('idle with markers');
              m.off('idle', withMarkers);
            };
            map.on('idle', withMarkers);
            let renders = 0;
            map.on('render', () => {
              renders++;
              if (renders === 1) mark('first render');
            });
            const seen = new Set<string>();
            map.on('sourcedata', (e) => {
              if (!e.sourceId || seen.has(e.sourceId)) return;
              if (!e.isSourceLoaded) {
                if (!seen.has(`~${e.sourceId}`)) {
                  seen.add(`~${e.sourceId}`);
                  mark(`source ${e.sourceId} data`);
                }
                return;
              }
              seen.add(e.sourceId);
              mark(`source ${e.sourceId} loaded`);
            });
          }
          return define.call(Object, target, key, descriptor);
        }) as typeof Object.defineProperty;
      });
    }
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_RATE });
    const traced: unknown[] = [];
    if (trace) {
      cdp.on('Tracing.dataCollected', (e: { value: unknown[] }) => traced.push(...e.value));
      await cdp.send('Tracing.start', {
        transferMode: 'ReportEvents',
        traceConfig: {
          includedCategories: [
            'devtools.timeline',
            'disabled-by-default-devtools.timeline',
            'v8.execute',
            'blink.user_timing',
            'loading',
            'disabled-by-default-devtools.timeline.frame',
            'toplevel',
          ],
        },
      });
    }
    if (profile) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
      await cdp.send('Profiler.start');
    }
    const scripts: Array<Promise<number>> = [];
    const requests: Array<Promise<{ url: string; start: number; end: number; bytes: number }>> = [];
    let counting = true;
    page.on('requestfinished', (request) => {
      if (!counting) return;
      const url = request.url();
      if (url.startsWith(base) && /\.m?js$/.test(new URL(url).pathname)) {
        scripts.push(
          request
            .response()
            .then((r) => r!.body())
            .then(
              (b) => gzipSync(b, { level: 9 }).length,
              () => 0,
            ),
        );
      }
      if (TIMELINE) {
        const t = request.timing();
        requests.push(
          request.sizes().then(
            (s) => ({
              url: url.replace(base, ''),
              start: t.startTime,
              end: t.startTime + t.responseEnd,
              bytes: s.responseBodySize,
            }),
            () => ({ url, start: t.startTime, end: t.startTime + t.responseEnd, bytes: 0 }),
          ),
        );
      }
    });
    await page.goto(`${base}/`);
    await page.waitForFunction(
      () => (window as unknown as { __bench: { mapReadyAt: number } }).__bench.mapReadyAt > 0,
      undefined,
      { timeout: 120_000 },
    );
    counting = false;
    const { mapReadyAt, mapLoadedAt, markers, images, origin } = await page.evaluate(() => ({
      ...(
        window as unknown as { __bench: { mapLoadedAt: number; mapReadyAt: number; markers: number; images: number } }
      ).__bench,
      origin: performance.timeOrigin,
    }));
    const jsGzip = (await Promise.all(scripts)).reduce((s, n) => s + n, 0);
    const timeline = (await Promise.all(requests))
      .sort((a, b) => a.start - b.start)
      .map(
        (r) =>
          `${String(Math.round(r.start - origin)).padStart(6)} → ${String(Math.round(r.end - origin)).padStart(6)} ms  ${String(r.bytes).padStart(8)} B  ${r.url.slice(0, 110)}`,
      );
    if (profile) {
      const { profile: cpu } = await cdp.send('Profiler.stop');
      writeFileSync(profile, JSON.stringify(cpu));
    }
    if (MARKS) {
      const marks = await page.evaluate(() => (window as unknown as { __marks: Array<[string, number]> }).__marks);
      timeline.push(...marks.map(([name, at]) => `${String(Math.round(at)).padStart(6)}  mark: ${name}`));
      timeline.sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10));
    }
    if (trace) {
      const done = new Promise<void>((r) => cdp.once('Tracing.tracingComplete', () => r()));
      await cdp.send('Tracing.end');
      await done;
      writeFileSync(trace, JSON.stringify({ traceEvents: traced }));
    }
    return { mapReadyS: mapReadyAt / 1000, mapLoadedS: mapLoadedAt / 1000, jsGzip, markers, images, timeline };
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
  const { url, drop } = await createPostgresDatabase();
  const servers: ServerProcess[] = [];
  const loads = [`start ${loadLine()}`];
  const results = DISTS.map(() => [] as Load[]);
  try {
    const bases: string[] = [];
    for (const [i, dist] of DISTS.entries()) {
      // The first server seeds the shared database; the others serve the same posts.
      const server = forkServer(
        APP,
        {
          BENCH_ENGINE: 'postgres',
          BENCH_DATABASE_URL: url,
          BENCH_POSTS: String(i === 0 ? POSTS : 0),
          BENCH_WEB_DIST: dist,
        },
        [],
        true,
      );
      servers.push(server);
      bases.push(`http://127.0.0.1:${(await server.next<{ port: number }>('listening')).port}`);
    }
    const database = await openDatabase({ databaseUrl: url, poolSize: 1 });
    await database.db.execute(
      sql.raw(`
      insert into publications (user_id, category, content, latitude, longitude, nickname, created_at, media_urls, has_pulse_effect)
      select md5('bench-user-' || (1 + i % 1000))::uuid, (array['happy','angry','party','money','love'])[1 + floor(random() * 5)::int],
             'Un café en terrasse, rien de mieux',
             ${PARIS.latitude} + g * cos(a) * 0.012, ${PARIS.longitude} + g * sin(a) * 0.018,
             'membre_' || (1 + i % 1000), now() - (60 + random() * 80000) * interval '1 second', '[]'::jsonb, random() < 0.05
      from (select i, sqrt(-2 * ln(1 - random())) as g, 2 * pi() * random() as a from generate_series(1, ${CITY_POSTS}) i) s`),
    );
    await database.db.execute(sql.raw('analyze publications'));
    await database.close();
    if (TRACE_DIR) mkdirSync(TRACE_DIR, { recursive: true });
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    try {
      if (PROFILE_DIR) mkdirSync(PROFILE_DIR, { recursive: true });
      for (const base of bases) await firstLoad(browser, base, null, null);
      for (let r = 0; r < ROUNDS; r++) {
        loads.push(`round ${r + 1} ${loadLine()}`);
        // A, B, … then B, A, … on the next round: neither build always goes first.
        const order = DISTS.map((_, i) => i);
        if (r % 2 === 1) order.reverse();
        for (const i of order) {
          const trace = TRACE_DIR && r === ROUNDS - 1 ? join(TRACE_DIR, `build-${i}.json`) : null;
          const profile = PROFILE_DIR && r === ROUNDS - 1 ? join(PROFILE_DIR, `build-${i}.cpuprofile`) : null;
          const load = await firstLoad(browser, bases[i]!, trace, profile);
          results[i]!.push(load);
          console.log(
            `round ${r + 1} build ${i}: map ready ${load.mapReadyS.toFixed(2)} s (data-map-loaded ${load.mapLoadedS.toFixed(2)} s), JS ${(load.jsGzip / 1000).toFixed(1)} kB gzip, ${load.markers} marker features and ${load.images} pictures then (load ${loadLine().split(' ')[0]})`,
          );
          if (TIMELINE || MARKS) console.log(load.timeline.map((l) => `    ${l}`).join('\n'));
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
    console.log(
      `build ${i} ${dist}: map ready ${formatSpread(spread(rounds.map((l) => l.mapReadyS)), ' s')} (data-map-loaded ${formatSpread(spread(rounds.map((l) => l.mapLoadedS)), ' s')}); JS ${formatSpread(spread(rounds.map((l) => l.jsGzip / 1000)), ' kB')}`,
    );
  }
  console.log(loads.join('\n'));
}

await main();
