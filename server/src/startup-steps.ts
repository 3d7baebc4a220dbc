/**
 * The start's preparation, one step at a time: each step logs one French line with its
 * duration once done ("Base de données et migrations : 412 ms (PGlite dans data/pglite)"), so a
 * slow start says where its time went, and a failed one which step failed.
 */

/** What a step needs of a logger (pino's and Fastify's both fit). */
export interface StepLog {
  info(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** Milliseconds since `started` (a `performance.now()`), whole. */
export const elapsedMs = (started: number) => Math.round(performance.now() - started);

/**
 * Runs one step and logs its line; `detail` adds what the step found, in parentheses.
 * A step that throws logs its failure and the error goes on to the caller.
 */
export async function step<T>(
  log: StepLog,
  label: string,
  run: () => T | Promise<T>,
  detail?: (result: T) => string,
): Promise<T> {
  const started = performance.now();
  let result: T;
  try {
    result = await run();
  } catch (error) {
    log.error({ step: label, stepMs: elapsedMs(started) }, `${label} : échec après ${elapsedMs(started)} ms`);
    throw error;
  }
  logStep(log, label, elapsedMs(started), detail?.(result));
  return result;
}

/** The line of a step timed by its caller: "Configuration : 3 ms". */
export function logStep(log: StepLog, label: string, ms: number, detail?: string): void {
  log.info({ step: label, stepMs: ms }, `${label} : ${ms} ms${detail ? ` (${detail})` : ''}`);
}
