/**
 * One measured window of the live city bench, in the page: probes installed before the app starts
 * (long tasks, the socket's post.created frames), then a window of fixed length in which the
 * person drags the map 150 px and taps the single marker nearest the centre twice, while the main
 * thread's task time, the map's redraws (its 'render' events: no frame loop of the probe's own,
 * which would cost frames too) and the markers source's updates are counted.
 */
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { median, percentile } from '../support/stats.ts';
import { sleep, taskMs } from './phone.ts';

export type Box = [number, number, number, number];

export interface WindowFigures {
  seconds: number;
  /** Main-thread task time in the window, and its share of the window's wall time. */
  busyMs: number;
  busyShare: number;
  longTasks: number;
  longTaskMs: number;
  /** The map's redraws a second. */
  redrawsPerS: number;
  /** p95 gap between the map's redraws while a finger drags it. */
  panFrameP95Ms: number;
  /** Tap → popup painted (a frame and a task after it appears), each tap of the window. */
  taps: number[];
  tapMs: number;
  /** Taps that opened nothing within 10 s. */
  missedTaps: number;
  /** `updateData` calls on the markers source. */
  sourceUpdates: number;
  /** Updates MapLibre's worker answered and the map applied (it merges calls made while one is under way). */
  workerUpdates: number;
  /** post.created frames the socket received. */
  received: number;
  /** Posts the markers source gained inside the stream's box by the end (the map caught up). */
  drawnNew: number;
}

interface Probes {
  longTasks: Array<{ start: number; duration: number }>;
  created: number;
  renders: number[];
  drags: Array<[number, number]>;
  updates: number;
  applied: number;
}

/** Counts long tasks and the socket's post.created frames from the first script on. */
export async function installProbes(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const probes = {
      longTasks: [] as Array<{ start: number; duration: number }>,
      created: 0,
      renders: [] as number[],
      drags: [] as Array<[number, number]>,
      updates: 0,
      applied: 0,
    };
    (window as unknown as { __live: typeof probes }).__live = probes;
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
          const data = (event as MessageEvent).data;
          if (typeof data === 'string' && data.includes('"post.created"')) probes.created++;
          listener.call(this, event);
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
    try {
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries())
          probes.longTasks.push({ start: entry.startTime, duration: entry.duration });
      }).observe({ type: 'longtask', buffered: false });
    } catch {}
  });
}

/** Posts the markers source holds inside `box` (a group counts its members), each feature once. */
async function postsIn(page: Page, box: Box): Promise<number> {
  return page.evaluate(([west, south, east, north]) => {
    const seen = new Map<unknown, number>();
    for (const f of window.__MOODMAP_MAP__!.querySourceFeatures('mm-markers')) {
      const [x, y] = (f.geometry as unknown as { coordinates: [number, number] }).coordinates;
      if (x >= west && x <= east && y >= south && y <= north) seen.set(f.id, Number(f.properties.n ?? 1));
    }
    return [...seen.values()].reduce((a, b) => a + b, 0);
  }, box);
}

/** The redraw recorder and the markers source's update counter, from now on. */
async function startCounting(page: Page): Promise<number> {
  return page.evaluate(() => {
    const probes = (window as unknown as { __live: Probes & { counting?: boolean } }).__live;
    probes.renders = [];
    probes.drags = [];
    probes.updates = 0;
    probes.applied = 0;
    probes.created = 0;
    if (!probes.counting) {
      probes.counting = true;
      const map = window.__MOODMAP_MAP__!;
      map.on('render', () => void probes.renders.push(performance.now()));
      map.on('sourcedata', (e) => {
        if (e.sourceId === 'mm-markers' && e.sourceDataType === 'content') probes.applied++;
      });
    }
    type Updatable = { updateData: (diff: unknown) => unknown; __counted?: boolean };
    const source = window.__MOODMAP_MAP__!.getSource('mm-markers') as unknown as Updatable | undefined;
    if (source && !source.__counted) {
      const update = source.updateData.bind(source);
      source.updateData = (diff) => {
        probes.updates++;
        return update(diff);
      };
      source.__counted = true;
    }
    return performance.now();
  });
}

async function stopCounting(
  page: Page,
  from: number,
): Promise<Omit<Probes, 'renders'> & { renders: number; panGaps: number[] }> {
  return page.evaluate((since) => {
    const probes = (window as unknown as { __live: Probes }).__live;
    const renders = [...probes.renders];
    const panGaps = probes.drags.flatMap(([start, end]) => {
      const inside = renders.filter((t) => t >= start && t <= end);
      return inside.slice(1).map((t, i) => t - inside[i]!);
    });
    return { ...probes, renders: renders.length, panGaps, longTasks: probes.longTasks.filter((t) => t.start >= since) };
  }, from);
}

/** Moves of a drag: each waits for the page to take it, so a busy page drags slower. */
const DRAG_STEPS = 8;

async function drag(page: Page, dx: number): Promise<void> {
  const cx = 195;
  const cy = 430;
  await page.mouse.move(cx - dx / 2, cy);
  const start = await page.evaluate(() => performance.now());
  await page.mouse.down();
  for (let i = 1; i <= DRAG_STEPS; i++) {
    await page.mouse.move(cx - dx / 2 + (dx * i) / DRAG_STEPS, cy);
    await sleep(16);
  }
  await page.mouse.up();
  await page.evaluate(
    (from) => void (window as unknown as { __live: Probes }).__live.drags.push([from, performance.now()]),
    start,
  );
}

