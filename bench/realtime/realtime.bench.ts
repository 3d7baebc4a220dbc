/**
 * What an idle map viewer receives, against what it needs. One server process
 * on a PostgreSQL database of the run's own (BENCH_POSTS live posts seeded in SQL). A viewer
 * watches Paris on a phone at zoom 12 (the bounds the web app requests, support/views.ts): a
 * WebSocket on /api/realtime that sends `{type:'view', west,south,east,north}` (servers that
 * ignore it send everything), and the fallback poll GET /api/posts/changes with the same view
 * as query parameters. Meanwhile BENCH_CREATED posts (default 60) are created through the API by
 * as many users, one in BENCH_IN_VIEW_EVERY (default 6) inside the Paris view, the others in
 * other cities around the world.
 *   socket ratio = every byte the socket read (frames and headers) ÷ the bytes of the
 *                  post.created frames about the in-view posts;
 *   poll ratio   = the changes answer's body bytes ÷ the bytes of its in-view `created` entries.
 * 1.0 is a viewer that receives only what it shows. BENCH_ROUNDS rounds (default 3), median and
 * spread. Writes bench/results/realtime.json. Needs TEST_DATABASE_URL (or the local default).
 */
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { openDatabase } from '../../server/src/db/client.ts';
import { createPostgresDatabase } from '../../server/test/helpers/databases.ts';
import { seedUsers } from '../messages/messages.bench.ts';
import { envNumber } from '../support/env.ts';
import { resultsFile, round, startRun, writeResults } from '../support/results.ts';
import { forkServer } from '../support/server-process.ts';
import { formatSpread, loadLine, spread } from '../support/stats.ts';
import { requestedView } from '../support/views.ts';
import { CITIES, PARIS, random } from '../support/world.ts';

const here = dirname(fileURLToPath(import.meta.url));
const RESULTS = resultsFile('realtime.json');
const APP = join(here, '..', 'support', 'app-server.ts');
const ROUNDS = envNumber('BENCH_ROUNDS', 3);
const CREATED = envNumber('BENCH_CREATED', 60);
const IN_VIEW_EVERY = envNumber('BENCH_IN_VIEW_EVERY', 6);
const POSTS = envNumber('BENCH_POSTS', 10_000);
const MOODS = ['happy', 'angry', 'party', 'money', 'love'] as const;

interface Round {
  created: number;
  inView: number;
  socketBytes: number;
  socketInViewBytes: number;
  socketRatio: number;
  pollBytes: number;
  pollInViewBytes: number;
  pollRatio: number;
}

