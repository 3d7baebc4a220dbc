/**
 * Builds the place search's index (places-search.ts) from the places: the data packages' at
 * build time (server/geodata/lib/places-data.ts, written to the places file by
 * server/geodata/places/build.ts), a few written by hand in tests.
 */
import {
  COORDINATE_SCALE,
  NAME_END,
  PLACE_KINDS,
  buildRankTree,
  type PlaceIndex,
  type PlaceKind,
} from './places-search.ts';

/** What the index keeps of a place. */
export interface IndexedPlace {
  /** GeoNames id, as text. */
  id: string;
  /** The French name where GeoNames has one, else GeoNames' usual name. */
  name: string;
  /** The name folded for matching (place-names.ts). */
  folded: string;
  /** GeoNames' usual name folded, when the French name replaced it ('bruxelles' → 'brussels'). */
  otherFolded: string | null;
  region: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string;
  latitude: number;
  longitude: number;
  population: number;
  kind: PlaceKind;
}

/** Two ASCII letters in one number, high byte first. */
function countryCode(country: string): number {
  if (!/^[A-Z]{2}$/.test(country)) throw new Error(`place index: country code ${country}`);
  return (country.charCodeAt(0) << 8) | country.charCodeAt(1);
}

function scaled(value: number, what: string): number {
  const units = Math.round(value * COORDINATE_SCALE);
  if (units / COORDINATE_SCALE !== value) throw new Error(`place index: ${what} ${value} has more than 5 decimals`);
  return units;
}

/** The index of these places, kept in their order (most important first). */
export function buildPlaceIndex(places: readonly IndexedPlace[]): PlaceIndex {
  const regionNames: string[] = [];
  const regionNumbers = new Map<string, number>();
  const regions = Uint16Array.from(places, ({ region }) => {
    if (region === null) return 0;
    let n = regionNumbers.get(region);
    if (n === undefined) {
      regionNames.push(region);
      regionNumbers.set(region, (n = regionNames.length));
    }
    return n;
  });
  if (regionNames.length >= 0xffff) throw new Error('place index: too many regions for 16 bits');

  // The folded text: every folded name followed by NAME_END; an entry is a word start in it.
  const texts: string[] = [];
  const entryStarts: number[] = [];
  const entryOwners: number[] = [];
  const entryKeys: string[] = [];
  let length = 0;
  const add = (name: string, owner: number) => {
    texts.push(name, NAME_END);
    // The whole name, then from each word after a space ('saint denis' gives 'denis' too).
    const starts = [0];
    for (let at = name.indexOf(' '); at !== -1; at = name.indexOf(' ', at + 1)) starts.push(at + 1);
    for (const start of starts) {
      entryStarts.push(length + start);
      entryOwners.push(owner);
      entryKeys.push(name.slice(start));
    }
    length += name.length + 1;
  };
  // A place named in French is found by GeoNames' usual name too ('brussels', 'koln').
  places.forEach(({ folded, otherFolded }, i) => {
    if (folded) add(folded, i);
    if (otherFolded) add(otherFolded, i);
  });
  const order = Uint32Array.from(entryKeys.keys()).sort((a, b) => {
    const ka = entryKeys[a],
      kb = entryKeys[b];
    return ka < kb ? -1 : ka > kb ? 1 : entryOwners[a] - entryOwners[b] || a - b;
  });
  const ranked = {
    populations: Uint32Array.from(places, (p) => p.population),
    entryOwners: Uint32Array.from(entryOwners),
    order,
  };

  let nameText = '';
  const nameEnds = Uint32Array.from(places, ({ name }) => (nameText += name).length);
  let regionText = '';
  const regionEnds = Uint32Array.from(regionNames, (name) => (regionText += name).length);

  return {
    ids: Uint32Array.from(places, ({ id }) => {
      const n = Number(id);
      if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw new Error(`place index: id ${id}`);
      return n;
    }),
    latitudes: Int32Array.from(places, (p) => scaled(p.latitude, 'latitude')),
    longitudes: Int32Array.from(places, (p) => scaled(p.longitude, 'longitude')),
    populations: ranked.populations,
    kinds: Uint8Array.from(places, (p) => PLACE_KINDS.indexOf(p.kind)),
    countries: Uint16Array.from(places, (p) => countryCode(p.country)),
    regions,
    nameText,
    nameEnds,
    regionText,
    regionEnds,
    foldedText: texts.join(''),
    entryStarts: Uint32Array.from(entryStarts),
    entryOwners: ranked.entryOwners,
    order,
    tree: buildRankTree(ranked),
  };
}
