/**
 * Times that come back from clients inside cursors. `Date.parse` accepts far more than
 * PostgreSQL does ('March 7', year 0, '-271821-04-20T00:00:00Z'), and what it accepts and
 * PostgreSQL refuses was a 500. Only the exact form the server writes is read back.
 */

/** `toISOString()`'s form: UTC, milliseconds, a four-digit year. */
const ISO_UTC = /^(\d{4})-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const YEAR_MIN = 1970;
const YEAR_MAX = 9999;

/**
 * The instant written as `YYYY-MM-DDTHH:mm:ss.sssZ` with a year from 1970 to 9999, or null.
 * The text must round-trip through Date, so impossible dates (February 30th, 24:00) are refused
 * rather than rolled over.
 */
export function parseIsoUtc(text: unknown): Date | null {
  if (typeof text !== 'string') return null;
  const match = ISO_UTC.exec(text);
  if (!match) return null;
  const year = Number(match[1]);
  if (year < YEAR_MIN || year > YEAR_MAX) return null;
  const time = new Date(text);
  return !Number.isNaN(time.getTime()) && time.toISOString() === text ? time : null;
}
