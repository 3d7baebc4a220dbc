/**
 * Refuses any request carrying a NUL character (U+0000) or a lone UTF-16 surrogate (half of a
 * pair, as JSON's "\udfff" writes it) in its query, path parameters or JSON body with a 400.
 * No text of this API may hold one, and PostgreSQL cannot store either in a text value: without
 * this check one reaching SQL (a search, a comment, a message) was a 500. Decided once here,
 * before validation, for every route, rather than in each schema; multipart fields
 * (media/upload.ts) and socket frames (realtime/hub.ts) use the same test. Headers cannot hold
 * either: Node reads them as Latin-1 and refuses a NUL.
 */
import type { FastifyInstance } from 'fastify';
import { hasLoneSurrogate, type MessageKey } from '@moodmap/core';
import { badRequest } from '../errors.ts';

/** Whether `value` or anything inside it (strings, object keys) holds a NUL. */
export function containsNul(value: unknown): boolean {
  return someText(value, (text) => text.includes('\u0000'));
}

/** Whether `value` or anything inside it holds a lone surrogate. */
export function containsLoneSurrogate(value: unknown): boolean {
  return someText(value, hasLoneSurrogate);
}

/** The refusal for text no route accepts: 'bad_request' for a NUL, 'text_malformed' for a lone surrogate. */
export function forbiddenTextCode(...values: unknown[]): MessageKey | null {
  if (values.some(containsNul)) return 'bad_request';
  if (values.some(containsLoneSurrogate)) return 'text_malformed';
  return null;
}

/** Walks with an explicit stack: a JSON body may nest far deeper than the call stack allows. */
function someText(value: unknown, test: (text: string) => boolean): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') {
      if (test(item)) return true;
    } else if (Array.isArray(item)) {
      for (const element of item) stack.push(element);
    } else if (item !== null && typeof item === 'object' && !Buffer.isBuffer(item)) {
      for (const [key, element] of Object.entries(item)) {
        if (test(key)) return true;
        stack.push(element);
      }
    }
  }
  return false;
}

export function installNulGuard(app: FastifyInstance): void {
  // A callback hook: it runs on every request (an async one costs a promise and a microtask).
  app.addHook('preValidation', (request, _reply, done) => {
    const code = forbiddenTextCode(request.query, request.params, request.body);
    done(code ? badRequest(code) : undefined);
  });
}
