/**
 * Place search (issue 19): a prefix of any word of a place's name, accents, case and
 * punctuation ignored, best first: exact names, then the most populated.
 *
 * The index is built once: every word start of every folded name ('saint denis' gives
 * 'saint denis' and 'denis') in one sorted array, so the places matching a query are one
 * contiguous range found by two binary searches, and a segment tree over the array gives the
 * most populated of any range, so even 's' (30 000 keys) reads a few dozen nodes. A query
 * answers in tens of microseconds; building costs a few hundred milliseconds, paid by
 * prepareGeoAssets before the server listens.
 */
import type { PlaceDto } from '@moodmap/core';
import { getPlaces, type Place } from './places-data.ts';
import { countryNameFr, foldName } from './place-names.ts';

interface PlaceIndex {
  /** Folded name suffixes starting at a word, sorted (code-unit order). */
  keys: string[];
  /** The place of each key (index into places, which are sorted by importance). */
  owners: Uint32Array;
  /**
   * A segment tree over the keys: node i holds the key position of the most populated place
   * below it, so the best of any range is found in O(log n) and the best few by splitting ranges.
   */
  tree: Int32Array;
  /** Leaves start here (a power of two). */
  leaves: number;
  /** Places whose whole folded name is the key, most populated first. */
  exact: Map<string, number[]>;
  places: readonly Place[];
}

let index: PlaceIndex | undefined;

function buildIndex(): PlaceIndex {
  const places = getPlaces();
  const entries: Array<[string, number]> = [];
  const exact = new Map<string, number[]>();
  const add = (name: string, i: number) => {
    entries.push([name, i]);
    for (let at = name.indexOf(' '); at !== -1; at = name.indexOf(' ', at + 1)) entries.push([name.slice(at + 1), i]);
    const same = exact.get(name);
    if (same) same.push(i);
    else exact.set(name, [i]);
  };
  // A place named in French is found by GeoNames' usual name too ('brussels', 'koln').
  places.forEach(({ folded, otherFolded }, i) => {
    if (folded) add(folded, i);
    if (otherFolded) add(otherFolded, i);
  });
  for (const same of exact.values()) same.sort((a, b) => places[b].population - places[a].population || a - b);
  entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
  const owners = Uint32Array.from(entries, (e) => e[1]);
  let leaves = 1;
  while (leaves < owners.length) leaves *= 2;
  const tree = new Int32Array(2 * leaves).fill(-1);
  for (let k = 0; k < owners.length; k++) tree[leaves + k] = k;
  const better = (a: number, b: number) => (b < 0 ? a : a < 0 ? b : beats(places, owners, a, b) ? a : b);
  for (let node = leaves - 1; node > 0; node--) tree[node] = better(tree[2 * node], tree[2 * node + 1]);
  return { keys: entries.map((e) => e[0]), owners, tree, leaves, exact, places };
}

/** Key position a ranks before b: its place is more populated, or as populated and more important. */
function beats(places: readonly Place[], owners: Uint32Array, a: number, b: number): boolean {
  const pa = places[owners[a]].population;
  const pb = places[owners[b]].population;
  return pa !== pb ? pa > pb : owners[a] < owners[b];
}

/** Position of the best key in [from, to), or -1 when the range is empty. */
function bestIn({ tree, leaves, places, owners }: PlaceIndex, from: number, to: number): number {
  let best = -1;
  const take = (k: number) => {
    if (k >= 0 && (best < 0 || beats(places, owners, k, best))) best = k;
  };
  for (let lo = from + leaves, hi = to + leaves; lo < hi; lo >>= 1, hi >>= 1) {
    if (lo & 1) take(tree[lo++]);
    if (hi & 1) take(tree[--hi]);
  }
  return best;
}

/** Builds the index now (with the places), so that no request pays it. */
export function preparePlaceSearch(): void {
  index ??= buildIndex();
}

/** First position whose key is ≥ value. */
function lowerBound(keys: readonly string[], value: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The zoom the map flies to for a place: a capital or a metropolis shows whole, a village close. */
export function placeZoom(place: Pick<Place, 'population' | 'kind'>): number {
  if (place.kind === 'capital' || place.population >= 1_000_000) return 10;
  if (place.population >= 100_000) return 11;
  if (place.population >= 10_000) return 12;
  return 13;
}

export function toPlaceDto(place: Place): PlaceDto {
  return {
    id: place.id,
    name: place.name,
    region: place.region,
    country: place.country,
    countryName: countryNameFr(place.country),
    latitude: place.latitude,
    longitude: place.longitude,
    population: place.population,
    zoom: placeZoom(place),
  };
}

/** Up to `limit` places whose name has a word starting with `query`; [] when the query folds to nothing. */
export function searchPlaces(query: string, limit: number): PlaceDto[] {
  index ??= buildIndex();
  const q = foldName(query);
  if (!q) return [];
  // Exact names first (most populated first), then the rest by population.
  const chosen = (index.exact.get(q) ?? []).slice(0, limit);
  // Every key with the prefix q sorts between q and q followed by the highest code unit.
  const ranges: Array<[number, number, number]> = [];
  const push = (from: number, to: number) => {
    const best = bestIn(index as PlaceIndex, from, to);
    if (best >= 0) ranges.push([from, to, best]);
  };
  push(lowerBound(index.keys, q), lowerBound(index.keys, `${q}\uffff`));
  while (chosen.length < limit && ranges.length > 0) {
    // The best of the open ranges: a handful of them at most, so a scan beats a heap.
    let top = 0;
    for (let r = 1; r < ranges.length; r++) if (beats(index.places, index.owners, ranges[r][2], ranges[top][2])) top = r;
    const [from, to, best] = ranges[top];
    ranges.splice(top, 1);
    const owner = index.owners[best];
    if (!chosen.includes(owner)) chosen.push(owner);
    push(from, best);
    push(best + 1, to);
  }
  return chosen.map((i) => toPlaceDto((index as PlaceIndex).places[i]));
}
