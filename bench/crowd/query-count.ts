/**
 * Diagnosis only (BENCH_COUNT_QUERIES=1): counts the SQL statements an app process sends, by
 * their first 90 characters, through a wrapper on pg's Client.query (as support/app-server.ts
 * times them). 'reset' clears the counts; 'queries' answers the most frequent.
 */
import pg from 'pg';

const counts = new Map<string, number>();
type QueryFn = (this: pg.Client, ...args: unknown[]) => unknown;
const original = pg.Client.prototype.query as unknown as QueryFn;
(pg.Client.prototype as unknown as { query: QueryFn }).query = function (this: pg.Client, ...args: unknown[]) {
  const first = args[0];
  const text = typeof first === 'string' ? first : (first as { text?: string } | null)?.text;
  const key = (text ?? '(prepared)').replace(/\s+/g, ' ').trim().slice(0, 90);
  counts.set(key, (counts.get(key) ?? 0) + 1);
  return original.apply(this, args);
};

export const resetQueries = () => counts.clear();

export function topQueries(n = 15): Array<[string, number]> {
  return [...counts].sort((a, b) => b[1] - a[1]).slice(0, n);
}
