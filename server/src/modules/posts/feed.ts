/**
 * The map's feed (issue 4 item 6, design.md §5):
 * - `viewport`: the live posts inside the map's view. City views (zoom ≥ 9) get every post as a
 *   PostDto (newest first, at most VIEWPORT_POINTS_MAX); wider views get one cluster per
 *   non-empty ~60 px cell, aggregated in SQL, and a PostDto only for a cell holding one post.
 *   Either way the answer stays small whatever the number of live posts. Zoomed-out answers
 *   are shared for a second by viewers of the same cells (FeedCache).
 * - `changes`: what changed since a cursor, for the fallback poll while the socket is down:
 *   posts created since, and ids deleted (tombstones) or expired since.
 *
 * The cursor is the database clock (`now()` of the statement that read the data), so no server
 * clock is involved; reads compare with a 2 s overlap to cover transactions that started before
 * the cursor but committed after it. Duplicates are harmless: clients apply changes by id.
 */
import { sql, type SQL } from 'drizzle-orm';
import {
  MESSAGES, MOODS, POST_LIFETIME_MS, viewportQuerySchema,
  type ChangesAnswer, type ClusterDto, type Mood, type ViewportAnswer, type ViewportQuery,
} from '@moodmap/core';
import type { Db } from '../../db/client.ts';
import { AppError, badRequest } from '../../errors.ts';
import { parseIsoUtc } from '../../http/strict-time.ts';
import { POST_COLUMNS, toPostDto, type PostRow } from './dto.ts';
import { LIFETIME, LIVE, likedBy } from './service.ts';

/** From this zoom on (city views), every post in the view is sent as is. */
export const POINTS_MIN_ZOOM = 9;
/** More posts than this in a city view are clustered instead. */
export const VIEWPORT_POINTS_MAX = 2000;
/** Cluster cell size in screen pixels at the asked zoom. */
export const CELL_PX = 60;
/** A bbox far larger than any screen is clustered on a coarser grid, so the answer stays bounded. */
export const MAX_GRID_CELLS = 4096;
/** A client further behind than this reloads its view (410) instead of replaying changes. */
export const CHANGES_MAX = 1000;
const DELETED_MAX = 5000;
/** How long a zoomed-out answer is shared by every viewer of the same cells (see FeedCache). */
export const CLUSTER_SHARE_MS = 1000;
const OVERLAP = sql.raw(`interval '2 seconds'`);
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
    throw badRequest(parsed.error.issues.some((i) => i.message === MESSAGES.category_invalid) ? 'category_invalid' : 'invalid_coordinates');
  }
  return toViewport(parsed.data);
}

export function longitudeRanges(west: number, east: number): Array<[number, number]> {
  const span = east >= west ? east - west : east - west + 360;
  if (span >= 360) return [[-180, 180]];
  if (west >= -180 && east <= 180 && west <= east) return [[west, east]];
  const start = ((((west + 180) % 360) + 360) % 360) - 180;
  const end = start + span;
  return end <= 180 ? [[start, end]] : [[start, 180], [-180, end - 360]];
}

function parseMoods(value: string | undefined): Mood[] | null {
  const asked = (value ?? '').split(',').map((m) => m.trim()).filter(Boolean);
  if (asked.some((m) => !(MOODS as readonly string[]).includes(m))) throw badRequest('category_invalid');
  const moods = MOODS.filter((m) => asked.includes(m));
  return moods.length === 0 || moods.length === MOODS.length ? null : moods;
}

// ---------------------------------------------------------------------------------------------
// Cursor

/** Opaque to clients: base64url of the database time of the answer. */
export function encodeCursor(time: Date): string {
  return Buffer.from(`t:${time.toISOString()}`).toString('base64url');
}

export function decodeCursor(cursor: unknown): Date {
  if (typeof cursor !== 'string' || cursor.length > 64) throw badRequest('bad_request');
  const text = Buffer.from(cursor, 'base64url').toString();
  // Strict: a year the regex let through (0000) was a date PostgreSQL refuses, hence a 500.
  const time = text.startsWith('t:') ? parseIsoUtc(text.slice(2)) : null;
  if (!time) throw badRequest('bad_request');
  return time;
}

