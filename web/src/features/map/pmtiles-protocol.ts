/**
 * The PMTiles basemap as a style URL, `moodmap-pmtiles://<theme>?archive=<archive URL>`, that
 * MapLibre loads like any configured style: the map needs no other code path, and a failure
 * falls back to the embedded basemap exactly as a MAP_STYLE_URL does (MapView.tsx). The handler
 * registered here is tiny; what it runs (pmtiles, @protomaps/basemaps) is imported on first use.
 */
import { maplibregl } from './maplibre.ts';
import type { Theme } from '../theme/theme-store.ts';

const SCHEME = 'moodmap-pmtiles';

let registered = false;

/** The style URL of the PMTiles basemap; a root-relative archive URL is made absolute here. */
export function pmtilesStyleUrl(theme: Theme, archiveUrl: string): string {
  const absolute = new URL(archiveUrl, globalThis.location?.href).href;
  return `${SCHEME}://${theme}?archive=${encodeURIComponent(absolute)}`;
}

function parse(url: string): { theme: Theme; archiveUrl: string } {
  const parsed = new URL(url);
  const archiveUrl = parsed.searchParams.get('archive');
  if (!archiveUrl) throw new Error(`no archive in ${url}`);
  return { theme: parsed.host === 'dark' ? 'dark' : 'light', archiveUrl };
}

/** Registers the style handler once, before any map asks for such a style. */
export function registerPmtilesStyleProtocol(): void {
  if (registered) return;
  registered = true;
  maplibregl.addProtocol(SCHEME, async (request, abortController) => {
    const { theme, archiveUrl } = parse(request.url);
    const { loadPmtilesStyle } = await import('./pmtiles-loader.ts');
    return { data: await loadPmtilesStyle(theme, archiveUrl, abortController.signal) };
  });
}
