/** How place names are compared and which country names are shown: shared by the place data and its search. */

/**
 * A name or query folded for matching: accents dropped (NFD, then the combining marks removed),
 * lower case, ligatures spelt out, and every run of other characters (hyphen, apostrophe,
 * space, dot) one space. 'Saint-Denis', 'SAINT DENIS' and 'saint-denis' all fold to
 * 'saint denis'; 'Besançon' to 'besancon'.
 */
export function foldName(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/œ/g, 'oe')
    .replace(/æ/g, 'ae')
    .replace(/ß/g, 'ss')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const frenchRegions = new Intl.DisplayNames(['fr'], { type: 'region', fallback: 'code' });
const countryNames = new Map<string, string>();

/** The country's French name ('RE' → 'La Réunion'); the code itself when ICU has no name for it. */
export function countryNameFr(code: string): string {
  let name = countryNames.get(code);
  if (name === undefined) {
    try {
      name = frenchRegions.of(code) ?? code;
    } catch {
      name = code;
    }
    countryNames.set(code, name);
  }
  return name;
}
