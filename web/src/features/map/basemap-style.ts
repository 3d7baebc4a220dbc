import type { StyleSpecification } from 'maplibre-gl';
import type { Theme } from '../theme/theme-store.ts';

/**
 * The embedded offline basemap: sea, land and country borders drawn from our own API
 * (repaired Natural Earth 50m polygons), with no tiles, glyphs or sprites. Light and dark
 * variants share sources and layer ids, so switching theme is a paint-only style diff.
 */
export const BASEMAP_PALETTE = {
  light: { sea: '#a8d5f2', land: '#f4f1ea', coast: '#c9dbe6', border: '#cbbfae' },
  dark: { sea: '#0f1b2d', land: '#1f2a3a', coast: '#2a3a52', border: '#3b4d68' },
} as const satisfies Record<Theme, Record<string, string>>;

export const LAND_URL = '/api/map/land.geojson';
export const BORDERS_URL = '/api/map/borders.geojson';

function absolute(path: string): string {
  return typeof window === 'undefined' ? path : new URL(path, window.location.origin).href;
}

export function basemapStyle(theme: Theme): StyleSpecification {
  const c = BASEMAP_PALETTE[theme];
  return {
    version: 8,
    name: `MoodMap ${theme}`,
    metadata: { 'moodmap:basemap': 'embedded', 'moodmap:theme': theme },
    sources: {
      land: { type: 'geojson', data: absolute(LAND_URL), attribution: 'Natural Earth', tolerance: 0.3 },
      borders: { type: 'geojson', data: absolute(BORDERS_URL), tolerance: 0.3 },
    },
    layers: [
      { id: 'sea', type: 'background', paint: { 'background-color': c.sea } },
      { id: 'land', type: 'fill', source: 'land', paint: { 'fill-color': c.land, 'fill-antialias': true } },
      {
        id: 'coastline',
        type: 'line',
        source: 'land',
        paint: {
          'line-color': c.coast,
          'line-width': ['interpolate', ['linear'], ['zoom'], 2, 0.6, 6, 1.2, 12, 2],
        },
      },
      {
        id: 'borders',
        type: 'line',
        source: 'borders',
        layout: { 'line-join': 'round', 'line-cap': 'round' },
        paint: {
          'line-color': c.border,
          'line-width': ['interpolate', ['linear'], ['zoom'], 2, 0.5, 6, 1, 12, 1.6],
          'line-opacity': ['interpolate', ['linear'], ['zoom'], 2, 0.7, 8, 1],
        },
      },
    ],
  };
}