// ---------------------------------------------------------------------------------------------
// SQL

/**
 * The view as ranges on the btree `publications_position_idx` (longitude, latitude): one range,
 * or two across the antimeridian. Plain column ranges also give the planner real row estimates
 * (a GiST `<@` box is estimated at a constant 0.1 %, which sent big views to sorts on disk).
 */
function inView(view: Viewport): SQL {
  const lon = view.lonRanges.map(([w, e]) => sql`p.longitude between ${w}::float8 and ${e}::float8`);
  const lat = sql`p.latitude between ${view.south}::float8 and ${view.north}::float8`;
  return lon.length === 1 ? sql`${lon[0]} and ${lat}` : sql`(${sql.join(lon, sql` or `)}) and ${lat}`;
}

/** Moods are checked against the fixed list, so they can be inlined. */
function ofMoods(view: Viewport): SQL {
  return view.moods ? sql.raw(`p.category in (${view.moods.map((m) => `'${m}'`).join(', ')})`) : sql.raw('true');
}

const columns = sql.raw(POST_COLUMNS);

/**
 * Runs `inner` with the statement's `now()` beside it (also when it returns no row), so the
 * cursor is the clock of the very snapshot that was read.
 */
async function stamped<T>(db: Db, inner: SQL): Promise<{ now: Date; rows: T[] }> {
  const result = await db.execute(sql`
    select t.db_now, r.* from (select now() as db_now) t left join lateral (${inner}) r on true`);
  const rows = result.rows as unknown as Array<T & { db_now: string | Date; _row: boolean | null }>;
  return { now: new Date(rows[0]!.db_now), rows: rows.filter((r) => r._row) };
}

function pointsQuery(view: Viewport, viewerId: string | null, limit: number): SQL {
  return sql`
    select true as _row, ${columns}, ${likedBy(viewerId)}
    from publications p join profiles a on a.id = p.user_id
    where ${LIVE} and ${inView(view)} and ${ofMoods(view)}
    order by p.created_at desc
    limit ${limit}`;
}

/**
 * Counts per cell and mood on a web-mercator pixel grid at `zoom`: cells of CELL_PX screen
 * pixels, square on screen at every latitude; column 0 starts at −180°, so no cell straddles
 * the antimeridian. `one_id` is only meaningful for a (cell, mood) row counting one post.
 */
function cellsQuery(view: Viewport, zoom: number): SQL {
  const perWorld = (256 * 2 ** zoom) / CELL_PX;
  const lat = sql`greatest(${-MERCATOR_MAX_LAT}::float8, least(${MERCATOR_MAX_LAT}::float8, p.latitude))`;
  return sql`
    select true as _row, v.cx, v.cy, v.category, count(*)::int as n, sum(v.latitude) as sum_lat, sum(v.longitude) as sum_lon,
           min(v.id::text) as one_id
    from (
      select p.id, p.category, p.latitude, p.longitude,
        floor((p.longitude + 180) / 360 * ${perWorld}::float8)::int as cx,
        floor((0.5 - ln(tan(pi() / 4 + radians(${lat}) / 2)) / (2 * pi())) * ${perWorld}::float8)::int as cy
      from publications p
      where ${LIVE} and ${inView(view)} and ${ofMoods(view)}
    ) v
    group by v.cx, v.cy, v.category`;
}

interface CellRow {
  cx: number;
  cy: number;
  category: Mood;
  n: number;
  sum_lat: number;
  sum_lon: number;
  one_id: string;
}

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

/** The largest grid zoom ≤ `zoom` whose cells over the view number at most MAX_GRID_CELLS. */
export function gridZoom(view: Viewport, zoom: number): number {
  const lonSpan = view.lonRanges.reduce((sum, [w, e]) => sum + (e - w), 0) / 360; // in world widths
  const mercY = (lat: number) => {
    const clamped = Math.max(-MERCATOR_MAX_LAT, Math.min(MERCATOR_MAX_LAT, lat));
    return Math.log(Math.tan(Math.PI / 4 + (clamped * Math.PI) / 360)) / (2 * Math.PI);
  };
  const latSpan = mercY(view.north) - mercY(view.south); // in world widths
  let z = zoom;
  for (; z > 0; z--) {
    const perWorld = (256 * 2 ** z) / CELL_PX;
    if ((Math.ceil(lonSpan * perWorld) + 1) * (Math.ceil(latSpan * perWorld) + 1) <= MAX_GRID_CELLS) break;
  }
  return z;
}

