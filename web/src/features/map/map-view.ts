import { MAP } from '@moodmap/core';
import { STORAGE_KEYS, readJson, writeJson } from '../../lib/storage.ts';

/**
 * Bounds ±85° latitude, ±180° longitude. MapLibre 6 turns a span of exactly 360° into
 * a singular matrix and the map throws on its first resize (maplibre-gl-js#6148), so the east and
 * west edges stop a hair (1e-6°, about 10 cm) inside the antimeridian.
 */
const LNG_EDGE = MAP.maxLongitude - 1e-6;
export const MAX_BOUNDS: [number, number, number, number] = [-LNG_EDGE, -MAP.maxLatitude, LNG_EDGE, MAP.maxLatitude];

/** A camera position as persisted under the location key. */
export interface MapViewState {
  latitude: number;
  longitude: number;
  zoom: number;
}

/** Default view: mobile up to 768 px wide, desktop above (docs/product.md, Map). */
export function defaultView(viewportWidth: number): MapViewState {
  return { ...(viewportWidth <= MAP.mobileBreakpointPx ? MAP.mobileView : MAP.desktopView) };
}

/** A persisted view is kept only if its zoom is within 1–20 and its coordinates within the map's range. */
export function isValidView(value: unknown): value is MapViewState {
  if (!value || typeof value !== 'object') return false;
  const { latitude, longitude, zoom } = value as Record<string, unknown>;
  return (
    typeof latitude === 'number' &&
    typeof longitude === 'number' &&
    typeof zoom === 'number' &&
    Number.isFinite(latitude) &&
    Number.isFinite(longitude) &&
    Number.isFinite(zoom) &&
    zoom >= MAP.validZoomMin &&
    zoom <= MAP.validZoomMax &&
    Math.abs(latitude) <= MAP.maxLatitude &&
    Math.abs(longitude) <= MAP.maxLongitude
  );
}

/** The view to open with: the last position, or the default when it is missing or invalid. */
export function initialView(viewportWidth: number = window.innerWidth): MapViewState {
  const saved = readJson(STORAGE_KEYS.mapLocation);
  if (isValidView(saved)) return { latitude: saved.latitude, longitude: saved.longitude, zoom: saved.zoom };
  const fallback = defaultView(viewportWidth);
  writeJson(STORAGE_KEYS.mapLocation, fallback);
  return fallback;
}

export function saveView(view: MapViewState): void {
  if (isValidView(view)) {
    writeJson(STORAGE_KEYS.mapLocation, {
      latitude: Number(view.latitude.toFixed(5)),
      longitude: Number(view.longitude.toFixed(5)),
      zoom: Number(view.zoom.toFixed(2)),
    });
  }
}