async function main(): Promise<void> {
  const run = startRun();
  process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
  const jwtSecret = randomBytes(32).toString('base64url');
  const { url, drop } = await createPostgresDatabase();
  const rounds: Round[] = [];
  const paris = requestedView(PARIS.latitude, PARIS.longitude, 12, 390, 844);
  const loads = [`start ${loadLine()}`];
  try {
    const server = forkServer(
      APP,
      { BENCH_ENGINE: 'postgres', BENCH_DATABASE_URL: url, BENCH_POSTS: String(POSTS), BENCH_JWT_SECRET: jwtSecret },
      [],
      true,
    );
    const { port } = await server.next<{ port: number }>('listening');
    const base = `http://127.0.0.1:${port}`;
    const database = await openDatabase({ databaseUrl: url, poolSize: 2 });
    const users = await seedUsers(database, CREATED * ROUNDS, jwtSecret);
    await database.close();
    const [west, south, east, north] = paris.bbox;
    const inBox = (lat: number, lon: number) => lat >= south && lat <= north && lon >= west && lon <= east;
    const next = random(7);
    const elsewhere = CITIES.filter(([name]) => !['Paris'].includes(name));
    try {
      for (let r = 0; r < ROUNDS; r++) {
        // The viewer: the app's first requests for its view, then its socket with the view frame.
        const first = (await (await fetch(base + paris.path)).json()) as { cursor: string };
        const socket = new WebSocket(`${base.replace('http', 'ws')}/api/realtime`);
        const frames: string[] = [];
        await new Promise<void>((resolve, reject) => {
          socket.once('error', reject);
          socket.once('open', () => resolve());
        });
        socket.on('message', (data) => frames.push(String(data)));
        socket.send(JSON.stringify({ type: 'view', west, south, east, north }));
        await new Promise((r) => setTimeout(r, 500));
        const bytesRead = () => (socket as unknown as { _socket: { bytesRead: number } })._socket.bytesRead;
        const startBytes = bytesRead();
        const startFrames = frames.length;

        const inViewIds = new Set<string>();
        let created = 0;
        for (let i = 0; i < CREATED; i++) {
          const user = users[r * CREATED + i];
          const here = i % IN_VIEW_EVERY === 0;
          const [, cLat, cLon] = here
            ? ['Paris', PARIS.latitude, PARIS.longitude]
            : elsewhere[Math.floor(next() * elsewhere.length)];
          const spreadDeg = here ? 0.01 : 0.02;
          const latitude = cLat + (next() - 0.5) * spreadDeg;
          const longitude = cLon + (next() - 0.5) * spreadDeg;
          const res = await fetch(`${base}/api/posts`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${user.token}`,
              'content-type': 'application/json',
              'x-forwarded-for': user.ip,
            },
            body: JSON.stringify({
              category: MOODS[i % MOODS.length],
              content: 'Un café en terrasse, rien de mieux',
              latitude,
              longitude,
            }),
          });
          const body = (await res.json()) as { post?: { id: string } };
          if (res.status !== 201 || !body.post) continue; // e.g. a jittered point the land check puts at sea
          created++;
          if (inBox(latitude, longitude)) inViewIds.add(body.post.id);
        }
        // Let the last events arrive (or not, on a server that scopes them).
        await new Promise((r) => setTimeout(r, 1500));
        const socketBytes = bytesRead() - startBytes;
        const socketInViewBytes = frames
          .slice(startFrames)
          .filter((f) => [...inViewIds].some((id) => f.includes(id)) && f.includes('post.created'))
          .reduce((s, f) => s + Buffer.byteLength(f), 0);
        socket.close();

        const params = new URLSearchParams({
          since: first.cursor,
          west: String(west),
          south: String(south),
          east: String(east),
          north: String(north),
        });
        const pollText = await (await fetch(`${base}/api/posts/changes?${params}`)).text();
        const poll = JSON.parse(pollText) as { created: Array<{ id: string }> };
        const pollInViewBytes = poll.created
          .filter((p) => inViewIds.has(p.id))
          .reduce((s, p) => s + Buffer.byteLength(JSON.stringify(p)), 0);
        const pollBytes = Buffer.byteLength(pollText);
        const result = {
          created,
          inView: inViewIds.size,
          socketBytes,
          socketInViewBytes,
          socketRatio: socketBytes / socketInViewBytes,
          pollBytes,
          pollInViewBytes,
          pollRatio: pollBytes / pollInViewBytes,
        };
        rounds.push(result);
        loads.push(`round ${r + 1} ${loadLine()}`);
        console.log(
          `round ${r + 1}: ${created} posts created, ${inViewIds.size} in view · socket ${socketBytes} B for ${socketInViewBytes} B in view (${round(result.socketRatio, 2)}) · poll ${pollBytes} B for ${pollInViewBytes} B (${round(result.pollRatio, 2)})`,
        );
      }
    } finally {
      await server.close();
    }
  } finally {
    await drop();
  }
  const socket = spread(rounds.map((r) => r.socketRatio));
  const poll = spread(rounds.map((r) => r.pollRatio));
  console.table([
    {
      figure: 'idle viewer bytes ÷ in-view post payload, socket',
      'median (min–max)': formatSpread(socket),
      reference: 'the post.created frames of the posts in its view',
    },
    {
      figure: 'idle viewer bytes ÷ in-view post payload, changes poll',
      'median (min–max)': formatSpread(poll),
      reference: 'the in-view entries of the same answer',
    },
  ]);
  writeResults(RESULTS, run, {
    reference:
      'bytes of what the viewer shows: post.created frames (socket) and created entries (poll) of the posts inside its view',
    view: { device: 'mobile 390×844', zoom: 12, bbox: paris.bbox },
    posts: POSTS,
    createdPerRound: CREATED,
    inViewEvery: IN_VIEW_EVERY,
    rounds,
    socketRatio: socket,
    pollRatio: poll,
    load: loads,
    loadAverageAtEnd: loadLine(),
  });
}

await main();
