/**
 * The embedded basemap's vector tiles: bytes of the first drawn view, and the tile
 * endpoint's throughput, measured so it cannot flatter.
 *
 * Bytes: the tiles MapLibre asks for to draw the app's first screen (core MAP.desktopView at
 * 1440×900, MAP.mobileView at 390×844; support/tile-views.ts) and a city view, fetched gzip
 * from a fresh server (the first viewer: nothing cached), against the world GeoJSON the map
 * loaded before tiles (land + borders, fetched from the same server). The run fails if a first
 * view costs more than FIRST_VIEW_BUDGET_BYTES, the old GeoJSON's ~660 kB.
 *
 * Throughput: the server (the real app after prepareGeoAssets, logs at the default level) in a
 * process of its own, the load from this one (autocannon, BENCH_CONNECTIONS connections, gzip
 * accepted like a browser), over the tile URLs of a realistic mix of views (75 % city, 15 %
 * regional, 10 % world; support/tile-views.ts):
 *   - warm: BENCH_DURATION s of draws from the URLs of BENCH_VIEWS views, after a warm-up pass;
 *   - cold: each URL of a fresh mix of BENCH_COLD_VIEWS views requested once;
 * alternated with the bare Fastify hello route (its own process), BENCH_ROUNDS rounds; each
 * ratio is tiles ÷ the hello of its own round, median and spread printed, load average noted.
 * Writes bench/results/tiles.json. Run: `npm run bench -w bench -- tiles`
 * (BENCH_ROUNDS=1 BENCH_DURATION=2 for a smoke run).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { envNumber } from '../support/env.ts';
import { resultsFile, round, startRun, writeResults } from '../support/results.ts';
import { forkServer, type ServerProcess } from '../support/server-process.ts';
import { formatSpread, loadLine, spread, type Spread } from '../support/stats.ts';
import { CITY_VIEWS, FIRST_VIEWS, type TileView, tileMix, viewTiles } from '../support/tile-views.ts';
import { type Load, load as runLoad } from '../support/load.ts';

const here = dirname(fileURLToPath(import.meta.url));
const RESULTS = resultsFile('tiles.json');
const TILE_SERVER = join(here, 'tile-server.ts');
const HELLO = join(here, '..', 'support', 'hello-server.ts');

const ROUNDS = envNumber('BENCH_ROUNDS', 3);
const DURATION_S = envNumber('BENCH_DURATION', 10);
const CONNECTIONS = envNumber('BENCH_CONNECTIONS', 10);
const VIEWS = envNumber('BENCH_VIEWS', 1800);
const COLD_VIEWS = envNumber('BENCH_COLD_VIEWS', 300);

/** The world GeoJSON the first view loaded before tiles (land + borders). */
const FIRST_VIEW_BUDGET_BYTES = 660_000;
/**
 * The same first views measured on the tiles before places and water were added (land and
 * borders only), gzip bytes, with this bench's view geometry: what the added places and water cost.
 */
const BEFORE_PLACES = { 'desktop 1440×900': 50_652, 'mobile 390×844': 16_482 } as Record<string, number>;

const GZIP = { 'accept-encoding': 'gzip, deflate, br' };
const IDENTITY = { 'accept-encoding': 'identity' };

/** Each load run, from this process: autocannon on `paths()` (support/load.ts). */
const load = (base: string, paths: (() => string) | null, opts: { duration?: number; amount?: number }) =>
  runLoad(base, paths, { connections: CONNECTIONS, headers: GZIP, ...opts });

async function bytesOf(url: string, headers: Record<string, string> = GZIP): Promise<number> {
  const res = await fetch(url, { headers });
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  // fetch decodes gzip; the bytes on the wire are the Content-Length the server sent.
  const length = Number(res.headers.get('content-length') ?? Number.NaN);
  const body = await res.arrayBuffer();
  return Number.isFinite(length) ? length : body.byteLength;
}

interface ViewBytes {
  view: string;
  tiles: number;
  gzipBytes: number;
  /** Wall time to fetch the view's tiles from a server that had cut none of them, six at a time like a browser. */
  coldMs: number;
  beforePlacesGzipBytes: number | null;
}

async function measureView(base: string, view: TileView): Promise<ViewBytes> {
  const urls = viewTiles(view).map((t) => `${base}/api/geo/tiles/${t}.pbf`);
  const started = performance.now();
  let bytes = 0;
  for (let i = 0; i < urls.length; i += 6) {
    const sizes = await Promise.all(urls.slice(i, i + 6).map((u) => bytesOf(u)));
    bytes += sizes.reduce((a, b) => a + b, 0);
  }
  return {
    view: view.name,
    tiles: urls.length,
    gzipBytes: bytes,
    coldMs: round(performance.now() - started),
    beforePlacesGzipBytes: BEFORE_PLACES[view.name] ?? null,
  };
}

async function start(script: string, execArgv: string[] = []) {
  const server: ServerProcess = forkServer(script, {}, execArgv, true);
  const info = await server.next<{ port: number; prepareMs?: number; rssMb?: number; heapMb?: number }>('listening');
  return { server, base: `http://127.0.0.1:${info.port}`, info };
}

