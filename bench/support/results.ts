/** What every bench writes to bench/results/<name>.json: when, on what machine, how loaded, then its own figures. */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RESULTS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'results');

/** bench/results/<name>: where a bench writes its figures. */
export const resultsFile = (name: string) => join(RESULTS_DIR, name);

export const round = (v: number, digits = 1) => Number(v.toFixed(digits));

/** Call at the start of a run: the load average then is part of the result. */
export function startRun(): { loadBefore: number; started: number } {
  return { loadBefore: os.loadavg()[0], started: performance.now() };
}

/** Writes the figures after the machine's description; returns the run's duration in seconds. */
export function writeResults(
  file: string,
  run: { loadBefore: number; started: number },
  figures: Record<string, unknown>,
): number {
  const totalSeconds = round((performance.now() - run.started) / 1000);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        node: process.version,
        cpus: os.cpus().length,
        cpu: os.cpus()[0]?.model,
        loadAverageAtStart: round(run.loadBefore, 2),
        ...figures,
        totalSeconds,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`written ${file} (${totalSeconds} s)`);
  return totalSeconds;
}
