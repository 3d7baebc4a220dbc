/**
 * The map's feed (docs/architecture.md, The map's feed):
 * - `viewport`: the live posts inside the map's view, as markers (core's markerSchema: no
 *   viewer-specific field, so every viewer of the same view gets the same bytes). City views
 *   (zoom ≥ 9) are widened to whole 256-px tiles and get every post (newest first, at most
 *   VIEWPORT_POINTS_MAX): an index-only range scan of publications_marker_idx per band of latitude
 *   the view crosses (migration 0011). Wider views are widened to whole ~60 px grid cells and
 *   get one cluster per non-empty cell, read from the precomputed counts of post_cells (kept by
 *   triggers, see schema.ts), and a marker for a cell holding one post. Either way the answer is bounded by the view's tiles or cells, not by the
 *   number of live posts, and the snapped view is the key of the answer cache (feed-cache.ts).
 *   The markers' JSON is written by PostgreSQL when each post is (MARKER_JSON, a stored column
 *   in the index): the answer is one text value joining them that goes into the cached bytes as
 *   is, with no row turned into an object and back.
 * - `changes`: what changed since a cursor, for the fallback poll while the socket is down:
 *   markers created since inside the view, and ids deleted (tombstones) or expired since.
 *
 * The cursor is exact (migration 0009): it holds the snapshot of the statement that read the
 * answer (pg_current_snapshot) and that statement's clock. The next poll sends the posts and
 * tombstones written by transactions that snapshot did not see (created_xid / deleted_xid), so
 * nothing is sent twice, and a transaction that commits late with an earlier created_at (the
 * case the former 2 s overlap covered, as long as it was under 2 s) is caught whatever its delay.
 * Expiries are told by time, in the window between the two statements' clocks.
 */
import { and, inArray, sql, type SQL } from 'drizzle-orm';
import {
  MESSAGES,
  MOODS,
  POST_LIFETIME_MS,
  viewportQuerySchema,
  type ChangesAnswer,
  type ClusterDto,
  type Mood,
  type ViewportAnswer,
  type ViewportQuery,
} from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { postCells } from '../../db/schema.ts';
import { AppError, badRequest } from '../../errors.ts';
import { parseIsoUtc } from '../../http/strict-time.ts';
import { LIFETIME, LIVE, posts } from './data.ts';

/** From this zoom on (city views), every post in the view is sent as is. */
export const POINTS_MIN_ZOOM = 9;
/** The deepest grid zoom post_cells holds (migration 0004's post_cell_keys: 0–8). */
export const CELL_ZOOM_MAX = POINTS_MIN_ZOOM - 1;
/** More posts than this in a city view are clustered instead. */
export const VIEWPORT_POINTS_MAX = 2000;
/** Cluster cell size in screen pixels at the asked zoom. */
export const CELL_PX = 60;
/** City views are widened to whole tiles of this many pixels, so nearby views share one answer. */
export const TILE_PX = 256;
/** A bbox far larger than any screen is clustered on a coarser grid, so the answer stays bounded. */
export const MAX_GRID_CELLS = 4096;
/** A client further behind than this reloads its view (410) instead of replaying changes. */
export const CHANGES_MAX = 1000;
const DELETED_MAX = 5000;
const MERCATOR_MAX_LAT = 85.0511287798;

export type Cluster = ClusterDto;
export type { ChangesAnswer, ViewportAnswer };

// ---------------------------------------------------------------------------------------------
// Input

export interface Viewport {
  /** One or two longitude ranges within [-180, 180] (two when the view crosses the antimeridian). */
  lonRanges: Array<[number, number]>;
  south: number;
  north: number;
  /** Integer zoom of the grid and of the points/clusters switch (MapLibre zooms are fractional). */
  zoom: number;
  /** Null = all five. */
  moods: Mood[] | null;
}

/**
 * The view of a query string validated by core's viewportQuerySchema (each field's type and
 * range, known moods). Here: south ≤ north; longitudes may come unwrapped from MapLibre (a
 * zoomed-out map shows world copies: west −250, east 310), so they are wrapped into
 * [-180, 180], a span of 360° or more meaning the whole world; west > east is a view across the
 * antimeridian. Bad input: 400 'Coordonnées de localisation invalides', or 'Catégorie invalide'.
 */
