/**
 * The live city: the map on Paris at zoom 12 on a phone (browser.bench.ts's emulation: 390×844,
 * DPR BENCH_DPR, CPU ÷BENCH_CPU_RATE, software compositing), while a process of its own
 * (live-stream.ts) publishes BENCH_LIVE_IN_VIEW posts a second inside the view (default 10) and
 * BENCH_LIVE_ELSEWHERE elsewhere in the world (default 100) for BENCH_LIVE_SECONDS (default 10):
 * real rows in the run's database and their post.created events on the PostgreSQL bus, which the
 * app server relays to the sockets whose view holds them. Meanwhile the person pans and taps
 * (live-window.ts). Figures per window: main-thread busy share, long tasks, the map's redraws a
 * second and their p95 gap while dragging, tap → popup painted, the markers source's updates, and
 * whether every post received was drawn.
 * The same windows with the stream off are the reference; the stream's cost is the main-thread
 * time it adds, stream-on window minus stream-off window of the same build and round, per second.
 * Each round also has a window of the same map with our layers hidden and no stream (MapLibre and
 * the basemap alone, the shipped build served): the reference of the pan with the stream on.
 * Each build of the app that is compared (BENCH_LIVE_VARIANTS, default event,frame,250,1000:
 * web/src/features/map/markers/live-updates.ts's VITE_MAP_LIVE_BATCH, one source update per live
 * change, per frame, per 250 ms, per second) is built by this bench into a temporary folder; the
 * one app server serves a link that points to the build of the window under way (its static
 * files are read per request), so no idle server of another build takes the stream's events too.
 * Rounds (BENCH_ROUNDS, default 3) alternate the builds' order and stream on/off; median (min–max).
 * Writes bench/results/live-city.json. Needs TEST_DATABASE_URL (or the local default).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { openDatabase } from '../../server/src/db/client.ts';
import { createPostgresDatabase } from '../../server/test/helpers/databases.ts';
import { envNumber } from '../support/env.ts';
import { resultsFile, round, startRun, writeResults } from '../support/results.ts';
import { type ServerProcess, forkServer } from '../support/server-process.ts';
import { type Spread, formatSpread, loadLine, spread } from '../support/stats.ts';
import { mapBounds } from '../support/views.ts';
import { PARIS } from '../support/world.ts';
import { CHROMIUM, CHROMIUM_ARGS, COMPOSITING } from './chromium.ts';
import type { StreamDone, StreamOrder } from './live-stream.ts';
import { type Box, type WindowFigures, installProbes, measureWindow } from './live-window.ts';
import { MAP } from '@moodmap/core';
import { phone, seedParis, setMarkersVisible, settled, sleep, still } from './phone.ts';

const here = dirname(fileURLToPath(import.meta.url));
const WEB = join(here, '..', '..', 'web');
const APP = join(here, '..', 'support', 'app-server.ts');
const PUBLISHER = join(here, 'live-stream.ts');
const ROUNDS = envNumber('BENCH_ROUNDS', 3);
const POSTS = envNumber('BENCH_POSTS', 100_000);
const CITY_POSTS = envNumber('BENCH_CITY_POSTS', 250);
const DPR = envNumber('BENCH_DPR', 3);
const CPU_RATE = envNumber('BENCH_CPU_RATE', 4);
const SECONDS = envNumber('BENCH_LIVE_SECONDS', 10);
const IN_VIEW = envNumber('BENCH_LIVE_IN_VIEW', 10);
const ELSEWHERE = envNumber('BENCH_LIVE_ELSEWHERE', 100);
const VARIANTS = (process.env.BENCH_LIVE_VARIANTS ?? 'event,frame,250,1000').split(',');
/** The build served for the markers-hidden window: the shipped batch when it is measured. */
const SHIPPED = VARIANTS.includes(String(MAP.liveBatchMs)) ? String(MAP.liveBatchMs) : VARIANTS[0]!;
const VIEW = { ...PARIS, zoom: 12 };
/** A folder for a JS CPU profile of each stream-on window (`.cpuprofile`, for DevTools): where the time goes. */
const PROFILE_DIR = process.env.BENCH_LIVE_PROFILE;

