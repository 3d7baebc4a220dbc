/**
 * The map in a phone's browser: Debian's Chromium driven by playwright-core,
 * mobile emulation (390×844, DPR BENCH_DPR, default 3, touch) with the CPU slowed BENCH_CPU_RATE
 * times (default 4, CDP Emulation.setCPUThrottlingRate). The server is the built app in a process
 * of its own (support/app-server.ts) on a PostgreSQL database of the run's own: BENCH_POSTS live
 * posts around the world (default 10⁵, support/seed.ts) and BENCH_CITY_POSTS more in central
 * Paris (default 250), so Paris at zoom 12 holds city density (~300 posts on a phone's view).
 * Each round opens a fresh browser context (cold cache) and measures:
 *   firstLoadJsRatio    gzip of the JS the page fetched until the map was ready ÷ MapLibre's own
 *                       bundle and worker gzipped (web/scripts/first-load-size.ts's reference;
 *                       its build-manifest figure is printed next to it);
 *   mapReadyS           navigation start → the map canvas's data-map-loaded="true" and the map
 *                       idle with its markers laid out (features in the `mm-markers` source): its
 *                       first idle may come before the viewport answer is drawn (the basemap
 *                       alone can be "ready" well before the posts); the attribute's own time
 *                       is printed next to it;
 *   tapToPopupMs        a finger tap on a post's marker (the pixel the map projects it to) →
 *                       its popup in the DOM and a frame after it (rAF, then a task), median of
 *                       BENCH_TAPS taps (default 5) on different posts;
 *   panFrameP95Ms       p95 of requestAnimationFrame deltas while the mouse drags the map four
 *                       times (150 px right, left, down, up), at zoom 12 over Paris; reference:
 *                       the same drags with our marker layers hidden (MapLibre and the basemap
 *                       alone), in the order shown, hidden, hidden, shown;
 *   addPostMainThreadMs the map holding 10⁵ posts (the seeded posts, fed to it as one viewport
 *                       answer: the server sends markers only from zoom 9 in, so no real view
 *                       holds 10⁵), a post created through the API in view arrives over the
 *                       socket: main-thread task time (CDP Performance.getMetrics TaskDuration)
 *                       in the 2 s after it, minus the same window with nothing arriving. The
 *                       fed posts have no pulse, so the map is idle between the two windows'
 *                       frames; the socket handler's own time and the long tasks are printed too, and
 *                       whether the post was then drawn (its own marker, or one more post in
 *                       the 100 m group it joined within 150 m).
 * Compositing in software as in the e2e journeys (chromium.ts; BENCH_COMPOSITING=gpu writes
 * bench/results/browser-gpu.json instead).
 * BENCH_TRACE=<dir>: a Chrome trace (main thread tasks and JS samples) of the first round's first
 * tap, first pan and add-post window is written there, for chrome://tracing or a script.
 * Three rounds (BENCH_ROUNDS), median and spread. Writes bench/results/browser.json, which
 * bench/summary.ts reads. Needs `npm run build -w web` and TEST_DATABASE_URL (or the local default).
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { type Browser, type Page, chromium } from 'playwright-core';
import { openDatabase } from '../../server/src/db/client.ts';
import { createPostgresDatabase } from '../../server/test/helpers/databases.ts';
import { measureFirstLoad } from '../../web/scripts/first-load-size.ts';
import { loadServerSecret } from '../../server/src/modules/auth/secret.ts';
import { deriveKeys, signAccessToken } from '../../server/src/modules/auth/tokens.ts';
import { seedUsers } from '../messages/messages.bench.ts';
import { envNumber } from '../support/env.ts';
import { resultsFile, round, startRun, writeResults } from '../support/results.ts';
import { forkServer } from '../support/server-process.ts';
import { type Spread, formatSpread, loadLine, median, percentile, spread } from '../support/stats.ts';
import { PARIS } from '../support/world.ts';
import { CHROMIUM, CHROMIUM_ARGS, COMPOSITING } from './chromium.ts';
import { basemapStyle, maplibreAloneReadyS } from './maplibre-alone.ts';
import { phone as openPhone, seedParis, setMarkersVisible, settled, sleep, still, taskMs } from './phone.ts';

declare global {
  interface Window {
    /** The add-post round's probe (addPostRound): posts the markers layer draws within 150 m. */
    __postsNear?: (latitude: number, longitude: number) => number;
  }
}

