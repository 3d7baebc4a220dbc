/**
 * The map feed under load (issue 4 item 7). Seeds 100 000 live posts (70 % around ~230 cities
 * with gaussian jitter, 30 % uniform over land-ish boxes; seeded generator, so runs compare) on
 * PGlite and, when TEST_DATABASE_URL is set, on a PostgreSQL database of its own; starts the
 * real app on 127.0.0.1 and measures with autocannon (10 s, 10 connections each) the viewport
 * endpoint for a city view (Paris, zoom 12), a country view (France, zoom 5) and the desktop
 * default view (spec §9, zoom 2.5) next to a bare Fastify hello-world in the same run — the ratio
 * is the figure. Zoomed-out answers are shared for a second by viewers of the same cells, so the
 * table also gives each view's uncached answer time. It then compares the bytes an
 * idle map viewer receives per minute: WebSocket events (measured on a real socket for a stated
 * rate of posts) against the spec's 5 s poll of the whole feed (GET /api/posts, measured once).
 * Run: `npx tsx bench/feed/feed.bench.ts` (prints tables, writes bench/results/feed.json).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import { MOODS } from '@moodmap/core';
import { buildApp } from '../../server/src/app.ts';
import { testConfig } from '../../server/src/config.ts';
import { openDatabase, type Database, type Db, type DbEngine } from '../../server/src/db/client.ts';
import { getViewport, parseViewport } from '../../server/src/modules/posts/feed.ts';
import { createPostgresDatabase } from '../../server/test/helpers/databases.ts';
import { round, startRun, writeResults } from '../support/results.ts';

/** About 200 large cities [name, latitude, longitude, weight 1–5]: where most posts land. */
const CITIES: Array<[string, number, number, number]> = [
  ['Paris', 48.857, 2.352, 5], ['Lyon', 45.764, 4.836, 3], ['Marseille', 43.296, 5.37, 3], ['Toulouse', 43.605, 1.444, 2],
  ['Nice', 43.71, 7.262, 2], ['Nantes', 47.218, -1.554, 2], ['Strasbourg', 48.573, 7.752, 2], ['Montpellier', 43.611, 3.877, 2],
  ['Bordeaux', 44.838, -0.579, 2], ['Lille', 50.629, 3.057, 2], ['Rennes', 48.117, -1.678, 2], ['Saint-Denis (Réunion)', -20.882, 55.45, 2],
  ['Fort-de-France', 14.616, -61.059, 1], ['Pointe-à-Pitre', 16.241, -61.533, 1], ['Nouméa', -22.276, 166.458, 1], ['Papeete', -17.535, -149.57, 1],
  ['Cayenne', 4.922, -52.313, 1], ['Mamoudzou', -12.781, 45.228, 1], ['Ajaccio', 41.919, 8.738, 1], ['Grenoble', 45.188, 5.724, 1],
  ['Brussels', 50.85, 4.352, 3], ['Geneva', 46.204, 6.143, 2], ['Lausanne', 46.52, 6.633, 1], ['Luxembourg', 49.611, 6.13, 1],
  ['Montreal', 45.502, -73.567, 3], ['Quebec', 46.813, -71.208, 2], ['Dakar', 14.716, -17.467, 2], ['Abidjan', 5.36, -4.008, 2],
  ['Casablanca', 33.573, -7.59, 2], ['Rabat', 34.02, -6.841, 1], ['Algiers', 36.754, 3.059, 2], ['Tunis', 36.806, 10.181, 2],
  ['Kinshasa', -4.441, 15.266, 2], ['Douala', 4.051, 9.768, 1], ['Yaoundé', 3.848, 11.502, 1], ['Bamako', 12.639, -8.003, 1],
  ['Antananarivo', -18.879, 47.508, 1], ['Port Louis', -20.161, 57.501, 1], ['Beirut', 33.894, 35.502, 1], ['Port-au-Prince', 18.594, -72.307, 1],
  ['London', 51.507, -0.128, 5], ['Manchester', 53.48, -2.242, 2], ['Birmingham', 52.486, -1.89, 2], ['Glasgow', 55.864, -4.252, 1],
  ['Edinburgh', 55.953, -3.188, 1], ['Dublin', 53.35, -6.26, 2], ['Amsterdam', 52.368, 4.904, 2], ['Rotterdam', 51.924, 4.478, 1],
  ['Berlin', 52.52, 13.405, 3], ['Hamburg', 53.551, 9.994, 2], ['Munich', 48.135, 11.582, 2], ['Cologne', 50.938, 6.96, 2],
  ['Frankfurt', 50.11, 8.682, 2], ['Stuttgart', 48.776, 9.183, 1], ['Vienna', 48.208, 16.374, 2], ['Zurich', 47.377, 8.541, 2],
  ['Madrid', 40.417, -3.704, 3], ['Barcelona', 41.385, 2.173, 3], ['Valencia', 39.47, -0.376, 2], ['Seville', 37.389, -5.984, 1],
  ['Lisbon', 38.722, -9.139, 2], ['Porto', 41.158, -8.629, 1], ['Rome', 41.903, 12.496, 3], ['Milan', 45.464, 9.19, 3],
  ['Naples', 40.852, 14.268, 2], ['Turin', 45.07, 7.687, 1], ['Athens', 37.984, 23.728, 2], ['Istanbul', 41.008, 28.978, 4],
  ['Ankara', 39.934, 32.86, 2], ['Warsaw', 52.23, 21.012, 2], ['Krakow', 50.065, 19.945, 1], ['Prague', 50.076, 14.438, 2],
  ['Budapest', 47.498, 19.04, 2], ['Bucharest', 44.427, 26.103, 2], ['Sofia', 42.698, 23.322, 1], ['Belgrade', 44.787, 20.457, 1],
  ['Copenhagen', 55.676, 12.568, 2], ['Stockholm', 59.329, 18.069, 2], ['Oslo', 59.914, 10.752, 1], ['Helsinki', 60.17, 24.938, 1],
  ['Reykjavik', 64.147, -21.942, 1], ['Moscow', 55.756, 37.617, 4], ['Saint Petersburg', 59.939, 30.316, 2], ['Kyiv', 50.45, 30.523, 2],
  ['Minsk', 53.9, 27.567, 1], ['Riga', 56.95, 24.105, 1], ['Vilnius', 54.687, 25.28, 1], ['Tallinn', 59.437, 24.754, 1],
  ['Novosibirsk', 55.008, 82.935, 1], ['Yekaterinburg', 56.838, 60.597, 1], ['Vladivostok', 43.115, 131.886, 1], ['Anadyr', 64.734, 177.514, 1],
  ['New York', 40.713, -74.006, 5], ['Los Angeles', 34.052, -118.244, 4], ['Chicago', 41.878, -87.63, 3], ['Houston', 29.76, -95.37, 3],
  ['Phoenix', 33.448, -112.074, 2], ['Philadelphia', 39.953, -75.165, 2], ['San Antonio', 29.424, -98.494, 1], ['San Diego', 32.716, -117.161, 2],
  ['Dallas', 32.777, -96.797, 2], ['San Francisco', 37.775, -122.419, 3], ['Seattle', 47.606, -122.332, 2], ['Denver', 39.739, -104.99, 2],
  ['Boston', 42.36, -71.059, 2], ['Miami', 25.762, -80.192, 3], ['Atlanta', 33.749, -84.388, 2], ['Washington', 38.907, -77.037, 2],
  ['Detroit', 42.331, -83.046, 1], ['Minneapolis', 44.978, -93.265, 1], ['New Orleans', 29.951, -90.072, 1], ['Las Vegas', 36.17, -115.14, 1],
  ['Honolulu', 21.307, -157.858, 1], ['Anchorage', 61.218, -149.9, 1], ['Toronto', 43.653, -79.383, 3], ['Vancouver', 49.283, -123.121, 2],
  ['Calgary', 51.045, -114.072, 1], ['Ottawa', 45.421, -75.697, 1], ['Mexico City', 19.433, -99.133, 4], ['Guadalajara', 20.659, -103.35, 2],
  ['Monterrey', 25.686, -100.316, 2], ['Havana', 23.113, -82.366, 1], ['Santo Domingo', 18.486, -69.931, 1], ['San Juan', 18.466, -66.106, 1],
  ['Guatemala City', 14.634, -90.506, 1], ['Panama City', 8.982, -79.519, 1], ['Bogotá', 4.711, -74.072, 3], ['Medellín', 6.244, -75.581, 2],
  ['Caracas', 10.48, -66.904, 2], ['Lima', -12.046, -77.043, 3], ['Quito', -0.18, -78.468, 1], ['Santiago', -33.449, -70.669, 3],
  ['Buenos Aires', -34.604, -58.382, 4], ['Montevideo', -34.901, -56.165, 1], ['São Paulo', -23.551, -46.633, 5], ['Rio de Janeiro', -22.907, -43.173, 4],
  ['Brasília', -15.794, -47.882, 2], ['Salvador', -12.977, -38.501, 2], ['Fortaleza', -3.732, -38.527, 2], ['Recife', -8.048, -34.877, 1],
  ['Belo Horizonte', -19.917, -43.935, 2], ['Manaus', -3.119, -60.022, 1], ['Porto Alegre', -30.035, -51.218, 1], ['La Paz', -16.49, -68.119, 1],
  ['Asunción', -25.264, -57.576, 1], ['Cairo', 30.044, 31.236, 4], ['Alexandria', 31.2, 29.919, 2], ['Lagos', 6.524, 3.379, 4],
  ['Abuja', 9.076, 7.399, 1], ['Accra', 5.603, -0.187, 2], ['Nairobi', -1.292, 36.822, 2], ['Addis Ababa', 8.98, 38.757, 2],
  ['Dar es Salaam', -6.792, 39.208, 2], ['Kampala', 0.347, 32.582, 1], ['Luanda', -8.839, 13.289, 2], ['Johannesburg', -26.204, 28.047, 3],
  ['Cape Town', -33.925, 18.424, 2], ['Durban', -29.858, 31.022, 1], ['Khartoum', 15.5, 32.56, 1], ['Tel Aviv', 32.085, 34.782, 2],
  ['Amman', 31.954, 35.911, 1], ['Riyadh', 24.713, 46.675, 2], ['Jeddah', 21.485, 39.193, 2], ['Dubai', 25.205, 55.271, 3],
  ['Doha', 25.285, 51.531, 1], ['Tehran', 35.689, 51.389, 3], ['Baghdad', 33.315, 44.366, 2], ['Karachi', 24.861, 67.01, 3],
  ['Lahore', 31.52, 74.359, 3], ['Islamabad', 33.684, 73.048, 1], ['Kabul', 34.555, 69.207, 1], ['Tashkent', 41.3, 69.24, 1],
  ['Almaty', 43.222, 76.851, 1], ['Delhi', 28.614, 77.209, 5], ['Mumbai', 19.076, 72.878, 5], ['Bangalore', 12.972, 77.595, 3],
  ['Kolkata', 22.573, 88.364, 3], ['Chennai', 13.083, 80.271, 3], ['Hyderabad', 17.385, 78.487, 3], ['Ahmedabad', 23.023, 72.571, 2],
  ['Pune', 18.52, 73.857, 2], ['Dhaka', 23.811, 90.413, 4], ['Kathmandu', 27.717, 85.324, 1], ['Colombo', 6.927, 79.861, 1],
  ['Yangon', 16.866, 96.195, 1], ['Bangkok', 13.756, 100.502, 4], ['Hanoi', 21.028, 105.834, 2], ['Ho Chi Minh City', 10.823, 106.63, 3],
  ['Phnom Penh', 11.556, 104.928, 1], ['Kuala Lumpur', 3.139, 101.687, 3], ['Singapore', 1.352, 103.82, 3], ['Jakarta', -6.209, 106.846, 4],
  ['Surabaya', -7.258, 112.752, 2], ['Bandung', -6.917, 107.619, 1], ['Denpasar', -8.65, 115.216, 1], ['Manila', 14.6, 120.984, 4],
  ['Cebu', 10.316, 123.891, 1], ['Beijing', 39.904, 116.407, 5], ['Shanghai', 31.23, 121.474, 5], ['Guangzhou', 23.129, 113.264, 4],
  ['Shenzhen', 22.543, 114.058, 4], ['Hong Kong', 22.32, 114.169, 3], ['Chengdu', 30.573, 104.066, 3], ['Chongqing', 29.563, 106.551, 3],
  ['Wuhan', 30.593, 114.305, 3], ['Xi\'an', 34.341, 108.94, 2], ['Tianjin', 39.343, 117.362, 2], ['Nanjing', 32.06, 118.797, 2],
  ['Hangzhou', 30.274, 120.155, 2], ['Shenyang', 41.805, 123.431, 1], ['Harbin', 45.803, 126.535, 1], ['Taipei', 25.033, 121.565, 3],
  ['Seoul', 37.567, 126.978, 4], ['Busan', 35.18, 129.075, 2], ['Pyongyang', 39.039, 125.763, 1], ['Tokyo', 35.676, 139.65, 5],
  ['Osaka', 34.694, 135.502, 3], ['Nagoya', 35.181, 136.906, 2], ['Sapporo', 43.062, 141.354, 1], ['Fukuoka', 33.59, 130.402, 1],
  ['Ulaanbaatar', 47.886, 106.906, 1], ['Sydney', -33.869, 151.209, 3], ['Melbourne', -37.814, 144.963, 3], ['Brisbane', -27.47, 153.026, 2],
  ['Perth', -31.95, 115.86, 2], ['Adelaide', -34.929, 138.601, 1], ['Auckland', -36.849, 174.763, 2], ['Wellington', -41.287, 174.776, 1],
  ['Christchurch', -43.532, 172.637, 1], ['Suva', -18.124, 178.45, 1], ['Port Moresby', -9.443, 147.18, 1], ['Apia', -13.833, -171.767, 1],
];

