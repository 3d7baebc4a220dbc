/**
 * Builds the place search's index (places-search.ts) from the places (places-data.ts at build
 * time, a few written by hand in tests): what server/geodata/places/build.ts writes to the
 * places file.
 */
import { encodePlaceIndex } from './place-file.ts';
import { getPlaces, type Place } from './places-data.ts';
import { COORDINATE_SCALE, NAME_END, PLACE_KINDS, buildRankTree, type PlaceIndex } from './places-search.ts';

/** What the index keeps of a place (places-data.ts's Place has more: rank, min zoom). */
export type IndexedPlace = Omit<Place, 'rank' | 'minZoom'>;

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
    const ka = entryKeys[a], kb = entryKeys[b];
    return ka < kb ? -1 : ka > kb ? 1 : entryOwners[a] - entryOwners[b] || a - b;
  });
  const ranked = { populations: Uint32Array.from(places, (p) => p.population), entryOwners: Uint32Array.from(entryOwners), order };

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

/** The places file's uncompressed bytes, from the npm packages and the French names. */
export function buildPlaceFileBytes(): { bytes: Uint8Array; places: number } {
  const places = getPlaces();
  return { bytes: encodePlaceIndex(buildPlaceIndex(places)), places: places.length };
}