const here = dirname(fileURLToPath(import.meta.url));
// The goal table (summary.ts) reads the default, software-compositing run (chromium.ts).
const RESULTS = resultsFile(COMPOSITING === 'gpu' ? 'browser-gpu.json' : 'browser.json');
const APP = join(here, '..', 'support', 'app-server.ts');
/** The built web app to serve: web/dist, or BENCH_WEB_DIST (another build, for an A/B). */
const WEB_DIST = process.env.BENCH_WEB_DIST ?? join(here, '..', '..', 'web', 'dist');
const ROUNDS = envNumber('BENCH_ROUNDS', 3);
const POSTS = envNumber('BENCH_POSTS', 100_000);
const CITY_POSTS = envNumber('BENCH_CITY_POSTS', 250);
const TAPS = envNumber('BENCH_TAPS', 5);
const DPR = envNumber('BENCH_DPR', 3);
const CPU_RATE = envNumber('BENCH_CPU_RATE', 4);
const VIEW = { ...PARIS, zoom: 12 };
const TRACE_DIR = process.env.BENCH_TRACE;
const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'disabled-by-default-v8.cpu_profiler',
  'blink.user_timing',
  'gpu',
  'disabled-by-default-devtools.timeline.stack',
];
/** Runs `body` under a Chrome trace written to BENCH_TRACE/<name>.json when asked (once per name). */
const traced = new Set<string>();
async function withTrace<T>(browser: Browser, page: Page, name: string, body: () => Promise<T>): Promise<T> {
  if (!TRACE_DIR || traced.has(name)) return body();
  traced.add(name);
  await browser.startTracing(page, { path: join(TRACE_DIR, `${name}.json`), categories: TRACE_CATEGORIES });
  try {
    return await body();
  } finally {
    await browser.stopTracing();
  }
}

const PHONE = { view: VIEW, dpr: DPR, cpuRate: CPU_RATE };
const phone = (browser: Browser) => openPhone(browser, PHONE);

/** Until the phone's probe says the map is idle with its markers drawn (phone.ts). */
async function mapReady(page: Page): Promise<void> {
  await page.waitForFunction(
    () => (window as unknown as { __bench: { mapReadyAt: number } }).__bench.mapReadyAt > 0,
    undefined,
    { timeout: 120_000 },
  );
}

/** The basemap style as the app draws it (read once, from a first visit not measured). */
async function appBasemapStyle(browser: Browser, base: string): Promise<unknown> {
  const { context, page } = await phone(browser);
  try {
    await page.goto(`${base}/`);
    await mapReady(page);
    return await basemapStyle(page);
  } finally {
    await context.close();
  }
}

async function maplibreAlone(browser: Browser, base: string, style: unknown): Promise<number> {
  const seconds = await maplibreAloneReadyS(browser, base, style, PHONE);
  console.log(`  MapLibre alone, same style and view: idle at ${seconds.toFixed(2)} s`);
  return seconds;
}

interface Marker {
  id: string;
  userId: string;
  category: string;
  latitude: number;
  longitude: number;
  nickname: string;
  photoUrl: string | null;
  hasPulseEffect: boolean;
  createdAt: string;
}

