/**
 * Rebuilds gshhg.json.gz: what the land takes from GSHHG's full-resolution coast — the islets
 * near places that OSM's 1 km generalisation dropped, and windows around the places it still
 * leaves at sea (see ../lib/gshhg-extract.ts). Needs Debian's gmt-gshhg-full
 * and netcdf-bin:
 *
 *   apt-get install gmt-gshhg-full netcdf-bin
 *   node server/geodata/land/extract-gshhg.ts [/usr/share/gmt-gshhg/binned_GSHHS_f.nc]
 *
 * then `node server/geodata/land/build.ts` to rebuild the land file from it.
 */
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { GSHHG_FILE, readGshhgRings } from '../lib/gshhg.ts';
import { cutCoastWindows, encodeGshhgExtract, GSHHG_EXTRACT_FILE, selectIslands } from '../lib/gshhg-extract.ts';
import { createLandChecker } from '../../src/modules/geo/land-check.ts';
import { buildLandIndex } from '../../src/modules/geo/land-index.ts';
import { loadBaseLand } from '../lib/land-precise.ts';
import { getPlaces } from '../lib/places-data.ts';

const source = process.argv[2] ?? GSHHG_FILE;
const started = performance.now();
const places = getPlaces();
const base = loadBaseLand();
const checkerOf = (polygons: ReturnType<typeof loadBaseLand>) =>
  createLandChecker(buildLandIndex(polygons.map((rings) => ({ rings }))), { cacheSize: 0 });
const rings = readGshhgRings(source);
console.log(`${rings.length} GSHHG rings, ${rings.reduce((n, r) => n + r.xs.length, 0)} points`);
const baseChecker = checkerOf(base);
const islands = selectIslands(rings, (lat, lon) => baseChecker.isOnLand(lat, lon), places);
const withIslands = checkerOf([...base, ...islands]);
const refused = places.filter((p) => !withIslands.isOnLand(p.latitude, p.longitude));
console.log(`${islands.length} islands; ${refused.length} places still refused`);
const windows = cutCoastWindows(rings, refused, (index, lat, lon) =>
  createLandChecker(index, { cacheSize: 0 }).isOnLand(lat, lon),
);
const json = encodeGshhgExtract(
  { islands, windows },
  'GSHHG 2.3.7 full resolution (binned_GSHHS_f.nc), Paul Wessel and Walter H. F. Smith, LGPL-3+',
);
const gz = gzipSync(json, { level: 9 });
writeFileSync(GSHHG_EXTRACT_FILE, gz);
const count = (rs: Array<{ length: number }>) => rs.reduce((n, r) => n + r.length, 0);
const points = count(islands.flat()) + windows.reduce((n, w) => n + count(w.rings), 0);
console.log(
  `${windows.length} windows; ${points} points; ${(gz.length / 1e3).toFixed(0)} kB gzip; ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
