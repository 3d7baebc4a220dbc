/** Helpers to look at the real MapLibre canvas and at the posts it draws. */
import { expect, type Page } from '@playwright/test';
import type { Map as MapLibreMap } from 'maplibre-gl';
import sharp from 'sharp';
import { appReady } from './auth.ts';

declare global {
  interface Window {
    /** The app's test and bench hook: its MapLibre map, once created (web/src/features/map/map-store.ts). */
    readonly __MOODMAP_MAP__?: MapLibreMap;
  }
}

export async function waitForMap(page: Page): Promise<void> {
  await page.locator('[data-testid="map-canvas"][data-map-loaded="true"]').waitFor({ timeout: 45_000 });
  // Let the land source tile and paint once the style is there. The style, sources and tiles are
  // asked for, not `loaded()`: a pulse ring's animation repaints every frame, so the map as a
  // whole is never idle while one is on screen.
  await page.waitForFunction(
    () => {
      const map = window.__MOODMAP_MAP__;
      return Boolean(map?.isStyleLoaded() && map.areTilesLoaded());
    },
    undefined,
    { timeout: 45_000 },
  );
}

/** The paint colours of the current style: sea (background) and land fill. */
export async function styleColours(page: Page): Promise<{ sea: string; land: string }> {
  return page.evaluate(() => {
    const layers = window.__MOODMAP_MAP__!.getStyle().layers as Array<{
      id: string;
      type: string;
      paint?: Record<string, unknown>;
    }>;
    const background = layers.find((l) => l.type === 'background');
    const land = layers.find((l) => l.type === 'fill');
    return { sea: String(background?.paint?.['background-color']), land: String(land?.paint?.['fill-color']) };
  });
}

function parseColour(css: string): [number, number, number] {
  const hex = css.match(/^#([0-9a-f]{6})$/i);
  if (hex) return [0, 2, 4].map((i) => parseInt(hex[1].slice(i, i + 2), 16)) as [number, number, number];
  const rgb = css.match(/rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)/);
  if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
  throw new Error(`unparsed colour ${css}`);
}

/** Share of the map's pixels close to each colour (screenshot of the canvas element). */
export async function colourShares(page: Page, colours: Record<string, string>): Promise<Record<string, number>> {
  const png = await page.locator('[data-testid="map-canvas"] canvas').first().screenshot();
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const targets = Object.entries(colours).map(([name, css]) => [name, parseColour(css)] as const);
  const counts: Record<string, number> = Object.fromEntries(targets.map(([n]) => [n, 0]));
  const total = info.width * info.height;
  for (let i = 0; i < data.length; i += 3) {
    for (const [name, [r, g, b]] of targets) {
      if (Math.abs(data[i] - r) + Math.abs(data[i + 1] - g) + Math.abs(data[i + 2] - b) < 24) counts[name]++;
    }
  }
  return Object.fromEntries(Object.entries(counts).map(([n, c]) => [n, c / total]));
}

/** Opens the app on a view stored under the map's location key before the app reads it. */
export async function openMapAt(
  page: Page,
  view: { latitude: number; longitude: number; zoom: number },
): Promise<void> {
  await page.goto('/');
  await page.evaluate((v) => localStorage.setItem('moodmap.mapLocation', JSON.stringify(v)), view);
  await page.reload();
  await appReady(page);
  await waitForMap(page);
}

/** Waits for the camera to stop and the page's transitions to end (looping ones aside). */
export async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const map = window.__MOODMAP_MAP__;
    return !map || !map.isMoving();
  });
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

/**
 * The posts on the map are drawn by MapLibre: no DOM element per marker. A journey
 * finds them as a user's eye does — on screen, where the map draws them — through the test hook
 * `window.__MOODMAP_MAP__` (docs/architecture.md): the rendered features of layer `mm-markers`
 * (a post: `pid`, `mood`, `pulse`; a 100 m group: `k:'g'`, `n`), and taps the canvas at the
 * pixel the map projects them to.
 */