/** The seeded posts as the map's markers (what a viewport answer's `points` hold), pulse off. */
async function allMarkers(database: Awaited<ReturnType<typeof openDatabase>>): Promise<Marker[]> {
  const { rows } = await database.db.execute(
    sql.raw(`
    select id, user_id, category, latitude, longitude, nickname, author_photo_url, created_at from publications`),
  );
  return (rows as Array<Record<string, unknown>>).map((r) => ({
    id: String(r.id),
    userId: String(r.user_id),
    category: String(r.category),
    latitude: Number(r.latitude),
    longitude: Number(r.longitude),
    nickname: String(r.nickname),
    photoUrl: (r.author_photo_url as string | null) ?? null,
    hasPulseEffect: false,
    createdAt: new Date(r.created_at as string).toISOString(),
  }));
}

/** Posts on screen and the single-post markers a tap would hit first, nearest the centre first. */
async function tappable(page: Page): Promise<{ posts: number; targets: Array<{ pid: string; x: number; y: number }> }> {
  return page.evaluate(
    (layers) => {
      const map = window.__MOODMAP_MAP__!;
      const { width, height } = map.getCanvas().getBoundingClientRect();
      const present = ['mm-markers', 'mm-aggregates'].filter((id) => map.getLayer(id));
      const inside = (f: { geometry: unknown }) => {
        const p = map.project((f.geometry as { coordinates: [number, number] }).coordinates);
        return p.x >= 0 && p.y >= 0 && p.x <= width && p.y <= height;
      };
      // Every post on screen: alone, in its 100 m group, or counted in a server aggregate (source
      // features, one per id: the rendered-feature query undercounts symbols at a high pixel ratio).
      const seen = new Map<string, number>();
      for (const source of present) {
        for (const f of map.querySourceFeatures(source))
          if (inside(f))
            seen.set(
              `${source}:${f.id ?? f.properties.cluster_id}`,
              Number(f.properties.n ?? f.properties.point_count ?? 1),
            );
      }
      const posts = [...seen.values()].reduce((n, v) => n + v, 0);
      const features = map.queryRenderedFeatures({ layers: ['mm-markers'] }).filter(inside);
      const targets: Array<{ pid: string; x: number; y: number }> = [];
      for (const f of features) {
        if (f.properties.k !== 'p') continue;
        const { x, y } = map.project((f.geometry as unknown as { coordinates: [number, number] }).coordinates);
        // Clear of the top bar, the floating buttons and the bottom navigation.
        if (x < 40 || x > width - 80 || y < 140 || y > height - 180) continue;
        const top = map.queryRenderedFeatures([x, y], { layers: layers.filter((id) => map.getLayer(id)) })[0];
        if (top?.properties.pid === f.properties.pid) targets.push({ pid: String(f.properties.pid), x, y });
      }
      targets.sort(
        (a, b) => Math.hypot(a.x - width / 2, a.y - height / 2) - Math.hypot(b.x - width / 2, b.y - height / 2),
      );
      return { posts, targets };
    },
    ['mm-highlight', 'mm-aggregates', 'mm-markers'],
  );
}