/** The single-post marker nearest the centre, clear of the bars and buttons, as drawn now. */
async function tapTarget(page: Page): Promise<{ x: number; y: number } | null> {
  return page.evaluate(() => {
    const map = window.__MOODMAP_MAP__!;
    const { width, height } = map.getCanvas().getBoundingClientRect();
    let best: { x: number; y: number; d: number } | null = null;
    for (const f of map.queryRenderedFeatures({ layers: ['mm-markers'] })) {
      if (f.properties.k !== 'p') continue;
      const { x, y } = map.project((f.geometry as unknown as { coordinates: [number, number] }).coordinates);
      if (x < 40 || x > width - 80 || y < 140 || y > height - 180) continue;
      const d = Math.hypot(x - width / 2, y - height / 2);
      if (!best || d < best.d) best = { x, y, d };
    }
    return best && { x: best.x, y: best.y };
  });
}

/** A tap on the marker: pointerdown → a popup (a post's or a group's) in the DOM, then a frame and a task; null if none in 10 s. */
async function tap(page: Page, target: { x: number; y: number }): Promise<number | null> {
  await page.evaluate(() => {
    const t = { down: 0, painted: 0 };
    (window as unknown as { __tap: typeof t }).__tap = t;
    addEventListener(
      'pointerdown',
      (e) => {
        t.down = e.timeStamp;
      },
      { capture: true, once: true },
    );
    const observer = new MutationObserver(() => {
      if (!document.querySelector('.mm-popup')) return;
      observer.disconnect();
      requestAnimationFrame(() =>
        setTimeout(() => {
          t.painted ||= performance.now();
        }, 0),
      );
    });
    observer.observe(document.body, { childList: true, subtree: true });
  });
  const box = (await page.locator('[data-testid="map-canvas"] canvas').first().boundingBox())!;
  await page.touchscreen.tap(box.x + target.x, box.y + target.y);
  const ms = await page
    .waitForFunction(
      () => {
        const t = (window as unknown as { __tap: { down: number; painted: number } }).__tap;
        return t.painted ? t.painted - t.down : null;
      },
      undefined,
      { timeout: 10_000, polling: 100 },
    )
    .then(
      (h) => h.jsonValue() as Promise<number>,
      () => null,
    );
  await page.keyboard.press('Escape');
  await page
    .waitForFunction(() => !document.querySelector('.mm-popup'), undefined, { timeout: 10_000 })
    .catch(() => undefined);
  return ms;
}

/** The single marker nearest the centre once the map is at rest, tapped: its tap → popup, null if none opened, undefined without a marker. */
async function tapNearest(page: Page): Promise<number | null | undefined> {
  // A drag's end may still glide: the marker is found on the map at rest.
  await page
    .waitForFunction(() => !window.__MOODMAP_MAP__!.isMoving(), undefined, { timeout: 5_000, polling: 50 })
    .catch(() => undefined);
  const target = await tapTarget(page);
  return target ? tap(page, target) : undefined;
}

/** The person's script, one step every 2.5 s: a drag to the right, a tap, a look, a tap. */
const SCRIPT = ['drag', 'tap', 'look', 'tap'] as const;
const STEP_MS = 2500;

/** What runs alongside the window (the stream, or nothing): started with it, stopped at its end. */
export interface Background {
  start: () => Promise<unknown>;
  stop: () => Promise<unknown>;
}

/** Plays the script from `wall0`, each step at its time or as soon as the one before is done. */
async function play(page: Page, wall0: number): Promise<{ taps: number[]; missedTaps: number }> {
  const taps: number[] = [];
  let missedTaps = 0;
  for (const [i, step] of SCRIPT.entries()) {
    const wait = wall0 + i * STEP_MS - performance.now();
    if (wait > 0) await sleep(wait);
    if (step === 'drag') await drag(page, 150);
    if (step !== 'tap') continue;
    const ms = await tapNearest(page);
    if (ms === null) missedTaps++;
    else if (ms !== undefined) taps.push(ms);
  }
  return { taps, missedTaps };
}

/**
 * Measures a window of `seconds` (wall time, whatever the page's pace) while the script plays and
 * `background` runs; a step still under way at its end finishes after it, its tap counted.
 */
export async function measureWindow(
  page: Page,
  cdp: CDPSession,
  seconds: number,
  box: Box,
  background: Background,
): Promise<WindowFigures> {
  const before = await postsIn(page, box);
  const from = await startCounting(page);
  const task0 = await taskMs(cdp);
  const wall0 = performance.now();
  await background.start();
  const script = play(page, wall0);
  await sleep(wall0 + seconds * 1000 - performance.now());
  const busy = (await taskMs(cdp)) - task0;
  const wall = performance.now() - wall0;
  const counted = await stopCounting(page, from);
  await background.stop();
  const { taps, missedTaps } = await script;
  // The last batch and its redraw, then the map's own count of what it holds.
  await page
    .waitForFunction(() => window.__MOODMAP_MAP__!.loaded() && !window.__MOODMAP_MAP__!.isMoving(), undefined, {
      timeout: 30_000,
      polling: 250,
    })
    .catch(() => undefined);
  await sleep(1500);
  const after = await postsIn(page, box);
  return {
    seconds: wall / 1000,
    busyMs: busy,
    busyShare: busy / wall,
    longTasks: counted.longTasks.length,
    longTaskMs: counted.longTasks.reduce((s, t) => s + t.duration, 0),
    redrawsPerS: counted.renders / (wall / 1000),
    panFrameP95Ms: percentile(counted.panGaps, 95),
    taps,
    tapMs: median(taps),
    missedTaps,
    sourceUpdates: counted.updates,
    workerUpdates: counted.applied,
    received: counted.created,
    drawnNew: after - before,
  };
}
