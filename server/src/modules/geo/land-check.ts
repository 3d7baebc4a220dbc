/**
 * "May a post be pinned here?" — spec: positions must be on land, islands included.
 *
 * The spec's client asked a reverse geocoder and let the post through when the service failed.
 * Here the answer comes from Natural Earth land-10m polygons held in memory, so there is no
 * failure to fail open on: anything we cannot read as valid coordinates is refused.
 */
import { getLandPolygons, type Resolution } from './land-data.ts';
import { buildLandIndex, type LandIndex } from './land-index.ts';

export interface LandCheckerOptions {
  /** Polygon set; 10m (default) has the small islands, 50m is faster but misses many. */
  resolution?: Resolution;
  /**
   * Points this close to a coastline count as land. Natural Earth coasts are generalised (and
   * world-atlas quantises them to ~0.004°), so coastal towns such as Saint-Denis de La Réunion
   * or Mamoudzou fall a few kilometres outside the polygons.
   */
  coastToleranceKm?: number;
  /** Bound of the result cache (entries). */
  cacheSize?: number;
}

export interface LandChecker {
  isOnLand(lat: number, lon: number): boolean;
  /** Entries currently cached (never above `cacheSize`). */
  readonly cacheEntries: number;
}

const indexes = new Map<Resolution, LandIndex>();

/** One index per resolution for the whole process: building the 10m one takes ~0.5 s. */
export function getLandIndex(resolution: Resolution): LandIndex {
  let index = indexes.get(resolution);
  if (!index) {
    index = buildLandIndex(getLandPolygons(resolution));
    indexes.set(resolution, index);
  }
  return index;
}

export function isValidCoordinate(lat: number, lon: number): boolean {
  return Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180;
}

/**
 * Coordinates rounded to 4 decimals (~11 m), as the spec's land-check cache keys them, packed in
 * one integer: Map lookups on numbers are cheaper than on strings.
 */
function cacheKey(lat4: number, lon4: number): number {
  return Math.round((lat4 + 90) * 1e4) * 3_600_001 + Math.round((lon4 + 180) * 1e4);
}

const round4 = (v: number): number => Math.round(v * 1e4) / 1e4;

export function createLandChecker(options: LandCheckerOptions = {}): LandChecker {
  const { resolution = '10m', coastToleranceKm = 5, cacheSize = 10_000 } = options;
  const index = getLandIndex(resolution);
  // A Map keeps insertion order: re-inserting on a hit makes its first key the least recently
  // used one. The answers never change (static data), so unlike the spec's 24 h cache there is
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
        index.contains(lat4, lon4) || (coastToleranceKm > 0 && index.isNearCoast(lat4, lon4, coastToleranceKm));
      if (cacheSize > 0) {
        if (cache.size >= cacheSize) cache.delete(cache.keys().next().value as number);
        cache.set(key, onLand);
      }
      return onLand;
    },
  };
}

let defaultChecker: LandChecker | undefined;

/** The process-wide checker (10m, 5 km coast tolerance); built on first call. */
export function getLandChecker(): LandChecker {
  defaultChecker ??= createLandChecker();
  return defaultChecker;
}
