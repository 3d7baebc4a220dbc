/**
 * Who ran the periodic jobs when, from each instance's own log lines ("cette instance mène les
 * tâches périodiques" / "… ne mène plus …", pino JSON with `time` in epoch ms): the time during
 * which two instances both believed they led is what the advisory lock must keep at zero. The
 * hosts share one clock (namespaces of one machine), so their lines compare directly. The runner
 * writes a KILLED line into a host's log as it sends SIGKILL: a process killed while leading
 * leads no more from then (a restarted one appends to the same log).
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const START = 'cette instance mène les tâches périodiques';
const STOP = 'cette instance ne mène plus les tâches périodiques';
export const KILLED = '[grappe] kill -9';
const lineSchema = z.object({ time: z.number(), msg: z.string() });

export interface Interval {
  host: string;
  from: number;
  to: number;
}

/** Leading intervals of one host; one still open at the end is closed at `endAt`. */
export function leadingIntervals(host: string, log: string, endAt: number): Interval[] {
  const intervals: Interval[] = [];
  let from: number | null = null;
  for (const text of readFileSync(log, 'utf8').split('\n')) {
    if (!text.startsWith('{')) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      continue;
    }
    const line = lineSchema.safeParse(parsed);
    if (!line.success) continue;
    if (line.data.msg === START && from === null) from = line.data.time;
    if ((line.data.msg === STOP || line.data.msg === KILLED) && from !== null) {
      intervals.push({ host, from, to: line.data.time });
      from = null;
    }
  }
  if (from !== null) intervals.push({ host, from, to: endAt });
  return intervals;
}

/** Milliseconds during which two or more hosts led at once. */
export function overlapMs(intervals: Interval[]): number {
  const edges = intervals
    .flatMap((i) => [
      { at: i.from, step: 1 },
      { at: i.to, step: -1 },
    ])
    .sort((a, b) => a.at - b.at || a.step - b.step);
  let leaders = 0;
  let since = 0;
  let total = 0;
  for (const edge of edges) {
    if (leaders >= 2) total += edge.at - since;
    leaders += edge.step;
    since = edge.at;
  }
  return total;
}
