/**
 * The killed instance, started again once the other checks are done, in its namespace at its
 * address: it must rejoin as a peer. The balancer sends it requests again; it hears the others'
 * events on the bus and they hear its own (a message sent through one instance reaching a socket
 * on the other); and it waits behind the leader of the periodic jobs instead of leading too.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { servedByBalancer } from './client.ts';
import { goal, type Goal, millis, requestFault, seconds } from './control.ts';
import type { LeaderWatch } from './leader-watch.ts';
import type { Failures, Person } from './people.ts';
import { RealtimeClient } from './sockets.ts';
import type { AppHost } from './topology.ts';
import { type Ledger, partnerOf, sendMessage } from './traffic.ts';

/** A waiting instance asks for the lock again every 5 s: the holders are watched longer than that. */
const LEADER_WATCH_MS = 8_000;
const DELIVERY_MS = 3_000;
const UNPINNED = 9;

export interface RejoinRun {
  people: Person[];
  ledger: Ledger;
  failures: Failures;
  watch: LeaderWatch;
  run: string;
}

/** A pair with an accepted conversation, past the people the other checks used. */
function pairOf(r: RejoinRun): [Person, Person] | null {
  const byIndex = new Map(r.people.map((p) => [p.index, p]));
  for (const a of r.people.filter((p) => p.index >= 12 && p.index % 2 === 0)) {
    const b = byIndex.get(partnerOf(a.index));
    if (b && r.ledger.conversationOf.has(a.index) && r.ledger.conversationOf.has(b.index)) return [a, b];
  }
  return null;
}

/** A socket of `person` that the balancer sends to `host`; null if it did not sign in there. */
async function socketOn(person: Person, host: AppHost): Promise<RealtimeClient | null> {
  const socket = new RealtimeClient(person.browser.address, () => person.token, { reconnect: false, pin: host });
  const signedIn = await socket.start().then(
    () => true,
    () => false,
  );
  if (signedIn && socket.current()?.host === host) return socket;
  socket.stop();
  return null;
}

/** `from`'s next message, sent through `via`: ms until `socket` got it, null if not within DELIVERY_MS. */
async function relayed(r: RejoinRun, from: Person, via: AppHost, socket: RealtimeClient): Promise<number | null> {
  const sentAt = Date.now();
  const sent = await sendMessage(from, r.ledger, r.failures, r.run, via);
  if (!sent || sent.host !== via) return null;
  while (Date.now() < sentAt + DELIVERY_MS) {
    const got = socket.deliveries.find((d) => d.messageId === sent.sent.id);
    if (got) return got.at - sentAt;
    await delay(20);
  }
  return null;
}

async function busGoal(r: RejoinRun, host: AppHost, other: AppHost, name: string): Promise<Goal> {
  const pair = pairOf(r);
  const [a, b] = pair ?? [];
  const [onHost, onOther] = a && b ? await Promise.all([socketOn(a, host), socketOn(b, other)]) : [null, null];
  const inbound = b && onHost ? await relayed(r, b, other, onHost) : null;
  const outbound = a && onOther ? await relayed(r, a, host, onOther) : null;
  onHost?.stop();
  onOther?.stop();
  const value = !pair
    ? 'pas de paire en conversation'
    : `message par ${other} → socket sur ${host} : ${onHost ? millis(inbound) : 'socket non ouverte'} ; par ${host} → socket sur ${other} : ${onOther ? millis(outbound) : 'socket non ouverte'}`;
  return goal(
    `${name} : événements du bus, reçus et envoyés`,
    value,
    `reçus en ≤ ${DELIVERY_MS} ms`,
    inbound !== null && outbound !== null,
  );
}

async function balancerGoal(r: RejoinRun, host: AppHost, listeningAt: number, name: string): Promise<Goal> {
  const browser = r.people[0]?.browser;
  const served = browser ? await servedByBalancer(browser, host, listeningAt + 30_000) : null;
  let share = 0;
  for (let i = 0; browser && served !== null && i < UNPINNED; i++)
    if ((await browser.request('GET', '/api/health')).host === host) share++;
  const value =
    served === null
      ? 'jamais servie'
      : `${seconds(served - listeningAt)} après son démarrage, ${share}/${UNPINNED} requêtes sans consigne`;
  return goal(`${name} : servie par le répartiteur`, value, 'oui, dans le tourniquet', served !== null && share > 0);
}

function leaderGoal(r: RejoinRun, host: AppHost, listeningAt: number, name: string): Goal {
  const most = r.watch.mostHoldersAtOnce(listeningAt);
  const holders = r.watch.holdersSince(listeningAt);
  const value = `${most} détenteur(s) au plus sur ${r.watch.samplesSince(listeningAt)} relevés depuis son démarrage (${holders.join(', ') || 'personne'})`;
  return goal(
    `${name} : pas de second meneur (pg_locks)`,
    value,
    `exactement 1, pas ${host}`,
    most === 1 && !holders.includes(host),
  );
}

export async function rejoinGoals(r: RejoinRun, host: AppHost, alive: AppHost[]): Promise<Goal[]> {
  const name = `${host} redémarrée après son kill -9`;
  const listeningAt = await requestFault('restart', host);
  const other = alive[0];
  if (listeningAt === null || !other) return [goal(name, 'ne redémarre pas', 'écoute de nouveau', false)];
  const goals = [await balancerGoal(r, host, listeningAt, name), await busGoal(r, host, other, name)];
  await delay(Math.max(0, listeningAt + LEADER_WATCH_MS - Date.now()));
  return [...goals, leaderGoal(r, host, listeningAt, name)];
}
