/**
 * core's zod schemas for API answers, loaded on first use: `@moodmap/core/schemas` (and zod with
 * it) is its own chunk, so modules that only parse answers do not put zod in the first load.
 * Types come from the schemas with `import type`, which costs nothing at run time.
 *
 * Use `parseAnswerLazy((s) => s.someResponseSchema, payload)` in an async API call instead of
 * importing the schema statically: zod stays off the first chunk, and every answer is still
 * parsed with core's schema.
 */
import type { MessageKey } from '@moodmap/core';
import type * as CoreSchemas from '@moodmap/core/schemas';
import type { z } from 'zod';
import { ApiError } from './http.ts';

export type Schemas = typeof CoreSchemas;

let loading: Promise<Schemas> | undefined;

/** The schemas module, fetched once (a failed fetch is retried on the next call). */
export function loadSchemas(): Promise<Schemas> {
  loading ??= import('@moodmap/core/schemas').catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** The answer parsed by the picked schema; a malformed answer is a 500 with `failure`'s French text. */
export async function parseAnswerLazy<S extends z.ZodType>(
  pick: (schemas: Schemas) => S,
  payload: unknown,
  failure: MessageKey = 'internal_error',
): Promise<z.output<S>> {
  const parsed = pick(await loadSchemas()).safeParse(payload);
  if (parsed.success) return parsed.data;
  throw await malformedAnswer(failure);
}

/** The error of an answer its schema (or a reader held to it) refused: a 500 with `failure`'s French text. */
export async function malformedAnswer(failure: MessageKey = 'internal_error'): Promise<ApiError> {
  // Any catalogue text may be the failure's: the whole catalogue, which the first load does not carry.
  const { MESSAGES } = await import('@moodmap/core/messages');
  return new ApiError(500, failure, MESSAGES[failure]);
}

/** A value pushed outside an API answer (a realtime event), read by the picked schema; null when it is not one. */
export async function readLazy<S extends z.ZodType>(
  pick: (schemas: Schemas) => S,
  value: unknown,
): Promise<z.output<S> | null> {
  const parsed = pick(await loadSchemas()).safeParse(value);
  return parsed.success ? parsed.data : null;
}

/**
 * Runs steps one after another in call order. Realtime events read through readLazy wait for
 * the schemas on the first one: later events (a deletion after a creation) must not overtake it.
 */
export function inOrder(): (step: () => unknown) => void {
  let last: Promise<unknown> = Promise.resolve();
  return (step) => {
    last = last.then(step).catch(() => undefined);
  };
}