export function toViewport(query: ViewportQuery): Viewport {
  const { west, east, south, north, zoom, moods } = query;
  if (south > north) throw badRequest('invalid_coordinates');
  return { lonRanges: longitudeRanges(west, east), south, north, zoom: Math.floor(zoom), moods: parseMoods(moods) };
}

/** toViewport over a query string not validated yet (the bench, tests), with the route's refusals. */
export function parseViewport(query: unknown): Viewport {
  const parsed = viewportQuerySchema.safeParse(query);
  if (!parsed.success) {
    throw badRequest(
      parsed.error.issues.some((i) => i.message === MESSAGES.category_invalid)
        ? 'category_invalid'
        : 'invalid_coordinates',
    );
  }
  return toViewport(parsed.data);
}

export function longitudeRanges(west: number, east: number): Array<[number, number]> {
  const span = east >= west ? east - west : east - west + 360;
  if (span >= 360) return [[-180, 180]];
  if (west >= -180 && east <= 180 && west <= east) return [[west, east]];
  const start = ((((west + 180) % 360) + 360) % 360) - 180;
  const end = start + span;
  return end <= 180
    ? [[start, end]]
    : [
        [start, 180],
        [-180, end - 360],
      ];
}

function parseMoods(value: string | undefined): Mood[] | null {
  const asked = (value ?? '')
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  if (asked.some((m) => !(MOODS as readonly string[]).includes(m))) throw badRequest('category_invalid');
  const moods = MOODS.filter((m) => asked.includes(m));
  return moods.length === 0 || moods.length === MOODS.length ? null : moods;
}

// ---------------------------------------------------------------------------------------------
// Cursor

/** The state an answer was read in: the statement's clock and its snapshot (txid_snapshot text). */
export interface Cursor {
  /** The database clock, to the millisecond (expiries after it are the next poll's). */
  time: Date;
  /** `xmin:xmax:xip,…` as pg_current_snapshot prints it, normalised by snapshotText. */
  snapshot: string;
}

/**
 * At most this many in-progress transactions are kept in a cursor. A busier snapshot is replaced
 * by an earlier-looking one (the later of them counted as not seen yet): the poll may then send a
 * post again, never miss one.
 */
const CURSOR_XIP_MAX = 24;
const XID8_MAX = 2n ** 63n - 1n;

/**
 * The snapshot text a cursor carries, checked (PostgreSQL refuses a malformed one with an error,
 * a 500) and bounded: null when it is not a snapshot.
 */
export function snapshotText(text: string): string | null {
  const match = /^(\d{1,19}):(\d{1,19}):((?:\d{1,19}(?:,\d{1,19})*)?)$/.exec(text);
  if (!match) return null;
  const xmin = BigInt(match[1]!);
  let xmax = BigInt(match[2]!);
  let xip = match[3] ? match[3].split(',').map(BigInt) : [];
  if (xmin < 1n || xmax < xmin || xmax > XID8_MAX) return null;
  for (let i = 0; i < xip.length; i++)
    if (xip[i]! < xmin || xip[i]! >= xmax || (i > 0 && xip[i]! <= xip[i - 1]!)) return null;
  if (xip.length > CURSOR_XIP_MAX) {
    // Everything from the first dropped in-progress transaction on counts as not seen yet.
    xmax = xip[CURSOR_XIP_MAX]!;
    xip = xip.slice(0, CURSOR_XIP_MAX);
  }
  return `${xmin}:${xmax}:${xip.join(',')}`;
}

/** Opaque to clients: base64url of `s:<ms>:<snapshot>`. */
export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`s:${cursor.time.getTime()}:${cursor.snapshot}`).toString('base64url');
}

export function decodeCursor(cursor: unknown): Cursor {
  if (typeof cursor !== 'string' || cursor.length > CURSOR_MAX) throw badRequest('bad_request');
  const text = Buffer.from(cursor, 'base64url').toString();
  // A cursor of the former kind (`t:<ISO time>`, read as strictly as before): the client reloads.
  if (text.startsWith('t:') && parseIsoUtc(text.slice(2))) throw cursorExpired();
  const match = /^s:(\d{1,15}):(.*)$/.exec(text);
  const time = match ? new Date(Number(match[1])) : null;
  const snapshot = match ? snapshotText(match[2]!) : null;
  if (!time || Number.isNaN(time.getTime()) || !snapshot) throw badRequest('bad_request');
  return { time, snapshot };
}