export const POSTS = 100_000;
/** 100 000 posts a day ≈ 70 a minute: the stream an idle viewer receives at that volume. */
const POSTS_PER_MINUTE = Math.round(POSTS / (24 * 60));
const DURATION_S = 10;
const CONNECTIONS = 10;
const VIEWPORT_PX = { width: 1280, height: 800 };
const RESULTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'results', 'feed.json');

/** mulberry32: tiny seeded PRNG. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Land-ish boxes [south, west, north, east, weight] for the 30 % spread outside cities. */
const BOXES: Array<[number, number, number, number, number]> = [
  [36, -10, 60, 40, 3], [25, -125, 55, -65, 4], [-40, -75, 5, -35, 3],
  [-30, -10, 30, 40, 4], [10, 60, 55, 140, 5], [-38, 115, -12, 153, 1],
];

const PHRASES = [
  'Quelle belle journée au soleil', 'Apéro entre amis ce soir', 'Je viens de décrocher le job !',
  'Trop de monde dans le métro ce matin', 'Concert incroyable, la foule est en feu', 'Un café en terrasse, rien de mieux',
  'Embouteillages interminables, je craque', 'Premier rendez-vous, je suis stressé', 'Prime reçue, on fête ça',
  'Balade au bord de l’eau avec mon chien', 'Le marché du dimanche sent bon les fraises', 'Anniversaire surprise réussi',
];

