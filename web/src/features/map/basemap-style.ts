import type { StyleSpecification } from 'maplibre-gl';
import { GEO_TILE_MAX_ZOOM } from '@moodmap/core';
import type { Theme } from '../theme/theme-store.ts';

/**
 * The embedded offline basemap: sea, land and country borders drawn from our own API's vector
 * tiles (repaired Natural Earth 50m polygons, cut per view), with no glyphs or sprites. Light
 * and dark variants share sources and layer ids, so switching theme is a paint-only style diff.
 */
export const BASEMAP_PALETTE = {
  light: { sea: '#a8d5f2', land: '#f4f1ea', coast: '#c9dbe6', border: '#cbbfae' },
  dark: { sea: '#0f1b2d', land: '#1f2a3a', coast: '#2a3a52', border: '#3b4d68' },
} as const satisfies Record<Theme, Record<string, string>>;

/**
 * Layers `land` and `borders`; z 0–GEO_TILE_MAX_ZOOM, overzoomed above (they hold the data's full
 * detail). MapLibre draws vector tiles at 512 px, the size the server cuts them for.
 */
export const BASEMAP_TILES_URL = '/api/geo/tiles/{z}/{x}/{y}.pbf';

function absolute(path: string): string {
  // Not new URL(): it would escape the {z}/{x}/{y} placeholders.
  return typeof window === 'undefined' ? path : `${window.location.origin}${path}`;
}

export function basemapStyle(theme: Theme): StyleSpecification {
  const c = BASEMAP_PALETTE[theme];
  return {
    version: 8,
    name: `MoodMap ${theme}`,
    metadata: { 'moodmap:basemap': 'embedded', 'moodmap:theme': theme },
    sources: {
      basemap: {
        type: 'vector',
        tiles: [absolute(BASEMAP_TILES_URL)],
        minzoom: 0,
        maxzoom: GEO_TILE_MAX_ZOOM,
        attribution: 'Natural Earth',
      },
    },
    layers: [
      { id: 'sea', type: 'background', paint: { 'background-color': c.sea } },
      { id: 'land', type: 'fill', source: 'basemap', 'source-layer': 'land', paint: { 'fill-color': c.land, 'fill-antialias': true } },
      {
        id: 'coastline',
        type: 'line',
        source: 'basemap',
        'source-layer': 'land',
        paint: {
          'line-color': c.coast,
          'line-width': ['interpolate', ['linear'], ['zoom'], 2, 0.6, 6, 1.2, 12, 2],
        },
      },
      {
        id: 'borders',
        type: 'line',
        source: 'basemap',
        'source-layer': 'borders',
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