/** The longest cursor encodeCursor writes (CURSOR_XIP_MAX + 2 ids of 19 digits), base64url. */
export const CURSOR_MAX = Math.ceil(((2 + 15 + 1 + (CURSOR_XIP_MAX + 2) * 20) * 4) / 3);

// ---------------------------------------------------------------------------------------------
// Grid: web-mercator cells and tiles (the same arithmetic as migration 0004's post_cell_keys)

/** A range of grid columns and rows (inclusive), row 0 at the north. */
export interface GridSpan {
  /** Cells across the world at this grid. */
  perWorld: number;
  xRanges: Array<[number, number]>;
  y0: number;
  y1: number;
}

/** The part of the world a span covers, to tell whether a post lies in a cached answer. */
export interface Area {
  lonRanges: Array<[number, number]>;
  south: number;
  north: number;
}

const clampLat = (lat: number) => Math.max(-MERCATOR_MAX_LAT, Math.min(MERCATOR_MAX_LAT, lat));
const mercY = (lat: number) =>
  0.5 - Math.log(Math.tan(Math.PI / 4 + (clampLat(lat) * Math.PI) / 180 / 2)) / (2 * Math.PI);
const xIndex = (lon: number, perWorld: number) => Math.floor(((lon + 180) / 360) * perWorld);
const yIndex = (lat: number, perWorld: number) => Math.floor(mercY(lat) * perWorld);
const latOfY = (y: number, perWorld: number) =>
  (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / perWorld))) * 180) / Math.PI;
const lonOfX = (x: number, perWorld: number) => Math.max(-180, Math.min(180, (x / perWorld) * 360 - 180));
const cellsPerWorld = (zoom: number) => (256 * 2 ** zoom) / CELL_PX;
const tilesPerWorld = (zoom: number) => (256 * 2 ** zoom) / TILE_PX;

/** The columns and rows of the grid covering the view, edge ones whole. */
export function spanOf(view: Viewport, perWorld: number): GridSpan {
  const last = Math.ceil(perWorld) - 1;
  const x = (lon: number) => Math.max(0, Math.min(last, xIndex(lon, perWorld)));
  let xRanges = view.lonRanges.map(([w, e]): [number, number] => [x(w), x(e)]);
  // Two ranges widened until they touch are the whole world (and must not count posts twice).
  if (xRanges.length === 2 && xRanges[1][1] + 1 >= xRanges[0][0]) xRanges = [[0, last]];
  const y = (lat: number) => Math.max(0, Math.min(last, yIndex(lat, perWorld)));
  return { perWorld, xRanges, y0: y(view.north), y1: y(view.south) };
}

/** The span's bounds in degrees; the top and bottom rows reach the poles. */
export function areaOf(span: GridSpan): Area {
  const last = Math.ceil(span.perWorld) - 1;
  return {
    lonRanges: span.xRanges.map(([a, b]): [number, number] => [lonOfX(a, span.perWorld), lonOfX(b + 1, span.perWorld)]),
    north: span.y0 === 0 ? 90 : latOfY(span.y0, span.perWorld),
    south: span.y1 >= last ? -90 : latOfY(span.y1 + 1, span.perWorld),
  };
}

export function inArea(area: Area, latitude: number, longitude: number): boolean {
  return (
    latitude >= area.south &&
    latitude <= area.north &&
    area.lonRanges.some(([w, e]) => longitude >= w && longitude <= e)
  );
}

/** The largest grid zoom ≤ `zoom` whose cells over the view number at most MAX_GRID_CELLS. */
export function gridZoom(view: Area, zoom: number): number {
  const lonSpan = view.lonRanges.reduce((sum, [w, e]) => sum + (e - w), 0) / 360; // in world widths
  const latSpan = mercY(view.south) - mercY(view.north); // in world widths
  let z = zoom;
  for (; z > 0; z--) {
    const perWorld = cellsPerWorld(z);
    if ((Math.ceil(lonSpan * perWorld) + 1) * (Math.ceil(latSpan * perWorld) + 1) <= MAX_GRID_CELLS) break;
  }
  return z;
}

/**
 * What a viewport answer depends on, decided from the query alone: the snapped tiles (city
 * views) or cells (clusters) and the moods. Views with the same plan share one cached answer.
 */
