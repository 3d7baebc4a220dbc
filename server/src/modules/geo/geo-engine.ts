/**
 * The context's geo engine: the land check and the place search, opened from the prebuilt
 * files (server/geodata/land, server/geodata/places) when the app's context is created. Tests
 * give the app a small engine of their own instead (test/helpers/geo-fixture.ts).
 */
import { COAST_TOLERANCE_KM, createLandChecker, type LandChecker } from './land-check.ts';
import { readLandFile } from './land-file.ts';
import type { LandIndex } from './land-index.ts';
import { readPlaceFile } from './place-file.ts';
import { createPlaceSearch, type PlaceIndex, type PlaceSearch } from './places-search.ts';

export interface GeoEngine {
  /** May a post be pinned here: inside the land, or within the coast tolerance of a coast or a landmark. */
  land: LandChecker;
  /** Strictly inside the land polygons: where an approximate post may be published. */
  inside: LandChecker;
  /** The place search of the top bar and the location picker. */
  places: PlaceSearch;
  /** What the engine holds, for the start's log line. */
  readonly summary: string;
}

export function createGeoEngine(land: LandIndex, places: PlaceIndex): GeoEngine {
  const search = createPlaceSearch(places);
  const { polygons, landmarks } = land.stats;
  return {
    land: createLandChecker(land, { coastToleranceKm: COAST_TOLERANCE_KM }),
    inside: createLandChecker(land, { coastToleranceKm: 0 }),
    places: search,
    summary: `${polygons} polygones de terre, ${landmarks} lieux repères, ${search.count} lieux`,
  };
}

/** The engine on the prebuilt files. */
export function loadGeoEngine(): GeoEngine {
  return createGeoEngine(readLandFile(), readPlaceFile());
}
