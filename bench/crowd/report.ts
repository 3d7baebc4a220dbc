/**
 * The crowd bench's tables: each round's figures, then per case the median and spread (min–max)
 * over the rounds, and each app case ÷ the relay of the same round.
 */
import { formatSpread, spread, type Spread } from '../support/stats.ts';
import type { CaseResult } from './run-case.ts';

const RELAY = 'bare ws relay';
const kB = (bytes: number) => Math.round(bytes / 102.4) / 10;
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

export function printRounds(results: CaseResult[]): void {
  console.table(
    results.map((r) => ({
      round: r.round,
      case: r.case,
      viewers: r.viewers.connected,
      'kB RSS/socket': kB(r.memory.rssPerSocket),
      'kB heap/socket': kB(r.memory.heapPerSocket),
      'kB ext/socket': kB(r.memory.externalPerSocket),
      posts: r.posts.created,
      'post p50/p95/p99 ms': `${r.posts.p50} / ${r.posts.p95} / ${r.posts.p99}`,
      'post deliv/s': r.posts.deliveriesPerSecond,
      'post missing': r.posts.missing,
      'msg p50/p95/p99 ms': `${r.messages.p50} / ${r.messages.p95} / ${r.messages.p99}`,
      'msg deliv/s': r.messages.deliveriesPerSecond,
      'server CPU s': r.serverCpuSeconds.join(' + '),
      'client CPU s': r.clientCpuSeconds.join(' + '),
      'loop max ms, servers / clients': `${r.serverLoopMaxMs.join(' + ')} / ${r.clientLoopMaxMs.join(' + ')}`,
    })),
  );
  for (const r of results) {
    const errors = { ...r.posts.errorKinds, ...r.messages.errorKinds };
    if (Object.keys(errors).length || r.viewers.failed || r.socketsLost || r.posts.unexpected)
      console.log(
        `  round ${r.round}, ${r.case}: errors ${JSON.stringify(errors)}, viewers failed ${r.viewers.failed} ${r.viewers.errors.join('; ')}, sockets lost ${r.socketsLost}, unexpected post deliveries ${r.posts.unexpected}`,
      );
  }
}

const FIGURES: Record<string, (r: CaseResult) => number> = {
  rssPerSocketBytes: (r) => r.memory.rssPerSocket,
  heapPerSocketBytes: (r) => r.memory.heapPerSocket,
  externalPerSocketBytes: (r) => r.memory.externalPerSocket,
  postP50Ms: (r) => r.posts.p50,
  postP95Ms: (r) => r.posts.p95,
  postP99Ms: (r) => r.posts.p99,
  postDeliveriesPerSecond: (r) => r.posts.deliveriesPerSecond,
  messageP50Ms: (r) => r.messages.p50,
  messageP95Ms: (r) => r.messages.p95,
  messageP99Ms: (r) => r.messages.p99,
  messageDeliveriesPerSecond: (r) => r.messages.deliveriesPerSecond,
  serverCpuSecondsPerInstance: (r) => sum(r.serverCpuSeconds) / r.serverCpuSeconds.length,
  serverCpuSecondsAll: (r) => sum(r.serverCpuSeconds),
};

/** Each app case ÷ the relay of its round. */
const RATIOS: Record<string, (app: CaseResult, relay: CaseResult) => number> = {
  postDeliveries: (a, r) => a.posts.deliveriesPerSecond / r.posts.deliveriesPerSecond,
  messageDeliveries: (a, r) => a.messages.deliveriesPerSecond / r.messages.deliveriesPerSecond,
  rssPerSocket: (a, r) => a.memory.rssPerSocket / r.memory.rssPerSocket,
  heapPerSocket: (a, r) => a.memory.heapPerSocket / r.memory.heapPerSocket,
  serverCpu: (a, r) => sum(a.serverCpuSeconds) / sum(r.serverCpuSeconds),
};

function byCase(results: CaseResult[]): Map<string, CaseResult[]> {
  const cases = new Map<string, CaseResult[]>();
  for (const r of results) cases.set(r.case, [...(cases.get(r.case) ?? []), r]);
  return cases;
}

export function summarise(results: CaseResult[]) {
  const cases = [...byCase(results)].map(([name, runs]) => {
    const figures: Record<string, Spread> = {};
    for (const [key, of] of Object.entries(FIGURES)) figures[key] = spread(runs.map(of));
    const ratios: Record<string, Spread> = {};
    if (!name.startsWith(RELAY)) {
      const pairs = runs.flatMap((app) => {
        const relay = results.find((r) => r.round === app.round && r.case.startsWith(RELAY));
        return relay ? [[app, relay] as const] : [];
      });
      for (const [key, of] of Object.entries(RATIOS))
        if (pairs.length) ratios[key] = spread(pairs.map((p) => of(...p)));
    }
    return { case: name, figures, ratiosToRelay: ratios };
  });
  printSummary(cases);
  return cases;
}

function printSummary(
  cases: Array<{ case: string; figures: Record<string, Spread>; ratiosToRelay: Record<string, Spread> }>,
) {
  console.log(`\nOver the rounds, median (min–max):`);
  console.table(
    cases.map(({ case: name, figures: f }) => ({
      case: name,
      'kB RSS/socket': formatSpread(spread(f.rssPerSocketBytes.rounds.map(kB))),
      'kB heap/socket': formatSpread(spread(f.heapPerSocketBytes.rounds.map(kB))),
      'post p95 ms': formatSpread(f.postP95Ms),
      'post p99 ms': formatSpread(f.postP99Ms),
      'post deliv/s': formatSpread(f.postDeliveriesPerSecond),
      'msg p95 ms': formatSpread(f.messageP95Ms),
      'msg p99 ms': formatSpread(f.messageP99Ms),
      'msg deliv/s': formatSpread(f.messageDeliveriesPerSecond),
      'CPU s/instance': formatSpread(f.serverCpuSecondsPerInstance),
    })),
  );
  console.log('App ÷ the relay of the same round:');
  console.table(
    cases
      .filter((c) => Object.keys(c.ratiosToRelay).length)
      .map(({ case: name, ratiosToRelay: q }) => ({
        case: name,
        'post deliv/s': formatSpread(q.postDeliveries),
        'msg deliv/s': formatSpread(q.messageDeliveries),
        'RSS/socket': formatSpread(q.rssPerSocket),
        'heap/socket': formatSpread(q.heapPerSocket),
        'server CPU': formatSpread(q.serverCpu),
      })),
  );
}
