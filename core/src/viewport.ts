/**
 * How the map asks for its viewport: the visible bounds plus a margin, rounded outwards
 * on a grid that follows the zoom. The web app requests exactly this; the benches generate their
 * URLs with the same functions, so they measure what the app sends.
 */
export type Bbox = [west: number, south: number, east: number, north: number];

/** The margin around the visible map, as a share of its size on each side. */
export const VIEW_MARGIN = 0.25;

/** The bounds with `margin` of their size added on each side (markers just outside are ready when panning). */
export function padBounds([west, south, east, north]: Bbox, margin = VIEW_MARGIN): Bbox {
  const dx = (east - west) * margin;
  const dy = (north - south) * margin;
  return [Math.max(-180, west - dx), Math.max(-90, south - dy), Math.min(180, east + dx), Math.min(90, north + dy)];
}

/** Bounds rounded outwards on a grid that follows the zoom, so small pans share one answer. */
export function roundBounds([west, south, east, north]: Bbox, zoom: number): Bbox {
  const step = Math.max(0.001, 90 / 2 ** Math.floor(zoom) / 4);
  const down = (v: number) => Math.floor(v / step) * step;
  const up = (v: number) => Math.ceil(v / step) * step;
  const r = (v: number) => Math.round(v * 1e6) / 1e6;
  return [
    r(Math.max(-180, down(west))),
    r(Math.max(-90, down(south))),
    r(Math.min(180, up(east))),
    r(Math.min(90, up(north))),
  ];
}
