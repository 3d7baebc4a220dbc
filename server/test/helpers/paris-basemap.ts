/**
 * A small street map of central Paris as a PMTiles archive, built by the tests (server API tests
 * and the browser journey) instead of shipping one: land, the Seine, a lake, a few roads and
 * places, in the layers and with the properties of the Protomaps basemap schema (`earth`,
 * `water`, `roads`, `places`; `kind`, `name`, `name:fr`), so the Protomaps style draws them.
 * Tiles are cut with geojson-vt and encoded with vt-pbf, as the server's own tiles are.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { GeoJSONVT } from '@maplibre/geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import { type ArchiveTile, writePmtiles } from '../../src/modules/geo/basemap/pmtiles-writer.ts';

type Position = [number, number];
type Properties = Record<string, string | number>;
// Local GeoJSON types: the e2e project, which imports this file, has no GeoJSON typings.
type Geometry =
  | { type: 'Point'; coordinates: Position }
  | { type: 'LineString'; coordinates: Position[] }
  | { type: 'Polygon'; coordinates: Position[][] };
type Feature = { type: 'Feature'; geometry: Geometry; properties: Properties };
type FeatureCollection = { type: 'FeatureCollection'; features: Feature[] };
type GeoJSONInput = ConstructorParameters<typeof GeoJSONVT>[0];

/** [west, south, east, north]: what the archive covers. */
export const PARIS_BOUNDS: [number, number, number, number] = [2.22, 48.81, 2.47, 48.91];
export const PARIS_CENTER: [number, number, number] = [2.3522, 48.8566, 12];
export const PARIS_MIN_ZOOM = 0;
export const PARIS_MAX_ZOOM = 14;

const feature = (geometry: Geometry, properties: Properties): Feature => ({ type: 'Feature', geometry, properties });
const line = (coordinates: Position[], properties: Properties) =>
  feature({ type: 'LineString', coordinates }, properties);
const point = (coordinates: Position, properties: Properties) => feature({ type: 'Point', coordinates }, properties);
const box = ([w, s, e, n]: number[]): Position[][] => [
  [
    [w, s],
    [e, s],
    [e, n],
    [w, n],
    [w, s],
  ],
];

/** A river as a polygon: its course widened by `half` degrees of latitude on each side. */
function riverBand(course: Position[], half: number): Position[][] {
  const north = course.map(([lon, lat]): Position => [lon, lat + half]);
  const south = course.map(([lon, lat]): Position => [lon, lat - half]).reverse();
  return [[...north, ...south, north[0]]];
}

const SEINE: Position[] = [
  [2.22, 48.83],
  [2.255, 48.838],
  [2.28, 48.85],
  [2.295, 48.861],
  [2.32, 48.864],
  [2.34, 48.858],
  [2.36, 48.851],
  [2.38, 48.84],
  [2.41, 48.826],
  [2.47, 48.815],
];

