/**
 * With MAP_PMTILES the map draws a street map from the archive, read by byte
 * ranges from our own server, in the Protomaps style, light and dark; nothing is asked of any
 * other host (no glyph or sprite CDN). An archive that cannot be read falls back to the embedded
 * basemap. With E2E_SCREENSHOTS=1, screenshots of both themes (support/screens.ts).
 */
import type { Page, Request, Response } from '@playwright/test';
import { colourShares, openMapAt, styleColours, waitForMap } from '../support/map.ts';
import { type PmtilesServer, startPmtilesServer } from '../support/pmtiles-server.ts';
import { shot } from '../support/screens.ts';
import { expect, test as base } from '../support/test.ts';

const test = base.extend<object, { pmtiles: PmtilesServer }>({
  pmtiles: [
    async ({}, use) => {
      const server = await startPmtilesServer();
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ pmtiles }, use) => use(pmtiles.base),
});

const ARCHIVE = '/api/geo/basemap.pmtiles';
/** Central Paris, between the Louvre and the Marais: the Seine, Rivoli and the Paris label in view. */
const VIEW = { latitude: 48.8575, longitude: 2.3472, zoom: 13 };

/** Every request and every answer about the archive, from the page's first request on. */
function watch(page: Page): { requests: Request[]; archive: Response[] } {
  const seen = { requests: [] as Request[], archive: [] as Response[] };
  page.on('request', (request) => seen.requests.push(request));
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === ARCHIVE) seen.archive.push(response);
  });
  return seen;
}

/** The names of the drawn features of some layers. */
async function drawnNames(page: Page, layers: string[]): Promise<string[]> {
  return page.evaluate((ids) => {
    const map = window.__MOODMAP_MAP__!;
    return map
      .queryRenderedFeatures({ layers: ids.filter((id) => map.getLayer(id)) })
      .map((f) => String(f.properties.name ?? ''));
  }, layers);
}

test.describe('MAP_PMTILES street map', () => {
  test('draws the archive in the Protomaps style, light then dark, from our server alone', async ({
    page,
    pmtiles,
  }) => {
    const seen = watch(page);
    await page.emulateMedia({ colorScheme: 'light' });
    await openMapAt(page, VIEW);

    const style = await page.evaluate(() => {
      const s = window.__MOODMAP_MAP__!.getStyle();
      return {
        sources: s.sources as Record<string, { url?: string }>,
        layers: s.layers.map((l) => l.id),
        glyphs: s.glyphs,
        sprite: s.sprite,
      };
    });
    expect(style.sources.protomaps?.url).toBe(`pmtiles://${pmtiles.base}${ARCHIVE}`);
    expect(style.layers).toEqual(
      expect.arrayContaining(['earth', 'water', 'roads_major', 'roads_highway', 'places_locality']),
    );
    expect(style.glyphs).toBeUndefined();
    expect(style.sprite).toBeUndefined();

    // The archive's own features are on screen: its streets, its river, its place name.
    await expect
      .poll(() => drawnNames(page, ['roads_major', 'roads_highway', 'roads_minor']))
      .toContain('Rue de Rivoli');
    await expect.poll(() => drawnNames(page, ['water'])).toContain('Seine');
    await expect.poll(() => drawnNames(page, ['places_locality'])).toContain('Paris');

    // Read by byte ranges: every answer a 206, the header's and the tiles' beyond it.
    expect(seen.archive.length).toBeGreaterThanOrEqual(2);
    for (const response of seen.archive) {
      expect(response.status(), (await response.headerValue('content-range')) ?? '').toBe(206);
      expect(await response.request().headerValue('range')).toMatch(/^bytes=\d+-\d+$/);
    }
    expect(seen.archive.some((r) => !r.request().headers().range?.startsWith('bytes=0-'))).toBe(true);

    // Land and water in the light palette cover the view (not the bare background).
    const light = await styleColours(page);
    const water = await page.evaluate(() => String(window.__MOODMAP_MAP__!.getPaintProperty('water', 'fill-color')));
    const lightShares = await colourShares(page, { earth: light.land, water });
    expect(lightShares.earth).toBeGreaterThan(0.3);
    expect(lightShares.water).toBeGreaterThan(0.005);
    await shot(page, 'pmtiles-paris-light');

    await page.getByTestId('btn-theme').click();
    await expect(page.getByTestId('map-canvas')).toHaveAttribute('data-theme', 'dark');
    await waitForMap(page);
    const dark = await styleColours(page);
    expect(dark.sea).not.toBe(light.sea);
    expect(dark.land).not.toBe(light.land);
    await expect.poll(() => drawnNames(page, ['places_locality'])).toContain('Paris');
    expect((await colourShares(page, { earth: dark.land })).earth).toBeGreaterThan(0.3);
    await shot(page, 'pmtiles-paris-dark');

    // Offline by construction: no glyph, sprite or tile request left this machine.
    const elsewhere = seen.requests
      .map((r) => r.url())
      .filter((url) => !url.startsWith(pmtiles.base) && !/^(data|blob):/.test(url));
    expect(elsewhere).toEqual([]);
  });

  test('an archive that cannot be read falls back to the embedded basemap', async ({ page }) => {
    await page.route(`**${ARCHIVE}`, (route) => route.fulfill({ status: 503, body: '' }));
    await openMapAt(page, VIEW);
    await expect(page.getByTestId('map-canvas')).toHaveAttribute('data-basemap', 'embedded');
    const sources = await page.evaluate(() => Object.keys(window.__MOODMAP_MAP__!.getStyle().sources));
    expect(sources).not.toContain('protomaps');
  });
});
