/**
 * The goals' table, from the results the benches wrote (bench/results/*.json): figure, its
 * baseline (the value before the map and feed work), measured (median and spread of the rounds),
 * goal, met. Printed and written to bench/results/summary.md. Figures a bench did not produce
 * (size not run, browser bench absent) read "not measured".
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Spread, formatSpread, sig } from './support/stats.ts';

const results = join(dirname(fileURLToPath(import.meta.url)), 'results');
const read = <T>(name: string): T | null =>
  existsSync(join(results, name)) ? (JSON.parse(readFileSync(join(results, name), 'utf8')) as T) : null;

interface FeedCase {
  engine: string;
  posts: number;
  warm: { ratio: Spread; p50: Spread };
  probe?: { p50: Spread; coldP50: Spread };
  sql: { replayP95Ms: number } | null;
}
const feed = read<{ date: string; loadAverageAtStart: number; results: FeedCase[] }>('feed.json');
const realtime = read<{ date: string; socketRatio: Spread; pollRatio: Spread }>('realtime.json');
const messages = read<{
  date: string;
  clients: number;
  summary?: { cases: Array<{ case: string; p99: Spread }>; twoToRelayDeliveries: Spread | null };
}>('messages.json');
const browser = read<{ date: string; figures: Record<string, Spread> }>('browser.json');

type Row = { figure: string; measured: string; goal: string; met: string };
const rows: Row[] = [];
/** `unmeasured`: what to print instead of 'not measured' when the figure exists but says nothing. */
const add = (
  figure: string,
  value: Spread | number | null,
  goal: string,
  ok: (v: number) => boolean,
  note = '',
  unmeasured = 'not measured',
) => {
  const median = value === null ? null : typeof value === 'number' ? value : value.median;
  rows.push({
    figure,
    measured:
      median === null || !Number.isFinite(median)
        ? unmeasured
        : `${typeof value === 'number' ? sig(value) : formatSpread(value as Spread)}${note}`,
    goal,
    met: median === null || !Number.isFinite(median) ? '–' : ok(median) ? 'yes' : 'no',
  });
};

const feedCase = (engine: string, posts: number) =>
  feed?.results.find((r) => r.engine === engine && r.posts === posts) ?? null;
add(
  'feed req/s ÷ bare hello, PostgreSQL, 10⁵ posts, realistic mix (warm)',
  feedCase('postgres', 100_000)?.warm.ratio ?? null,
  '≥ 0.30',
  (v) => v >= 0.3,
);
add(
  'feed req/s ÷ bare hello, PGlite, 10⁵ posts, realistic mix (warm)',
  feedCase('pglite', 100_000)?.warm.ratio ?? null,
  '≥ 0.10',
  (v) => v >= 0.1,
);
{
  const engine = feedCase('postgres', 1000) ? 'postgres' : 'pglite';
  const small = feedCase(engine, 1000);
  const large = feedCase(engine, 1_000_000);
  // One client's p50, to the microsecond (feed.bench.ts probeLatency), on views asked for the
  // first time: cache hits cost the same at any size, misses are what grows with the posts.
  // Results written before the probe hold autocannon's whole-ms p50 only, whose 0 says nothing.
  const p50Growth = small?.probe && large?.probe ? large.probe.coldP50.median / small.probe.coldP50.median : null;
  const warmNote =
    small?.probe && large?.probe ? `; warm mix ${sig(large.probe.p50.median / small.probe.p50.median)}` : '';
  add(
    'feed p50 at 10⁶ ÷ at 10³ (one client, views asked first)',
    p50Growth,
    '≤ 3×',
    (v) => v <= 3,
    warmNote,
    small && large && p50Growth === null ? 'not measured to the µs (results predate the probe)' : undefined,
  );
}
add(
  'viewport query p95, 10⁶ rows, ~1 000-post view (ms)',
  feedCase('postgres', 1_000_000)?.sql?.replayP95Ms ?? null,
  '≤ 3 ms',
  (v) => v <= 3,
);
add('idle viewer bytes ÷ in-view post payload, socket', realtime?.socketRatio ?? null, '≤ 1.1', (v) => v <= 1.1);
add('idle viewer bytes ÷ in-view post payload, changes poll', realtime?.pollRatio ?? null, '≤ 1.1', (v) => v <= 1.1);
const two = messages?.summary?.cases.find((c) => c.case.startsWith('two instances'));
add(
  `message p99, two instances, PostgreSQL, ${messages?.clients ?? 1000} clients (ms)`,
  two?.p99 ?? null,
  '≤ 30 ms',
  (v) => v <= 30,
);
add(
  'message deliveries/s ÷ the bare relay (ceilings, same round)',
  messages?.summary?.twoToRelayDeliveries ?? null,
  '≥ 0.5',
  (v) => v >= 0.5,
);
const b = browser?.figures ?? {};
add('tap → popup, mobile, 4× CPU (ms)', b.tapToPopupMs ?? null, '≤ 100 ms', (v) => v <= 100);
add('pan frame p95, city view (ms)', b.panFrameP95Ms ?? null, '≤ 50 ms', (v) => v <= 50);
add('add one post to 10⁵ loaded, main thread (ms)', b.addPostMainThreadMs ?? null, '≤ 4 ms', (v) => v <= 4);
add('first-load JS gzip ÷ MapLibre gzip', b.firstLoadJsRatio ?? null, '≤ 1.15', (v) => v <= 1.15);
add('map ready after load, mobile, 4× CPU (s)', b.mapReadyS ?? null, '≤ 2.5 s', (v) => v <= 2.5);

console.table(rows);
// The generated table ends where the hand-written part (other figures, method, notes) begins.
const summaryFile = join(results, 'summary.md');
const HAND_WRITTEN = '## Other figures';
const kept = existsSync(summaryFile) ? readFileSync(summaryFile, 'utf8') : '';
const notes = kept.includes(HAND_WRITTEN) ? kept.slice(kept.indexOf(HAND_WRITTEN)) : '';
writeFileSync(
  summaryFile,
  [
    '# Benchmark goals, measured by `npm run bench`',
    '',
    'Measured: median of three rounds (min–max), each ratio against its reference in the same run',
    "(bare Fastify hello route, bare `ws` relay, in-view payload, MapLibre's own bundle).",
    "Each bench's JSON in this folder notes its date, machine and load.",
    '',
    '| figure | measured | goal | met? |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.figure} | ${r.measured} | ${r.goal} | ${r.met} |`),
    '',
    notes,
  ].join('\n'),
);
console.log(`written ${join(results, 'summary.md')}`);
