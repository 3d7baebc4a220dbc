/** Helpers to look at the real MapLibre canvas. */
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { appReady } from './auth.ts';

export async function waitForMap(page: Page): Promise<void> {
  await page.locator('[data-testid="map-canvas"][data-map-loaded="true"]').waitFor({ timeout: 45_000 });
  // Let the land source tile and paint once the style is there.
  await page.waitForFunction(() => {
    const map = (window as unknown as { __moodmapMap?: { loaded(): boolean; areTilesLoaded(): boolean } }).__moodmapMap;
    return Boolean(map && map.loaded() && map.areTilesLoaded());
  }, undefined, { timeout: 45_000 });
}

/** The paint colours of the current style: sea (background) and land fill. */
export async function styleColours(page: Page): Promise<{ sea: string; land: string }> {
  return page.evaluate(() => {
    const map = (window as unknown as { __moodmapMap: { getStyle(): { layers: Array<{ id: string; type: string; paint?: Record<string, unknown> }> } } }).__moodmapMap;
    const layers = map.getStyle().layers;
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
export async function openMapAt(page: Page, view: { latitude: number; longitude: number; zoom: number }): Promise<void> {
  await page.goto('/');
  await page.evaluate((v) => localStorage.setItem('moodmap.mapLocation', JSON.stringify(v)), view);
  await page.reload();
  await appReady(page);
  await waitForMap(page);
}

/** Lets the camera and animations finish before a screenshot. */
export async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const map = (window as unknown as { __moodmapMap?: { isMoving(): boolean } }).__moodmapMap;
    return !map || !map.isMoving();
  });
  await page.waitForTimeout(450);
}
