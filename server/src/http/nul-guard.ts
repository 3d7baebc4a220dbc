/**
 * Refuses any request carrying a NUL character (U+0000) in its query, path parameters or JSON
 * body with a 400. No text of this API may hold one, and PostgreSQL cannot store one in a text
 * value: without this check a NUL reaching SQL (a search, a comment, a rate-limit key) was a 500.
 * Decided once here, before validation, for every route, rather than in each schema.
 */
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../errors.ts';

/**
 * Whether `value` or anything inside it (strings, object keys) holds a NUL. Walks with an
 * explicit stack: a JSON body may nest far deeper than the call stack allows.
 */
export function containsNul(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return true;
    } else if (Array.isArray(item)) {
      for (const element of item) stack.push(element);
    } else if (item !== null && typeof item === 'object' && !Buffer.isBuffer(item)) {
      for (const [key, element] of Object.entries(item)) {
        if (key.includes('\u0000')) return true;
        stack.push(element);
      }
    }
  }
  return false;
}

export function installNulGuard(app: FastifyInstance): void {
  // A callback hook: it runs on every request (an async one costs a promise and a microtask).
  app.addHook('preValidation', (request, _reply, done) => {
    done(containsNul(request.query) || containsNul(request.params) || containsNul(request.body) ? badRequest('bad_request') : undefined);
  });
}
