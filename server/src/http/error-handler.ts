/**
 * Turns every thrown error into the API's error shape. Bad input is a 4xx with a French
 * message; only a bug is a 500, and it never shows its stack.
 */
import type { FastifyBaseLogger, FastifyError, FastifyInstance } from 'fastify';
import { MESSAGES } from '@moodmap/core';
import { isDatabaseUnavailable } from '../db/connection-errors.ts';
import { AppError, errorBody, validationError } from '../errors.ts';
import { clientError } from './client-errors.ts';

const catalogueTexts = new Set<string>(Object.values(MESSAGES));

/**
 * Multipart limits speak of files ('Fichier trop volumineux'); every other Fastify 4xx keeps its
 * status and gets its catalogue code by status (clientError), so no code is ever left out.
 */
const FILE_LIMIT_CODES = new Set(['FST_REQ_FILE_TOO_LARGE', 'FST_FILES_LIMIT', 'FST_PARTS_LIMIT']);

/**
 * An error that is not the caller's: an unreachable database (dropped connection, restart,
 * failover) is a 503 worth retrying, as the same request succeeds once it is back; anything else
 * is a bug, a 500 that never shows its stack. Logged either way.
 */
export function serverFault(error: unknown, log: Pick<FastifyBaseLogger, 'warn' | 'error'>): AppError {
  if (isDatabaseUnavailable(error)) {
    log.warn({ err: error }, 'database unavailable');
    return new AppError(503, 'database_error', MESSAGES.database_error, { 'retry-after': '1' });
  }
  log.error({ err: error }, 'unhandled error');
  return new AppError(500, 'internal_error', MESSAGES.internal_error);
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return reply
        .status(error.status)
        .headers(error.headers)
        .send(errorBody(error.code, error.message, error.details));
    }
    if (error.validation) {
      // Schemas carry catalogue texts as messages; anything else (a library default) is
      // replaced by the generic French text rather than leaking English.
      const first = error.validation.find((v) => v.message && catalogueTexts.has(v.message));
      const invalid = validationError(first?.message);
      return reply.status(400).send(errorBody(invalid.code, invalid.message));
    }
    if (FILE_LIMIT_CODES.has(error.code))
      return reply.status(413).send(errorBody('payload_too_large', MESSAGES.payload_too_large));
    const status = error.statusCode;
    if (error instanceof SyntaxError || (status !== undefined && status >= 400 && status < 500)) {
      const refused = clientError(status);
      return reply.status(refused.status).send(errorBody(refused.code, MESSAGES[refused.code]));
    }
    const fault = serverFault(error, request.log);
    return reply.status(fault.status).headers(fault.headers).send(errorBody(fault.code, fault.message));
  });
}
