/**
 * Place search: a prefix of any word of a place's name, accents, case and
 * punctuation ignored, best first: exact names, then the most populated.
 *
 * The index comes ready from the places file (place-build.ts writes it, place-file.ts opens it):
 * every word start of every folded name ('saint denis' gives 'saint denis' and 'denis') as a
 * position in one text of folded names, sorted, so the places matching a query are one
 * contiguous range found by two binary searches; and a segment tree over those keys gives the
 * most populated of any range, so even 's' (30 000 keys) reads a few dozen nodes. A query
 * answers in tens of microseconds.
 */
import type { PlaceDto } from '@moodmap/core';
import { countryNameFr, foldName } from './place-names.ts';

export type PlaceKind = 'capital' | 'city' | 'town' | 'village';
export const PLACE_KINDS: readonly PlaceKind[] = ['capital', 'city', 'town', 'village'];

/** End of every folded name in the folded text: keys stop there. */
export const NAME_END = '\u0000';

/** The places and their search index, as the places file holds them (one entry per place, by importance). */
export interface PlaceIndex {
  ids: Uint32Array;
  /** Coordinates in 1e-5 degrees (GeoNames' own precision: exact). */
  latitudes: Int32Array;
  longitudes: Int32Array;
  populations: Uint32Array;
  /** Index into PLACE_KINDS. */
  kinds: Uint8Array;
  /** ISO 3166-1 alpha-2, its two letters' codes in one number (high byte first). */
  countries: Uint16Array;
  /** 1 + index into regionNames, 0 for no region shown. */
  regions: Uint16Array;
  /** Every place's name back to back; name i ends at nameEnds[i] (UTF-16 code units). */
  nameText: string;
  nameEnds: Uint32Array;
  /** The regions' names, the same way. */
  regionText: string;
  regionEnds: Uint32Array;
  /** Every folded name (and GeoNames' usual name folded, where the French one replaced it), each ended by NAME_END. */
  foldedText: string;
  /** The word starts of the folded names, in text order: where each starts in foldedText, and its place. */
  entryStarts: Uint32Array;
  entryOwners: Uint32Array;
  /** The keys: entries sorted by their text (from their start to NAME_END), then by place. */
  order: Uint32Array;
  /** Segment tree over the keys: node i holds the key position of the most populated place below it. */
  tree: Int32Array;
}

/** Where key k starts in the folded text, and its place. */
const keyStart = (index: PlaceIndex, k: number) => index.entryStarts[index.order[k]];
const keyOwner = (index: PlaceIndex, k: number) => index.entryOwners[index.order[k]];

export const COORDINATE_SCALE = 1e5;

/** Compares the key at `position` with `query`, code unit by code unit (JavaScript's string order). */
function compareKey(text: string, position: number, query: string): number {
  for (let i = 0; ; i++) {
    const a = text.charCodeAt(position + i);
    const keyEnded = a === 0;
    if (i === query.length) return keyEnded ? 0 : 1;
    if (keyEnded) return -1;
    const diff = a - query.charCodeAt(i);
    if (diff !== 0) return diff;
  }
}

