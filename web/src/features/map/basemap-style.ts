import type {
  DataDrivenPropertyValueSpecification,
  ExpressionSpecification,
  LineLayerSpecification,
  StyleSpecification,
  SymbolLayerSpecification,
} from 'maplibre-gl';
import { GEO_TILE_MAX_ZOOM } from '@moodmap/core';
import type { Theme } from '../theme/theme-store.ts';

/**
 * The embedded offline basemap: sea, land, lakes, rivers, regions, roads, borders and place names,
 * drawn from our own API's vector tiles (read from the archive the server ships, cut once from
 * open data). Light and dark variants share sources, layer ids and layouts, so switching theme
 * is a paint-only style diff.
 */
export const BASEMAP_PALETTE = {
  light: {
    sea: '#a8d5f2',
    land: '#f4f1ea',
    coast: '#c9dbe6',
    border: '#b9aa96',
    water: '#a8d5f2',
    river: '#8cc4ea',
    admin: '#c4b6a4',
    road: '#ffffff',
    roadCasing: '#e0d8ca',
    motorway: '#f6cf8e',
    motorwayCasing: '#e2b472',
    label: '#2c3440',
    labelMinor: '#4c5563',
    halo: 'rgba(250, 248, 243, 0.92)',
  },
  dark: {
    sea: '#0f1b2d',
    land: '#1f2a3a',
    coast: '#2a3a52',
    border: '#4a5e7c',
    water: '#0f1b2d',
    river: '#2d5684',
    admin: '#3a4a62',
    road: '#2c3a4f',
    roadCasing: '#1a2434',
    motorway: '#5b5040',
    motorwayCasing: '#2a2a2c',
    label: '#e4e9f1',
    labelMinor: '#b5c0cf',
    halo: 'rgba(15, 27, 45, 0.9)',
  },
} as const satisfies Record<Theme, Record<string, string>>;

/**
 * Layers `land`, `borders`, `water`, `rivers`, `admin` and `places`; z 0–GEO_TILE_MAX_ZOOM,
 * overzoomed above (they hold the data's full detail). MapLibre draws vector tiles at 512 px,
 * the size they are cut for.
 */
export const BASEMAP_TILES_URL = '/api/geo/tiles/{z}/{x}/{y}.pbf';

/** The layers that write place names: what journeys query to see that names are drawn. */
export const PLACE_LABEL_LAYERS = ['place-labels'] as const;

/**
 * No `glyphs` URL: MapLibre then draws every glyph locally with the browser's fonts (TinySDF).
 * The first name is only sniffed for the weight (Regular / Bold); the browser falls back through
 * the list to its own sans-serif (DejaVu or Noto on Linux, Helvetica on Apple, Arial on Windows).
 */
const FONT = ['Noto Sans Regular', 'Helvetica Neue', 'Arial'];
const FONT_BOLD = ['Noto Sans Bold', 'Helvetica Neue', 'Arial'];

function absolute(path: string): string {
  // Not new URL(): it would escape the {z}/{x}/{y} placeholders.
  return typeof window === 'undefined' ? path : `${window.location.origin}${path}`;
}

const byKind = (capital: number, city: number, town: number, village: number): ExpressionSpecification => [
  'match',
  ['get', 'kind'],
  'capital',
  capital,
  'city',
  city,
  'town',
  town,
  village,
];

/** Label sizes by zoom and place size: capitals lead, villages whisper. */
const LABEL_SIZE: DataDrivenPropertyValueSpecification<number> = [
  'interpolate',
  ['linear'],
  ['zoom'],
  3,
  byKind(13, 11, 10, 9.5),
  7,
  byKind(17, 14, 11.5, 10.5),
  11,
  byKind(21, 16.5, 13.5, 12),
  15,
  byKind(24, 19, 16, 14),
];

const isMotorway: ExpressionSpecification = ['==', ['get', 'kind'], 'motorway'];

/** Road widths by zoom; motorways wider. */
function roadWidth(extra: number): DataDrivenPropertyValueSpecification<number> {
  return [
    'interpolate',
    ['exponential', 1.6],
    ['zoom'],
    5,
    ['case', isMotorway, 0.6 + extra / 2, 0.3 + extra / 3],
    10,
    ['case', isMotorway, 2 + extra, 1.2 + extra],
    14,
    ['case', isMotorway, 6 + extra, 4 + extra],
    18,
    ['case', isMotorway, 18 + extra, 12 + extra],
  ];
}

