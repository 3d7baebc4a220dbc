/**
 * Rebuilds basemap.pmtiles, the embedded basemap's vector tiles, and the world GeoJSON files
 * (land-50m, borders-50m) from the npm data packages and
 * the repository's own geodata (README.md says which), in one command:
 *
 *   node server/geodata/basemap/build.ts
 *
 * About 20 CPU-seconds and 2 GB of memory. The archive is written beside a temporary name and
 * renamed over the old one: a running server keeps reading the file it opened.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { cpuUsage, memoryUsage } from 'node:process';
import { buildBasemapArchive } from '../lib/basemap/basemap-build.ts';
import { buildWorldGeoJson } from '../lib/basemap/world-geojson-build.ts';
import { BASEMAP_ARCHIVE_FILE } from '../../src/modules/geo/tiles.ts';
import { WORLD_GEOJSON_FILES } from '../../src/modules/geo/world-geojson.ts';

const started = performance.now();
const cpuAtStart = cpuUsage();
let peakRss = 0;
const { archive, stats } = buildBasemapArchive((count) => {
  peakRss = Math.max(peakRss, memoryUsage().rss);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `z${count.zoom}: ${count.tiles} tiles of ${count.cut} cut, ${(count.bytes / 1e6).toFixed(2)} MB of MVT (${seconds} s)`,
  );
});
/** Written beside a temporary name and renamed over the old file (a running server keeps its copy). */
function replaceFile(file: string, bytes: Uint8Array): void {
  writeFileSync(`${file}.tmp`, bytes);
  renameSync(`${file}.tmp`, file);
}
replaceFile(BASEMAP_ARCHIVE_FILE, archive);
const world = buildWorldGeoJson();
replaceFile(WORLD_GEOJSON_FILES.land, gzipSync(world.land, { level: 9 }));
replaceFile(WORLD_GEOJSON_FILES.borders, gzipSync(world.borders, { level: 9 }));
const cpu = cpuUsage(cpuAtStart);
console.log(
  `${BASEMAP_ARCHIVE_FILE}: ${(stats.bytes / 1e6).toFixed(2)} MB, ${stats.addressedTiles} tiles, ${stats.tileEntries} entries, ` +
    `${stats.tileContents} distinct contents, ${stats.leafDirectories} leaf directories; ` +
    `${((performance.now() - started) / 1000).toFixed(1)} s, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} CPU-s, peak RSS ${(peakRss / 1e6).toFixed(0)} MB`,
);