/** First key ≥ value. */
function lowerBound(index: PlaceIndex, value: string): number {
  let lo = 0;
  let hi = index.order.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKey(index.foldedText, keyStart(index, mid), value) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Key a ranks before key b: its place is more populated, or as populated and more important. */
function beats(index: Pick<PlaceIndex, 'populations' | 'entryOwners' | 'order'>, a: number, b: number): boolean {
  const oa = index.entryOwners[index.order[a]];
  const ob = index.entryOwners[index.order[b]];
  const pa = index.populations[oa];
  const pb = index.populations[ob];
  return pa !== pb ? pa > pb : oa < ob;
}

/**
 * The segment tree over the keys (the leaves start at a power of two): linear in the keys, so
 * built when the index is opened (a few milliseconds) rather than stored.
 */
export function buildRankTree(index: Pick<PlaceIndex, 'populations' | 'entryOwners' | 'order'>): Int32Array {
  let leaves = 1;
  while (leaves < index.order.length) leaves *= 2;
  const tree = new Int32Array(2 * leaves).fill(-1);
  for (let k = 0; k < index.order.length; k++) tree[leaves + k] = k;
  const better = (a: number, b: number) => (b < 0 ? a : a < 0 ? b : beats(index, a, b) ? a : b);
  for (let node = leaves - 1; node > 0; node--) tree[node] = better(tree[2 * node], tree[2 * node + 1]);
  return tree;
}

/** Position of the best key in [from, to), or -1 when the range is empty. */
function bestIn(index: PlaceIndex, from: number, to: number): number {
  const { tree } = index;
  const leaves = tree.length / 2;
  let best = -1;
  const take = (k: number) => {
    if (k >= 0 && (best < 0 || beats(index, k, best))) best = k;
  };
  for (let lo = from + leaves, hi = to + leaves; lo < hi; lo >>= 1, hi >>= 1) {
    if (lo & 1) take(tree[lo++]);
    if (hi & 1) take(tree[--hi]);
  }
  return best;
}

/** The zoom the map flies to for a place: a capital or a metropolis shows whole, a village close. */
export function placeZoom(population: number, kind: PlaceKind): number {
  if (kind === 'capital' || population >= 1_000_000) return 10;
  if (population >= 100_000) return 11;
  if (population >= 10_000) return 12;
  return 13;
}

/** String i of strings stored back to back. */
const stringAt = (text: string, ends: Uint32Array, i: number) => text.slice(i === 0 ? 0 : ends[i - 1], ends[i]);

function toPlaceDto(index: PlaceIndex, i: number): PlaceDto {
  const country = String.fromCharCode(index.countries[i] >> 8, index.countries[i] & 0xff);
  const region = index.regions[i];
  const population = index.populations[i];
  return {
    id: String(index.ids[i]),
    name: stringAt(index.nameText, index.nameEnds, i),
    region: region === 0 ? null : stringAt(index.regionText, index.regionEnds, region - 1),
    country,
    countryName: countryNameFr(country),
    latitude: index.latitudes[i] / COORDINATE_SCALE,
    longitude: index.longitudes[i] / COORDINATE_SCALE,
    population,
    zoom: placeZoom(population, PLACE_KINDS[index.kinds[i]]),
  };
}

/** Places whose whole name (French or usual) folds to q, most populated first. */
function exactMatches(index: PlaceIndex, q: string, from: number): number[] {
  const { foldedText, populations } = index;
  const found: number[] = [];
  for (let k = from; k < index.order.length && compareKey(foldedText, keyStart(index, k), q) === 0; k++) {
    const start = keyStart(index, k);
    if (start === 0 || foldedText.charCodeAt(start - 1) === 0) found.push(keyOwner(index, k));
  }
  return found.sort((a, b) => populations[b] - populations[a] || a - b);
}

export interface PlaceSearch {
  /** Up to `limit` places whose name has a word starting with `query`; [] when the query folds to nothing. */
  search(query: string, limit: number): PlaceDto[];
  readonly count: number;
}

export function createPlaceSearch(index: PlaceIndex): PlaceSearch {
  return {
    count: index.ids.length,
    search(query, limit) {
      const q = foldName(query);
      if (!q) return [];
      const from = lowerBound(index, q);
      // Exact names first (most populated first), then the rest by population.
      const chosen = exactMatches(index, q, from).slice(0, limit);
      // Every key with the prefix q sorts between q and q followed by the highest code unit.
      const ranges: Array<[number, number, number]> = [];
      const push = (start: number, end: number) => {
        const best = bestIn(index, start, end);
        if (best >= 0) ranges.push([start, end, best]);
      };
      push(from, lowerBound(index, `${q}\uffff`));
      while (chosen.length < limit && ranges.length > 0) {
        // The best of the open ranges: a handful of them at most, so a scan beats a heap.
        let top = 0;
        for (let r = 1; r < ranges.length; r++) if (beats(index, ranges[r][2], ranges[top][2])) top = r;
        const [start, end, best] = ranges[top];
        ranges.splice(top, 1);
        const owner = keyOwner(index, best);
        if (!chosen.includes(owner)) chosen.push(owner);
        push(start, best);
        push(best + 1, end);
      }
      return chosen.map((i) => toPlaceDto(index, i));
    },
  };
}