export interface ViewPlan {
  key: string;
  area: Area;
  /** The answer's JSON text (markers written by PostgreSQL), for the byte cache as is. */
  load(db: Db): Promise<string>;
}

export function planView(view: Viewport): ViewPlan {
  const moods = view.moods ? view.moods.join(',') : '';
  if (view.zoom >= POINTS_MIN_ZOOM) {
    const tiles = spanOf(view, tilesPerWorld(view.zoom));
    const area = areaOf(tiles);
    return {
      key: `p/${view.zoom}/${JSON.stringify(tiles.xRanges)}/${tiles.y0}/${tiles.y1}/${moods}`,
      area,
      load: (db) => pointsView(db, view, area),
    };
  }
  const zoom = Math.min(gridZoom(view, view.zoom), CELL_ZOOM_MAX);
  const cells = spanOf(view, cellsPerWorld(zoom));
  return {
    key: `c/${zoom}/${JSON.stringify(cells.xRanges)}/${cells.y0}/${cells.y1}/${moods}`,
    area: areaOf(cells),
    load: (db) => clusterView(db, zoom, view.moods, () => countedCells(db, zoom, cells, view.moods)),
  };
}

// ---------------------------------------------------------------------------------------------
// SQL

/** The area as ranges on publications_marker_idx (longitude, latitude): one, or two across the antimeridian. */
function inAreaSql(
  area: Area,
  latitude: SQL | typeof posts.latitude = posts.latitude,
  longitude: SQL | typeof posts.longitude = posts.longitude,
): SQL {
  const lon = area.lonRanges.map(([w, e]) => sql`${longitude} between ${w}::float8 and ${e}::float8`);
  const lat = sql`${latitude} between ${area.south}::float8 and ${area.north}::float8`;
  return lon.length === 1 ? sql`${lon[0]} and ${lat}` : sql`(${sql.join(lon, sql` or `)}) and ${lat}`;
}

const ofMoods = (moods: Mood[] | null) => (moods ? inArray(posts.category, moods) : undefined);

/**
 * publications_marker_idx leads with the band of 1/32° of latitude a post lies in (migration
 * 0011): a view reads one longitude range per band it crosses instead of its longitude's whole
 * strip of the world. A power of two, so `latitude * 32` is exact and JS and SQL floor it alike.
 */
export const MARKER_BANDS_PER_DEGREE = 32;
/** Beyond this many bands (a view of some 10° and more), one range of bands instead of a list. */
const MARKER_BANDS_LISTED = 256;
/** The index's leading expression, written as migration 0011 wrote it so the planner matches it. */
const bandOf = (latitude: SQL | typeof posts.latitude) =>
  sql`floor((${latitude}) * ${sql.raw(String(MARKER_BANDS_PER_DEGREE))})::smallint`;
const bandIndex = (latitude: number) => Math.floor(latitude * MARKER_BANDS_PER_DEGREE);

/** inAreaSql on publications_marker_idx: the bands of the area's latitudes, then its ranges. */
function onMarkerIndex(area: Area): SQL {
  const first = bandIndex(area.south);
  const last = bandIndex(area.north);
  const bands =
    last - first + 1 <= MARKER_BANDS_LISTED
      ? // Integers computed here, inlined: one index descent per band (a scalar-array index condition).
        sql`${bandOf(posts.latitude)} = any(array[${sql.raw(Array.from({ length: last - first + 1 }, (_, i) => first + i).join(','))}]::smallint[])`
      : sql`${bandOf(posts.latitude)} between ${first} and ${last}`;
  return sql`${bands} and ${inAreaSql(area)}`;
}

/**
 * One marker as JSON, written by PostgreSQL when the row is (the stored column marker_json,
 * migration 0010's post_marker_json: toMarkerDto's fields in its order), and in
 * publications_marker_idx, so a city view joins ready texts from an index-only scan.
 */
const MARKER_JSON = posts.markerJson;

/** The markers of subquery `m` (columns created_at, json) as one JSON array's inside, newest first. */
const MARKERS_AGG = sql`coalesce(string_agg(m.json, ',' order by m.created_at desc), '')`;

/** The statement's clock as a cursor holds it (milliseconds, so consecutive expiry windows meet exactly). */
const CLOCK = sql`date_trunc('milliseconds', now())`;

const toDate = (value: unknown) => (value instanceof Date ? value : new Date(String(value)));

