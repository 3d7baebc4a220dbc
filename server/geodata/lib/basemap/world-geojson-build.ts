/**
 * The world GeoJSON files' contents, from the repaired Natural Earth 50m land and borders
 * (land-data.ts): build time only, written by server/geodata/basemap/build.ts.
 */
import { getBordersGeoJSON, getLandGeoJSON } from '../land-data.ts';

export function buildWorldGeoJson(): { land: Buffer; borders: Buffer } {
  return {
    land: Buffer.from(JSON.stringify(getLandGeoJSON('50m'))),
    borders: Buffer.from(JSON.stringify(getBordersGeoJSON())),
  };
}