/** One tap: pointerdown's timestamp → the popup in the DOM, then a frame (rAF) and a task after it. */
async function tapToPopup(
  page: Page,
  target: { pid: string; x: number; y: number },
): Promise<{ ms: number; cardMs: number }> {
  await page.evaluate((pid) => {
    const tap = { down: 0, painted: 0, card: 0 };
    (window as unknown as { __tap: typeof tap }).__tap = tap;
    addEventListener(
      'pointerdown',
      (e) => {
        tap.down = e.timeStamp;
      },
      { capture: true, once: true },
    );
    const observer = new MutationObserver(() => {
      const popup = document.querySelector(`[data-testid="post-popup"][data-post-id="${pid}"]`);
      if (popup && !tap.painted)
        requestAnimationFrame(() =>
          setTimeout(() => {
            tap.painted ||= performance.now();
          }, 0),
        );
      if (popup && popup.getAttribute('aria-busy') !== 'true' && !tap.card) {
        tap.card = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(document.body, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['aria-busy'],
    });
  }, target.pid);
  const box = (await page.locator('[data-testid="map-canvas"] canvas').first().boundingBox())!;
  await page.touchscreen.tap(box.x + target.x, box.y + target.y);
  const tap = await page
    .waitForFunction(
      () => {
        const t = (window as unknown as { __tap: { down: number; painted: number; card: number } }).__tap;
        return t.painted && t.card ? t : null;
      },
      undefined,
      { timeout: 30_000, polling: 100 },
    )
    .then((h) => h.jsonValue() as Promise<{ down: number; painted: number; card: number }>);
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.querySelector('[data-testid="post-popup"]'));
  return { ms: tap.painted - tap.down, cardMs: tap.card - tap.down };
}

/** rAF deltas while the mouse drags the map 150 px right, left, down and up. */
async function panFrames(page: Page): Promise<number[]> {
  await page.evaluate(() => {
    const frames: number[] = [];
    const state = { frames, on: true };
    (window as unknown as { __pan: typeof state }).__pan = state;
    const loop = (t: number) => {
      frames.push(t);
      if (state.on) requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  });
  const cx = 195;
  const cy = 430;
  for (const [dx, dy] of [
    [150, 0],
    [-150, 0],
    [0, 150],
    [0, -150],
  ]) {
    await page.mouse.move(cx - dx / 2, cy - dy / 2);
    await page.mouse.down();
    for (let i = 1; i <= 30; i++) {
      await page.mouse.move(cx - dx / 2 + (dx * i) / 30, cy - dy / 2 + (dy * i) / 30);
      await sleep(16);
    }
    await page.mouse.up();
  }
  const frames = await page.evaluate(() => {
    const state = (window as unknown as { __pan: { frames: number[]; on: boolean } }).__pan;
    state.on = false;
    return state.frames;
  });
  return frames.slice(1).map((t, i) => t - frames[i]!);
}

interface FirstLoadRound {
  mapReadyS: number;
  /** data-map-loaded="true": the map's first 'idle', with or without its markers. */
  mapLoadedS: number;
  fetchedJsGzip: number;
  tapMs: number;
  cardMs: number;
  taps: number[];
  postsOnScreen: number;
  panP95: number;
  panP95Bare: number;
  frames: number;
}

async function firstLoadRound(browser: Browser, base: string, maplibreGzip: number): Promise<FirstLoadRound> {
  const { context, page } = await phone(browser);
  try {
    const scripts: Array<Promise<number>> = [];
    let counting = true;
    page.on('response', (response) => {
      const url = response.url();
      if (!counting || !url.startsWith(base) || !/\.m?js(\?|$)/.test(new URL(url).pathname)) return;
      scripts.push(
        response.body().then(
          (b) => gzipSync(b, { level: 9 }).length,
          () => 0,
        ),
      );
    });
    await page.goto(`${base}/`);
    await mapReady(page);
    counting = false;
    const marks = await page.evaluate(
      () => (window as unknown as { __bench: { mapLoadedAt: number; mapReadyAt: number } }).__bench,
    );
    const mapReadyS = marks.mapReadyAt / 1000;
    const mapLoadedS = marks.mapLoadedAt / 1000;
    const fetchedJsGzip = (await Promise.all(scripts)).reduce((s, n) => s + n, 0);
    console.log(
      `  map ready (idle with its markers) ${mapReadyS.toFixed(2)} s (data-map-loaded at ${mapLoadedS.toFixed(2)} s); JS fetched by then ${(fetchedJsGzip / 1000).toFixed(1)} kB gzip (${(fetchedJsGzip / maplibreGzip).toFixed(3)} of MapLibre)`,
    );

    await settled(page);
    await sleep(1000);
    const taps: number[] = [];
    const cards: number[] = [];
    let postsOnScreen = 0;
    const tapped = new Set<string>();
    for (let i = 0; i < TAPS; i++) {
      await settled(page);
      const { posts, targets } = await tappable(page);
      postsOnScreen ||= posts;
      const target = targets.find((t) => !tapped.has(t.pid));
      if (!target) break;
      tapped.add(target.pid);
      const { ms, cardMs } = await withTrace(browser, page, 'tap', () => tapToPopup(page, target));
      taps.push(ms);
      cards.push(cardMs);
    }
    if (process.env.BENCH_SHOT) await page.screenshot({ path: process.env.BENCH_SHOT });
    const cam = await page.evaluate(() => ({
      ...window.__MOODMAP_MAP__!.getCenter(),
      zoom: window.__MOODMAP_MAP__!.getZoom(),
    }));
    console.log(`  camera ${cam.lat.toFixed(4)}, ${cam.lng.toFixed(4)} z${cam.zoom.toFixed(2)}`);
    console.log(
      `  ${postsOnScreen} posts on screen; taps → popup painted ${taps.map((t) => t.toFixed(0)).join(', ')} ms; → card ${cards.map((t) => t.toFixed(0)).join(', ')} ms`,
    );

    await page.evaluate(
      (v) => window.__MOODMAP_MAP__!.jumpTo({ center: [v.longitude, v.latitude], zoom: v.zoom }),
      VIEW,
    );
    await settled(page);
    await sleep(500);
    // Markers, hidden, hidden, markers: neither side gets only the colder or the warmer pans.
    const deltas = await withTrace(browser, page, 'pan', () => panFrames(page));
    await settled(page);
    await setMarkersVisible(page, false);
    await sleep(500);
    const bare = await panFrames(page);
    await still(page);
    bare.push(...(await panFrames(page)));
    await setMarkersVisible(page, true);
    await settled(page);
    await sleep(500);
    deltas.push(...(await panFrames(page)));
    const panP95 = percentile(deltas, 95);
    const panP95Bare = percentile(bare, 95);
    console.log(
      `  pan: ${deltas.length} frames, p95 ${panP95.toFixed(1)} ms (max ${Math.max(...deltas).toFixed(0)}); markers hidden: p95 ${panP95Bare.toFixed(1)} ms`,
    );
    return {
      mapReadyS,
      mapLoadedS,
      fetchedJsGzip,
      tapMs: median(taps),
      cardMs: median(cards),
      taps,
      postsOnScreen,
      panP95,
      panP95Bare,
      frames: deltas.length,
    };
  } finally {
    await context.close();
  }
}

interface AddPostRound {
  mainThreadMs: number;
  windowMs: number;
  idleMs: number;
  handlerMs: number;
  longTasksMs: number;
  drawn: boolean;
}

async function addPostRound(
  browser: Browser,
  base: string,
  markers: Marker[],
  user: { token: string; ip: string },
  n: number,
): Promise<AddPostRound> {
  const { context, page, cdp } = await phone(browser);
  try {
    // Every seeded post in the map's answers: the map holds them all.
    await page.route(/\/api\/posts\/viewport\?/, async (route) => {
      const headers = { ...route.request().headers() };
      delete headers['if-none-match'];
      const real = (await (await route.fetch({ headers })).json()) as Record<string, unknown>;
      await route.fulfill({
        status: 200,
        headers: { 'cache-control': 'no-store' },
        json: { ...real, points: markers, clusters: [] },
      });
    });
    // The socket's own handler time for post.created frames, and the long tasks.
    await context.addInitScript(() => {
      const stats = { handlerMs: 0, frames: 0, longTasks: 0, arrived: 0 };
      (window as unknown as { __add: typeof stats }).__add = stats;
      const add = WebSocket.prototype.addEventListener;
      WebSocket.prototype.addEventListener = function (
        this: WebSocket,
        type: string,
        listener: EventListenerOrEventListenerObject,
        options?: boolean | AddEventListenerOptions,
      ) {
        if (type !== 'message' || typeof listener !== 'function') return add.call(this, type, listener, options);
        return add.call(
          this,
          type,
          (event: Event) => {
            const created =
              typeof (event as MessageEvent).data === 'string' && (event as MessageEvent).data.includes('post.created');
            const t = performance.now();
            listener.call(this, event);
            if (created) {
              stats.handlerMs += performance.now() - t;
              stats.frames++;
              stats.arrived = t;
            }
          },
          options,
        );
      } as typeof WebSocket.prototype.addEventListener;
      const onmessage = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage')!;
      Object.defineProperty(WebSocket.prototype, 'onmessage', {
        ...onmessage,
        set(this: WebSocket, handler: ((e: MessageEvent) => void) | null) {
          if (handler) this.addEventListener('message', handler as EventListener);
        },
      });
      // Posts the markers layer draws within 150 m of a place (a group counts its n), each feature once.
      window.__postsNear = (lat, lng) => {
        const seen = new Map<unknown, number>();
        for (const f of window.__MOODMAP_MAP__!.queryRenderedFeatures({ layers: ['mm-markers'] })) {
          const [x, y] = (f.geometry as unknown as { coordinates: [number, number] }).coordinates;
          if (Math.hypot((y - lat) * 111_320, (x - lng) * 111_320 * Math.cos((lat * Math.PI) / 180)) <= 150)
            seen.set(f.id, Number(f.properties.n ?? 1));
        }
        return [...seen.values()].reduce((a, b) => a + b, 0);
      };
      try {
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) stats.longTasks += entry.duration;
        }).observe({ type: 'longtask', buffered: false });
      } catch {}
    });
    await page.goto(`${base}/`);
    await settled(page);
    // The 10⁵ features reach MapLibre's worker and the first frames after them: let them finish.
    await sleep(5000);
    // Read before the windows, so that this read's own main-thread time is in neither.
    const latitude = PARIS.latitude + 0.002 * (n + 1);
    const postsBefore = await page.evaluate(([lat, lng]) => window.__postsNear!(lat, lng), [
      latitude,
      PARIS.longitude,
    ] as const);
    const WINDOW = 2000;
    const t0 = await taskMs(cdp);
    await sleep(WINDOW);
    const idleMs = (await taskMs(cdp)) - t0;
    const before = await page.evaluate(() => ({ ...(window as unknown as { __add: { longTasks: number } }).__add }));
    const windowDone = withTrace(browser, page, 'add-post', () => sleep(WINDOW + 200));
    const t1 = await taskMs(cdp);
    const res = await fetch(`${base}/api/posts`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${user.token}`,
        'content-type': 'application/json',
        'x-forwarded-for': user.ip,
      },
      body: JSON.stringify({
        category: 'party',
        content: 'Concert improvisé place de la République !',
        latitude,
        longitude: PARIS.longitude,
      }),
    });
    if (res.status !== 201) throw new Error(`post: ${res.status} ${await res.text()}`);
    const { post } = (await res.json()) as { post: { id: string } };
    await sleep(WINDOW);
    const windowMs = (await taskMs(cdp)) - t1;
    await windowDone;
    const after = await page.evaluate(() => ({
      ...(window as unknown as { __add: { handlerMs: number; frames: number; longTasks: number } }).__add,
    }));
    // Drawn as its own marker, or counted in the 100 m group it joined (at city density about
    // one post in two lands within 100 m of another: a group's feature carries no post id).
    const drawn = await page
      .waitForFunction(
        ([pid, near]) =>
          window
            .__MOODMAP_MAP__!.queryRenderedFeatures({ layers: ['mm-markers'] })
            .some((f) => f.properties.pid === pid) || window.__postsNear!(near.latitude, near.longitude) > near.before,
        [post.id, { latitude, longitude: PARIS.longitude, before: postsBefore }] as const,
        { timeout: 20_000, polling: 500 },
      )
      .then(
        () => true,
        () => false,
      );
    await fetch(`${base}/api/posts/${post.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${user.token}`, 'x-forwarded-for': user.ip },
    });
    const r = {
      mainThreadMs: windowMs - idleMs,
      windowMs,
      idleMs,
      handlerMs: after.handlerMs,
      longTasksMs: after.longTasks - before.longTasks,
      drawn,
    };
    console.log(
      `  add one post to ${markers.length} held: main thread ${r.mainThreadMs.toFixed(1)} ms (window ${windowMs.toFixed(1)} − idle ${idleMs.toFixed(1)}); socket handler ${r.handlerMs.toFixed(2)} ms over ${after.frames} frame(s); long tasks ${r.longTasksMs.toFixed(0)} ms; drawn: ${drawn}`,
    );
    return r;
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  if (!existsSync(join(WEB_DIST, 'index.html')))
    throw new Error('web/dist is missing: run `npm run build -w web` first');
  const run = startRun();
  process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
  const manifest = measureFirstLoad(WEB_DIST);
  console.log(
    `first load from the build manifest: ${(manifest.firstLoadGzip / 1000).toFixed(1)} kB gzip ÷ MapLibre ${(manifest.maplibreGzip / 1000).toFixed(1)} kB = ${manifest.ratio.toFixed(3)}`,
  );
  const jwtSecret = randomBytes(32).toString('base64url');
  const { url, drop } = await createPostgresDatabase();
  const loads = [`start ${loadLine()}`];
  const first: FirstLoadRound[] = [];
  const adds: AddPostRound[] = [];
  const alone: number[] = [];
  let held = 0;
  try {
    const server = forkServer(
      APP,
      {
        BENCH_ENGINE: 'postgres',
        BENCH_DATABASE_URL: url,
        BENCH_POSTS: String(POSTS),
        BENCH_JWT_SECRET: jwtSecret,
        BENCH_WEB_DIST: WEB_DIST,
      },
      [],
      true,
    );
    const { port, seedSeconds } = await server.next<{ port: number; seedSeconds: number }>('listening');
    const base = `http://127.0.0.1:${port}`;
    const database = await openDatabase({ databaseUrl: url, poolSize: 2 });
    await seedParis(database, CITY_POSTS, POSTS);
    const keys = deriveKeys(await loadServerSecret({ jwtSecret, dataDir: null }));
    const seeded = await seedUsers(database, ROUNDS, jwtSecret);
    // seedUsers's session ids, read back: each user has one password session.
    const { rows } = await database.db.execute(sql.raw(`select user_id, id from auth_sessions`));
    const sessions = new Map(
      (rows as Array<{ user_id: string; id: string }>).map((s) => [String(s.user_id), String(s.id)]),
    );
    const users = seeded.map((u) => ({ id: u.id, ip: u.ip, sessionId: sessions.get(u.id)! }));
    const markers = await allMarkers(database);
    held = markers.length;
    console.log(
      `server on ${base}: ${POSTS} posts seeded in ${seedSeconds.toFixed(1)} s, ${CITY_POSTS} more in Paris; phone 390×844 DPR ${DPR}, CPU ÷${CPU_RATE}`,
    );
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    try {
      const style = await appBasemapStyle(browser, base);
      for (let r = 0; r < ROUNDS; r++) {
        console.log(`round ${r + 1}/${ROUNDS} (load ${loadLine()})`);
        // The app and MapLibre alone, in alternating order.
        const aloneFirst = r % 2 === 1;
        if (aloneFirst) alone.push(await maplibreAlone(browser, base, style));
        first.push(await firstLoadRound(browser, base, manifest.maplibreGzip));
        if (!aloneFirst) alone.push(await maplibreAlone(browser, base, style));
        // The round's author with a token signed just before: a round takes minutes on a loaded
        // machine and an access token lives 15.
        const user = users[r]!;
        const token = await signAccessToken(
          keys,
          { userId: user.id, email: `bench.${r}@bench.invalid`, sessionId: user.sessionId },
          new Date(),
        );
        adds.push(await addPostRound(browser, base, markers, { token, ip: user.ip }, r));
        loads.push(`round ${r + 1} ${loadLine()}`);
      }
    } finally {
      await browser.close();
      await database.close();
      await server.close();
    }
  } finally {
    await drop();
  }

  const figures: Record<string, Spread> = {
    tapToPopupMs: spread(first.map((r) => r.tapMs)),
    panFrameP95Ms: spread(first.map((r) => r.panP95)),
    addPostMainThreadMs: spread(adds.map((r) => r.mainThreadMs)),
    firstLoadJsRatio: spread(first.map((r) => r.fetchedJsGzip / manifest.maplibreGzip)),
    mapReadyS: spread(first.map((r) => r.mapReadyS)),
    mapReadyToMaplibreAlone: spread(first.map((r, i) => r.mapReadyS / (alone[i] ?? Number.NaN))),
  };
  const references = {
    maplibreGzipBytes: manifest.maplibreGzip,
    manifestFirstLoadGzipBytes: manifest.firstLoadGzip,
    manifestFirstLoadRatio: manifest.ratio,
    panFrameP95MarkersHiddenMs: spread(first.map((r) => r.panP95Bare)),
    tapToCardMs: spread(first.map((r) => r.cardMs)),
    addPostSocketHandlerMs: spread(adds.map((r) => r.handlerMs)),
    mapLoadedAttributeS: spread(first.map((r) => r.mapLoadedS)),
    addPostLongTasksMs: spread(adds.map((r) => r.longTasksMs)),
    maplibreAloneReadyS: spread(alone),
  };
  const rows = [
    [
      'tap → popup painted (ms)',
      formatSpread(figures.tapToPopupMs),
      `card filled: ${formatSpread(references.tapToCardMs)}`,
    ],
    [
      'pan frame p95, Paris z12 (ms)',
      formatSpread(figures.panFrameP95Ms),
      `markers hidden (MapLibre + basemap): ${formatSpread(references.panFrameP95MarkersHiddenMs)}`,
    ],
    [
      `add one post to ${held} held, main thread (ms)`,
      formatSpread(figures.addPostMainThreadMs),
      `socket handler ${formatSpread(references.addPostSocketHandlerMs)}; long tasks ${formatSpread(references.addPostLongTasksMs)}`,
    ],
    [
      'first-load JS gzip ÷ MapLibre gzip',
      formatSpread(figures.firstLoadJsRatio),
      `MapLibre ${(manifest.maplibreGzip / 1000).toFixed(1)} kB; build manifest ratio ${manifest.ratio.toFixed(3)}`,
    ],
    [
      'map ready after navigation, markers drawn (s)',
      formatSpread(figures.mapReadyS),
      `data-map-loaded: ${formatSpread(references.mapLoadedAttributeS)}`,
    ],
    [
      'map ready ÷ MapLibre alone, same style and view',
      formatSpread(figures.mapReadyToMaplibreAlone),
      `MapLibre alone idle: ${formatSpread(references.maplibreAloneReadyS)} s`,
    ],
  ].map(([figure, measured, reference]) => ({ figure, measured, reference }));
  console.table(rows);
  writeResults(RESULTS, run, {
    setup: {
      posts: POSTS,
      cityPosts: CITY_POSTS,
      held,
      viewport: '390×844',
      deviceScaleFactor: DPR,
      cpuThrottlingRate: CPU_RATE,
      chromium: CHROMIUM,
      compositing: COMPOSITING,
      taps: TAPS,
      rounds: ROUNDS,
    },
    loads,
    figures,
    references,
    rounds: {
      firstLoad: first.map((r) => ({ ...r, mapReadyS: round(r.mapReadyS, 3), mapLoadedS: round(r.mapLoadedS, 3) })),
      addPost: adds,
    },
  });
}

await main();