function pick<T>(items: readonly T[], weights: readonly number[], r: number): T {
  const total = weights.reduce((a, b) => a + b, 0);
  let x = r * total;
  for (let i = 0; i < items.length; i++) {
    x -= weights[i];
    if (x < 0) return items[i];
  }
  return items[items.length - 1];
}

const wrapLon = (lon: number) => ((((lon + 180) % 360) + 360) % 360) - 180;

interface SeedRow {
  u: string; lat: number; lon: number; c: string; t: string; photo: string | null;
  img: string | null; th: string | null; au: string | null; ad: number | null; pulse: boolean; age: number;
}

function seedRows(count: number, next: () => number, base: string): SeedRow[] {
  const rows: SeedRow[] = [];
  const cityWeights = CITIES.map((c) => c[3]);
  const boxWeights = BOXES.map((b) => b[4]);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  for (let i = 0; i < count; i++) {
    let lat: number;
    let lon: number;
    if (next() < 0.7) {
      const [, cLat, cLon] = pick(CITIES, cityWeights, next());
      const sigma = 0.04 + next() * 0.12; // ~5–18 km: a city and its suburbs
      lat = Math.max(-89.9, Math.min(89.9, cLat + gauss() * sigma));
      lon = wrapLon(cLon + (gauss() * sigma) / Math.cos((cLat * Math.PI) / 180));
    } else {
      const [s, w, n, e] = pick(BOXES, boxWeights, next());
      lat = s + next() * (n - s);
      lon = w + next() * (e - w);
    }
    const u = crypto.randomUUID();
    const image = next() < 0.35;
    const voice = next() < 0.1;
    const words = Array.from({ length: 1 + Math.floor(next() * 3) }, () => PHRASES[Math.floor(next() * PHRASES.length)]);
    rows.push({
      u, lat, lon,
      c: MOODS[Math.floor(next() * MOODS.length)],
      t: words.join('. '),
      photo: next() < 0.6 ? `${base}/media/avatars/${u}.webp` : null,
      img: image ? `${base}/media/posts/${u}.webp` : null,
      th: image ? `${base}/media/posts/${u}-thumb.webp` : null,
      au: voice ? `${base}/media/voice/${u}.webm` : null,
      ad: voice ? Math.round((1 + next() * 59) * 10) / 10 : null,
      pulse: next() < 0.05,
      // Between 1 min and 23 h old: nothing expires during the run.
      age: 60 + Math.floor(next() * 23 * 3600),
    });
  }
  return rows;
}