/** The in-view posts land in the middle 80 % of the phone's map, clear of its edges. */
function streamBox(): Box {
  const [west, south, east, north] = mapBounds(VIEW.latitude, VIEW.longitude, VIEW.zoom, 390, 844);
  const dx = (east - west) * 0.1;
  const dy = (north - south) * 0.1;
  return [west + dx, south + dy, east - dx, north - dy];
}

/** Builds the app once per variant into `into`/<variant>. */
function buildVariants(into: string): Map<string, string> {
  const vite = join(here, '..', '..', 'node_modules', '.bin', 'vite');
  const dists = new Map<string, string>();
  for (const variant of VARIANTS) {
    const dist = join(into, variant);
    const built = spawnSync(vite, ['build', '--outDir', dist, '--emptyOutDir', '--logLevel', 'warn'], {
      cwd: WEB,
      env: { ...process.env, VITE_MAP_LIVE_BATCH: variant },
      stdio: 'inherit',
    });
    if (built.status !== 0) throw new Error(`build of '${variant}' failed`);
    dists.set(variant, dist);
  }
  return dists;
}

interface LiveWindow extends WindowFigures {
  variant: string;
  stream: boolean;
  /** Our layers hidden: the reference window, stream off. */
  markersHidden: boolean;
  published: number;
  inViewPublished: number;
  lateTicks: number;
  load: string;
}

async function liveWindow(
  browser: Browser,
  base: string,
  publisher: ServerProcess | null,
  markersHidden = false,
): Promise<Omit<LiveWindow, 'variant' | 'stream' | 'markersHidden' | 'load'>> {
  const { context, page, cdp } = await phone(browser, {
    view: VIEW,
    dpr: DPR,
    cpuRate: CPU_RATE,
    context: { serviceWorkers: 'block' },
  });
  try {
    await installProbes(context);
    await page.goto(`${base}/`);
    await settled(page);
    // The first load's tail (the popups' chunk, the warm-up) is over before the window.
    await sleep(3000);
    if (markersHidden) {
      await setMarkersVisible(page, false);
      await still(page);
    }
    const box = streamBox();
    const order: StreamOrder = { inViewPerS: IN_VIEW, elsewherePerS: ELSEWHERE, box };
    let done: StreamDone = { published: 0, inView: 0, lateTicks: 0 };
    const profiled = PROFILE_DIR !== undefined && publisher !== null;
    if (profiled) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.start');
    }
    const figures = await measureWindow(page, cdp, SECONDS, box, {
      start: async () => publisher?.ask('stream', order),
      stop: async () => {
        if (publisher) done = await publisher.ask<StreamDone>('stop');
      },
    });
    if (profiled) {
      const { profile } = await cdp.send('Profiler.stop');
      mkdirSync(PROFILE_DIR, { recursive: true });
      writeFileSync(join(PROFILE_DIR, `live-${Date.now()}.cpuprofile`), JSON.stringify(profile));
    }
    return { ...figures, published: done.published, inViewPublished: done.inView, lateTicks: done.lateTicks };
  } finally {
    await context.close();
    await publisher?.ask('clear');
  }
}

