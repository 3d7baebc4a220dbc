/**
 * The map's first viewport answer, asked at boot. The map asks for its markers only once it exists
 * and has read its bounds; the answer would then come after the basemap's style, and the markers
 * source be created empty and filled in a second pass of MapLibre's worker and frames. Asked from
 * main.tsx instead, with the bounds the map will have (the saved camera on a screen-sized,
 * north-up map), it is in the query cache under the very key PostMarkers uses before the map is
 * even created. With the markers' layers added as soon as the style is parsed (marker-layers.ts
 * styleReady), the map is drawn with its markers sooner (bench/browser/first-load.probe.ts
 * measures it).
 */
import type { QueryClient } from '@tanstack/react-query';
import { MAP, padBounds } from '@moodmap/core';
import { useMoodFilterStore } from '../moods/mood-filter-store.ts';
import { type Bbox, viewportQuery } from '../posts/for-map.ts';
import { MAX_BOUNDS, type MapViewState } from './map-view.ts';

/** MapLibre's vector tile size, which sets the world's size in pixels at a zoom. */
const TILE_SIZE = 512;

/**
 * What map.getBounds() returns for `view` on a north-up, unpitched map of `width` × `height` CSS
 * pixels (spherical Mercator), or null when MapLibre would move or zoom that camera to fit its
 * limits (bounds, zoom range): the map then asks for its own view.
 */
export function viewBounds(view: MapViewState, width: number, height: number): Bbox | null {
  if (view.zoom < MAP.minZoom || view.zoom > MAP.maxZoom || width <= 0 || height <= 0) return null;
  const world = TILE_SIZE * 2 ** view.zoom;
  const x = ((view.longitude + 180) / 360) * world;
  const y = ((1 - Math.log(Math.tan(Math.PI / 4 + (view.latitude * Math.PI) / 360)) / Math.PI) / 2) * world;
  const lng = (px: number) => (px / world) * 360 - 180;
  const lat = (py: number) => (360 / Math.PI) * Math.atan(Math.exp(Math.PI * (1 - (2 * py) / world))) - 90;
  const bounds: Bbox = [lng(x - width / 2), lat(y + height / 2), lng(x + width / 2), lat(y - height / 2)];
  const [west, south, east, north] = MAX_BOUNDS;
  const inside = bounds[0] >= west && bounds[1] >= south && bounds[2] <= east && bounds[3] <= north;
  return inside ? bounds : null;
}

/** Starts the first view's viewport request into `client`'s cache (PostMarkers reads it there). */
export function prefetchFirstViewport(client: QueryClient, view: MapViewState, width: number, height: number): void {
  const bounds = viewBounds(view, width, height);
  if (!bounds) return;
  // Padded as the map's view is (markers/use-map-view.ts); rounded and keyed by viewportQuery as the map's own.
  void client.prefetchQuery(viewportQuery(padBounds(bounds), view.zoom, useMoodFilterStore.getState().selected));
}