/**
 * Inserts `count` users, profiles and live posts in batches (one statement per batch). Media URLs
 * are root-relative by default, as the local store writes them.
 */
export async function seedPosts(db: Db, count: number, seed = 1, base = ''): Promise<void> {
  const next = random(seed);
  const BATCH = 5000;
  for (let done = 0; done < count; done += BATCH) {
    const rows = seedRows(Math.min(BATCH, count - done), next, base);
    await db.execute(sql`
      with x as (
        select * from json_to_recordset(${JSON.stringify(rows)}::json)
          as x(u uuid, lat float8, lon float8, c text, t text, photo text, img text, th text, au text, ad real, pulse boolean, age int)
      ), new_users as (
        insert into users (id, email, password_hash, email_confirmed_at)
        select u, u::text || '@bench.invalid', 'not-a-hash', now() from x
      ), new_profiles as (
        insert into profiles (id, username, profile_photo_url, is_premium)
        select u, 'membre_' || left(u::text, 8), photo, pulse from x
      )
      insert into publications (user_id, category, content, latitude, longitude, nickname, created_at,
                                image_url, thumbnail_url, media_urls, audio_url, audio_duration, has_pulse_effect)
      select u, c, t, lat, lon, 'membre_' || left(u::text, 8), now() - age * interval '1 second',
             img, th, case when img is null then '[]'::jsonb else jsonb_build_array(img) end, au, ad, pulse
      from x`);
  }
  await db.execute(sql`vacuum analyze users`);
  await db.execute(sql`vacuum analyze profiles`);
  await db.execute(sql`vacuum analyze publications`);
}

