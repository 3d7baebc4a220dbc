/**
 * What one socket's map shows (core's realtime `view` frame), in a form the hub can test a
 * point against: latitudes as sent, longitudes wrapped to [-180, 180) with the antimeridian
 * case made explicit. MapLibre sends unwrapped longitudes once the map has been panned around
 * the globe (west −250, east 310); a span of 360° or more is the whole world's width.
 */
import { realtimeViewSchema } from '@moodmap/core';

export interface View {
  south: number;
  north: number;
  /** Wrapped to [-180, 180). */
  west: number;
  /** Wrapped to [-180, 180); west > east: the view crosses the antimeridian. */
  east: number;
  /** Every longitude is inside (west and east are then meaningless). */
  allLongitudes: boolean;
}

/** A longitude in [-180, 180): 180 and −180 are the same meridian. */
export function wrapLongitude(longitude: number): number {
  const wrapped = ((((longitude + 180) % 360) + 360) % 360) - 180;
  // -0 and float residue near the seam both come out as a plain number in range.
  return wrapped >= 180 ? -180 : wrapped;
}

/** The view of a client frame, or null for anything else (a bad frame is ignored). */
export function parseView(frame: unknown): View | null {
  const parsed = realtimeViewSchema.safeParse(frame);
  if (!parsed.success) return null;
  const { west, south, east, north } = parsed.data;
  if (south > north) return null;
  if (east - west >= 360) return { south, north, west: -180, east: -180, allLongitudes: true };
  return { south, north, west: wrapLongitude(west), east: wrapLongitude(east), allLongitudes: false };
}

/** Whether the point is inside the view, edges included (a post on the border is in view). */
export function viewContains(view: View, latitude: number, longitude: number): boolean {
  if (latitude < view.south || latitude > view.north) return false;
  if (view.allLongitudes) return true;
  const lon = wrapLongitude(longitude);
  return view.west <= view.east ? lon >= view.west && lon <= view.east : lon >= view.west || lon <= view.east;
}

/** The view's width in degrees of longitude (360 for the whole world). */
export function viewWidth(view: View): number {
  if (view.allLongitudes) return 360;
  return view.west <= view.east ? view.east - view.west : 360 - (view.west - view.east);
}
