/**
 * The goals' table, from the results the benches wrote (bench/results/*.json): figure, measured
 * (median and spread of the rounds), the reference it is measured against in the same run, goal,
 * met, and the machine and its load when that bench ran. Printed and written to
 * bench/results/summary.md. Figures a bench did not produce read "not measured".
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MAP } from '@moodmap/core';
import { type Spread, formatSpread, sig, spread } from './support/stats.ts';

const results = join(dirname(fileURLToPath(import.meta.url)), 'results');

/** What every results file opens with (support/results.ts). */
interface Run {
  date: string;
  cpus: number;
  cpu?: string;
  loadAverageAtStart: number;
}
const read = <T>(name: string): (T & Run) | null =>
  existsSync(join(results, name)) ? (JSON.parse(readFileSync(join(results, name), 'utf8')) as T & Run) : null;

interface FeedCase {
  engine: string;
  posts: number;
  warm: { ratio: Spread; p50: Spread };
  probe?: { p50: Spread; coldP50: Spread };
  sql: { replayP95Ms: number } | null;
}
interface MessageCase {
  case: string;
  p99: Spread;
  maxDeliveries: Spread;
}
interface CrowdCase {
  case: string;
  figures: Record<string, Spread>;
}
interface BrowserRound {
  panP95: number;
  panP95Bare: number;
}
interface LiveWindow {
  variant: string;
  /** Whether the stream of posts was on during the window. */
  stream: boolean;
  /** The reference window: our layers hidden, stream off (absent from older runs: false). */
  markersHidden?: boolean;
  tapMs: number;
  panFrameP95Ms: number;
}

const feed = read<{ results: FeedCase[] }>('feed.json');
const realtime = read<{ socketRatio: Spread; pollRatio: Spread }>('realtime.json');
const messages = read<{
  clients: number;
  summary?: {
    cases: MessageCase[];
    twoToRelayDeliveries: Spread | null;
    serverCpuAtCeiling?: { socket: Spread | null; http: Spread | null };
    socketToHttpServerCpu?: Spread | null;
  };
}>('messages.json');
const crowd = read<{ viewers: number; summary: CrowdCase[] }>('crowd.json');
const browser = read<{
  figures: Record<string, Spread>;
  references: Record<string, Spread | number>;
  rounds: { firstLoad: BrowserRound[]; addPost: Array<{ mainThreadMs: number }> };
}>('browser.json');
const live = read<{
  windows: LiveWindow[];
  markersHidden?: { figures: { panFrameP95Ms: Spread }; panWithStreamToMarkersHidden: Spread };
}>('live-city.json');

const machine = (run: Run | null) =>
  run ? `${run.cpus}× ${run.cpu ?? '?'}, load ${run.loadAverageAtStart}, ${run.date.slice(0, 10)}` : '–';

type Row = { figure: string; measured: string; reference: string; goal: string; met: string; machine: string };
const rows: Row[] = [];

interface Figure {
  figure: string;
  value: Spread | number | null;
  reference: string;
  goal: string;
  ok: (v: number) => boolean;
  run: Run | null;
  note?: string;
}
function add({ figure, value, reference, goal, ok, run, note = '' }: Figure): void {
  const median = value === null ? null : typeof value === 'number' ? value : value.median;
  const measured = median !== null && Number.isFinite(median);
  rows.push({
    figure,
    measured: measured
      ? `${typeof value === 'number' ? sig(value) : formatSpread(value as Spread)}${note}`
      : 'not measured',
    reference,
    goal,
    met: measured ? (ok(median) ? 'yes' : 'no') : '–',
    machine: measured ? machine(run) : '–',
  });
}

const feedCase = (engine: string, posts: number) =>
  feed?.results.find((r) => r.engine === engine && r.posts === posts) ?? null;
const crowdCase = (prefix: string) => crowd?.summary.find((c) => c.case.startsWith(prefix)) ?? null;
const relayCase = crowdCase('bare');
const crowdPg = crowdCase('app ×2, PostgreSQL');
const crowdRedis = crowdCase('app ×2, Redis');

