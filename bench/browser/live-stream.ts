/**
 * The live city bench's publisher, a process of its own (forked by live-city.bench.ts): what
 * another server instance does when its users post. Every 100 ms it inserts posts into the run's
 * database (one statement) and publishes their `post.created` events on the PostgreSQL bus
 * (one NOTIFY batch), shaped as the server's: the marker, its place, its author. The app server
 * relays them to the sockets whose view holds the place.
 * Messages: 'stream' { inViewPerS, elsewherePerS, box } starts and answers at once; 'stop' ends
 * it after the tick under way and answers { published, inView, lateTicks }; 'clear' deletes what
 * was streamed (with its `post.deleted` events, so the server's feed cache forgets them) and
 * answers { deleted }; 'close' (child.ts).
 */
import pg from 'pg';
import { createPostgresBus } from '../../server/src/adapters/bus/postgres.ts';
import type { RealtimeEvent } from '../../server/src/adapters/bus/types.ts';
import { answerParent, sendToParent } from '../support/child.ts';
import { CITIES } from '../support/world.ts';

export interface StreamOrder {
  inViewPerS: number;
  elsewherePerS: number;
  /** Where the in-view posts land: [west, south, east, north]. */
  box: [number, number, number, number];
}

export interface StreamDone {
  published: number;
  inView: number;
  /** Ticks that started more than one period late (the machine could not keep the rate). */
  lateTicks: number;
}

const TICK_MS = 100;
const MOODS = ['happy', 'angry', 'party', 'money', 'love'];
/** The seeded authors (support/seed.ts): md5('bench-user-' || u) for u in 1..LIVE_AUTHORS. */
const SEED_USERS = Number(process.env.LIVE_AUTHORS ?? 1);
/** Cities far from the view: the elsewhere posts' places. */
const FAR = CITIES.filter(([, lat, lon]) => Math.abs(lat - 48.857) > 2 || Math.abs(lon - 2.352) > 3);

const url = process.env.LIVE_DATABASE_URL;
if (!url) throw new Error('LIVE_DATABASE_URL is not set');
const pool = new pg.Pool({ connectionString: url, max: 2 });
const bus = await createPostgresBus(url, pool);
const streamed: Array<{ id: string; userId: string; latitude: number; longitude: number }> = [];

interface Row {
  u: number;
  latitude: number;
  longitude: number;
  mood: string;
  pulse: boolean;
}

function place(
  inView: boolean,
  [west, south, east, north]: StreamOrder['box'],
): { latitude: number; longitude: number } {
  if (inView)
    return { latitude: south + Math.random() * (north - south), longitude: west + Math.random() * (east - west) };
  const [, lat, lon] = FAR[Math.floor(Math.random() * FAR.length)]!;
  return { latitude: lat + (Math.random() - 0.5) * 0.1, longitude: lon + (Math.random() - 0.5) * 0.1 };
}

/** Inserts the rows; answers the server's own marker JSON (the generated column) with each id. */
async function insert(
  rows: Row[],
): Promise<Array<{ id: string; user_id: string; latitude: number; longitude: number; marker_json: string }>> {
  const { rows: inserted } = await pool.query(
    `insert into publications (user_id, category, content, latitude, longitude, nickname, media_urls, has_pulse_effect)
     select md5('bench-user-' || u)::uuid, mood, 'En direct de la ville', lat, lon, 'membre_' || u, '[]'::jsonb, pulse
     from unnest($1::int[], $2::text[], $3::float8[], $4::float8[], $5::bool[]) as r(u, mood, lat, lon, pulse)
     returning id, user_id, latitude, longitude, marker_json`,
    [
      rows.map((r) => r.u),
      rows.map((r) => r.mood),
      rows.map((r) => r.latitude),
      rows.map((r) => r.longitude),
      rows.map((r) => r.pulse),
    ],
  );
  return inserted;
}

async function tick(inView: number, elsewhere: number, box: StreamOrder['box']): Promise<void> {
  const rows: Row[] = Array.from({ length: inView + elsewhere }, (_, i) => ({
    u: 1 + Math.floor(Math.random() * SEED_USERS),
    ...place(i < inView, box),
    mood: MOODS[Math.floor(Math.random() * MOODS.length)]!,
    pulse: Math.random() < 0.05,
  }));
  const inserted = await insert(rows);
  const events: RealtimeEvent[] = inserted.map((r) => ({
    type: 'post.created',
    data: { post: JSON.parse(r.marker_json) as unknown },
    at: { latitude: r.latitude, longitude: r.longitude },
    about: [r.user_id],
  }));
  for (const r of inserted)
    streamed.push({ id: r.id, userId: r.user_id, latitude: r.latitude, longitude: r.longitude });
  await bus.publishMany(events);
}

/** `perS` spread over the ticks of a second, whole posts per tick (10/s: one every tick). */
const share = (perS: number, k: number) =>
  Math.floor(((k + 1) * perS * TICK_MS) / 1000) - Math.floor((k * perS * TICK_MS) / 1000);

let stopping = false;
let running: Promise<StreamDone> = Promise.resolve({ published: 0, inView: 0, lateTicks: 0 });

async function stream({ inViewPerS, elsewherePerS, box }: StreamOrder): Promise<StreamDone> {
  const start = performance.now();
  let published = 0;
  let inView = 0;
  let lateTicks = 0;
  stopping = false;
  for (let k = 0; !stopping; k++) {
    const due = start + k * TICK_MS;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    else if (-wait > TICK_MS) lateTicks++;
    const a = share(inViewPerS, k);
    const b = share(elsewherePerS, k);
    await tick(a, b, box);
    published += a + b;
    inView += a;
  }
  return { published, inView, lateTicks };
}

async function clear(): Promise<number> {
  const gone = streamed.splice(0);
  for (let i = 0; i < gone.length; i += 500) {
    const chunk = gone.slice(i, i + 500);
    await pool.query('delete from publications where id = any($1::uuid[])', [chunk.map((p) => p.id)]);
    await bus.publishMany(
      chunk.map((p) => ({
        type: 'post.deleted',
        data: { id: p.id, latitude: p.latitude, longitude: p.longitude },
        at: { latitude: p.latitude, longitude: p.longitude },
        about: [p.userId],
      })),
    );
  }
  return gone.length;
}

answerParent({
  close: async () => {
    await bus.close();
    await pool.end();
  },
  extra: async (type, message) => {
    if (type === 'stream') {
      running = stream((message as { data: StreamOrder }).data);
      sendToParent({ type });
    } else if (type === 'stop') {
      stopping = true;
      sendToParent({ type, ...(await running) });
    } else if (type === 'clear') sendToParent({ type, deleted: await clear() });
  },
});
sendToParent({ type: 'listening' });
