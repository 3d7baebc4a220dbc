import { MAP } from '@moodmap/core';
import { MAP_LOCALE } from './map-locale.ts';
import { MAX_BOUNDS } from './map-view.ts';
import { maplibregl } from './maplibre.ts';

/**
 * What the main map and the create page's picker share (spec §9 "Map"): MapLibre, the zoom
 * range, a single copy of the world within its bounds, French place names, and no attribution
 * control of MapLibre's own (the main map places a compact one itself).
 */
export const WORLD_MAP_PROPS = {
  mapLib: maplibregl,
  minZoom: MAP.minZoom,
  maxZoom: MAP.maxZoom,
  maxBounds: MAX_BOUNDS,
  renderWorldCopies: false,
  attributionControl: false,
  locale: MAP_LOCALE,
} as const;