const mercY = (lat: number) => 0.5 - Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) / (2 * Math.PI);
const mercLat = (y: number) => (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI;

/** The bounds MapLibre reports for a map of VIEWPORT_PX centred on (lat, lon) at `zoom`. */
export function viewAround(lat: number, lon: number, zoom: number) {
  const world = 256 * 2 ** zoom;
  const halfLon = ((VIEWPORT_PX.width / 2) / world) * 360;
  const y = mercY(lat);
  const halfY = VIEWPORT_PX.height / 2 / world;
  const r = (v: number) => Number(v.toFixed(5));
  return { west: r(lon - halfLon), south: r(mercLat(y + halfY)), east: r(lon + halfLon), north: r(mercLat(y - halfY)), zoom };
}

export function viewportUrl(view: ReturnType<typeof viewAround>): string {
  return `/api/posts/viewport?${new URLSearchParams(Object.entries(view).map(([k, v]): [string, string] => [k, String(v)]))}`;
}

export const VIEWS = {
  city: { label: 'city: Paris, zoom 12', view: viewAround(48.857, 2.352, 12) },
  country: { label: 'country: France, zoom 5', view: viewAround(46.6, 2.4, 5) },
};

// ---------------------------------------------------------------------------------------------
// Load

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  throughput: { average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (options: { url: string; connections: number; duration: number; workers?: number }) => Promise<AutocannonResult>;
// autocannon ships no types; its programmatic API is this one call.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** 10 s at 10 connections, from a worker thread so the server keeps the main thread to itself. */
async function load(url: string): Promise<AutocannonResult> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, workers: 1 });
  if (result.non2xx || result.errors || result.timeouts) {
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return result;
}

