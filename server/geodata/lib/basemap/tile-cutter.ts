/**
 * What a tile of the embedded basemap holds, cut at build time into the archive the server
 * serves (basemap-build.ts): the same repaired Natural Earth 50m land and borders that the
 * GeoJSON endpoints serve, lakes and wide rivers (`water`, water-data.ts), river centre lines
 * (`rivers`, river-data.ts), the places to name (`places`, place-tiles.ts), each thinned by zoom
 * so that the first world view stays small, and first-level administrative boundaries (`admin`,
 * admin-data.ts) from zoom ADMIN_MIN_ZOOM.
 *
 * Cut with geojson-vt and encoded with vt-pbf, the libraries MapLibre itself uses for a GeoJSON
 * source, with the options MapLibre derived from the style's old GeoJSON sources (512-px tiles,
 * extent 8192, tolerance 0.3 px): the browser draws the same geometry as before, and beyond
 * GEO_TILE_MAX_ZOOM it overzooms tiles that already hold the data's full detail.
 */
import { GeoJSONVT, type GeoJSONVTFeature, type GeoJSONVTTile } from '@maplibre/geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import { GEO_TILE_MAX_ZOOM } from '@moodmap/core';
import { loadAdminBoundariesGeoJSON } from './admin-data.ts';
import { getBordersGeoJSON, getLandGeoJSON } from '../land-data.ts';
import { PRECISE_LAND_MIN_ZOOM, takePreciseLandGeoJSON } from '../land-precise.ts';
import { hasPlaces, placeFeatures } from './place-tiles.ts';
import { loadRiversGeoJSON, RIVERS_MIN_ZOOM, visibleRivers } from './river-data.ts';
import { loadWaterGeoJSON, visibleWater } from './water-data.ts';

/**
 * Layer names inside each tile, read by the web's basemap style. Neither npm nor the repository
 * has road data, so there is no `roads` layer (a PMTiles archive, MAP_PMTILES, brings them).
 */
export const TILE_LAYERS = {
  land: 'land',
  borders: 'borders',
  water: 'water',
  rivers: 'rivers',
  places: 'places',
  admin: 'admin',
} as const;

/**
 * The style draws `admin` from zoom 4 (its layer's minzoom): lower tiles leave it out, so the
 * world view stays small.
 */
export const ADMIN_MIN_ZOOM = 4;

const EXTENT = 8192;
const TILE_PIXELS = 512;
const pixels = (value: number) => value * (EXTENT / TILE_PIXELS);

const cutOptions = {
  maxZoom: GEO_TILE_MAX_ZOOM,
  extent: EXTENT,
  tolerance: pixels(0.3),
  // Fills are clipped to the tile when drawn; only line joins at a tile's edge need a margin.
  buffer: pixels(32),
  indexMaxZoom: 5,
};

let indexes:
  | {
      land: GeoJSONVT;
      preciseLand: GeoJSONVT;
      borders: GeoJSONVT;
      water: GeoJSONVT;
      rivers: GeoJSONVT;
      admin: GeoJSONVT;
    }
  | undefined;

/** Every source, read and indexed on first use (seconds, ~600 MB: build time only). */
function getIndexes() {
  // structuredClone: geojson-vt must not see the objects the GeoJSON endpoints serialise.
  indexes ??= {
    land: new GeoJSONVT(structuredClone(getLandGeoJSON('50m')) as GeoJSON.GeoJSON, cutOptions),
    // From PRECISE_LAND_MIN_ZOOM: the land the land check decides with (land-precise.ts).
    preciseLand: new GeoJSONVT(takePreciseLandGeoJSON() as GeoJSON.GeoJSON, cutOptions),
    borders: new GeoJSONVT(structuredClone(getBordersGeoJSON()) as GeoJSON.GeoJSON, cutOptions),
    // The three below are read from disk and dropped once indexed: geojson-vt keeps its own copy.
    water: new GeoJSONVT(loadWaterGeoJSON(), cutOptions),
    rivers: new GeoJSONVT(loadRiversGeoJSON(), cutOptions),
    admin: new GeoJSONVT(loadAdminBoundariesGeoJSON(), cutOptions),
  };
  return indexes;
}

/**
 * Whether tile z/x/y or a tile under it may hold anything: some source has features in it
 * (before the zoom's thinning, which deeper tiles relax) or a place lies in it.
 */
export function tileMayHoldData(z: number, x: number, y: number): boolean {
  const all = getIndexes();
  const sources = [all.land, all.preciseLand, all.borders, all.water, all.rivers, all.admin];
  return sources.some((index) => (index.getTile(z, x, y)?.features.length ?? 0) > 0) || hasPlaces(z, x, y);
}

/**
 * A layer made of features of our own (transformed: [x, y] pairs in extent units, which vt-pbf
 * encodes). geojson-vt's tile type intersects them with its untransformed flat arrays, which no
 * point can satisfy, hence the one cast.
 */
function ownLayer(z: number, x: number, y: number, features: GeoJSONVTFeature[]): GeoJSONVTTile {
  return { transformed: true, features: features as GeoJSONVTTile['features'], source: null, x, y, z };
}

/** The tile's MVT bytes, uncompressed, or null when it holds nothing (open sea). */
export function cutTile(z: number, x: number, y: number): Uint8Array | null {
  const { land, preciseLand, borders, water, rivers, admin } = getIndexes();
  const layers: Parameters<typeof fromGeojsonVt>[0] = {};
  const landTile = (z >= PRECISE_LAND_MIN_ZOOM ? preciseLand : land).getTile(z, x, y);
  const bordersTile = borders.getTile(z, x, y);
  const waterTile = water.getTile(z, x, y);
  const waterFeatures = waterTile ? visibleWater(waterTile.features, z) : [];
  const riversTile = z >= RIVERS_MIN_ZOOM ? rivers.getTile(z, x, y) : null;
  const riverFeatures = riversTile ? visibleRivers(riversTile.features, z) : [];
  const places = placeFeatures(z, x, y, EXTENT);
  const adminTile = z >= ADMIN_MIN_ZOOM ? admin.getTile(z, x, y) : null;
  if (landTile && landTile.features.length > 0) layers[TILE_LAYERS.land] = landTile;
  if (waterFeatures.length > 0) layers[TILE_LAYERS.water] = ownLayer(z, x, y, waterFeatures);
  if (riverFeatures.length > 0) layers[TILE_LAYERS.rivers] = ownLayer(z, x, y, riverFeatures);
  if (adminTile && adminTile.features.length > 0) layers[TILE_LAYERS.admin] = adminTile;
  if (bordersTile && bordersTile.features.length > 0) layers[TILE_LAYERS.borders] = bordersTile;
  if (places.length > 0) layers[TILE_LAYERS.places] = ownLayer(z, x, y, places);
  if (Object.keys(layers).length === 0) return null;
  return fromGeojsonVt(layers, { version: 2, extent: EXTENT });
}