/** The cursor of the statement whose row holds `now` (CLOCK) and `snapshot` (pg_current_snapshot()::text). */
function cursorOf(row: Record<string, unknown>): Cursor {
  const snapshot = snapshotText(String(row.snapshot));
  if (!snapshot) throw new Error(`unexpected snapshot ${String(row.snapshot)}`);
  return { time: toDate(row.now), snapshot };
}

/** The viewport answer's JSON text; `points` is the inside of its points array (MARKERS_AGG). */
function answerJson(cursor: Cursor, points: string, clusters: Cluster[]): string {
  return `{"points":[${points}],"clusters":${JSON.stringify(clusters)},"cursor":"${encodeCursor(cursor)}","serverTime":"${cursor.time.toISOString()}"}`;
}

/**
 * A city view: every live post of its tiles, newest first, read index-only from
 * publications_marker_idx, as one JSON text with the statement's clock and snapshot (the cursor).
 */
async function pointsView(db: Db, view: Viewport, area: Area): Promise<string> {
  // At most VIEWPORT_POINTS_MAX + 1 rows, in index order: a denser view is clustered below, so
  // only its count matters (its markers are joined for nothing, cheaper than materialising every
  // view's rows to skip that), and the markers are ordered by the aggregate itself: one sort.
  const result = await db.execute(sql`
    select ${CLOCK} as now, pg_current_snapshot()::text as snapshot, count(*)::int as n,
      case when count(*) <= ${VIEWPORT_POINTS_MAX} then ${MARKERS_AGG} end as points
    from (
      select ${posts.createdAt} as created_at, ${MARKER_JSON} as json
      from publications p
      where ${and(LIVE, onMarkerIndex(area), ofMoods(view.moods))}
      limit ${VIEWPORT_POINTS_MAX + 1}
    ) m`);
  const row = result.rows[0]!;
  if (Number(row.n) <= VIEWPORT_POINTS_MAX) return answerJson(cursorOf(row), String(row.points), []);
  // A city view denser than VIEWPORT_POINTS_MAX: clustered, aggregating its own tiles only.
  const zoom = gridZoom(area, view.zoom);
  return clusterView(db, zoom, view.moods, () => scannedCells(db, zoom, area, view.moods));
}

interface CellCount {
  cx: number;
  cy: number;
  /** Posts counted, all moods. */
  n: number;
  /** Of which, per mood (a mood left out counts 0). */
  moods: Partial<Record<Mood, number>>;
  sumLat: number;
  sumLon: number;
  /** A cell of one post read from publications (scannedCells): its marker, and its created_at in µs to order by. */
  single?: { json: string; createdUs: bigint };
}

/** Cell counts, and the cursor of the statement that read them. */
interface Counted {
  cursor: Cursor;
  rows: CellCount[];
}

/**
 * Counts per cell and mood from post_cells: at most MAX_GRID_CELLS × 5 rows, whatever the posts,
 * with the statement's clock and snapshot on every row (one row of nulls when no cell counts):
 * one round trip, and the cursor is exactly the counts' own.
 */
async function countedCells(db: Db, zoom: number, span: GridSpan, moods: Mood[] | null): Promise<Counted> {
  const x = sql.join(
    span.xRanges.map(([a, b]) => sql`${postCells.cx} between ${a} and ${b}`),
    sql` or `,
  );
  const result = await db.execute(sql`
    select c.now, c.snapshot, ${postCells.cx} as cx, ${postCells.cy} as cy, ${postCells.category} as category, ${postCells.n} as n,
      ${postCells.sumLat} as sum_lat, ${postCells.sumLon} as sum_lon
    from (select ${CLOCK} as now, pg_current_snapshot()::text as snapshot) c
    left join ${postCells} on ${and(
      sql`${postCells.zoom} = ${zoom}`,
      sql`(${x})`,
      sql`${postCells.cy} between ${span.y0} and ${span.y1}`,
      moods
        ? sql`${postCells.category} in (${sql.join(
            moods.map((m) => sql`${m}`),
            sql`, `,
          )})`
        : undefined,
    )}`);
  const rows = result.rows
    .filter((r) => r.cx != null)
    .map((r) => ({
      cx: Number(r.cx),
      cy: Number(r.cy),
      n: Number(r.n),
      moods: { [String(r.category)]: Number(r.n) },
      sumLat: Number(r.sum_lat),
      sumLon: Number(r.sum_lon),
    }));
  return { cursor: cursorOf(result.rows[0]!), rows };
}