async function main(): Promise<void> {
  const run = startRun();
  const tiles = await start(TILE_SERVER, ['--expose-gc']);
  const hello = await start(HELLO);
  const loads = [`start ${loadLine()}`];
  try {
    console.log(
      `tile server: geo assets prepared in ${round(tiles.info.prepareMs ?? 0)} ms, rss ${round(tiles.info.rssMb ?? 0)} MB (heap ${round(tiles.info.heapMb ?? 0)} MB) after it`,
    );
    // Bytes first, while nothing is cached: the first viewer's view.
    const views: ViewBytes[] = [];
    for (const view of [...FIRST_VIEWS, ...CITY_VIEWS]) views.push(await measureView(tiles.base, view));
    const geojson = {
      identityBytes:
        (await bytesOf(`${tiles.base}/api/map/land.geojson`, IDENTITY)) +
        (await bytesOf(`${tiles.base}/api/map/borders.geojson`, IDENTITY)),
      gzipBytes:
        (await bytesOf(`${tiles.base}/api/map/land.geojson`)) +
        (await bytesOf(`${tiles.base}/api/map/borders.geojson`)),
    };
    console.table(
      views.map((v) => ({
        ...v,
        'old world GeoJSON (gzip)': geojson.gzipBytes,
        'old world GeoJSON (identity)': geojson.identityBytes,
      })),
    );

    const mix = tileMix(VIEWS, 1);
    let k = 0;
    await load(tiles.base, () => mix[k++ % mix.length], { amount: mix.length });
    const warmPath = () => mix[Math.floor(Math.random() * mix.length)];
    const helloRuns: Load[] = [];
    const warmRuns: Load[] = [];
    const coldRuns: Load[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      helloRuns.push(await load(hello.base, null, { duration: DURATION_S }));
      warmRuns.push(await load(tiles.base, warmPath, { duration: DURATION_S }));
      const cold = tileMix(COLD_VIEWS, 1000 + r);
      let c = 0;
      coldRuns.push(await load(tiles.base, () => cold[c++ % cold.length], { amount: cold.length }));
      loads.push(`round ${r + 1} ${loadLine()}`);
      console.log(
        `round ${r + 1}: hello ${round(helloRuns[r].rps, 0)} req/s, warm ${round(warmRuns[r].rps, 0)} req/s (p50 ${warmRuns[r].p50} ms), cold ${round(coldRuns[r].rps, 0)} req/s (p50 ${coldRuns[r].p50} ms, p99 ${coldRuns[r].p99} ms) · load ${loadLine()}`,
      );
    }
    const ratio = (runs: Load[]) => spread(runs.map((x, i) => x.rps / helloRuns[i].rps));
    const figures = (runs: Load[]) => ({
      rps: spread(runs.map((x) => x.rps)),
      ratio: ratio(runs),
      p50: spread(runs.map((x) => x.p50)),
      p99: spread(runs.map((x) => x.p99)),
    });
    const warm = figures(warmRuns);
    const cold = figures(coldRuns);
    const hellos: Spread = spread(helloRuns.map((x) => x.rps));
    console.log(
      `\nTiles: ${CONNECTIONS} connections, ${DURATION_S} s per warm run, ${COLD_VIEWS} cold views per round, ${ROUNDS} rounds; median (min–max)`,
    );
    console.table([
      {
        'hello req/s': formatSpread(hellos),
        'warm req/s': formatSpread(warm.rps),
        'warm ÷ hello': formatSpread(warm.ratio),
        'warm p50 ms': formatSpread(warm.p50),
        'cold req/s': formatSpread(cold.rps),
        'cold ÷ hello': formatSpread(cold.ratio),
        'cold p99 ms': formatSpread(cold.p99),
      },
    ]);
    const overBudget = views.filter(
      (v) => FIRST_VIEWS.some((f) => f.name === v.view) && v.gzipBytes > FIRST_VIEW_BUDGET_BYTES,
    );
    writeResults(RESULTS, run, {
      reference: 'bare Fastify hello route, own process, same default log level, alternated with each tile run',
      rounds: ROUNDS,
      durationSeconds: DURATION_S,
      connections: CONNECTIONS,
      mix: { views: VIEWS, urls: mix.length, distinctUrls: new Set(mix).size },
      coldViewsPerRound: COLD_VIEWS,
      server: {
        prepareMs: round(tiles.info.prepareMs ?? 0),
        rssMbAfterPrepare: round(tiles.info.rssMb ?? 0),
        heapMbAfterPrepare: round(tiles.info.heapMb ?? 0),
      },
      firstViewBudgetBytes: FIRST_VIEW_BUDGET_BYTES,
      views,
      oldWorldGeoJSON: geojson,
      hello: hellos,
      warm,
      cold,
      load: loads,
    });
    if (overBudget.length) {
      console.error(
        `over the first view's budget (${FIRST_VIEW_BUDGET_BYTES} B): ${overBudget.map((v) => `${v.view} ${v.gzipBytes} B`).join(', ')}`,
      );
      process.exitCode = 1;
    }
  } finally {
    await Promise.all([tiles.server.close(), hello.server.close()]);
  }
}

await main();