function print(w: LiveWindow): void {
  const taps = w.taps.map((t) => t.toFixed(0)).join(', ');
  console.log(
    `  ${w.markersHidden ? 'hidden' : w.variant.padEnd(6)} stream ${w.stream ? 'on ' : 'off'}: ${w.seconds.toFixed(1)} s, busy ${(w.busyShare * 100).toFixed(0)} %, long tasks ${w.longTasks} (${w.longTaskMs.toFixed(0)} ms), ${w.redrawsPerS.toFixed(1)} redraws/s (p95 gap while dragging ${w.panFrameP95Ms.toFixed(0)} ms), taps → popup ${taps || '—'} ms${w.missedTaps ? ` (${w.missedTaps} missed)` : ''}; source updates ${w.sourceUpdates} (${w.workerUpdates} applied by the worker), post.created received ${w.received} of ${w.inViewPublished} in view (${w.published} published, ${w.lateTicks} late ticks), drawn +${w.drawnNew}; load ${w.load}`,
  );
}

async function main(): Promise<void> {
  const run = startRun();
  process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
  const builds = mkdtempSync(join(tmpdir(), 'moodmap-live-city-'));
  const windows: LiveWindow[] = [];
  const loads = [`start ${loadLine()}`];
  const { url, drop } = await createPostgresDatabase();
  try {
    const dists = buildVariants(builds);
    const served = join(builds, 'served');
    const serve = (variant: string) => {
      symlinkSync(dists.get(variant)!, `${served}.next`);
      renameSync(`${served}.next`, served);
    };
    serve(VARIANTS[0]!);
    const server = forkServer(
      APP,
      { BENCH_ENGINE: 'postgres', BENCH_DATABASE_URL: url, BENCH_POSTS: String(POSTS), BENCH_WEB_DIST: served },
      [],
      true,
    );
    const { port, seedSeconds } = await server.next<{ port: number; seedSeconds: number }>('listening');
    const base = `http://127.0.0.1:${port}`;
    const database = await openDatabase({ databaseUrl: url, poolSize: 2 });
    await seedParis(database, CITY_POSTS, POSTS);
    await database.close();
    const publisher = forkServer(PUBLISHER, { LIVE_DATABASE_URL: url, LIVE_AUTHORS: String(Math.min(POSTS, 20_000)) });
    await publisher.next('listening');
    console.log(
      `server on ${base}, builds ${VARIANTS.join(', ')}: ${POSTS} posts seeded in ${seedSeconds.toFixed(1)} s, ${CITY_POSTS} more in Paris; stream ${IN_VIEW}/s in view + ${ELSEWHERE}/s elsewhere for ${SECONDS} s`,
    );
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    try {
      for (let r = 0; r < ROUNDS; r++) {
        console.log(`round ${r + 1}/${ROUNDS} (load ${loadLine()})`);
        const order = VARIANTS.map((_, i) => VARIANTS[(i + r) % VARIANTS.length]!);
        // The markers-hidden window first in even rounds, last in odd ones.
        const hidden = async () => {
          serve(SHIPPED);
          const w = { variant: SHIPPED, stream: false, markersHidden: true };
          windows.push({ ...w, ...(await liveWindow(browser, base, null, true)), load: loadLine() });
          print(windows.at(-1)!);
        };
        if (r % 2 === 0) await hidden();
        for (const [i, variant] of order.entries()) {
          const streams = (r + i) % 2 === 0 ? [false, true] : [true, false];
          serve(variant);
          for (const stream of streams) {
            const w = {
              variant,
              stream,
              markersHidden: false,
              ...(await liveWindow(browser, base, stream ? publisher : null)),
              load: loadLine(),
            };
            print(w);
            windows.push(w);
          }
        }
        if (r % 2 === 1) await hidden();
        loads.push(`round ${r + 1} ${loadLine()}`);
      }
    } finally {
      await browser.close();
      await publisher.close();
      await server.close();
    }
  } finally {
    await drop();
    rmSync(builds, { recursive: true, force: true });
  }
  report(run, loads, windows);
}

const FIGURES = [
  'seconds',
  'busyMs',
  'busyShare',
  'longTasks',
  'longTaskMs',
  'redrawsPerS',
  'panFrameP95Ms',
  'tapMs',
  'sourceUpdates',
  'workerUpdates',
] as const;

