/**
 * The embedded basemap's archive: every non-empty tile from z0 to GEO_TILE_MAX_ZOOM, cut by
 * tile-cutter.ts and written as PMTiles (server/src/modules/geo/basemap/pmtiles-writer.ts). Run by
 * server/geodata/basemap/build.ts; the tests rebuild the first zooms and compare them with the
 * shipped archive. Build time only: nothing the server runs imports this folder.
 */
import { GEO_TILE_MAX_ZOOM, MAP } from '@moodmap/core';
import { ADMIN_MIN_ZOOM, cutTile, TILE_LAYERS, tileMayHoldData } from './tile-cutter.ts';
import { type ArchiveStats, type ArchiveTile, writePmtiles } from '../../../src/modules/geo/basemap/pmtiles-writer.ts';
import { RIVERS_MIN_ZOOM } from './river-data.ts';

/** What the web's basemap style reads and credits (web/src/features/map/basemap-style.ts). */
export const BASEMAP_ATTRIBUTION = 'Natural Earth, GeoNames, WDB II (GSHHG), © contributeurs OpenStreetMap';

/** The archive's metadata: TileJSON's `vector_layers`, and the kind the web tells apart from a Protomaps archive. */
function metadata(maxZoom: number): Record<string, unknown> {
  const layer = (id: string, fields: Record<string, string>, minzoom = 0) => ({
    id,
    fields,
    minzoom,
    maxzoom: maxZoom,
  });
  return {
    name: 'MoodMap',
    description: 'Fond de carte embarqué de MoodMap',
    attribution: BASEMAP_ATTRIBUTION,
    type: 'baselayer',
    format: 'pbf',
    'moodmap:basemap': 'embedded',
    vector_layers: [
      layer(TILE_LAYERS.land, {}),
      layer(TILE_LAYERS.water, { kind: 'String' }),
      layer(TILE_LAYERS.rivers, { rank: 'Number' }, RIVERS_MIN_ZOOM),
      layer(TILE_LAYERS.admin, {}, ADMIN_MIN_ZOOM),
      layer(TILE_LAYERS.borders, {}),
      layer(TILE_LAYERS.places, {
        name: 'String',
        population: 'Number',
        rank: 'Number',
        kind: 'String',
        minzoom: 'Number',
      }),
    ],
  };
}

export interface ZoomCount {
  zoom: number;
  tiles: number;
  /** MVT bytes, uncompressed. */
  bytes: number;
  /** Tiles cut, empty ones included (open sea, beside a coast). */
  cut: number;
}

/**
 * Every non-empty tile from z0 to `maxZoom`, zoom by zoom: a tile's children are cut only where
 * the tile itself may hold data, so the open ocean is never walked.
 */
export function cutPyramid(maxZoom: number, onZoom: (count: ZoomCount) => void = () => {}): ArchiveTile[] {
  const tiles: ArchiveTile[] = [];
  let level: Array<[number, number]> = [[0, 0]];
  for (let z = 0; z <= maxZoom; z++) {
    const next: Array<[number, number]> = [];
    const count: ZoomCount = { zoom: z, tiles: 0, bytes: 0, cut: level.length };
    for (const [x, y] of level) {
      const data = cutTile(z, x, y);
      if (data) {
        tiles.push({ z, x, y, data });
        count.tiles += 1;
        count.bytes += data.length;
      }
      if (z < maxZoom && tileMayHoldData(z, x, y))
        next.push([2 * x, 2 * y], [2 * x + 1, 2 * y], [2 * x, 2 * y + 1], [2 * x + 1, 2 * y + 1]);
    }
    onZoom(count);
    level = next;
  }
  return tiles;
}

/** The whole archive, z0 to GEO_TILE_MAX_ZOOM. */
export function buildBasemapArchive(onZoom?: (count: ZoomCount) => void): { archive: Buffer; stats: ArchiveStats } {
  const { latitude, longitude, zoom } = MAP.desktopView;
  return writePmtiles({
    tiles: cutPyramid(GEO_TILE_MAX_ZOOM, onZoom),
    tileCompression: 'gzip',
    metadata: metadata(GEO_TILE_MAX_ZOOM),
    bounds: [-180, -85.0511, 180, 85.0511],
    center: [longitude, latitude, Math.floor(zoom)],
  });
}
