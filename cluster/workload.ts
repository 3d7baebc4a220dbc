/**
 * The cluster's workload, run by run.ts in the client host: CLUSTER_PEOPLE people (200) sign up
 * and in, each keeps a WebSocket, posts, likes, uploads and writes to a partner, all through the
 * balancer. Meanwhile it has the runner kill the instance that leads the periodic jobs
 * (SIGKILL), then pull the cable of the next leader for 10 s, ages two posts past their lifetime
 * (one during the cut), reads everything back, and has the killed instance started again. It
 * sends its goals to the runner, which prints them.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { BusWatch } from './bus-watch.ts';
import { deliveries, inBatches, lostWrites, reconnections, revocations } from './checks.ts';
import { goal, type Goal, requestFault, seconds, type WorkloadResult } from './control.ts';
import { type ExpiryContext, expire, goneAfterSweep, shownBefore, watchReturn } from './expiry-goals.ts';
import { LeaderWatch } from './leader-watch.ts';
import { Failures, type Person, signUp } from './people.ts';
import { rejoinGoals } from './rejoin.ts';
import { RealtimeClient } from './sockets.ts';
import { APP_HOSTS, type AppHost, personAddress } from './topology.ts';
import { act, Ledger, openConversation, partnerOf, publish } from './traffic.ts';

const PEOPLE = Number(process.env.CLUSTER_PEOPLE ?? 200);
const RUN = Date.now().toString(36);
/** The traffic's length, and when in it the faults come. */
const TRAFFIC_MS = 80_000;
const KILL_AT_MS = 15_000;
const CUT_AT_MS = 40_000;
const CUT_FOR_MS = 10_000;
const RECONNECT_GOAL_MS = 10_000;
const TAKEOVER_GOAL_MS = 10_000;
const REVOCATION_GOAL_MS = 1_000;

/** A fault the runner must have done: the workload cannot go on without it. */
async function fault(kind: 'kill' | 'cut' | 'restore', host: AppHost): Promise<number> {
  const at = await requestFault(kind, host);
  if (at === null) throw new Error(`${kind} : ${host} non fait`);
  return at;
}

