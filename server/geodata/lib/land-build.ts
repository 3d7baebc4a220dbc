/**
 * Builds the land file's arrays (build time: server/geodata/land/build.ts): the precise land
 * (land-precise.ts) and the landmarks — the GeoNames places that land still leaves at sea.
 *
 * Every place the place search offers is land: its inhabitants post from it. The coast data
 * misses some of them by a few hundred metres to a few kilometres — islands drawn off their true
 * place (GSHHG draws Malé 1 km north of itself, OSM drops it, Natural Earth lumps its atoll in one
 * blob), atoll villages no data set has, lake-shore towns behind 1 km-generalised lake shores. Each of those places becomes a landmark:
 * the land check accepts what lies within its coast tolerance of it, as it does of a coast.
 */
import { readGshhgExtract } from './gshhg-extract.ts';
import { createLandChecker } from '../../src/modules/geo/land-check.ts';
import { encodeLandArrays } from '../../src/modules/geo/land-file.ts';
import {
  buildLandmarkArrays,
  buildPolygonArrays,
  openLandIndex,
  type LandIndexArrays,
} from '../../src/modules/geo/land-index.ts';
import { buildPreciseLand, loadBaseLand, type PreciseLand } from './land-precise.ts';
import { getPlaces } from './places-data.ts';

export interface LandBuild {
  arrays: LandIndexArrays;
  /** What went in, stored in the file's header. */
  meta: { polygons: number; islands: number; windows: number; points: number; landmarks: number };
}

/** The land's arrays, with every place the land refuses as a landmark. */
export function buildLandArrays(
  land: PreciseLand,
  extract: { islands: number; windows: number },
  places: ReadonlyArray<{ latitude: number; longitude: number }>,
): LandBuild {
  const polygons = buildPolygonArrays(land.polygons);
  const empty = buildLandmarkArrays([]);
  const check = createLandChecker(openLandIndex({ ...polygons, ...empty }), { cacheSize: 0 });
  const landmarks = places
    .filter((p) => !check.isOnLand(p.latitude, p.longitude))
    .map((p): [number, number] => [p.latitude, p.longitude]);
  return {
    arrays: { ...polygons, ...buildLandmarkArrays(landmarks) },
    meta: { polygons: land.polygons.length, ...extract, points: polygons.xs.length, landmarks: landmarks.length },
  };
}

/** The land file's uncompressed bytes, from the npm packages and the GSHHG extract beside the file. */
export function buildLandFileBytes(): { bytes: Uint8Array; meta: LandBuild['meta'] } {
  const extract = readGshhgExtract();
  const counts = { islands: extract.islands.length, windows: extract.windows.length };
  const { arrays, meta } = buildLandArrays(buildPreciseLand(loadBaseLand(), extract), counts, getPlaces());
  return { bytes: encodeLandArrays(arrays, meta), meta };
}
