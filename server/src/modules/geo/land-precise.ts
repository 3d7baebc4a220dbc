/**
 * The land that the land check decides with and that the basemap draws from PRECISE_LAND_MIN_ZOOM:
 * OSM land generalised to 1 km, plus the Natural Earth 10m islands that generalisation dropped.
 *
 * Why both: the OSM coasts are close to the real shore (beaches and quays fall inside, or within
 * a couple of hundred metres), but the 1 km generalisation deletes islands smaller than about a
 * kilometre — Malé, most atolls. Natural Earth 10m keeps those, drawn a few hundred metres off,
 * so a Natural Earth polygon joins the set when OSM has no land near it at all.
 */
import { loadLandPolygons, loadOsmLandPolygons, toLandGeoJSON, type LandGeoJSON } from './land-data.ts';
import { buildLandIndex, KM_PER_DEGREE, ringKm2, type LandIndex } from './land-index.ts';
import type { PolygonRings } from './land-repair.ts';

/** From this zoom the basemap draws this land instead of Natural Earth 50m (a 1 km error is ~2 px at z6). */
export const PRECISE_LAND_MIN_ZOOM = 6;

/**
 * A Natural Earth polygon counts as an island OSM dropped when its centre is not OSM land and OSM
 * has no coast within this distance of its bounding circle. Kept small so that Malé (dropped by
 * OSM, 2 km from the Hulhumalé coast OSM kept) comes back; an island OSM kept lies within its
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

export interface PreciseLand {
  index: LandIndex;
  /** How many polygons came from Natural Earth. */
  addedIslands: number;
}

function boundingCircle(rings: PolygonRings): { lat: number; lon: number; km: number } {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const [x, y] of rings[0]) {
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
  }
  const lat = (minY + maxY) / 2;
  const lon = (minX + maxX) / 2;
  const halfWidthKm = ((maxX - minX) / 2) * KM_PER_DEGREE * Math.cos((lat * Math.PI) / 180);
  const halfHeightKm = ((maxY - minY) / 2) * KM_PER_DEGREE;
  return { lat, lon, km: Math.hypot(halfWidthKm, halfHeightKm) };
}

let precise: PreciseLand | undefined;

function build(): { land: PreciseLand; polygons: PolygonRings[] } {
  const osm = loadOsmLandPolygons().map((rings) => rings.filter((ring, i) => i === 0 || ringKm2(ring) >= LAKE_HOLE_MIN_KM2));
  const osmIndex = buildLandIndex(osm);
  // Not the memoised 10m set: only the few hundred islands are kept, the rest is garbage.
  const islands = loadLandPolygons('10m').filter((rings) => {
    const { lat, lon, km } = boundingCircle(rings);
    return !osmIndex.contains(lat, lon) && !osmIndex.isNearCoast(lat, lon, km + ISLAND_CLEARANCE_KM);
  });
  const land: PreciseLand = { index: osmIndex, addedIslands: islands.length };
  if (islands.length > 0) {
    const islandIndex = buildLandIndex(islands);
    land.index = {
      stats: { polygons: osm.length + islands.length, edges: osmIndex.stats.edges + islandIndex.stats.edges },
      contains: (lat, lon) => osmIndex.contains(lat, lon) || islandIndex.contains(lat, lon),
      isNearCoast: (lat, lon, km) => osmIndex.isNearCoast(lat, lon, km) || islandIndex.isNearCoast(lat, lon, km),
    };
  }
  return { land, polygons: [...osm, ...islands] };
}

/** Built on first use (~2 s here, most of it parsing and indexing the OSM file) and kept. */
export function getPreciseLand(): PreciseLand {
  precise ??= build().land;
  return precise;
}

/**
 * The same polygons as GeoJSON features, for the basemap's tiles (geojson-vt keeps its own
 * copy). Built afresh and not kept: the tile worker calls it once, in a thread of its own, and
 * the polygons (~100 MB as JS arrays) are garbage once cut.
 */
export function takePreciseLandGeoJSON(): LandGeoJSON {
  return toLandGeoJSON(build().polygons);
}
