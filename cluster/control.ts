/**
 * What the workload (in the client namespace) and the runner (in the machine's own, where it can
 * kill processes and pull cables) tell each other over the IPC channel, and the goals' report.
 */
import { writeFileSync } from 'node:fs';
import { z } from 'zod';
import { APP_HOSTS, type AppHost } from './topology.ts';

/** `restart`: the killed instance started again, in its namespace, resolved once it listens. */
export const FAULTS = ['kill', 'cut', 'restore', 'restart'] as const;
export type Fault = (typeof FAULTS)[number];

/** Workload → runner: do this to that host; the answer carries the moment it was done. */
export const faultRequestSchema = z.object({
  type: z.literal('fault'),
  id: z.number(),
  fault: z.enum(FAULTS),
  host: z.enum(APP_HOSTS),
});
export type FaultRequest = z.infer<typeof faultRequestSchema>;
/** `at` is null when it could not be done (an instance that did not start again). */
export const faultDoneSchema = z.object({ type: z.literal('fault-done'), id: z.number(), at: z.number().nullable() });

let nextFault = 0;
/** Workload side: asks the runner for a fault; resolves with the moment it was done. */
export function requestFault(kind: Fault, host: AppHost): Promise<number | null> {
  const id = nextFault++;
  return new Promise((resolve) => {
    const onMessage = (message: unknown) => {
      const done = faultDoneSchema.safeParse(message);
      if (!done.success || done.data.id !== id) return;
      process.off('message', onMessage);
      resolve(done.data.at);
    };
    process.on('message', onMessage);
    process.send?.({ type: 'fault', id, fault: kind, host });
  });
}

export const goalSchema = z.object({
  name: z.string(),
  /** The measured figure, as printed. */
  value: z.string(),
  /** The goal, as printed. */
  target: z.string(),
  ok: z.boolean(),
});
export type Goal = z.infer<typeof goalSchema>;

/** Workload → runner at the end: the goals it measured, and other figures worth printing. */
export const workloadResultSchema = z.object({
  type: z.literal('result'),
  goals: z.array(goalSchema),
  figures: z.array(z.string()),
});
export type WorkloadResult = z.infer<typeof workloadResultSchema>;

export function goal(name: string, value: string, target: string, ok: boolean): Goal {
  return { name, value, target, ok };
}

export const seconds = (ms: number | null) => (ms === null ? 'jamais' : `${(ms / 1000).toFixed(1)} s`);
export const millis = (ms: number | null) => (ms === null ? 'jamais' : `${ms} ms`);

export function printReport(goals: Goal[], figures: string[]): void {
  console.log('\n== Grappe : chiffres ==');
  for (const line of figures) console.log(`  ${line}`);
  console.log('== Grappe : objectifs ==');
  for (const g of goals) console.log(`  ${g.ok ? 'OK   ' : 'ÉCHEC'} ${g.name} : ${g.value} (objectif ${g.target})`);
  const failed = goals.filter((g) => !g.ok).length;
  console.log(`\n${goals.length - failed} passed, ${failed} failed`);
  // For `npm test`, which adds them to its one summary line.
  const summaryFile = process.env.CLUSTER_SUMMARY_FILE;
  if (summaryFile) writeFileSync(summaryFile, JSON.stringify({ passed: goals.length - failed, failed }));
}