/**
 * The same counts aggregated from publications over a (dense city) area, at any grid zoom, with
 * the statement's clock and snapshot on every row (one row of nulls when no cell counts, as in
 * countedCells): one round trip, and the cursor is exactly the counts' own. One
 * row per cell, its moods counted by filters (grouping on two integers, no text compared), and
 * the marker of a cell counting one post, found again in the same statement (same snapshot) on
 * publications_marker_idx by its exact position: its cell's sums in float8 are that position,
 * and no other counted post lies there (it would be in the same cell). Reading each row's marker
 * text into the aggregate instead cost more than the rest of it (a text min over every row).
 */
async function scannedCells(db: Db, zoom: number, area: Area, moods: Mood[] | null): Promise<Counted> {
  const perWorld = cellsPerWorld(zoom);
  // The clamp to web-mercator's latitudes changes nothing for the rows of an area inside them.
  const inside = area.south >= -MERCATOR_MAX_LAT && area.north <= MERCATOR_MAX_LAT;
  const lat = inside
    ? sql`${posts.latitude}`
    : sql`greatest(${-MERCATOR_MAX_LAT}::float8, least(${MERCATOR_MAX_LAT}::float8, ${posts.latitude}))`;
  const counts = sql.join(
    MOODS.map((m) => sql`count(*) filter (where v.category = ${m})::int`),
    sql`, `,
  );
  const result = await db.execute(sql`
    select c.now, c.snapshot, g.cx, g.cy, g.n, g.moods, g.sum_lat, g.sum_lon,
      case when g.n = 1 then (
        select (extract(epoch from ${posts.createdAt}) * 1000000)::int8 || ' ' || ${MARKER_JSON}
        from publications p
        where ${and(LIVE, ofMoods(moods))} and ${bandOf(sql`g.sum_lat`)} = ${bandOf(posts.latitude)}
          and ${posts.longitude} = g.sum_lon and ${posts.latitude} = g.sum_lat
        limit 1
      ) end as single
    from (select ${CLOCK} as now, pg_current_snapshot()::text as snapshot) c
    left join (
      select v.cx, v.cy, count(*)::int as n, array[${counts}] as moods, sum(v.latitude) as sum_lat, sum(v.longitude) as sum_lon
      from (
        select ${posts.category} as category, ${posts.latitude} as latitude, ${posts.longitude} as longitude,
          floor((${posts.longitude} + 180) / 360 * ${perWorld}::float8)::int as cx,
          floor((0.5 - ln(tan(pi() / 4 + radians(${lat}) / 2)) / (2 * pi())) * ${perWorld}::float8)::int as cy
        from publications p
        where ${and(LIVE, onMarkerIndex(area), ofMoods(moods))}
      ) v
      group by v.cx, v.cy
    ) g on true`);
  const rows = result.rows
    .filter((r) => r.cx != null)
    .map((r) => {
      const counted: unknown[] = Array.isArray(r.moods) ? r.moods : [];
      const single = r.single == null ? undefined : String(r.single);
      const space = single?.indexOf(' ') ?? -1;
      return {
        cx: Number(r.cx),
        cy: Number(r.cy),
        n: Number(r.n),
        moods: Object.fromEntries(MOODS.map((m, i) => [m, Number(counted[i])])),
        sumLat: Number(r.sum_lat),
        sumLon: Number(r.sum_lon),
        single: single ? { json: single.slice(space + 1), createdUs: BigInt(single.slice(0, space)) } : undefined,
      };
    });
  return { cursor: cursorOf(result.rows[0]!), rows };
}

/** A cell of one post holds its exact position (numeric sums); this finds it again on the index. */
const SAME_PLACE = 1e-9;

/**
 * Clusters of the cells holding two posts or more; the lone posts as markers. `counting` reads
 * the cursor with the counts, in their statement.
 */
