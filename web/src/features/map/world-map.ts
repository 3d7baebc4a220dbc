import { MAP } from '@moodmap/core';
import { MAP_LOCALE } from './map-locale.ts';
import { MAX_BOUNDS } from './map-view.ts';
import { maplibregl } from './maplibre.ts';

/**
 * Device pixels per CSS pixel the map draws at: the screen's, up to 2. A phone at 3 has 2.25 times
 * the pixels of 2 to fill, blend and hand to the compositor on every frame, for a sharpness hardly
 * seen on a moving map (bench/browser measures the frames). The marker pictures are drawn at 2 as
 * well (marker-images.ts).
 */
export const MAX_MAP_PIXEL_RATIO = 2;

export function mapPixelRatio(
  devicePixelRatio: number = typeof window === 'undefined' ? 1 : window.devicePixelRatio,
): number {
  return Math.min(MAX_MAP_PIXEL_RATIO, devicePixelRatio || 1);
}

/**
 * What the main map and the create page's picker share (docs/product.md, Map): MapLibre, the zoom
 * range, a single copy of the world within its bounds, French place names, the pixel ratio, and
 * no attribution control of MapLibre's own (the main map places a compact one itself).
 */
export const WORLD_MAP_PROPS = {
  mapLib: maplibregl,
  minZoom: MAP.minZoom,
  maxZoom: MAP.maxZoom,
  maxBounds: MAX_BOUNDS,
  renderWorldCopies: false,
  attributionControl: false,
  locale: MAP_LOCALE,
  pixelRatio: mapPixelRatio(),
  // Labels and markers appear at once instead of fading in over 300 ms: each fade is a run of
  // redrawn frames after every load, move and new post, and a redrawn frame is the costly part
  // on a phone (bench/browser); MapLibre's `idle` (the map ready) comes sooner too.
  fadeDuration: 0,
} as const;