function browserRows(): void {
  const aloneS = browser?.references.maplibreAloneReadyS;
  const rounds = browser?.rounds.firstLoad ?? [];
  const bare = browser?.references.panFrameP95MarkersHiddenMs;
  add({
    figure: 'pan frame p95 ÷ same map, markers hidden (phone, Paris z12)',
    value: rounds.length ? spread(rounds.map((r) => r.panP95 / r.panP95Bare)) : null,
    reference: bare && typeof bare !== 'number' ? `markers hidden: ${formatSpread(bare, ' ms')}` : '–',
    goal: '≤ 1.2',
    ok: (v) => v <= 1.2,
    run: browser,
  });
  // The shipped build's windows (live-updates.ts's default batch), in round order.
  const shipped = (live?.windows ?? []).filter((w) => w.variant === String(MAP.liveBatchMs) && !w.markersHidden);
  const onWindows = shipped.filter((w) => w.stream);
  const offWindows = shipped.filter((w) => !w.stream);
  add({
    figure: '… with 10 posts/s arriving in view ÷ same map, markers hidden',
    value: live?.markersHidden?.panWithStreamToMarkersHidden ?? null,
    reference:
      [
        live?.markersHidden ? `markers hidden: ${formatSpread(live.markersHidden.figures.panFrameP95Ms, ' ms')}` : '',
        onWindows.length
          ? `stream on ÷ off, same build: ${formatSpread(spread(onWindows.map((w, i) => w.panFrameP95Ms / (offWindows[i]?.panFrameP95Ms ?? Number.NaN))))}`
          : '',
      ]
        .filter(Boolean)
        .join('; ') || '–',
    goal: '≤ 1.3',
    ok: (v) => v <= 1.3,
    run: live,
  });
  const adds = browser?.rounds.addPost ?? [];
  add({
    figure: 'main thread to show one new post ÷ one frame of the markers-hidden map',
    value:
      adds.length && rounds.length
        ? spread(adds.map((a, i) => a.mainThreadMs / (rounds[i]?.panP95Bare ?? Number.NaN)))
        : null,
    reference: browser?.figures.addPostMainThreadMs
      ? `new post ${formatSpread(browser.figures.addPostMainThreadMs, ' ms')} ÷ frame p95, markers hidden`
      : '–',
    goal: '≤ 1.5',
    ok: (v) => v <= 1.5,
    run: browser,
  });
  add({
    figure: 'tap → popup with 10 posts/s arriving (ms)',
    value: onWindows.length ? spread(onWindows.map((w) => w.tapMs)) : null,
    reference: offWindows.length ? `stream off: ${formatSpread(spread(offWindows.map((w) => w.tapMs)), ' ms')}` : '–',
    goal: '≤ 100 ms',
    ok: (v) => v <= 100,
    run: live,
  });
  add({
    figure: 'map drawn with its markers ÷ MapLibre alone, same style',
    value: browser?.figures.mapReadyToMaplibreAlone ?? null,
    reference:
      aloneS && typeof aloneS !== 'number' && browser?.figures.mapReadyS
        ? `MapLibre alone idle ${formatSpread(aloneS, ' s')}; the app ${formatSpread(browser.figures.mapReadyS, ' s')}`
        : '–',
    goal: '≤ 1.15',
    ok: (v) => v <= 1.15,
    run: browser,
  });
  const maplibre = browser?.references.maplibreGzipBytes;
  add({
    figure: "first-load JS gzip ÷ MapLibre's bundle",
    value: browser?.figures.firstLoadJsRatio ?? null,
    reference: typeof maplibre === 'number' ? `MapLibre + worker ${(maplibre / 1000).toFixed(1)} kB gzip` : '–',
    goal: '≤ 1.25',
    ok: (v) => v <= 1.25,
    run: browser,
  });
}