async function clusterView(
  db: Db,
  zoom: number,
  moods: Mood[] | null,
  counting: () => Promise<Counted>,
): Promise<string> {
  const { cursor, rows } = await counting();
  const cells = new Map<
    string,
    { n: number; lat: number; lon: number; moods: Record<Mood, number>; single?: CellCount['single'] }
  >();
  for (const row of rows) {
    const key = `${zoom}/${row.cx}/${row.cy}`;
    let cell = cells.get(key);
    if (!cell) {
      cell = { n: 0, lat: 0, lon: 0, moods: Object.fromEntries(MOODS.map((m) => [m, 0])) as Record<Mood, number> };
      cells.set(key, cell);
    }
    cell.n += row.n;
    cell.lat += row.sumLat;
    cell.lon += row.sumLon;
    for (const mood of MOODS) cell.moods[mood] += row.moods[mood] ?? 0;
    cell.single = row.single;
  }
  const singles = [...cells.values()].filter((c) => c.n === 1);
  // Scanned counts carry their lone posts' markers. Those of post_cells are read by position (one
  // index range each) rather than joined: an expired post the sweeper has not removed yet is not
  // live, so its cell simply shows nothing.
  const markers = singles.flatMap((c) => (c.single ? [c.single] : []));
  // Each place on each band its ±SAME_PLACE window touches (one, or two on a band's edge), the
  // band given as a value so the index is read by equality on it.
  const places = sql.join(
    singles.flatMap((c) => {
      const bands = [...new Set([bandIndex(c.lat - SAME_PLACE), bandIndex(c.lat + SAME_PLACE)])];
      return bands.map((band) => sql`(${c.lon}::float8, ${c.lat}::float8, ${band}::smallint)`);
    }),
    sql`, `,
  );
  const points =
    markers.length === singles.length
      ? markers
          .sort((a, b) => (a.createdUs < b.createdUs ? 1 : a.createdUs > b.createdUs ? -1 : 0))
          .map((m) => m.json)
          .join(',')
      : String(
          (
            await db.execute(sql`
    select ${MARKERS_AGG} as points
    from (
      select ${posts.createdAt} as created_at, ${MARKER_JSON} as json
      from publications p
      join (values ${places}) as v(lon, lat, band)
        on ${bandOf(posts.latitude)} = v.band
        and ${posts.longitude} between v.lon - ${SAME_PLACE}::float8 and v.lon + ${SAME_PLACE}::float8
        and ${posts.latitude} between v.lat - ${SAME_PLACE}::float8 and v.lat + ${SAME_PLACE}::float8
      where ${and(LIVE, ofMoods(moods))}
    ) m`)
          ).rows[0]!.points,
        );
  const clusters: Cluster[] = [];
  for (const [id, cell] of cells) {
    if (cell.n <= 1) continue;
    clusters.push({
      id,
      latitude: round6(cell.lat / cell.n),
      longitude: round6(cell.lon / cell.n),
      count: cell.n,
      moods: cell.moods,
    });
  }
  clusters.sort((a, b) => b.count - a.count);
  return answerJson(cursor, points, clusters);
}

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

/** The id (`zoom/cx/cy`) of the cluster whose grid cell holds a point, as post_cell_keys computes it. */
export function clusterIdAt(zoom: number, latitude: number, longitude: number): string {
  const perWorld = cellsPerWorld(zoom);
  return `${zoom}/${xIndex(longitude, perWorld)}/${yIndex(latitude, perWorld)}`;
}

/**
 * Clusters without some posts (a viewer's blocked people's): each leaves its cell's
 * count, mood count and centre; an emptied cluster goes. The shared answer is not touched.
 */
export function clustersWithout(
  clusters: readonly Cluster[],
  removed: ReadonlyArray<{ latitude: number; longitude: number; category: string }>,
): Cluster[] {
  if (clusters.length === 0 || removed.length === 0) return [...clusters];
  const zoom = Number(clusters[0]!.id.split('/')[0]);
  const byId = new Map(clusters.map((c) => [c.id, { ...c, moods: { ...c.moods } }]));
  for (const post of removed) {
    const id = clusterIdAt(zoom, post.latitude, post.longitude);
    const cluster = byId.get(id);
    const mood = MOODS.find((m) => m === post.category);
    if (!cluster || !mood || !(cluster.moods[mood]! > 0)) continue;
    cluster.moods[mood]! -= 1;
    if (--cluster.count === 0) {
      byId.delete(id);
      continue;
    }
    cluster.latitude = round6((cluster.latitude * (cluster.count + 1) - post.latitude) / cluster.count);
    cluster.longitude = round6((cluster.longitude * (cluster.count + 1) - post.longitude) / cluster.count);
  }
  return [...byId.values()];
}

/**
 * The changes poll's view (changesQuerySchema): all four bounds or none (the world);
 * bad bounds are 400 'Coordonnées de localisation invalides'.
 */
