/**
 * Search matching (docs/product.md, Map): accent- and case-insensitive. The server folds both the
 * stored text (in SQL: lower() then translate() over SEARCH_FOLD_FROM/TO, then the ligatures)
 * and the query (here, the same steps in the same order), so both engines and the browser agree
 * without the unaccent extension, which PGlite lacks.
 */
import { MOOD_INFO, MOODS, isMood, type Mood } from './moods.ts';

// Each group: the characters folded to one base letter. Upper case is listed too, so the result
// does not depend on what lower() does with non-ASCII letters under the database's locale.
const GROUPS: ReadonlyArray<readonly [string, string]> = [
  ['a', 'àáâãäåāăąÀÁÂÃÄÅĀĂĄ'],
  ['c', 'çćĉċčÇĆĈĊČ'],
  ['d', 'ďđĎĐ'],
  ['e', 'èéêëēĕėęěÈÉÊËĒĔĖĘĚ'],
  ['g', 'ĝğġģĜĞĠĢ'],
  ['h', 'ĥħĤĦ'],
  ['i', 'ìíîïĩīĭįıÌÍÎÏĨĪĬĮİ'],
  ['j', 'ĵĴ'],
  ['k', 'ķĶ'],
  ['l', 'ĺļľŀłĹĻĽĿŁ'],
  ['n', 'ñńņňÑŃŅŇ'],
  ['o', 'òóôõöøōŏőÒÓÔÕÖØŌŎŐ'],
  ['r', 'ŕŗřŔŖŘ'],
  ['s', 'śŝşšŚŜŞŠ'],
  ['t', 'ţťŧŢŤŦ'],
  ['u', 'ùúûüũūŭůűųÙÚÛÜŨŪŬŮŰŲ'],
  ['w', 'ŵŴ'],
  ['y', 'ýÿŷÝŸŶ'],
  ['z', 'źżžŹŻŽ'],
  ['œ', 'Œ'],
  ['æ', 'Æ'],
  ["'", '’‘ʼ'],
  [' ', '\u00a0\u202f'],
];

/** Combining accents (text typed in decomposed form): translate() drops them. */
const COMBINING = Array.from({ length: 0x70 }, (_, i) => String.fromCharCode(0x300 + i)).join('');

/** translate()'s arguments: each character of FROM becomes the one at the same place in TO, or is removed past TO's end. */
export const SEARCH_FOLD_FROM = GROUPS.map(([, from]) => from).join('') + COMBINING;
export const SEARCH_FOLD_TO = GROUPS.map(([to, from]) => to.repeat(Array.from(from).length)).join('');

/** Replaced after translate(): ligatures read as their two letters ("coeur" finds "cœur"). */
export const SEARCH_FOLD_LIGATURES: ReadonlyArray<readonly [string, string]> = [
  ['œ', 'oe'],
  ['æ', 'ae'],
];

const FOLD_MAP = new Map<string, string>();
{
  const from = Array.from(SEARCH_FOLD_FROM);
  const to = Array.from(SEARCH_FOLD_TO);
  from.forEach((char, i) => FOLD_MAP.set(char, to[i] ?? ''));
}

/** The folded form of a text, as the SQL side computes it. */
export function foldForSearch(text: string): string {
  let folded = Array.from(text.toLowerCase(), (char) => FOLD_MAP.get(char) ?? char).join('');
  for (const [from, to] of SEARCH_FOLD_LIGATURES) folded = folded.split(from).join(to);
  return folded;
}

/**
 * The moods of a `moods` parameter ("happy,love" or repeated): unknown names are ignored and
 * nothing usable means all five (the filter is never empty).
 */
export function parseMoodSelection(value: unknown): Mood[] {
  const parts = (Array.isArray(value) ? value : [value])
    .filter((v): v is string => typeof v === 'string')
    .flatMap((v) => v.split(','))
    .map((v) => v.trim());
  const selected = MOODS.filter((m) => parts.includes(m));
  return selected.length > 0 ? selected : [...MOODS];
}

/** The selected moods whose label (or emoji) the query matches: 'fête' finds every party post. */
export function moodsMatchingQuery(query: string, moods: readonly Mood[]): Mood[] {
  const folded = foldForSearch(query.trim());
  if (!folded) return [];
  return moods
    .filter(isMood)
    .filter((m) => foldForSearch(MOOD_INFO[m].label).includes(folded) || MOOD_INFO[m].emoji === query.trim());
}