async function helloWorld(): Promise<{ url: string; close: () => Promise<void> }> {
  const app = Fastify({ logger: false });
  app.get('/', async () => ({ hello: 'world' }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/`, close: () => app.close() };
}

async function openEngine(engine: DbEngine): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (engine === 'pglite') return { database: await openDatabase({ dataDir: null }), drop: async () => {} };
  const { url, drop } = await createPostgresDatabase();
  return { database: await openDatabase({ databaseUrl: url, poolSize: 10 }), drop };
}

async function listen(database: Database): Promise<{ app: FastifyInstance; base: string }> {
  const app = await buildApp(testConfig(), { database });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  return { app, base: `http://127.0.0.1:${port}` };
}


/**
 * Median time of one answer computed afresh (query + rows to DTOs, no HTTP, no shared answer):
 * what each request would cost if no viewer shared its cells.
 */
async function uncachedMs(db: Db, view: ReturnType<typeof viewAround>): Promise<number> {
  const parsed = parseViewport(Object.fromEntries(Object.entries(view).map(([k, v]) => [k, String(v)])));
  const times: number[] = [];
  for (let i = 0; i < 11; i++) {
    const start = performance.now();
    JSON.stringify(await getViewport(db, parsed, null));
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[5];
}

// ---------------------------------------------------------------------------------------------
// Bytes an idle map viewer receives

/**
 * Opens a real socket on /api/realtime, publishes `count` post.created events (real PostDtos)
 * and as many post.deleted events through the app's bus, and counts the bytes the socket read
 * (frames with their headers). Also measures one application-level pong.
 */
async function measureSocket(app: FastifyInstance, base: string, posts: unknown[], count: number) {
  const socket = new WebSocket(`${base.replace('http', 'ws')}/api/realtime`);
  const raw = () => (socket as unknown as { _socket: { bytesRead: number } })._socket.bytesRead;
  const messages: string[] = [];
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.on('message', (data) => {
      messages.push(String(data));
      if (messages.length === 1) resolve();
    });
  });
  const waitFor = async (n: number) => {
    for (let i = 0; i < 500 && messages.length < n; i++) await new Promise((r) => setTimeout(r, 10));
    if (messages.length < n) throw new Error(`socket received ${messages.length - 1} of ${n - 1} events`);
  };
  const start = raw();
  const sent = posts.slice(0, count) as Array<{ id: string }>;
  for (const post of sent) await app.ctx.bus.publish({ type: 'post.created', data: { post } });
  await waitFor(1 + sent.length);
  const created = raw() - start;
  for (const post of sent) await app.ctx.bus.publish({ type: 'post.deleted', data: { id: post.id } });
  await waitFor(1 + 2 * sent.length);
  const deleted = raw() - start - created;
  const beforePong = raw();
  socket.send(JSON.stringify({ type: 'ping' }));
  await waitFor(2 + 2 * sent.length);
  const pong = raw() - beforePong;
  socket.close();
  return { createdFrameBytes: created / sent.length, deletedFrameBytes: deleted / sent.length, pongFrameBytes: pong };
}

// ---------------------------------------------------------------------------------------------
// Run

async function main(): Promise<void> {
  const run = startRun();
  const engines: DbEngine[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
  const hello = await helloWorld();
  const rows: Array<Record<string, string | number>> = [];
  const views = { ...VIEWS, world: { label: 'world: desktop default view, zoom 2.5', view: viewAround(30, 20, 2.5) } };
  let idle: Record<string, number> | null = null;

  for (const engine of engines) {
    const { database, drop } = await openEngine(engine);
    try {
      let t = performance.now();
      await seedPosts(database.db, POSTS);
      const seedS = round((performance.now() - t) / 1000);
      console.log(`${engine}: ${POSTS} posts seeded in ${seedS} s`);
      const { app, base } = await listen(database);
      try {
        // Hello-world before and after this engine's cases; the ratio is to their mean, so a
        // machine whose load drifts during the run (shared CPUs) skews it less.
        const helloBefore = await load(hello.url);
        const cases: Array<Record<string, string | number>> = [];
        const rates: number[] = [];
        let cityPosts: unknown[] = [];
        for (const [key, { label, view }] of Object.entries(views)) {
          const url = `${base}${viewportUrl(view)}`;
          const probe = await fetch(url);
          const body = await probe.text();
          if (probe.status !== 200) throw new Error(`${label}: ${probe.status} ${body}`);
          const answer = JSON.parse(body) as { points: unknown[]; clusters: Array<{ count: number }> };
          if (key === 'city') cityPosts = answer.points;
          const inView = answer.points.length + answer.clusters.reduce((s, c) => s + c.count, 0);
          const fresh = await uncachedMs(database.db, view);
          const run = await load(url);
          rates.push(run.requests.average);
          cases.push({
            engine,
            case: `viewport, ${label}`,
            'req/s': round(run.requests.average, 0),
            'p50 ms': run.latency.p50,
            'p99 ms': run.latency.p99,
            'bytes/response': Buffer.byteLength(body),
            'gzip bytes': gzipSync(body).length,
            answer: `${answer.points.length} posts + ${answer.clusters.length} clusters (${inView} in view)`,
            'uncached ms': round(fresh),
          });
        }
        const helloAfter = await load(hello.url);
        const helloRps = (helloBefore.requests.average + helloAfter.requests.average) / 2;
        rows.push({
          engine,
          case: `bare Fastify hello-world (before ${round(helloBefore.requests.average, 0)}, after ${round(helloAfter.requests.average, 0)})`,
          'req/s': round(helloRps, 0),
          'p50 ms': Math.max(helloBefore.latency.p50, helloAfter.latency.p50),
          'p99 ms': Math.max(helloBefore.latency.p99, helloAfter.latency.p99),
          'bytes/response': 17,
          'gzip bytes': gzipSync('{"hello":"world"}').length,
          answer: '{"hello":"world"}',
          'uncached ms': '-',
          'ratio to hello-world': 1,
        });
        cases.forEach((row, i) => rows.push({ ...row, 'ratio to hello-world': round(rates[i] / helloRps, 4) }));

        if (!idle) {
          // The spec's poll: the whole feed every 5 s. Measured once (same bytes on both engines).
          t = performance.now();
          const full = await (await fetch(`${base}/api/posts`)).text();
          const fullMs = performance.now() - t;
          const fullBytes = Buffer.byteLength(full);
          const fullGzipBytes = gzipSync(full).length;
          const socket = await measureSocket(app, base, cityPosts, POSTS_PER_MINUTE);
          const postBytes = cityPosts.reduce<number>((s, p) => s + Buffer.byteLength(JSON.stringify(p)), 0) / cityPosts.length;
          // Per minute: every post created is also deleted or expires 24 h later, so at steady
          // state as many post.deleted as post.created; the server pings every 30 s (2-byte frame)
          // and answers the client's ping every 25 s.
          const wsPerMinute = POSTS_PER_MINUTE * (socket.createdFrameBytes + socket.deletedFrameBytes) + 2 * 2 + (60 / 25) * socket.pongFrameBytes;
          const pollPerMinute = 12 * fullBytes;
          // Socket down: 12 polls of /api/posts/changes a minute, carrying the same posts and ids.
          const changesPerMinute = 12 * 120 + POSTS_PER_MINUTE * (postBytes + 40);
          idle = {
            postsPerMinute: POSTS_PER_MINUTE,
            avgPostDtoBytes: round(postBytes, 0),
            postCreatedFrameBytes: round(socket.createdFrameBytes, 0),
            postDeletedFrameBytes: round(socket.deletedFrameBytes, 0),
            pongFrameBytes: socket.pongFrameBytes,
            websocketBytesPerMinute: round(wsPerMinute, 0),
            fullFeedBytes: fullBytes,
            fullFeedMs: round(fullMs, 0),
            fullFeedGzipBytes: fullGzipBytes,
            specPollBytesPerMinute: pollPerMinute,
            specPollGzipBytesPerMinute: 12 * fullGzipBytes,
            changesPollBytesPerMinute: round(changesPerMinute, 0),
            specPollToWebsocketRatio: round(pollPerMinute / wsPerMinute, 0),
          };
        }
      } finally {
        await app.close();
      }
    } finally {
      await database.close();
      await drop();
    }
  }
  await hello.close();

  console.table(rows);
  const mb = (b: number) => `${(b / 2 ** 20).toFixed(2)} MB`;
  const kb = (b: number) => `${(b / 1024).toFixed(1)} kB`;
  if (idle) {
    console.table([
      { 'idle map viewer, per minute': `WebSocket (${idle.postsPerMinute} post.created + ${idle.postsPerMinute} post.deleted, heartbeats)`, bytes: idle.websocketBytesPerMinute, readable: kb(idle.websocketBytesPerMinute) },
      { 'idle map viewer, per minute': 'fallback poll of /api/posts/changes every 5 s (socket down)', bytes: idle.changesPollBytesPerMinute, readable: kb(idle.changesPollBytesPerMinute) },
      { 'idle map viewer, per minute': `spec: GET /api/posts every 5 s (${mb(idle.fullFeedBytes)} each, ${idle.fullFeedMs} ms)`, bytes: idle.specPollBytesPerMinute, readable: mb(idle.specPollBytesPerMinute) },
      { 'idle map viewer, per minute': 'spec poll, even if gzipped', bytes: idle.specPollGzipBytesPerMinute, readable: mb(idle.specPollGzipBytesPerMinute) },
    ]);
    console.log(`spec poll / WebSocket: ${idle.specPollToWebsocketRatio}×`);
  }
  writeResults(RESULTS, run, {
    posts: POSTS,
    durationSeconds: DURATION_S,
    connections: CONNECTIONS,
    viewportPx: VIEWPORT_PX,
    views: Object.fromEntries(Object.entries(views).map(([k, v]) => [k, v.view])),
    results: rows,
    idleViewer: idle,
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
