/**
 * Keyset pages newest first: the cursor is the last row's (created_at, id), so a
 * page costs an index range read whatever its depth, and rows inserted meanwhile (newer than
 * the cursor) never shift or repeat the rows still to come. The time travels as text with
 * microseconds: a JavaScript Date would drop them and skip or repeat rows of the same millisecond.
 */
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { badRequest } from '../../errors.ts';

export interface Key {
  at: string;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const STAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export function encodeKey(key: Key): string {
  return Buffer.from(`${key.at}|${key.id}`).toString('base64url');
}

export function decodeKey(cursor: string | undefined): Key | null {
  if (!cursor) return null;
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!at || !id || !STAMP.test(at) || !UUID.test(id)) throw badRequest('bad_request');
  return { at, id };
}

/** The row's created_at in UTC with microseconds, as the cursor carries it. */
export const stampOf = (column: AnyColumn) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Rows strictly after the cursor in (created_at desc, id desc) order. */
export function after(createdAt: AnyColumn, id: AnyColumn, key: Key | null): SQL | undefined {
  return key ? sql`(${createdAt}, ${id}) < (${key.at}::timestamptz, ${key.id}::uuid)` : undefined;
}

/**
 * `created_at desc nulls last, id desc nulls last`: the exact order of the (created_at, id)
 * indexes drizzle-kit generates. A bare `desc` means `nulls first`, which those indexes cannot
 * give, and PostgreSQL then sorts the whole table (≈ 0.25 s at a million log rows).
 */
export function newestFirst(createdAt: AnyColumn, id: AnyColumn): [SQL, SQL] {
  return [sql`${createdAt} desc nulls last`, sql`${id} desc nulls last`];
}

/**
 * A page out of the `limit + 1` rows read: its first `limit` rows, and the cursor to the rest
 * when the extra row says there is one.
 */
export function pageOf<R extends { id: string; stamp: string }>(
  rows: R[],
  limit: number,
): { page: R[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, nextCursor: rows.length > limit && last ? encodeKey({ at: last.stamp, id: last.id }) : null };
}
