/**
 * A map that shows where you are. Paris at zoom 5, 10 and 14, on a desktop and a phone,
 * light and dark: the embedded basemap writes place names (read from the drawn label layer and
 * from the painted pixels) and draws the Seine (the `rivers` layer); a place search 'lyon' in the top bar flies the map to Lyon; the create
 * page's location picker shows names and its own place search moves it.
 */
import type { Page } from '@playwright/test';
import type { Map as MapLibreMap } from 'maplibre-gl';
import sharp from 'sharp';
import { createConfirmedAccount, signInFromHome, uniqueEmail } from '../support/auth.ts';
import { camera, jumpTo, openMapAt, settle, waitForMap } from '../support/map.ts';
import { expect, test } from '../support/test.ts';

declare global {
  interface Window {
    /** The create page's picker map (web/src/features/posts/create/LocationPicker.tsx). */
    readonly __MOODMAP_PICKER_MAP__?: MapLibreMap;
  }
}

/** The basemap's label layer (PLACE_LABEL_LAYERS in web/src/features/map/basemap-style.ts). */
const LABEL_LAYERS = ['place-labels'];
/** The label colours of the capitals and cities, per theme (BASEMAP_PALETTE). */
const LABEL_COLOUR = { light: [0x2c, 0x34, 0x40], dark: [0xe4, 0xe9, 0xf1] } as const;
const PARIS = { latitude: 48.8566, longitude: 2.3522 };
const LYON = { latitude: 45.764, longitude: 4.8357 };
const BESANCON = { latitude: 47.238, longitude: 6.0244 };
const VIEWPORTS = [
  ['desktop', { width: 1440, height: 900 }],
  ['mobile', { width: 390, height: 844 }],
] as const;

type MapHook = '__MOODMAP_MAP__' | '__MOODMAP_PICKER_MAP__';

/** The names the map has placed on screen (MapLibre returns only the labels that won their place). */
async function drawnNames(page: Page, hook: MapHook = '__MOODMAP_MAP__'): Promise<string[]> {
  return page.evaluate(
    ([layers, name]) => {
      const map = window[name as MapHook];
      if (!map || !layers.every((id) => map.getLayer(id))) return [];
      return [...new Set(map.queryRenderedFeatures({ layers }).map((f) => String(f.properties.name ?? '')))].filter(
        Boolean,
      );
    },
    [LABEL_LAYERS, hook] as const,
  );
}

/** Waits for a map's tiles and camera to settle. */
async function mapSettled(page: Page, hook: MapHook): Promise<void> {
  await page.waitForFunction(
    (name) => {
      const map = window[name as MapHook];
      return Boolean(map?.isStyleLoaded() && map.areTilesLoaded() && !map.isMoving());
    },
    hook,
    { timeout: 45_000 },
  );
}

/** Share of an element's pixels painted in the label colour: the text itself, not only its feature. */
async function labelInk(page: Page, selector: string, theme: keyof typeof LABEL_COLOUR): Promise<number> {
  const png = await page.locator(selector).first().screenshot();
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const [r, g, b] = LABEL_COLOUR[theme];
  let near = 0;
  for (let i = 0; i < data.length; i += 3)
    if (Math.abs(data[i] - r) + Math.abs(data[i + 1] - g) + Math.abs(data[i + 2] - b) < 30) near++;
  return near / (info.width * info.height);
}

/** How many features of a basemap layer the map has drawn in the view. */
async function drawnCount(page: Page, layer: string): Promise<number> {
  return page.evaluate((id) => {
    const map = window.__MOODMAP_MAP__;
    return map?.getLayer(id) ? map.queryRenderedFeatures({ layers: [id] }).length : 0;
  }, layer);
}

const kmBetween = (a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }) =>
  Math.hypot(
    (a.latitude - b.latitude) * 111.2,
    (a.longitude - b.longitude) * 111.2 * Math.cos((a.latitude * Math.PI) / 180),
  );