function report(run: ReturnType<typeof startRun>, loads: string[], windows: LiveWindow[]): void {
  const of = (variant: string, stream: boolean) =>
    windows.filter((w) => w.variant === variant && w.stream === stream && !w.markersHidden);
  const hiddenWindows = windows.filter((w) => w.markersHidden);
  const markersHidden = Object.fromEntries(FIGURES.map((f) => [f, spread(hiddenWindows.map((w) => w[f]))]));
  // The shipped build's pan with the stream on ÷ the markers-hidden pan, round by round.
  const shippedOn = of(SHIPPED, true);
  const panWithStreamToMarkersHidden = spread(
    hiddenWindows.map((w, i) => (shippedOn[i]?.panFrameP95Ms ?? Number.NaN) / w.panFrameP95Ms),
  );
  const figures: Record<string, Record<string, Record<string, Spread>>> = {};
  for (const variant of VARIANTS) {
    figures[variant] = {};
    for (const stream of [true, false]) {
      const ws = of(variant, stream);
      figures[variant]![stream ? 'streamOn' : 'streamOff'] = Object.fromEntries(
        FIGURES.map((f) => [f, spread(ws.map((w) => w[f]))]),
      );
    }
  }
  // The stream's own cost: each round's stream-on window minus its stream-off one, per second of stream.
  const added: Record<string, Spread> = {};
  for (const variant of VARIANTS) {
    const on = of(variant, true);
    const off = of(variant, false);
    added[variant] = spread(on.map((w, i) => (w.busyMs - off[i]!.busyMs) / w.seconds));
  }
  const rows = VARIANTS.flatMap((variant) =>
    [true, false].map((stream) => {
      const f = figures[variant]![stream ? 'streamOn' : 'streamOff']!;
      return {
        build: variant,
        stream: stream ? 'on' : 'off (reference)',
        'added ms/s': stream ? formatSpread(added[variant]!) : '',
        'window s': formatSpread(f.seconds!),
        'busy share': formatSpread(f.busyShare!),
        'long tasks': formatSpread(f.longTasks!),
        'long task ms': formatSpread(f.longTaskMs!),
        'redraws/s': formatSpread(f.redrawsPerS!),
        'pan gap p95 ms': formatSpread(f.panFrameP95Ms!),
        'tap → popup ms': formatSpread(f.tapMs!),
        'source updates': formatSpread(f.sourceUpdates!),
        'worker updates': formatSpread(f.workerUpdates!),
      };
    }),
  );
  console.table(rows);
  console.log(
    `markers hidden, stream off: pan gap p95 ${formatSpread(markersHidden.panFrameP95Ms!, ' ms')}; ` +
      `build ${SHIPPED}, stream on ÷ markers hidden: ${formatSpread(panWithStreamToMarkersHidden)}`,
  );
  const missed = windows.filter((w) => w.stream && w.drawnNew < w.received);
  if (missed.length) console.log(`windows where the map drew fewer posts than it received: ${missed.length}`);
  writeResults(resultsFile('live-city.json'), run, {
    setup: {
      posts: POSTS,
      cityPosts: CITY_POSTS,
      viewport: '390×844',
      deviceScaleFactor: DPR,
      cpuThrottlingRate: CPU_RATE,
      chromium: CHROMIUM,
      compositing: COMPOSITING,
      rounds: ROUNDS,
      seconds: SECONDS,
      inViewPerS: IN_VIEW,
      elsewherePerS: ELSEWHERE,
      builds: VARIANTS,
    },
    loads,
    streamAddedMainThreadMsPerS: added,
    figures,
    markersHidden: { build: SHIPPED, figures: markersHidden, panWithStreamToMarkersHidden },
    windows: windows.map((w) => ({
      ...w,
      busyShare: round(w.busyShare, 3),
      taps: w.taps.map((t) => round(t)),
      seconds: round(w.seconds, 2),
    })),
  });
}

await main();
