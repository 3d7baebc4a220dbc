/**
 * Land and borders, repaired for planar use (see land-repair.ts):
 * - OpenStreetMap land (@geo-maps/earth-lands-1km, ODbL) feeds the land check and the basemap's
 *   land from zoom 6 (land-precise.ts): its coasts are within a few hundred metres of the real
 *   shore, where Natural Earth's are kilometres off.
 * - Natural Earth (world-atlas): land-50m and countries-50m for the basemap's low zooms and
 *   borders, land-10m for the islets the OSM generalisation drops (land-precise.ts).
 * Build time only: the land file (server/geodata/land/build.ts indexes the precise land), the
 * basemap's tiles and its world GeoJSON files read them here. Everything is computed on first
 * use and kept: the files are static and parsing them costs a few hundred
 * milliseconds.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { feature, mesh } from 'topojson-client';
import { countJumps, repairPolygons, splitLinesAtAntimeridian, type PolygonRings, type Ring } from './land-repair.ts';

export type Resolution = '50m' | '10m';
export type { PolygonRings, Position, Ring } from './land-repair.ts';

type Topology = Parameters<typeof mesh>[0];
type TopoObject = NonNullable<Parameters<typeof mesh>[1]>;

export interface PolygonFeature {
  type: 'Feature';
  properties: Record<string, never>;
  geometry: { type: 'Polygon'; coordinates: PolygonRings };
}
export interface LandGeoJSON {
  type: 'FeatureCollection';
  features: PolygonFeature[];
}
export interface BordersGeoJSON {
  type: 'FeatureCollection';
  features: [
    { type: 'Feature'; properties: Record<string, never>; geometry: { type: 'MultiLineString'; coordinates: Ring[] } },
  ];
}

const require = createRequire(import.meta.url);

function loadTopology(file: string): Topology {
  return JSON.parse(readFileSync(require.resolve(`world-atlas/${file}`), 'utf8')) as Topology;
}

/** Every polygon of a topology object (of feature `id` only, when given), as raw ring arrays. */
function rawPolygons(topology: Topology, object: TopoObject, id?: string): PolygonRings[] {
  const geo = feature(topology, object);
  const features = geo.type === 'FeatureCollection' ? geo.features : [geo];
  const polygons: PolygonRings[] = [];
  for (const { id: featureId, geometry } of features) {
    if (id !== undefined && featureId !== id) continue;
    if (geometry?.type === 'Polygon') polygons.push(geometry.coordinates as PolygonRings);
    else if (geometry?.type === 'MultiPolygon') polygons.push(...(geometry.coordinates as PolygonRings[]));
  }
  return polygons;
}

function memo<K, V>(compute: (key: K) => V): (key: K) => V {
  const values = new Map<K, V>();
  return (key) => {
    if (!values.has(key)) values.set(key, compute(key));
    return values.get(key) as V;
  };
}

/**
 * Repaired land polygons: outer ring counter-clockwise first, holes after; longitudes go past
 * ±180 (at most by the width of the crossing landmass) only for rings crossing the antimeridian.
 */
export function loadLandPolygons(resolution: Resolution): PolygonRings[] {
  const topology = loadTopology(`land-${resolution}.json`);
  return repairPolygons(rawPolygons(topology, topology.objects.land as TopoObject));
}

/** One country as Natural Earth 50m draws it (ISO 3166 numeric id, '250' for France), unrepaired. */
export function loadCountryPolygons(id: string): PolygonRings[] {
  const topology = loadTopology('countries-50m.json');
  return rawPolygons(topology, topology.objects.countries as TopoObject, id);
}

/** loadLandPolygons, kept for the process (the basemap's 50m; the former 10m land check). */
export const getLandPolygons: (resolution: Resolution) => readonly PolygonRings[] = memo(loadLandPolygons);

/** One Feature per polygon (geojson-vt clips per feature, so many small ones tile faster). */
export const getLandGeoJSON: (resolution: Resolution) => LandGeoJSON = memo((resolution) =>
  toLandGeoJSON(getLandPolygons(resolution)),
);

/** A GeoJSON geometry as @geo-maps files hold them (one GeometryCollection of MultiPolygons). */
interface RawGeometry {
  type: string;
  coordinates?: unknown;
  geometries?: RawGeometry[];
}

function collectPolygons(geometry: RawGeometry, into: PolygonRings[]): void {
  if (geometry.type === 'Polygon') into.push(geometry.coordinates as PolygonRings);
  else if (geometry.type === 'MultiPolygon') into.push(...(geometry.coordinates as PolygonRings[]));
  else for (const child of geometry.geometries ?? []) collectPolygons(child, into);
}

/**
 * OSM land polygons generalised to 1 km (coordinates at 0.001°), lakes and wide rivers as holes.
 * 19 600 polygons, 1.2 M points, 21 MB of JSON (~0.6 s to parse). Its Antarctica stops at the
 * Web Mercator limit (85.05°S) with one edge jumping from +180 to -180: the repair closes it to
 * the pole like Natural Earth's. Not kept: land-precise.ts keeps what it needs.
 */
export function loadOsmLandPolygons(): PolygonRings[] {
  const polygons: PolygonRings[] = [];
  const file = require.resolve('@geo-maps/earth-lands-1km/map.geo.json');
  collectPolygons(JSON.parse(readFileSync(file, 'utf8')) as RawGeometry, polygons);
  // Everything else is planar already (consistent winding, no stitching), so only the polar
  // ring is repaired: re-creating 1.2 M points would double the load's time and memory.
  return polygons.map((rings) => (countJumps(rings[0]) > 0 ? repairPolygons([rings])[0] : rings));
}

/** One Feature per polygon, as getLandGeoJSON. */
export function toLandGeoJSON(polygons: readonly PolygonRings[]): LandGeoJSON {
  return {
    type: 'FeatureCollection',
    features: polygons.map((coordinates) => ({
      type: 'Feature',
      properties: {},
      geometry: { type: 'Polygon', coordinates },
    })),
  };
}

let borders: BordersGeoJSON | undefined;

/** Land borders between two different countries (no coastlines), never drawn across the world. */
export function getBordersGeoJSON(): BordersGeoJSON {
  if (!borders) {
    const topology = loadTopology('countries-50m.json');
    const lines = mesh(topology, topology.objects.countries as TopoObject, (a, b) => a !== b);
    borders = {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: {},
          geometry: { type: 'MultiLineString', coordinates: splitLinesAtAntimeridian(lines.coordinates as Ring[]) },
        },
      ],
    };
  }
  return borders;
}
