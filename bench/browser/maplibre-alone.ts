/**
 * The reference of "map ready": MapLibre alone on a page of its own, drawing the basemap style the
 * app drew (its sources and layers, ours taken out) at the same view, size, pixel ratio and CPU
 * throttling, from the same server (the page and MapLibre's own files are answered by the
 * browser context itself, from node_modules). Ready = its first `idle`, the whole view drawn.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { type PhoneOptions, phone } from './phone.ts';

const require = createRequire(import.meta.url);
const MAPLIBRE_DIST = dirname(require.resolve('maplibre-gl/dist/maplibre-gl.mjs'));
const PREFIX = '/__maplibre-alone/';

/** The style the app's map holds now, without the app's own sources and layers (`mm-…`). */
export async function basemapStyle(page: Page): Promise<unknown> {
  return page.evaluate(() => {
    const style = window.__MOODMAP_MAP__!.getStyle();
    style.layers = style.layers.filter((layer) => !layer.id.startsWith('mm-'));
    for (const id of Object.keys(style.sources)) if (id.startsWith('mm-')) delete style.sources[id];
    return style;
  });
}

function pageHtml(style: unknown, view: PhoneOptions['view']): string {
  const options = {
    container: 'map',
    style,
    center: [view.longitude, view.latitude],
    zoom: view.zoom,
    // The app's map options (web/src/features/map/world-map.ts): pixel ratio up to 2, no fades.
    fadeDuration: 0,
    renderWorldCopies: false,
    attributionControl: false,
  };
  return `<!doctype html><html><head><meta name="viewport" content="width=device-width,initial-scale=1">
<style>html,body,#map{margin:0;width:100%;height:100%}</style></head><body><div id="map"></div>
<script type="module">
import * as maplibregl from '${PREFIX}maplibre-gl.mjs';
maplibregl.setWorkerUrl('${PREFIX}maplibre-gl-worker.mjs');
const map = new maplibregl.Map({ ...${JSON.stringify(options)}, pixelRatio: Math.min(2, devicePixelRatio || 1) });
map.once('idle', () => { window.__aloneReadyAt = performance.now(); });
</script></body></html>`;
}

/** Navigation start → MapLibre alone's first idle, in seconds, in a fresh phone context. */
export async function maplibreAloneReadyS(
  browser: Browser,
  base: string,
  style: unknown,
  options: PhoneOptions,
): Promise<number> {
  const { context, page } = await phone(browser, options);
  try {
    await context.route(`${base}${PREFIX}**`, (route) => {
      const name = new URL(route.request().url()).pathname.slice(PREFIX.length);
      if (name === 'index.html') {
        return route.fulfill({ contentType: 'text/html', body: pageHtml(style, options.view) });
      }
      if (name === 'maplibre-gl.mjs' || name === 'maplibre-gl-worker.mjs') {
        return route.fulfill({ contentType: 'text/javascript', body: readFileSync(join(MAPLIBRE_DIST, name)) });
      }
      return route.fulfill({ status: 404 });
    });
    await page.goto(`${base}${PREFIX}index.html`);
    await page.waitForFunction(() => (window as unknown as { __aloneReadyAt?: number }).__aloneReadyAt, undefined, {
      timeout: 120_000,
    });
    const readyAt = await page.evaluate(() => (window as unknown as { __aloneReadyAt: number }).__aloneReadyAt);
    return readyAt / 1000;
  } finally {
    await context.close();
  }
}
