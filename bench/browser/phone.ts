/**
 * What the browser benches share: the phone they drive (a fresh context with mobile emulation,
 * 390×844, the given pixel ratio, touch, fr-FR, the CPU slowed through CDP, the map's saved place
 * set before the app starts, and `window.__bench.mapReadyAt` once the map is idle with its
 * markers laid out), the wait for a settled map, the main thread's task time, and a dense Paris.
 */
import { sql } from 'drizzle-orm';
import type { Map as MapLibreMap } from 'maplibre-gl';
import type { Browser, BrowserContext, BrowserContextOptions, CDPSession, Page } from 'playwright-core';
import type { openDatabase } from '../../server/src/db/client.ts';
import { PARIS } from '../support/world.ts';

declare global {
  interface Window {
    /** The app's test and bench hook (docs/architecture.md): its MapLibre map. */
    readonly __MOODMAP_MAP__?: MapLibreMap;
  }
}

export interface PhoneOptions {
  view: { latitude: number; longitude: number; zoom: number };
  dpr: number;
  cpuRate: number;
  /** More context options (a bench that serves another build blocks the service worker). */
  context?: BrowserContextOptions;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function phone(
  browser: Browser,
  { view, dpr, cpuRate, context: more }: PhoneOptions,
): Promise<{ context: BrowserContext; page: Page; cdp: CDPSession }> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: dpr,
    isMobile: true,
    hasTouch: true,
    locale: 'fr-FR',
    timezoneId: 'Europe/Paris',
    ...more,
  });
  await context.addInitScript((place) => {
    localStorage.setItem('moodmap.mapLocation', JSON.stringify(place));
    const bench = { mapLoadedAt: 0, mapReadyAt: 0 };
    (window as unknown as { __bench: typeof bench }).__bench = bench;
    new MutationObserver((_, observer) => {
      if (document.querySelector('[data-testid="map-canvas"][data-map-loaded="true"]')) {
        bench.mapLoadedAt = performance.now();
        observer.disconnect();
        // Ready = the map quiet ('idle') with its markers laid out: its first idle may come before
        // the viewport answer is drawn, a basemap without a single post.
        type BenchMap = {
          getSource(id: string): unknown;
          querySourceFeatures(id: string): unknown[];
          on(e: string, f: () => void): void;
          off(e: string, f: () => void): void;
        };
        const map = (window as unknown as { __MOODMAP_MAP__: BenchMap }).__MOODMAP_MAP__;
        const drawn = () => Boolean(map.getSource('mm-markers')) && map.querySourceFeatures('mm-markers').length > 0;
        if (drawn()) bench.mapReadyAt = bench.mapLoadedAt;
        else {
          const onIdle = () => {
            if (!drawn()) return;
            bench.mapReadyAt = performance.now();
            map.off('idle', onIdle);
          };
          map.on('idle', onIdle);
        }
      }
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-map-loaded'] });
  }, view);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuRate });
  await cdp.send('Performance.enable');
  return { context, page, cdp };
}

/** The map is drawn, still, with markers, and its tiles are in. */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    (layer) => {
      const map = window.__MOODMAP_MAP__;
      return Boolean(
        map?.isStyleLoaded() &&
          map.areTilesLoaded() &&
          !map.isMoving() &&
          map.getLayer(layer) &&
          map.queryRenderedFeatures({ layers: [layer] }).length > 0,
      );
    },
    'mm-markers',
    { timeout: 120_000, polling: 250 },
  );
}

/** The page's main-thread task time so far (CDP Performance.getMetrics TaskDuration), in ms. */
export async function taskMs(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return (metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0) * 1000;
}

/** City density in central Paris: `count` posts by the seeded authors (of `seeded` posts), gaussian around the centre. */
export async function seedParis(
  database: Awaited<ReturnType<typeof openDatabase>>,
  count: number,
  seeded: number,
): Promise<void> {
  await database.db.execute(
    sql.raw(`
    insert into publications (user_id, category, content, latitude, longitude, nickname, created_at, media_urls, has_pulse_effect)
    select md5('bench-user-' || u)::uuid, (array['happy','angry','party','money','love'])[1 + floor(random() * 5)::int],
           'Un café en terrasse, rien de mieux',
           ${PARIS.latitude} + g * cos(a) * 0.012, ${PARIS.longitude} + g * sin(a) * 0.018,
           'membre_' || u, now() - (60 + random() * 80000) * interval '1 second', '[]'::jsonb, random() < 0.05
    from (select i, 1 + (i % ${Math.min(seeded, 20_000)}) as u, sqrt(-2 * ln(1 - random())) as g, 2 * pi() * random() as a
          from generate_series(1, ${count}) i) s`),
  );
  await database.db.execute(sql.raw('analyze publications'));
}

/** Our map layers: the markers and groups, the highlight ring, the pulse rings. */
const OUR_LAYERS = ['mm-markers', 'mm-aggregates', 'mm-highlight', 'mm-pulse-a', 'mm-pulse-b'];

/** Shows or hides our layers: the map then draws MapLibre and the basemap alone (a reference). */
export async function setMarkersVisible(page: Page, visible: boolean): Promise<void> {
  await page.evaluate(
    ([layers, v]) => {
      const map = window.__MOODMAP_MAP__!;
      for (const id of layers as string[])
        if (map.getLayer(id)) map.setLayoutProperty(id, 'visibility', v ? 'visible' : 'none');
    },
    [OUR_LAYERS, visible] as const,
  );
}

/** The map at rest with its tiles in (`settled` without its markers: they may be hidden). */
export async function still(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const map = window.__MOODMAP_MAP__;
      return Boolean(map?.isStyleLoaded() && map.areTilesLoaded() && !map.isMoving());
    },
    undefined,
    { timeout: 120_000, polling: 250 },
  );
}