export interface DrawnMarker {
  /** Pixel of the marker in the map canvas (CSS pixels from its top left). */
  x: number;
  y: number;
  /** 'p' one post, 'g' a 100 m group, 'c' a zoomed-out aggregate (MapLibre's or the server's). */
  kind: 'p' | 'g' | 'c';
  /** Posts in it: 1 for a post. */
  n: number;
  pid?: string;
  mood?: string;
  pulse?: boolean;
  /** The mood colour the marker's ring is drawn in. */
  color?: string;
  /** The author photo's URL the marker's picture is drawn from (null: initials). */
  photo?: string | null;
}

const MARKER_LAYERS = ['mm-markers', 'mm-aggregates'];
const PULSE_LAYERS = ['mm-pulse-a', 'mm-pulse-b'];

/** Every marker drawn inside the canvas right now (groups and aggregates included). */
export async function drawnMarkers(page: Page): Promise<DrawnMarker[]> {
  return page.evaluate((layers) => {
    const map = window.__MOODMAP_MAP__;
    if (!map) return [];
    const present = layers.filter((id) => map.getLayer(id));
    if (!present.length) return [];
    const { width, height } = map.getCanvas().getBoundingClientRect();
    const seen = new Set<string>();
    const out: DrawnMarker[] = [];
    for (const f of map.queryRenderedFeatures({ layers: present })) {
      const p = f.properties as {
        k?: string;
        n?: number;
        pid?: string;
        mood?: string;
        pulse?: number;
        color?: string;
        icon?: string;
        cluster?: boolean;
        point_count?: number;
      };
      const [lon, lat] = (f.geometry as { coordinates: [number, number] }).coordinates;
      const key = `${f.source}:${f.id ?? p.pid ?? `${lon},${lat}`}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const { x, y } = map.project([lon, lat]);
      if (x < 0 || y < 0 || x > width || y > height) continue;
      const kind = p.cluster || p.k === 's' ? 'c' : p.k === 'g' ? 'g' : 'p';
      out.push({
        x,
        y,
        kind,
        n: Number(p.n ?? p.point_count ?? 1),
        pid: kind === 'p' ? p.pid : undefined,
        mood: p.mood,
        pulse: p.pulse === undefined ? undefined : p.pulse === 1,
        color: p.color,
        // The icon key is `<mood>:<initials>:<photo URL>` (web/src/features/map/markers/marker-images.ts).
        photo: typeof p.icon === 'string' ? p.icon.split(':').slice(2).join(':') || null : undefined,
      });
    }
    return out;
  }, MARKER_LAYERS);
}

/** The drawn marker of one post, or undefined when it is not on screen. */
export async function postMarker(page: Page, postId: string): Promise<DrawnMarker | undefined> {
  return (await drawnMarkers(page)).find((m) => m.kind === 'p' && m.pid === postId);
}

/** Waits until the post's marker is drawn on screen (or, with `drawn: false`, until it is not). */
export async function expectPostMarker(
  page: Page,
  postId: string,
  { drawn = true, timeout = 15_000 } = {},
): Promise<DrawnMarker | undefined> {
  await expect
    .poll(async () => (await postMarker(page, postId)) !== undefined, {
      timeout,
      message: `post ${postId} drawn on the map`,
    })
    .toBe(drawn);
  return postMarker(page, postId);
}

/** The 100 m groups drawn on screen. */
export async function drawnGroups(page: Page): Promise<DrawnMarker[]> {
  return (await drawnMarkers(page)).filter((m) => m.kind === 'g');
}

/** A tap on the map canvas at a pixel of it, as a finger or a mouse does. */
export async function tapMap(page: Page, point: { x: number; y: number }): Promise<void> {
  const box = await canvasBox(page);
  await page.mouse.click(box.x + point.x, box.y + point.y);
}

/** The map canvas's box on the page (CSS pixels). */
async function canvasBox(page: Page): Promise<{ x: number; y: number; width: number; height: number }> {
  const box = await page.locator('[data-testid="map-canvas"] canvas').first().boundingBox();
  if (!box) throw new Error('no map canvas');
  return box;
}

/** Whether a pixel of the canvas (`box`) shows the map, not something drawn over it (the bottom bar, a toast). */
function mapShowsAt(page: Page, box: { x: number; y: number }, point: { x: number; y: number }): Promise<boolean> {
  return page.evaluate(
    ([x, y]) => document.elementFromPoint(x, y) instanceof HTMLCanvasElement,
    [box.x + point.x, box.y + point.y],
  );
}

/** Drags the map by a distance, with the mouse from the canvas's middle, as a person pans it. */
export async function dragMap(page: Page, by: { x: number; y: number }): Promise<void> {
  const box = await canvasBox(page);
  const from = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + by.x, from.y + by.y, { steps: 8 });
  await page.mouse.up();
}

/**
 * Taps the post's marker once the map draws it (after the camera stopped, so the pixel holds).
 * A marker that a bar or a toast covers is first brought to the map's middle by a drag, as a
 * person would before tapping it (a tall popup, fitted from its top, can leave its marker under
 * the bottom bar).
 */
export async function tapPost(page: Page, postId: string): Promise<void> {
  await waitForStill(page);
  let marker = await expectPostMarker(page, postId);
  const box = await canvasBox(page);
  if (!(await mapShowsAt(page, box, marker!))) {
    await dragMap(page, { x: box.width / 2 - marker!.x, y: box.height / 2 - marker!.y });
    await waitForStill(page);
    marker = await expectPostMarker(page, postId);
  }
  await tapMap(page, marker!);
}

/**
 * The posts whose pulse ring the map draws (features of the pulse layers, by post id), with the
 * post's centre inside the canvas as drawnMarkers counts them (a ring reaches further).
 */
export async function pulsingPosts(page: Page): Promise<string[]> {
  return page.evaluate((layers) => {
    const map = window.__MOODMAP_MAP__;
    const present = map ? layers.filter((id) => map.getLayer(id)) : [];
    if (!map || !present.length) return [];
    const { width, height } = map.getCanvas().getBoundingClientRect();
    const inside = (f: { geometry: unknown }) => {
      const { x, y } = map.project((f.geometry as { coordinates: [number, number] }).coordinates);
      return x >= 0 && y >= 0 && x <= width && y <= height;
    };
    return [
      ...new Set(
        map
          .queryRenderedFeatures({ layers: present })
          .filter(inside)
          .map((f) => String(f.properties.pid)),
      ),
    ];
  }, PULSE_LAYERS);
}

/**
 * Share of the pixels in a square around a point of the canvas that are close to a colour: the
 * marker's mood ring as drawn, not as configured.
 */
export async function colourShareAround(
  page: Page,
  point: { x: number; y: number },
  css: string,
  radius = 30,
): Promise<number> {
  const canvas = page.locator('[data-testid="map-canvas"] canvas').first();
  const box = (await canvas.boundingBox())!;
  const clip = { x: box.x + point.x - radius, y: box.y + point.y - radius, width: radius * 2, height: radius * 2 };
  const png = await page.screenshot({ clip });
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const [r, g, b] = parseColour(css);
  let near = 0;
  for (let i = 0; i < data.length; i += 3)
    if (Math.abs(data[i] - r) + Math.abs(data[i + 1] - g) + Math.abs(data[i + 2] - b) < 40) near++;
  return near / (info.width * info.height);
}

/** Waits for the camera to stop (a pixel read before that would be stale). */
export async function waitForStill(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const map = window.__MOODMAP_MAP__;
    return Boolean(map && !map.isMoving() && map.isStyleLoaded());
  });
}

/** The map's camera: centre and zoom. */
export async function camera(page: Page): Promise<{ latitude: number; longitude: number; zoom: number }> {
  return page.evaluate(() => {
    const map = window.__MOODMAP_MAP__!;
    const c = map.getCenter();
    return { latitude: c.lat, longitude: c.lng, zoom: map.getZoom() };
  });
}

/** Moves the camera at once (what a long pan or zoom by hand would end on). */
export async function jumpTo(page: Page, view: { latitude: number; longitude: number; zoom: number }): Promise<void> {
  await page.evaluate((v) => window.__MOODMAP_MAP__!.jumpTo({ center: [v.longitude, v.latitude], zoom: v.zoom }), view);
}