export function changesArea(query: { west?: number; south?: number; east?: number; north?: number }): Area | null {
  const { west, south, east, north } = query;
  const given = [west, south, east, north].filter((v) => v !== undefined).length;
  if (given === 0) return null;
  if (given < 4 || south! > north!) throw badRequest('invalid_coordinates');
  return { lonRanges: longitudeRanges(west!, east!), south: south!, north: north! };
}

/**
 * Changes since a cursor: live markers written by transactions its snapshot did not see, ids
 * deleted (tombstones) likewise, and ids expired between its clock and this statement's, all
 * inside `area` when given: an idle viewer's poll costs what happens in its view, and
 * a poll repeated with each answer's cursor sends every change once (an expired post may be told
 * again when the sweeper's tombstone follows within the next poll). A client that pans asks for
 * its new viewport, which no longer holds what left the old one. Tombstones written before
 * migration 0008 carry no position and go to everyone. One statement, so one snapshot and one
 * clock, which become the next cursor; the JSON is PostgreSQL's, as for the viewport.
 * A cursor older than a post's lifetime, or more than CHANGES_MAX new posts, is answered 410
 * 'cursor_expired': the client reloads its viewport, which is smaller than a long replay.
 */
export async function getChanges(db: Db, since: Cursor, area: Area | null): Promise<string> {
  const xmin = since.snapshot.slice(0, since.snapshot.indexOf(':'));
  // Written by a transaction the cursor's snapshot did not see: a range on the xid index, then
  // the snapshot's own test (in-progress transactions then, committed now).
  const unseen = (xid: SQL) =>
    sql`${xid} >= ${xmin}::xid8 and not pg_visible_in_snapshot(${xid}, ${since.snapshot}::pg_snapshot)`;
  const within = (latitude: SQL, longitude: SQL) => (area ? sql` and ${inAreaSql(area, latitude, longitude)}` : sql``);
  // A stale cursor reads nothing (410 below): the statement stays cheap.
  const fresh = sql`${since.time.toISOString()}::timestamptz > now() - ${LIFETIME}`;
  const result = await db.execute(sql`
    with c as (
      select ${posts.createdAt} as created_at, ${MARKER_JSON} as json
      from publications p
      where ${fresh} and ${unseen(sql`p.created_xid`)} and ${LIVE}${within(sql`p.latitude`, sql`p.longitude`)}
      order by ${posts.createdAt} desc
      limit ${CHANGES_MAX + 1}
    ), d as (
      select t.post_id as id from post_tombstones t
      where ${fresh} and ${unseen(sql`t.deleted_xid`)}${area ? sql` and (t.latitude is null or ${inAreaSql(area, sql`t.latitude`, sql`t.longitude`)})` : sql``}
      union
      -- Expired since the cursor's clock, before the sweeper deleted them (a hidden post already
      -- left with its tombstone).
      select p.id from publications p
      where ${fresh} and p.created_at <= ${CLOCK} - ${LIFETIME} and p.created_at > least(${since.time.toISOString()}::timestamptz, ${CLOCK}) - ${LIFETIME}
        and p.hidden_state is null${within(sql`p.latitude`, sql`p.longitude`)}
      limit ${DELETED_MAX + 1}
    )
    select ${CLOCK} as now, pg_current_snapshot()::text as snapshot,
      (select count(*)::int from c) as created_count, (select ${MARKERS_AGG} from c m) as created,
      (select count(*)::int from d) as deleted_count, (select coalesce(string_agg('"' || d.id || '"', ','), '') from d) as deleted`);
  const row = result.rows[0]!;
  const cursor = cursorOf(row);
  if (
    since.time.getTime() <= cursor.time.getTime() - POST_LIFETIME_MS ||
    Number(row.created_count) > CHANGES_MAX ||
    Number(row.deleted_count) > DELETED_MAX
  ) {
    throw cursorExpired();
  }
  return `{"created":[${String(row.created)}],"deleted":[${String(row.deleted)}],"cursor":"${encodeCursor(cursor)}","serverTime":"${cursor.time.toISOString()}"}`;
}

/** 410: the client drops its cursor and reloads its viewport (the text is never shown). */
export function cursorExpired(): AppError {
  return new AppError(410, 'cursor_expired', MESSAGES.refresh_posts);
}
