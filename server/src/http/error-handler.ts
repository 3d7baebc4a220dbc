/**
 * Turns every thrown error into the API's error shape. Bad input is a 4xx with a French
 * message; only a bug is a 500, and it never shows its stack.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { MESSAGES, type MessageKey } from '@moodmap/core';
import { AppError, errorBody, validationError } from '../errors.ts';

const catalogueTexts = new Set<string>(Object.values(MESSAGES));

/** Fastify's own 4xx errors, by code, with the catalogue entry users see. */
const FASTIFY_CODES: Record<string, { status: number; code: MessageKey }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'payload_too_large' },
  FST_REQ_FILE_TOO_LARGE: { status: 413, code: 'payload_too_large' },
  FST_FILES_LIMIT: { status: 413, code: 'payload_too_large' },
  FST_PARTS_LIMIT: { status: 413, code: 'payload_too_large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'bad_request' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'bad_request' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'bad_request' },
};

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.status).headers(error.headers).send(errorBody(error.code, error.message, error.details));
    }
    if (error.validation) {
      // Schemas carry catalogue texts as messages; anything else (a library default) is
      // replaced by the generic French text rather than leaking English.
      const first = error.validation.find((v) => v.message && catalogueTexts.has(v.message));
      const invalid = validationError(first?.message);
      return reply.status(400).send(errorBody(invalid.code, invalid.message));
    }
    const known = error.code ? FASTIFY_CODES[error.code] : undefined;
    if (known) return reply.status(known.status).send(errorBody(known.code, MESSAGES[known.code]));
    if (error instanceof SyntaxError || (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)) {
      const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 400;
      return reply.status(status).send(errorBody('bad_request', MESSAGES.bad_request));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(errorBody('internal_error', MESSAGES.internal_error));
  });
}
