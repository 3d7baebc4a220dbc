/**
 * The API tests' geo engine: a few land polygons and places written here, through the same
 * index and search code as the prebuilt data, so a test app opens it in a millisecond instead
 * of the world. The tests that post at real coordinates find land where they post: La Réunion
 * (Saint-Denis, the suites' usual place), metropolitan France (Paris, Lyon, Marseille); the open
 * Atlantic (30, -40) is sea. The suites that test geo itself (test/geo, the approximate
 * position) give their app the prebuilt engine (`realGeo`).
 */
import { createGeoEngine, loadGeoEngine, type GeoEngine } from '../../src/modules/geo/geo-engine.ts';
import { buildLandIndex } from '../../src/modules/geo/land-index.ts';
import { buildPlaceIndex, type IndexedPlace } from '../../src/modules/geo/place-build.ts';
import { foldName } from '../../src/modules/geo/place-names.ts';

type Ring = Array<[longitude: number, latitude: number]>;

/** Closed rings, [longitude, latitude], counter-clockwise. */
export const FIXTURE_LAND: Record<string, Ring> = {
  /** La Réunion, as a box a little inside its coast but for the north, where Saint-Denis lies on it (-20.8789). */
  reunion: [
    [55.22, -21.37],
    [55.83, -21.37],
    [55.83, -20.87],
    [55.22, -20.87],
    [55.22, -21.37],
  ],
  /** Metropolitan France, roughly: from Brest to Strasbourg, from Lille to Perpignan (Marseille's coast left out). */
  metropole: [
    [-4.5, 43.4],
    [7.5, 43.4],
    [7.5, 50.9],
    [-4.5, 50.9],
    [-4.5, 43.4],
  ],
};

const place = (
  id: string,
  name: string,
  region: string | null,
  country: string,
  latitude: number,
  longitude: number,
  population: number,
  kind: IndexedPlace['kind'],
): IndexedPlace => ({
  id,
  name,
  folded: foldName(name),
  otherFolded: null,
  region,
  country,
  latitude,
  longitude,
  population,
  kind,
});

/** By importance, as the prebuilt places are. */
export const FIXTURE_PLACES: IndexedPlace[] = [
  place('2988507', 'Paris', 'Île-de-France', 'FR', 48.85341, 2.3488, 2138551, 'capital'),
  place('2996944', 'Lyon', 'Auvergne-Rhône-Alpes', 'FR', 45.74846, 4.84671, 522969, 'city'),
  place('2995469', 'Marseille', "Provence-Alpes-Côte d'Azur", 'FR', 43.29695, 5.38107, 870731, 'city'),
  place('935264', 'Saint-Denis', null, 'RE', -20.88231, 55.4504, 137195, 'city'),
  place('2980916', 'Saint-Denis', 'Île-de-France', 'FR', 48.93564, 2.35387, 111135, 'city'),
];

/** A fresh small engine (each app its own, as each app has its own context). */
export function geoFixture(): GeoEngine {
  return createGeoEngine(
    buildLandIndex(Object.values(FIXTURE_LAND).map((ring) => ({ rings: [ring] }))),
    buildPlaceIndex(FIXTURE_PLACES),
  );
}

let real: GeoEngine | undefined;

/** The prebuilt engine, opened once per test file (the geo suites share it between their apps). */
export function realGeo(): GeoEngine {
  real ??= loadGeoEngine();
  return real;
}