function serverRows(): void {
  const relay = messages?.summary?.cases.find((c) => c.case.startsWith('bare'));
  add({
    figure: 'message deliveries/s ÷ bare relay, two instances',
    value: messages?.summary?.twoToRelayDeliveries ?? null,
    reference: relay ? `relay ${formatSpread(relay.maxDeliveries, '/s')}` : '–',
    goal: '≥ 0.5',
    ok: (v) => v >= 0.5,
    run: messages,
  });
  const cpu = messages?.summary?.serverCpuAtCeiling;
  add({
    figure: 'server CPU a message at the ceiling, two instances: sent on the socket ÷ POSTed',
    value: messages?.summary?.socketToHttpServerCpu ?? null,
    reference:
      cpu?.http && cpu.socket
        ? `POSTed ${formatSpread(cpu.http, ' ms')}, on the socket ${formatSpread(cpu.socket, ' ms')}`
        : '–',
    goal: '≤ 0.5',
    ok: (v) => v <= 0.5,
    run: messages,
  });
  const engine = feedCase('postgres', 1000) ? 'postgres' : 'pglite';
  const small = feedCase(engine, 1000)?.probe;
  const large = feedCase(engine, 1_000_000)?.probe;
  add({
    figure: 'feed p50 on first asks, 10⁶ ÷ 10³ posts',
    value: small && large ? large.coldP50.median / small.coldP50.median : null,
    reference: small && large ? `${sig(large.coldP50.median)} ms ÷ ${sig(small.coldP50.median)} ms, ${engine}` : '–',
    goal: '≤ 3 in 3 of 3 runs (notes)',
    ok: (v) => v <= 3,
    run: feed,
  });
  const kB = (bytes: Spread | undefined) => bytes && spread(bytes.rounds.map((b) => b / 1000));
  const crowdGoals: Array<[string, (c: CrowdCase) => Spread | undefined, string, (v: number) => boolean]> = [
    ['message p99 (ms)', (c) => c.figures.messageP99Ms, '≤ 50 ms', (v) => v <= 50],
    ['post event p95 (ms)', (c) => c.figures.postP95Ms, '≤ 100 ms', (v) => v <= 100],
    ['V8 heap per idle socket (kB)', (c) => kB(c.figures.heapPerSocketBytes), '≤ 20 kB', (v) => v <= 20],
  ];
  for (const [name, pick, goal, ok] of crowdGoals) {
    const reference = relayCase ? pick(relayCase) : undefined;
    for (const [bus, c] of [
      ['PostgreSQL', crowdPg],
      ['Redis', crowdRedis],
    ] as const) {
      add({
        figure: `${crowd?.viewers ?? 10_000} sockets, two instances, ${bus} bus: ${name}`,
        value: (c && pick(c)) ?? null,
        reference: reference ? `bare relay ${formatSpread(reference)}` : '–',
        goal,
        ok,
        run: crowd,
      });
    }
  }
}

function otherRows(): void {
  add({
    figure: 'feed req/s ÷ bare hello, PostgreSQL, 10⁵ posts, realistic mix (warm)',
    value: feedCase('postgres', 100_000)?.warm.ratio ?? null,
    reference: 'bare Fastify hello, same rounds',
    goal: '≥ 0.30',
    ok: (v) => v >= 0.3,
    run: feed,
  });
  add({
    figure: 'feed req/s ÷ bare hello, PGlite, 10⁵ posts, realistic mix (warm)',
    value: feedCase('pglite', 100_000)?.warm.ratio ?? null,
    reference: 'bare Fastify hello, same rounds',
    goal: '≥ 0.10',
    ok: (v) => v >= 0.1,
    run: feed,
  });
  add({
    figure: 'idle viewer bytes ÷ in-view post payload, socket',
    value: realtime?.socketRatio ?? null,
    reference: 'the in-view posts’ own bytes',
    goal: '≤ 1.1',
    ok: (v) => v <= 1.1,
    run: realtime,
  });
  add({
    figure: 'idle viewer bytes ÷ in-view post payload, changes poll',
    value: realtime?.pollRatio ?? null,
    reference: 'the in-view posts’ own bytes',
    goal: '≤ 1.1',
    ok: (v) => v <= 1.1,
    run: realtime,
  });
  const two = messages?.summary?.cases.find((c) => c.case === 'two instances on PG (LISTEN/NOTIFY)');
  const relay = messages?.summary?.cases.find((c) => c.case.startsWith('bare'));
  add({
    figure: `message p99 at 200/s, two instances, PostgreSQL, ${messages?.clients ?? 1000} clients (ms)`,
    value: two?.p99 ?? null,
    reference: relay ? `bare relay ${formatSpread(relay.p99, ' ms')}` : '–',
    goal: '≤ 30 ms',
    ok: (v) => v <= 30,
    run: messages,
  });
  add({
    figure: 'tap → popup, phone, 4× CPU, no stream (ms)',
    value: browser?.figures.tapToPopupMs ?? null,
    reference: '–',
    goal: '≤ 100 ms',
    ok: (v) => v <= 100,
    run: browser,
  });
}

browserRows();
serverRows();
otherRows();

console.table(rows.map(({ figure, measured, goal, met }) => ({ figure, measured, goal, met })));
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
    'Measured: median of three rounds (min–max). Each ratio is taken against its reference in the',
    'same run (alternated rounds); the reference column gives it, the last column the machine and',
    'its load average when that bench started.',
    '',
    '| figure | measured | reference, same run | goal | met? | machine, load, date |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.figure} | ${r.measured} | ${r.reference} | ${r.goal} | ${r.met} | ${r.machine} |`),
    '',
    notes,
  ].join('\n'),
);
console.log(`written ${summaryFile}`);