function roadLayer(
  id: string,
  minzoom: number,
  color: ExpressionSpecification,
  extraWidth: number,
  opacity: ExpressionSpecification,
): LineLayerSpecification {
  return {
    id,
    type: 'line',
    source: 'basemap',
    'source-layer': 'roads',
    minzoom,
    layout: { 'line-join': 'round', 'line-cap': 'round' },
    paint: { 'line-color': color, 'line-width': roadWidth(extraWidth), 'line-opacity': opacity },
  };
}

/** A river's width at one zoom stop, by its rank: 1, 0.75 and 0.55 of `width`. */
function riverWidth(width: number): ExpressionSpecification {
  return ['*', width, ['match', ['get', 'rank'], [0, 1], 1, 2, 0.75, 0.55]];
}

type Palette = (typeof BASEMAP_PALETTE)[Theme];

/** Rivers from zoom 4, wider as the map zooms in. */
function riversLayer(c: Palette): LineLayerSpecification {
  return {
    id: 'rivers',
    type: 'line',
    source: 'basemap',
    'source-layer': 'rivers',
    minzoom: 4,
    layout: { 'line-join': 'round', 'line-cap': 'round' },
    paint: {
      'line-color': c.river,
      // The major rivers (ranks 0–1) full width, the others thinner (river-data.ts on the server).
      'line-width': [
        'interpolate',
        ['exponential', 1.4],
        ['zoom'],
        4,
        riverWidth(0.7),
        6,
        riverWidth(1.1),
        10,
        riverWidth(2),
        14,
        riverWidth(3.5),
        18,
        riverWidth(8),
      ],
    },
  };
}

/** Place names, the biggest places first. */
function placeLabelsLayer(c: Palette): SymbolLayerSpecification {
  return {
    id: 'place-labels',
    type: 'symbol',
    source: 'basemap',
    'source-layer': 'places',
    // The deepest tiles carry the villages of deeper zooms too, each with the zoom it shows from.
    filter: ['>=', ['zoom'], ['coalesce', ['get', 'minzoom'], 0]],
    layout: {
      'text-field': ['get', 'name'],
      'text-font': ['match', ['get', 'kind'], ['capital', 'city'], ['literal', FONT_BOLD], ['literal', FONT]],
      'text-size': LABEL_SIZE,
      'text-max-width': 8,
      // Room around each name: a city view keeps its main towns readable instead of a carpet of names.
      'text-padding': 6,
      'text-letter-spacing': 0.02,
      // Rank 0 is the most important place: it is placed first and wins any collision.
      'symbol-sort-key': ['get', 'rank'],
      'text-allow-overlap': false,
      'text-ignore-placement': false,
      'text-optional': true,
    },
    paint: {
      'text-color': ['match', ['get', 'kind'], ['capital', 'city'], c.label, c.labelMinor],
      'text-halo-color': c.halo,
      'text-halo-width': 1.6,
      'text-halo-blur': 0.4,
    },
  };
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
        attribution: 'Natural Earth, GeoNames, WDB II (GSHHG), © contributeurs OpenStreetMap',
      },
    },
    layers: [
      { id: 'sea', type: 'background', paint: { 'background-color': c.sea } },
      {
        id: 'land',
        type: 'fill',
        source: 'basemap',
        'source-layer': 'land',
        paint: { 'fill-color': c.land, 'fill-antialias': true },
      },
      {
        id: 'water',
        type: 'fill',
        source: 'basemap',
        'source-layer': 'water',
        paint: { 'fill-color': c.water, 'fill-antialias': true },
      },
      riversLayer(c),
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
        id: 'admin',
        type: 'line',
        source: 'basemap',
        'source-layer': 'admin',
        minzoom: 4,
        layout: { 'line-join': 'round' },
        paint: {
          'line-color': c.admin,
          'line-width': ['interpolate', ['linear'], ['zoom'], 4, 0.5, 8, 0.9, 14, 1.4],
          'line-dasharray': [3, 2],
          'line-opacity': ['interpolate', ['linear'], ['zoom'], 4, 0.5, 8, 0.85],
        },
      },
      // Casing first: the same lines 1.5 px wider underneath, faded in once roads are wide enough.
      roadLayer('roads-casing', 6, ['case', isMotorway, c.motorwayCasing, c.roadCasing], 1.5, [
        'interpolate',
        ['linear'],
        ['zoom'],
        6,
        0,
        8,
        1,
      ]),
      roadLayer('roads', 5, ['case', isMotorway, c.motorway, c.road], 0, [
        'interpolate',
        ['linear'],
        ['zoom'],
        5,
        0.5,
        7,
        1,
      ]),
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
      placeLabelsLayer(c),
    ],
  };
}
