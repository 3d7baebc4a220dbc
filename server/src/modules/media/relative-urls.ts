/**
 * Local media URLs are root-relative (`/media/<key>`, adapters/storage/local.ts). Rows written
 * before held absolute ones built from PUBLIC_URL (`http://localhost:3000/media/...`), which
 * break as soon as the app is opened at another address (a phone on the LAN, another PORT or
 * PUBLIC_URL). With the local store, start-up rewrites them to the relative form, whatever
 * host they name: every local media URL points at this server's /media route.
 *
 * Idempotent: only rows still holding an absolute /media URL are touched, so a second run (or
 * a second instance starting at once) changes nothing. When nothing matches it costs one scan
 * of each table below. Never run with S3: its URLs are absolute on purpose.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/** An absolute URL of the /media route in a text column. */
const ABSOLUTE = '^https?://[^/]+/media/';
/**
 * The same at the start of a string inside jsonb's text form. jsonb prints a string value after
 * `[` or a space (`["a", "b"]`, `{"k": "v"}`); a quote inside a string is always `\"`, so a
 * user's text that merely contains such a URL is never matched.
 */
const IN_JSON = String.raw`(\[| )"https?://[^/"]+/media/`;
const IN_JSON_REPLACEMENT = String.raw`\1"/media/`;

interface MediaColumns {
  table: string;
  /** text columns holding one URL */
  text: string[];
  /** jsonb columns holding URLs: publications.media_urls (an array), post_reports.post_snapshot (the reported post's URLs) */
  json: string[];
}

/** Every column that stores a media URL (db/schema.ts). */
export const MEDIA_URL_COLUMNS: MediaColumns[] = [
  { table: 'profiles', text: ['profile_photo_url', 'avatar_url'], json: [] },
  { table: 'publications', text: ['image_url', 'thumbnail_url', 'audio_url'], json: ['media_urls'] },
  { table: 'uploads', text: ['url', 'thumbnail_url'], json: [] },
  { table: 'messages', text: ['image_url'], json: [] },
  { table: 'post_reports', text: [], json: ['post_snapshot'] },
];

function rewrite({ table, text, json }: MediaColumns): SQL {
  const col = (name: string) => sql.identifier(name);
  const sets = [
    ...text.map((c) => sql`${col(c)} = regexp_replace(${col(c)}, ${ABSOLUTE}, '/media/')`),
    ...json.map(
      (c) => sql`${col(c)} = regexp_replace(${col(c)}::text, ${IN_JSON}, ${IN_JSON_REPLACEMENT}, 'g')::jsonb`,
    ),
  ];
  const matches = [
    ...text.map((c) => sql`${col(c)} ~ ${ABSOLUTE}`),
    ...json.map((c) => sql`${col(c)}::text ~ ${IN_JSON}`),
  ];
  return sql`
    with changed as (
      update ${sql.identifier(table)} set ${sql.join(sets, sql`, `)}
      where ${sql.join(matches, sql` or `)}
      returning 1
    )
    select count(*)::int as n from changed`;
}

/** Rewrites legacy absolute local media URLs to `/media/<key>`; answers the rows changed per table (none: `{}`). */
export async function relativizeLocalMediaUrls(db: Db): Promise<Record<string, number>> {
  const changed: Record<string, number> = {};
  // One statement per table, each atomic: a crash half-way leaves rows that the next start fixes.
  for (const columns of MEDIA_URL_COLUMNS) {
    const result = await db.execute(rewrite(columns));
    const n = Number((result.rows[0] as { n: number } | undefined)?.n ?? 0);
    if (n > 0) changed[columns.table] = n;
  }
  return changed;
}
