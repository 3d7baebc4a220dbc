/**
 * Natural Earth land and borders from world-atlas, repaired for planar use (see land-repair.ts).
 * land-10m feeds the land check; land-50m and countries-50m feed the offline basemap.
 * Everything is computed on first use and kept: the files are static and parsing land-10m
 * costs a few hundred milliseconds.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { feature, mesh } from 'topojson-client';
import { repairPolygons, splitLinesAtAntimeridian, type PolygonRings, type Ring } from './land-repair.ts';

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

/** Every polygon of a topology object, as raw (unrepaired) ring arrays. */
function rawPolygons(topology: Topology, object: TopoObject): PolygonRings[] {
  const geo = feature(topology, object);
  const features = geo.type === 'FeatureCollection' ? geo.features : [geo];
  const polygons: PolygonRings[] = [];
  for (const { geometry } of features) {
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
export const getLandPolygons: (resolution: Resolution) => readonly PolygonRings[] = memo((resolution) => {
  const topology = loadTopology(`land-${resolution}.json`);
  return repairPolygons(rawPolygons(topology, topology.objects.land as TopoObject));
});

/** One Feature per polygon (geojson-vt clips per feature, so many small ones tile faster). */
export const getLandGeoJSON: (resolution: Resolution) => LandGeoJSON = memo((resolution) => ({
  type: 'FeatureCollection',
  features: getLandPolygons(resolution).map((coordinates) => ({
    type: 'Feature',
    properties: {},
    geometry: { type: 'Polygon', coordinates },
  })),
}));

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
