/**
 * The one error shape of the API (docs/api.md):
 * `{ "error": { "code": "post_active_exists", "message": "<French text>" } }`.
 */
import { MESSAGES, t, type MessageKey } from '@moodmap/core';

export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Record<string, string>;
  /** Extra fields of the error object beside code and message (a 409's `nextAllowedAt`). */
  readonly details: Record<string, unknown>;
  constructor(
    status: number,
    code: string,
    message?: string,
    headers: Record<string, string> = {},
    details: Record<string, unknown> = {},
  ) {
    super(message ?? (code in MESSAGES ? MESSAGES[code as MessageKey] : code));
    this.status = status;
    this.code = code;
    this.headers = headers;
    this.details = details;
  }
}

/** An error whose code is a catalogue key, with its French text (placeholders filled); the caller throws it. */
export function appError(status: number, code: MessageKey, params?: Record<string, string | number>): AppError {
  return new AppError(status, code, t(code, params));
}

export const badRequest = (code: MessageKey, params?: Record<string, string | number>) => appError(400, code, params);
export const unauthorized = () => appError(401, 'not_authenticated');
export const forbidden = (code: MessageKey = 'forbidden') => appError(403, code);
export const notFound = (code: MessageKey = 'not_found') => appError(404, code);
export const conflict = (code: MessageKey) => appError(409, code);

export function errorBody(code: string, message: string, details: Record<string, unknown> = {}) {
  return { error: { ...details, code, message } };
}

/** A 400 for a failed zod parse: its first catalogue message, with that entry's key as code. */
export function validationError(message: string | undefined): AppError {
  const key = (Object.keys(MESSAGES) as MessageKey[]).find((k) => MESSAGES[k] === message);
  return key ? appError(400, key) : appError(400, 'bad_request');
}