test.describe('embedded basemap: place names', () => {
  for (const [name, viewport] of VIEWPORTS) {
    for (const theme of ['light', 'dark'] as const) {
      test(`Paris at zoom 5, 10 and 14 shows place names and the Seine (${name}, ${theme})`, async ({ page }) => {
        await page.setViewportSize(viewport);
        await page.emulateMedia({ colorScheme: theme });
        await openMapAt(page, { ...PARIS, zoom: 5 });
        await expect(page.getByTestId('map-canvas')).toHaveAttribute('data-theme', theme);
        for (const zoom of [5, 10, 14]) {
          await jumpTo(page, { ...PARIS, zoom });
          await waitForMap(page);
          // Paris, and around it other towns (zoomed out) or its neighbours (a city view).
          const enough = zoom < 14 ? 3 : 1;
          await expect
            .poll(
              async () => {
                const names = await drawnNames(page);
                return names.includes('Paris') && names.length >= enough ? 'named' : names.join(', ');
              },
              { message: `names at zoom ${zoom}`, timeout: 20_000 },
            )
            .toBe('named');
          expect(await drawnCount(page, 'rivers'), `rivers at zoom ${zoom}`).toBeGreaterThan(0);
          await settle(page);
          expect(await labelInk(page, '[data-testid="map-canvas"] canvas', theme)).toBeGreaterThan(0.0003);
        }
      });
    }
  }
});

test.describe('place search', () => {
  test("a search for 'lyon' in the top bar flies the map to Lyon", async ({ page }) => {
    await openMapAt(page, { ...PARIS, zoom: 5 });
    const box = page.getByTestId('search-input');
    await box.pressSequentially('lyon', { delay: 60 });
    const results = page.getByTestId('search-results');
    const place = results.getByTestId('place-result').first();
    await expect(place).toContainText('Lyon');
    // Places come first, under their heading, then the posts' section.
    await expect(results.getByText('Lieux', { exact: true })).toBeVisible();
    await expect(results.getByText('Publications', { exact: true })).toBeVisible();
    await place.click();
    await expect(results).toHaveCount(0);
    await expect
      .poll(
        async () => {
          const at = await camera(page);
          return kmBetween(at, LYON) < 5 && at.zoom >= 10;
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    await waitForMap(page);
    await expect.poll(() => drawnNames(page), { timeout: 20_000 }).toContain('Lyon');
  });

  test('the location picker shows names, and its place search moves it', async ({ page, request }) => {
    const email = uniqueEmail('basemap-picker');
    await createConfirmedAccount(request, { email });
    await signInFromHome(page, email);
    await page.goto('/create');
    const picker = page.getByTestId('location-picker');
    await expect(picker).toHaveAttribute('data-map-loaded', 'true', { timeout: 45_000 });
    const input = page.getByTestId('place-search-input');
    await expect(input).toHaveAttribute('placeholder', 'Rechercher un lieu...');
    await input.pressSequentially('besancon', { delay: 60 });
    const option = page.getByTestId('place-search-results').getByTestId('place-result').first();
    await expect(option).toContainText('Besançon');
    await option.scrollIntoViewIfNeeded();
    await input.press('Enter');
    await expect(page.getByTestId('place-search-results')).toHaveCount(0);
    // The picker flies there and its pin follows, to be refined by a tap.
    await expect
      .poll(
        async () => {
          const at = await page.evaluate(() => {
            const map = window.__MOODMAP_PICKER_MAP__!;
            return { latitude: map.getCenter().lat, longitude: map.getCenter().lng, zoom: map.getZoom() };
          });
          return kmBetween(at, BESANCON) < 5 && at.zoom >= 10;
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    const pin = {
      latitude: Number(await picker.getAttribute('data-latitude')),
      longitude: Number(await picker.getAttribute('data-longitude')),
    };
    expect(kmBetween(pin, BESANCON)).toBeLessThan(5);
    await mapSettled(page, '__MOODMAP_PICKER_MAP__');
    await expect.poll(() => drawnNames(page, '__MOODMAP_PICKER_MAP__'), { timeout: 20_000 }).toContain('Besançon');
    await expect(page.getByTestId('land-status')).toHaveAttribute('data-state', 'land');
    await picker.scrollIntoViewIfNeeded();
  });
});