/**
 * The view widened to whole grid cells: edge cells are counted whole (their numbers do not change
 * while the map pans inside them), and views covering the same cells share one answer.
 */
export function snapToCells(view: Viewport, zoom: number): Viewport {
  const perWorld = (256 * 2 ** zoom) / CELL_PX;
  const lonOf = (x: number) => Math.max(-180, Math.min(180, (x / perWorld) * 360 - 180));
  const xOf = (lon: number) => Math.floor(((lon + 180) / 360) * perWorld);
  const yOf = (lat: number) => Math.floor((0.5 - Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) / (2 * Math.PI)) * perWorld);
  const latOf = (y: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / perWorld))) * 180) / Math.PI;
  const lonRanges = view.lonRanges.map(([w, e]): [number, number] => [lonOf(xOf(w)), lonOf(xOf(e) + 1)]);
  const north = view.north >= MERCATOR_MAX_LAT ? 90 : latOf(yOf(view.north));
  const south = view.south <= -MERCATOR_MAX_LAT ? -90 : latOf(yOf(view.south) + 1);
  // Two ranges widened until they touch are the whole world (and must not count posts twice).
  const whole = lonRanges.length === 2 && lonRanges[1][1] >= lonRanges[0][0];
  return { ...view, lonRanges: whole ? [[-180, 180]] : lonRanges, south, north };
}

type SharedAnswer = ViewportAnswer;

/**
 * Zoomed-out answers (clusters, and the lone posts as seen by a visitor) shared for
 * CLUSTER_SHARE_MS by every viewer asking for the same cells, with one query in flight per key.
 * Every new visitor opens the same default view (spec §9 "Map"), the costliest one (all live
 * posts aggregated), so without this each visitor costs a full aggregate. An answer keeps the
 * cursor of the snapshot it was read from, so changes since that cursor stay exact. One per
 * app instance (nothing another instance needs).
 */
export interface FeedCache {
  get(key: string, load: () => Promise<SharedAnswer>): Promise<SharedAnswer>;
}

