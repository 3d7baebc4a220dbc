/**
 * The land that the land check decides with and that the basemap draws from PRECISE_LAND_MIN_ZOOM
 * (build time: server/geodata/land/build.ts indexes it; the basemap's build cuts it into tiles):
 * - OSM land generalised to 1 km, close to the real shore (beaches and quays fall inside, or
 *   within a couple of hundred metres);
 * - the Natural Earth 10m islands that generalisation dropped (it deletes islands smaller than
 *   about a kilometre: Clipperton, most atolls);
 * - from GSHHG's full-resolution coast (gshhg-extract.ts), the islets near places that
 *   generalisation dropped too (Mont-Saint-Michel), and windows around the places it still cuts
 *   off (the centre of Ajaccio on its peninsula), which the check reads but the map does not draw.
 */
import { loadLandPolygons, loadOsmLandPolygons, toLandGeoJSON, type LandGeoJSON } from './land-data.ts';
import {
  buildLandIndex,
  KM_PER_DEGREE,
  ringKm2,
  type Box,
  type LandPolygon,
} from '../../src/modules/geo/land-index.ts';
import type { PolygonRings } from './land-repair.ts';
import { readGshhgExtract, windowPolygon, type GshhgExtract } from './gshhg-extract.ts';

/** From this zoom the basemap draws this land instead of Natural Earth 50m (a 1 km error is ~2 px at z6). */
export const PRECISE_LAND_MIN_ZOOM = 6;

/**
 * A Natural Earth polygon counts as an island OSM dropped when its centre is not OSM land and OSM
 * has no coast within this distance of its bounding circle. An island OSM kept lies within its
 * Natural Earth twin's circle, so it is never added twice.
 */
const ISLAND_CLEARANCE_KM = 0.5;

/**
 * Lakes smaller than this are not holes in the land: generalised to 1 km they are triangles a few
 * kilometres wide, drawn as sea in the middle of a city (Lyon's) and refusing posts on their
 * shores. The basemap's water layer draws the lakes worth drawing; the big ones (Geneva,
 * Constance, Ladoga…) stay holes, so a post in their middle is still refused.
 */
const LAKE_HOLE_MIN_KM2 = 100;

/** The box of a polygon's outer ring. */
function outerBox(rings: PolygonRings): Box {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (const [x, y] of rings[0]) {
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
  }
  return [minX, minY, maxX, maxY];
}

function boundingCircle(rings: PolygonRings): { lat: number; lon: number; km: number } {
  const [minX, minY, maxX, maxY] = outerBox(rings);
  const lat = (minY + maxY) / 2;
  const lon = (minX + maxX) / 2;
  const halfWidthKm = ((maxX - minX) / 2) * KM_PER_DEGREE * Math.cos((lat * Math.PI) / 180);
  const halfHeightKm = ((maxY - minY) / 2) * KM_PER_DEGREE;
  return { lat, lon, km: Math.hypot(halfWidthKm, halfHeightKm) };
}

/** OSM land (small lakes filled) and the Natural Earth islands it dropped: the land before the windows. */
export function loadBaseLand(): PolygonRings[] {
  const osm = loadOsmLandPolygons().map((rings) =>
    rings.filter((ring, i) => i === 0 || ringKm2(ring) >= LAKE_HOLE_MIN_KM2),
  );
  const osmIndex = buildLandIndex(osm.map((rings) => ({ rings })));
  const islands = loadLandPolygons('10m').filter((rings) => {
    const { lat, lon, km } = boundingCircle(rings);
    return !osmIndex.contains(lat, lon) && !osmIndex.isNearLand(lat, lon, km + ISLAND_CLEARANCE_KM);
  });
  return [...osm, ...islands];
}

/** Polygons this small (degrees, both sides) are indexed in groups, one per cell of this size. */
const GROUP_CELL_DEGREES = 1;

/**
 * Small polygons grouped by the cell of their box's centre: one even-odd polygon per cell holds
 * them all (they never overlap, so even-odd over the group is their union). The index then
 * keeps a few thousand polygon boxes instead of forty thousand islets', and a ray still runs
 * at most a couple of degrees. Bigger polygons stay alone.
 */
export function groupByCell(polygons: readonly PolygonRings[]): LandPolygon[] {
  const alone: LandPolygon[] = [];
  const cells = new Map<string, PolygonRings>();
  for (const rings of polygons) {
    const [minX, minY, maxX, maxY] = outerBox(rings);
    if (maxX - minX > GROUP_CELL_DEGREES || maxY - minY > GROUP_CELL_DEGREES) {
      alone.push({ rings });
      continue;
    }
    const key = `${Math.floor((minX + maxX) / 2 / GROUP_CELL_DEGREES)}:${Math.floor((minY + maxY) / 2 / GROUP_CELL_DEGREES)}`;
    const group = cells.get(key);
    if (group) group.push(...rings);
    else cells.set(key, [...rings]);
  }
  return [...alone, ...Array.from(cells.values(), (rings) => ({ rings }))];
}

export interface PreciseLand {
  /** What the land index holds: the base land's polygons, the islands, then one even-odd polygon per window. */
  polygons: LandPolygon[];
  /**
   * What the basemap draws: the base land and the islands, as plain polygons (outer ring, holes).
   * Not the windows: cut out of a coast drawn around them, their sides would show as lines
   * across the land (the style strokes the land's outlines as the coastline). Inside them the
   * map keeps the OSM coast, and the check accepts up to GSHHG's, at most about a kilometre
   * further out, around some 400 places.
   */
  drawn: PolygonRings[];
}

export function buildPreciseLand(
  base: readonly PolygonRings[] = loadBaseLand(),
  { islands, windows }: GshhgExtract = readGshhgExtract(),
): PreciseLand {
  return {
    // Each source grouped apart: OSM's polygons and GSHHG's islands may overlap one another.
    polygons: [...groupByCell(base), ...groupByCell(islands), ...windows.map(windowPolygon)],
    drawn: [...base, ...islands],
  };
}

/**
 * The same polygons as GeoJSON features, for the basemap's tiles (geojson-vt keeps its own
 * copy). Built afresh and not kept: the polygons (~100 MB as JS arrays) are garbage once cut.
 */
export function takePreciseLandGeoJSON(): LandGeoJSON {
  return toLandGeoJSON(buildPreciseLand().drawn);
}
