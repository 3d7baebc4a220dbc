/**
 * "May a post be pinned here?" — positions must be on land, islands included (docs/product.md, Map).
 *
 * A reverse geocoder alone would let a post through whenever the service failed.
 * Here the answer comes from land polygons held in memory (server/geodata/lib/land-precise.ts:
 * OSM land, the islets it drops, finer coasts around the places it cuts off, the same polygons
 * the basemap draws from zoom 6), so there is no failure to fail open on: anything we cannot read
 * as valid coordinates is refused.
 */
import type { LandIndex } from './land-index.ts';

/**
 * Points this close to a coastline count as land: 0.3 km. The OSM coasts are generalised to
 * 1 km and rounded to 0.001° (~110 m), so a quay or a beach can fall a little outside the
 * polygon. Measured on test/geo/coastal-places.ts (35 seafronts, checked against 10 m OSM data):
 * every place lies inside or within 0.17 km of the data, and every point 1 km from the real
 * shore lies 0.33 km or more from the data's coast. 0.3 km also admits the create screen's
 * default picker location (-21.0667, 55.2167), which the data puts 0.28 km off the Saint-Gilles shore.
 * So the map at zoom 16 shows an accepted post at most 300 m off the drawn shore.
 */
export const COAST_TOLERANCE_KM = 0.3;

export interface LandCheckerOptions {
  /** Points this close to a coastline or a landmark count as land (COAST_TOLERANCE_KM by default). */
  coastToleranceKm?: number;
  /** Bound of the result cache (entries). */
  cacheSize?: number;
}

export interface LandChecker {
  isOnLand(lat: number, lon: number): boolean;
  /** Entries currently cached (never above `cacheSize`). */
  readonly cacheEntries: number;
}

export function isValidCoordinate(lat: number, lon: number): boolean {
  return Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180;
}

/**
 * Coordinates rounded to 4 decimals (~11 m), as the geocoder's cache keys them, packed in
 * one integer: Map lookups on numbers are cheaper than on strings.
 */
function cacheKey(lat4: number, lon4: number): number {
  return Math.round((lat4 + 90) * 1e4) * 3_600_001 + Math.round((lon4 + 180) * 1e4);
}

const round4 = (v: number): number => Math.round(v * 1e4) / 1e4;

export function createLandChecker(index: LandIndex, options: LandCheckerOptions = {}): LandChecker {
  const { coastToleranceKm = COAST_TOLERANCE_KM, cacheSize = 10_000 } = options;
  // A Map keeps insertion order: re-inserting on a hit makes its first key the least recently
  // used one. The answers never change (static data), so unlike the geocoder's 24 h cache there is
  // no expiry, only a size bound.
  const cache = new Map<number, boolean>();

  return {
    get cacheEntries() {
      return cache.size;
    },
    isOnLand(lat, lon) {
      if (typeof lat !== 'number' || typeof lon !== 'number' || !isValidCoordinate(lat, lon)) return false;
      // Compute on the rounded point itself, so the answer never depends on which of the
      // ~11 m cell's points happened to be asked first.
      const lat4 = round4(lat);
      const lon4 = round4(lon);
      const key = cacheKey(lat4, lon4);
      const hit = cache.get(key);
      if (hit !== undefined) {
        cache.delete(key);
        cache.set(key, hit);
        return hit;
      }
      const onLand =
        index.contains(lat4, lon4) || (coastToleranceKm > 0 && index.isNearLand(lat4, lon4, coastToleranceKm));
      if (cacheSize > 0) {
        if (cache.size >= cacheSize) {
          const oldest = cache.keys().next();
          if (!oldest.done) cache.delete(oldest.value);
        }
        cache.set(key, onLand);
      }
      return onLand;
    },
  };
}