const percent = (part: number, whole: number) => (whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(1)} %`);

/** What every phase reads and adds to. */
interface Run {
  failures: Failures;
  ledger: Ledger;
  watch: LeaderWatch;
  bus: BusWatch;
  figures: string[];
  goals: Goal[];
  people: Person[];
  clients: Map<number, RealtimeClient>;
}

/** What happened when, during the traffic. */
interface Timeline {
  leader: AppHost | null;
  killed: AppHost;
  killedAt: number;
  alive: AppHost[];
  cut: AppHost;
  cutAt: number;
}

/** Sign-ups and sign-ins, a socket each, a conversation per pair. */
async function enrol(run: Omit<Run, 'people' | 'clients'>): Promise<Run> {
  let t = Date.now();
  const people = (
    await inBatches([...Array(PEOPLE).keys()], 25, (i) => signUp(i, personAddress(i), RUN, run.failures))
  ).filter((p): p is Person => p !== null);
  run.figures.push(`inscriptions confirmées et connexions : ${people.length}/${PEOPLE} en ${seconds(Date.now() - t)}`);
  t = Date.now();
  const clients = new Map<number, RealtimeClient>();
  await inBatches(people, 50, async (person) => {
    const client = new RealtimeClient(person.browser.address, () => person.token);
    clients.set(person.index, client);
    await client.start().catch(() => run.failures.count('WebSocket non connectée'));
  });
  const spread = new Map<string, number>();
  for (const c of clients.values())
    spread.set(c.current()?.host ?? '?', (spread.get(c.current()?.host ?? '?') ?? 0) + 1);
  run.figures.push(
    `WebSockets ouvertes : ${clients.size} en ${seconds(Date.now() - t)} (${[...spread].map(([h, n]) => `${h} ${n}`).join(', ')})`,
  );
  const byIndex = new Map(people.map((p) => [p.index, p]));
  await inBatches(
    people.filter((p) => p.index % 2 === 0),
    25,
    async (a) => {
      const b = byIndex.get(partnerOf(a.index));
      if (b) await openConversation(a, b, run.ledger, run.failures, RUN);
    },
  );
  return { ...run, people, clients };
}

const placeOf = (run: Run, id: string) => run.ledger.places.get(id) ?? { latitude: 48.85, longitude: 2.35 };

function expiryContext(run: Run): ExpiryContext | null {
  const reader = run.people[2];
  return reader ? { reader, watch: run.watch, bus: run.bus, ledger: run.ledger } : null;
}

/**
 * The traffic, and during it: the leader killed, the next leader's cable pulled for 10 s, a
 * post aged while it is cut off (the map views each instance cached show it until the sweep).
 */
async function trafficWithFaults(run: Run): Promise<Timeline> {
  const expiring = await publish(run.people[0], run.ledger, run.failures, false);
  const ctx = expiryContext(run);
  const start = Date.now();
  const traffic = Promise.all(run.people.map((p) => act(p, run.ledger, run.failures, RUN, start + TRAFFIC_MS)));

  await delay(KILL_AT_MS);
  const leader = run.watch.leader();
  const killed = leader ?? 'app1';
  const killedAt = await fault('kill', killed);
  const alive = APP_HOSTS.filter((h) => h !== killed);

  await delay(Math.max(0, start + CUT_AT_MS - 2_000 - Date.now()));
  const what = 'publication à faire expirer pendant la coupure';
  if (expiring && ctx) run.goals.push(await shownBefore(ctx, alive, expiring, placeOf(run, expiring), what));
  await delay(Math.max(0, start + CUT_AT_MS - Date.now()));
  const cut = run.watch.leader() ?? alive[0];
  const live = alive.filter((h) => h !== cut);
  const cutAt = await fault('cut', cut);
  await delay(1_000);
  const expiry = expiring && ctx ? await expire(ctx, live, expiring, placeOf(run, expiring)) : null;
  await delay(Math.max(0, cutAt + CUT_FOR_MS - Date.now()));
  const busBefore = await run.bus.subscriptions(cut);
  const restoredAt = await fault('restore', cut);
  const returned = expiry && ctx ? watchReturn(ctx, cut, expiry, restoredAt, busBefore) : null;
  await traffic;
  // Sockets cut off settle back; the last answers arrive.
  await delay(3_000);

  if (expiry && returned) run.goals.push(await goneAfterSweep(expiry, live, `${what} de ${cut}`), await returned());
  return { leader, killed, killedAt, alive, cut, cutAt };
}

/** A post aged with every instance connected. */
async function calmExpiry(run: Run, alive: AppHost[]): Promise<void> {
  const person = run.people[1];
  const postId = person ? [...run.ledger.posts].find(([, author]) => author === person.index)?.[0] : undefined;
  const ctx = expiryContext(run);
  const what = 'publication expirée hors coupure';
  if (!postId || !ctx) {
    run.goals.push(goal(what, 'pas de publication à faire expirer', 'une', false));
    return;
  }
  run.goals.push(await shownBefore(ctx, alive, postId, placeOf(run, postId), what));
  run.goals.push(await goneAfterSweep(await expire(ctx, alive, postId, placeOf(run, postId)), alive, what));
}

async function writeGoals(run: Run): Promise<void> {
  const { ledger } = run;
  const lost = await lostWrites(run.people, ledger);
  const expiredPhotos = [...ledger.expired].filter((id) => ledger.photoOf.has(id)).length;
  const writes =
    ledger.posts.size -
    ledger.expired.size +
    ledger.likes.length +
    ledger.messages.length +
    ledger.uploads.length -
    expiredPhotos;
  const lostTotal = lost.posts + lost.likes + lost.messages + lost.uploads;
  run.figures.push(
    `écritures acquittées : ${ledger.posts.size} publications, ${ledger.likes.length} j’aime, ${ledger.messages.length} messages, ${ledger.uploads.length} photos`,
  );
  run.goals.push(
    goal(
      'écritures acquittées (2xx) perdues',
      `${lostTotal} sur ${writes} (publications ${lost.posts}, j’aime ${lost.likes}, messages ${lost.messages}, photos ${lost.uploads}), ${lost.unreadable} relectures en échec`,
      '0',
      lostTotal + lost.unreadable === 0 && writes > 0,
    ),
  );
  run.goals.push(
    goal(
      'messages en double ou désordonnés dans l’historique',
      `${lost.historyDuplicates} doubles, ${lost.historyDisorder} désordonnés`,
      '0',
      lost.historyDuplicates + lost.historyDisorder === 0,
    ),
  );
}

function realtimeGoals(run: Run, timeline: Timeline): void {
  const delivered = deliveries(run.clients, run.ledger);
  run.figures.push(
    `messages reçus en direct par le partenaire : ${delivered.live}/${delivered.owed} (${percent(delivered.live, delivered.owed)}; les autres arrivaient pendant une reconnexion)`,
  );
  run.goals.push(
    goal(
      'messages reçus deux fois ou désordonnés (WebSocket, par conversation)',
      `${delivered.duplicates} doubles, ${delivered.outOfOrder} désordonnés`,
      '0',
      delivered.duplicates + delivered.outOfOrder === 0,
    ),
  );
  for (const [host, at, how] of [
    [timeline.killed, timeline.killedAt, 'kill -9'],
    [timeline.cut, timeline.cutAt, 'câble coupé'],
  ] as const) {
    const r = reconnections(run.clients, host, at, RECONNECT_GOAL_MS);
    run.goals.push(
      goal(
        `WebSockets de ${host} (${how}) reconnectées par le répartiteur en ≤ 10 s`,
        `${r.within}/${r.affected} (${percent(r.within, r.affected)}), la plus lente ${seconds(r.slowestMs)}`,
        '100 %',
        r.affected > 0 && r.within === r.affected,
      ),
    );
  }
}

function leaderGoals(run: Run, timeline: Timeline): void {
  const { watch } = run;
  const takeover = timeline.leader ? watch.takeoverMs(timeline.killedAt, timeline.leader) : null;
  run.goals.push(
    goal(
      `reprise des tâches périodiques après le kill -9 du meneur (${timeline.leader ?? 'aucun meneur vu'})`,
      seconds(takeover),
      `≤ ${seconds(TAKEOVER_GOAL_MS)}`,
      takeover !== null && takeover <= TAKEOVER_GOAL_MS,
    ),
  );
  run.figures.push(
    `reprise du verrou après la coupure du meneur ${timeline.cut} : ${seconds(watch.takeoverMs(timeline.cutAt, timeline.cut))} (PostgreSQL libère le verrou d’un pair muet en ~10 s)`,
  );
  const most = watch.mostHoldersAtOnce();
  run.goals.push(
    goal(
      'détenteurs du verrou des tâches périodiques à la fois (pg_locks, toutes les 250 ms)',
      `${most} au plus, ${watch.samples.length} relevés, ${watch.failedSamples} sans réponse`,
      'exactement 1',
      most === 1 && watch.failedSamples === 0,
    ),
  );
}

async function revocationGoals(run: Run, alive: string[]): Promise<void> {
  const revoked = await revocations(run.people.slice(2, 12), run.clients, run.ledger, run.failures, RUN, alive);
  run.goals.push(
    goal(
      'socket d’une session révoquée sur une autre instance : fin de session',
      `${revoked.crossHost}/${revoked.tried} d’une instance à l’autre, la plus lente ${revoked.slowestMs === null ? 'jamais' : `${revoked.slowestMs} ms`}`,
      `≤ ${REVOCATION_GOAL_MS} ms`,
      revoked.tried > 0 &&
        revoked.crossHost === revoked.tried &&
        revoked.slowestMs !== null &&
        revoked.slowestMs <= REVOCATION_GOAL_MS,
    ),
  );
  run.goals.push(
    goal(
      'événements privés reçus ensuite par ces sockets',
      `${revoked.leaked} (l’autre session en a reçu ${revoked.controlDelivered}/${revoked.tried})`,
      '0',
      revoked.tried > 0 && revoked.leaked === 0 && revoked.controlDelivered === revoked.tried,
    ),
  );
}

async function main(): Promise<WorkloadResult> {
  const watch = new LeaderWatch();
  const bus = new BusWatch();
  await Promise.all([watch.start(), bus.start()]);
  const run = await enrol({ failures: new Failures(), ledger: new Ledger(), watch, bus, figures: [], goals: [] });
  if (run.people.length < 4)
    throw new Error(`trop peu de personnes inscrites (${run.people.length}) : ${run.failures.summary()}`);
  const timeline = await trafficWithFaults(run);
  await calmExpiry(run, timeline.alive);
  await writeGoals(run);
  realtimeGoals(run, timeline);
  leaderGoals(run, timeline);
  await revocationGoals(run, timeline.alive);
  run.goals.push(...(await rejoinGoals({ ...run, run: RUN }, timeline.killed, timeline.alive)));
  const { failures, people, goals, figures } = run;
  goals.push(
    goal('réponses 401 inattendues', String(failures.unauthorized.count), '0', failures.unauthorized.count === 0),
  );
  goals.push(
    goal(
      'personnes inscrites, confirmées et connectées',
      `${people.length}/${PEOPLE}`,
      String(PEOPLE),
      people.length === PEOPLE,
    ),
  );
  figures.push(`réponses en erreur : ${failures.summary()}`);
  figures.push(
    `attentes des instances dans PostgreSQL (le plus de requêtes à la fois) : ${watch.topWaits(5).join(' ; ') || 'aucune'}`,
  );
  for (const client of run.clients.values()) client.stop();
  for (const person of people) person.browser.close();
  await Promise.all([watch.stop(), bus.stop()]);
  return { type: 'result', goals, figures };
}

const result = await main();
process.send?.(result, () => process.exit(0));
