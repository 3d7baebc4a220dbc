/**
 * Errors Fastify or Node answer before any route runs, in the API's shape and in French:
 * - `frameworkErrors`: router refusals (a URL that does not decode, a parameter longer than
 *   `maxParamLength`, an async constraint failing);
 * - `clientErrorHandler`: the HTTP parser's refusals on the raw socket (headers too large,
 *   malformed requests, a client too slow to send its request), where no reply object exists.
 * Their defaults answer in English with another shape (`FST_ERR_BAD_URL`, "Client Error").
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES, type MessageKey } from '@moodmap/core';
import { errorBody } from '../errors.ts';

/** Catalogue entries of the 4xx statuses that have one of their own; any other 4xx is a bad request. */
const CODE_OF_STATUS: Partial<Record<number, MessageKey>> = {
  404: 'not_found',
  408: 'request_timeout',
  413: 'request_too_large',
  414: 'url_too_long',
  431: 'headers_too_large',
};

/** A client error's status kept as is (4xx), with its catalogue code; anything else is a 400. */
export function clientError(statusCode: number | undefined): { status: number; code: MessageKey } {
  const status = statusCode !== undefined && statusCode >= 400 && statusCode < 500 ? statusCode : 400;
  return { status, code: CODE_OF_STATUS[status] ?? 'bad_request' };
}

/** A complete HTTP/1.1 response with the API's JSON error, closing the connection after it. */
export function rawErrorResponse(status: number, code: MessageKey): string {
  const body = JSON.stringify(errorBody(code, MESSAGES[code]));
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    'cache-control: no-store',
    'connection: close',
    '',
    body,
  ].join('\r\n');
}

/** How long a refused connection may take to receive its answer before it is destroyed anyway. */
const LINGER_MS = 2000;

/**
 * Answers on the raw socket and closes it. Paused first, so nothing more the client sends
 * reaches the HTTP parser; destroyed LINGER_MS later rather than at once, because destroying a
 * socket with unread input sends a reset, which can make the client lose the answer.
 */
export function closeWith(socket: Socket, response: string): void {
  if (socket.destroyed) return;
  socket.on('error', () => {});
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.pause();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.end(response);
}

/** Fastify's `clientErrorHandler`: Node's parser refused the request (or the client was too slow). */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const { code } = clientError(status);
  closeWith(socket, rawErrorResponse(status, code));
}

/** Fastify's `frameworkErrors`: FST_ERR_BAD_URL (400), FST_ERR_MAX_PARAM_LENGTH (414), FST_ERR_ASYNC_CONSTRAINT. */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const { status, code } = clientError(error.statusCode);
  void reply.status(status).send(errorBody(code, MESSAGES[code]));
}
