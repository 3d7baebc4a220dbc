/**
 * The expired post's goals. A post is aged past its lifetime in the database; the leader's sweep
 * deletes it (its tombstone says when) and publishes `post.deleted`; each instance that hears it
 * drops the cached views holding the post. Instances on the bus must show it nowhere within a
 * second of the sweep. An instance whose cable was pulled hears no sweep: it drops its cached
 * views once it listens on the bus again, so it is timed from that moment (or from the sweep,
 * if the sweep came after it was back).
 */
import type { BusWatch } from './bus-watch.ts';
import { servedByBalancer } from './client.ts';
import { goal, type Goal, millis, seconds } from './control.ts';
import { type Gone, lastShown, looksEverywhere, type Place, shownSince, watchGone } from './expiry.ts';
import type { LeaderWatch } from './leader-watch.ts';
import type { Person } from './people.ts';
import type { AppHost } from './topology.ts';
import type { Ledger } from './traffic.ts';

const GOAL_MS = 1_000;
/** How long the sweep and the instances are waited for before the goal counts as missed. */
const WATCH_MS = 60_000;

export interface ExpiryContext {
  reader: Person;
  watch: LeaderWatch;
  bus: BusWatch;
  ledger: Ledger;
}

export interface Expiring {
  postId: string;
  near: Place;
  /** When the sweep deleted it, by the database's clock. */
  swept: Promise<number | null>;
  /** When the instances watched since the ageing stopped showing it. */
  gone: Promise<Gone>;
}

/** Every instance in `hosts` shows the post now, its cached view included: what the expiry has to undo. */
export async function shownBefore(
  ctx: ExpiryContext,
  hosts: AppHost[],
  postId: string,
  near: Place,
  what: string,
): Promise<Goal> {
  const looks = await looksEverywhere(ctx.reader, hosts, postId, near);
  const shown = looks.filter((l) => l.shown === true).length;
  return goal(
    `${what}, montrée par chaque instance avant`,
    `${shown}/${looks.length} réponses`,
    String(looks.length),
    looks.length > 0 && shown === looks.length,
  );
}

/** Ages the post past its lifetime; times its sweep and its leaving the instances in `hosts`. */
export async function expire(ctx: ExpiryContext, hosts: AppHost[], postId: string, near: Place): Promise<Expiring> {
  ctx.ledger.expired.add(postId);
  await ctx.watch.expire(postId);
  const deadline = Date.now() + WATCH_MS;
  return {
    postId,
    near,
    swept: ctx.watch.sweptAt(postId, deadline),
    gone: watchGone(ctx.reader, hosts, postId, near, deadline),
  };
}

/** From `from` to `gone`, as printed: a post already gone by then reads as such. */
const after = (gone: number | null, from: number | null) => {
  if (gone === null || from === null) return 'jamais';
  return gone <= from ? 'déjà partie' : millis(gone - from);
};

/** What showed the post last: the caches the measure covers, or the answer just before `since`. */
const stillShown = (gone: Gone, since: number | null) => {
  const sources = since === null ? [] : shownSince(gone, since);
  if (sources.length > 0) return `encore montrée après par : ${sources.join(', ')}`;
  const last = lastShown(gone);
  return last && since !== null
    ? `dernière réponse la montrant : ${last.source}, ${since - last.at} ms avant`
    : 'montrée par aucune réponse depuis son expiration';
};

/** Instances that heard the sweep: the post gone from all of them within GOAL_MS of it. */
export async function goneAfterSweep(expiring: Expiring, hosts: AppHost[], what: string): Promise<Goal> {
  const [sweptAt, gone] = await Promise.all([expiring.swept, expiring.gone]);
  const ok = sweptAt !== null && gone.at !== null && gone.at - sweptAt <= GOAL_MS;
  const value =
    sweptAt === null ? 'jamais balayée' : `${after(gone.at, sweptAt)} après le balayage (${stillShown(gone, sweptAt)})`;
  return goal(
    `${what}, absente de ${hosts.join(' et ')} (réponses et caches) après le balayage du meneur`,
    value,
    `≤ ${GOAL_MS} ms`,
    ok,
  );
}

/**
 * The cut-off instance, watched from the moment its cable is back: when it listens on the bus
 * again (Redis's view), when the balancer serves it again, and when it stops showing the post.
 */
export function watchReturn(
  ctx: ExpiryContext,
  host: AppHost,
  expiring: Expiring,
  restoredAt: number,
  busBefore: string[],
): () => Promise<Goal> {
  const deadline = restoredAt + WATCH_MS;
  const busBack = ctx.bus.back(host, busBefore, deadline);
  const balancerBack = servedByBalancer(ctx.reader.browser, host, deadline);
  const gone = watchGone(ctx.reader, [host], expiring.postId, expiring.near, deadline);
  return async () => {
    const [back, served, sweptAt, goneFromHost] = await Promise.all([busBack, balancerBack, expiring.swept, gone]);
    // Back before the sweep, it heard the sweep like the others.
    const from = back === null || sweptAt === null ? null : Math.max(back, sweptAt);
    const ok = from !== null && goneFromHost.at !== null && goneFromHost.at - from <= GOAL_MS;
    const since = (at: number | null) =>
      at === null ? 'jamais' : `${at < restoredAt ? '−' : '+'}${seconds(Math.abs(at - restoredAt))}`;
    const value = `${after(goneFromHost.at, from)} après ${from === back ? 'son retour sur le bus' : 'le balayage'} (${stillShown(goneFromHost, from)} ; depuis le rebranchement : bus ${since(back)}, balayage ${since(sweptAt)}, répartiteur ${since(served)})`;
    return goal(
      `même publication, absente de ${host} (coupée, n’entend pas le balayage) après son retour sur le bus`,
      value,
      `≤ ${GOAL_MS} ms`,
      ok,
    );
  };
}