/** Layer name → features, in the Protomaps basemap schema. */
export function parisLayers(): Record<string, FeatureCollection> {
  const collection = (features: Feature[]): FeatureCollection => ({ type: 'FeatureCollection', features });
  return {
    earth: collection([feature({ type: 'Polygon', coordinates: box([2.2, 48.79, 2.49, 48.93]) }, { kind: 'earth' })]),
    water: collection([
      feature(
        { type: 'Polygon', coordinates: riverBand(SEINE, 0.0012) },
        { kind: 'water', name: 'Seine', 'name:fr': 'La Seine' },
      ),
      feature(
        { type: 'Polygon', coordinates: box([2.41, 48.831, 2.419, 48.836]) },
        { kind: 'lake', name: 'Lac Daumesnil' },
      ),
    ]),
    roads: collection([
      line(
        [
          [2.2555, 48.8339],
          [2.2795, 48.8781],
          [2.3216, 48.9003],
          [2.3698, 48.8984],
          [2.4106, 48.8765],
          [2.4139, 48.8341],
          [2.3622, 48.8166],
          [2.2999, 48.8253],
          [2.2555, 48.8339],
        ],
        { kind: 'highway', name: 'Boulevard Périphérique', min_zoom: 6 },
      ),
      line(
        [
          [2.295, 48.8738],
          [2.3215, 48.8656],
        ],
        { kind: 'major_road', name: 'Avenue des Champs-Élysées', min_zoom: 9 },
      ),
      line(
        [
          [2.333, 48.8625],
          [2.362, 48.8551],
        ],
        { kind: 'major_road', name: 'Rue de Rivoli', min_zoom: 9 },
      ),
      line(
        [
          [2.3497, 48.8457],
          [2.3505, 48.8402],
        ],
        { kind: 'minor_road', name: 'Rue Mouffetard', min_zoom: 12 },
      ),
    ]),
    places: collection([
      point([2.3522, 48.8566], {
        kind: 'locality',
        name: 'Paris',
        'name:fr': 'Paris',
        'name:en': 'Paris',
        min_zoom: 2,
        population_rank: 15,
        population: 2_100_000,
      }),
      point([2.2399, 48.8397], {
        kind: 'locality',
        name: 'Boulogne-Billancourt',
        min_zoom: 9,
        population_rank: 11,
        population: 120_000,
      }),
      point([2.359, 48.859], { kind: 'neighbourhood', name: 'Le Marais', min_zoom: 12 }),
    ]),
  };
}

const EXTENT = 4096;

/** The x/y range of the tiles over the bounds at a zoom (Web Mercator, as MapLibre numbers them). */
function tileRange(z: number): { x: [number, number]; y: [number, number] } {
  const n = 2 ** z;
  const x = (lon: number) => Math.min(n - 1, Math.floor(((lon + 180) / 360) * n));
  const y = (lat: number) =>
    Math.min(n - 1, Math.floor(((1 - Math.asinh(Math.tan((lat * Math.PI) / 180)) / Math.PI) / 2) * n));
  const [w, s, e, north] = PARIS_BOUNDS;
  return { x: [x(w), x(e)], y: [y(north), y(s)] };
}

/** Every non-empty tile over the bounds, zoom 0 to 14. */
export function parisTiles(): ArchiveTile[] {
  const indexes = Object.entries(parisLayers()).map(
    ([name, data]) =>
      [
        name,
        new GeoJSONVT(data as GeoJSONInput, {
          maxZoom: PARIS_MAX_ZOOM,
          indexMaxZoom: PARIS_MAX_ZOOM,
          extent: EXTENT,
          buffer: 64,
        }),
      ] as const,
  );
  const tiles: ArchiveTile[] = [];
  for (let z = PARIS_MIN_ZOOM; z <= PARIS_MAX_ZOOM; z++) {
    const range = tileRange(z);
    for (let x = range.x[0]; x <= range.x[1]; x++) {
      for (let y = range.y[0]; y <= range.y[1]; y++) {
        const layers: Parameters<typeof fromGeojsonVt>[0] = {};
        for (const [name, index] of indexes) {
          const tile = index.getTile(z, x, y);
          if (tile && tile.features.length > 0) layers[name] = tile;
        }
        if (Object.keys(layers).length > 0)
          tiles.push({ z, x, y, data: fromGeojsonVt(layers, { version: 2, extent: EXTENT }) });
      }
    }
  }
  return tiles;
}

export function parisArchive(compression: 'gzip' | 'none' = 'gzip'): Buffer {
  return writePmtiles({
    tiles: parisTiles(),
    tileCompression: compression,
    bounds: PARIS_BOUNDS,
    center: PARIS_CENTER,
    metadata: {
      name: 'MoodMap test basemap (Paris)',
      attribution: '© OpenStreetMap',
      vector_layers: ['earth', 'water', 'roads', 'places'].map((id) => ({
        id,
        fields: {},
        minzoom: PARIS_MIN_ZOOM,
        maxzoom: PARIS_MAX_ZOOM,
      })),
    },
  }).archive;
}

/** Writes the archive into `dir` and returns its path. */
export function writeParisArchive(dir: string, compression: 'gzip' | 'none' = 'gzip'): string {
  const file = path.join(dir, `paris-${compression}.pmtiles`);
  writeFileSync(file, parisArchive(compression));
  return file;
}