export function createFeedCache(now: () => number = Date.now, ttlMs = CLUSTER_SHARE_MS, maxEntries = 256): FeedCache {
  const entries = new Map<string, { expires: number; answer: Promise<SharedAnswer> }>();
  return {
    get(key, load) {
      const time = now();
      const hit = entries.get(key);
      if (hit && hit.expires > time) return hit.answer;
      if (entries.size >= maxEntries) {
        for (const [k, e] of entries) if (e.expires <= time) entries.delete(k);
        while (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      }
      const answer = load();
      entries.set(key, { expires: time + ttlMs, answer });
      answer.catch(() => entries.delete(key));
      return answer;
    },
  };
}

export async function getViewport(db: Db, view: Viewport, viewerId: string | null, cache?: FeedCache): Promise<ViewportAnswer> {
  if (view.zoom >= POINTS_MIN_ZOOM) {
    const { now, rows } = await stamped<PostRow>(db, pointsQuery(view, viewerId, VIEWPORT_POINTS_MAX + 1));
    if (rows.length <= VIEWPORT_POINTS_MAX) return { points: rows.map(toPostDto), clusters: [], cursor: encodeCursor(now), serverTime: now.toISOString() };
  }
  const zoom = gridZoom(view, view.zoom);
  const cells = snapToCells(view, zoom);
  const key = JSON.stringify([zoom, cells.lonRanges, cells.south, cells.north, cells.moods]);
  const shared = cache ? await cache.get(key, () => clusterView(db, cells, zoom)) : await clusterView(db, cells, zoom);
  if (!viewerId || shared.points.length === 0) return shared;
  // The viewer's own likes on the lone posts: a primary-key lookup per post.
  const liked = await db.execute(sql`
    select publication_id from likes where user_id = ${viewerId} and publication_id in ${shared.points.map((p) => p.id)}`);
  const ids = new Set((liked.rows as Array<{ publication_id: string }>).map((r) => String(r.publication_id)));
  return { ...shared, points: shared.points.map((p) => ({ ...p, isLikedByUser: ids.has(p.id) })) };
}

/** The clustered answer for a view already snapped to cells, as a visitor sees it. */
async function clusterView(db: Db, view: Viewport, zoom: number): Promise<ViewportAnswer> {
  const { now, rows } = await stamped<CellRow>(db, cellsQuery(view, zoom));
  const cells = new Map<string, { n: number; lat: number; lon: number; moods: Record<Mood, number>; oneId: string }>();
  for (const row of rows) {
    const key = `${zoom}/${row.cx}/${row.cy}`;
    let cell = cells.get(key);
    if (!cell) {
      cell = { n: 0, lat: 0, lon: 0, moods: Object.fromEntries(MOODS.map((m) => [m, 0])) as Record<Mood, number>, oneId: row.one_id };
      cells.set(key, cell);
    }
    const n = Number(row.n);
    cell.n += n;
    cell.lat += Number(row.sum_lat);
    cell.lon += Number(row.sum_lon);
    cell.moods[row.category] += n;
  }
  // Cells holding one post come back as that post; the planner cannot foresee how many there
  // are, so they are read by id in a second statement rather than joined (the join was costed
  // as if every post were alone and read the whole table).
  const singles = [...cells.values()].filter((c) => c.n === 1).map((c) => c.oneId);
  const points = singles.length === 0 ? [] : ((await db.execute(sql`
    select ${columns}, false as is_liked_by_user
    from publications p join profiles a on a.id = p.user_id
    where p.id in ${singles} and ${LIVE}
    order by p.created_at desc`)).rows as unknown as PostRow[]).map(toPostDto);
  const clusters: Cluster[] = [];
  for (const [id, cell] of cells) {
    if (cell.n === 1) continue;
    clusters.push({ id, latitude: round6(cell.lat / cell.n), longitude: round6(cell.lon / cell.n), count: cell.n, moods: cell.moods });
  }
  clusters.sort((a, b) => b.count - a.count);
  return { points, clusters, cursor: encodeCursor(now), serverTime: now.toISOString() };
}

/**
 * Changes since `since`: live posts created after it and ids deleted (tombstones) or expired
 * after it. A cursor older than a post's lifetime, or more than CHANGES_MAX new posts, is answered 410
 * 'cursor_expired': the client reloads its viewport, which is smaller than a long replay.
 */
export async function getChanges(db: Db, since: Date, viewerId: string | null): Promise<ChangesAnswer> {
  const from = sql`least(${since.toISOString()}::timestamptz, now()) - ${OVERLAP}`;
  const { now, rows } = await stamped<PostRow>(db, sql`
    select true as _row, ${columns}, ${likedBy(viewerId)}
    from publications p join profiles a on a.id = p.user_id
    where ${LIVE} and p.created_at > ${from}
    order by p.created_at desc
    limit ${CHANGES_MAX + 1}`);
  if (since.getTime() < now.getTime() - POST_LIFETIME_MS || rows.length > CHANGES_MAX) throw cursorExpired();
  // Expired posts the sweeper has not removed yet are gone for clients too.
  const deleted = await db.execute(sql`
    select id from (
      select t.post_id as id from post_tombstones t where t.deleted_at > ${from}
      union
      select p.id from publications p
      where p.created_at <= now() - ${LIFETIME} and p.created_at > ${from} - ${LIFETIME}
    ) d limit ${DELETED_MAX + 1}`);
  if (deleted.rows.length > DELETED_MAX) throw cursorExpired();
  return {
    created: rows.map(toPostDto),
    deleted: (deleted.rows as Array<{ id: string }>).map((r) => String(r.id)),
    cursor: encodeCursor(now),
    serverTime: now.toISOString(),
  };
}

/** 410: the client drops its cursor and reloads its viewport (the text is never shown). */
export function cursorExpired(): AppError {
  return new AppError(410, 'cursor_expired', MESSAGES.refresh_posts);
}
