import { SHELL_MESSAGES } from '@moodmap/core';

/** An API failure, carrying the server's `{ error: { code, message } }` (docs/api.md). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON-encoded, except a FormData (multipart uploads), sent as it is. */
  body?: unknown;
  signal?: AbortSignal;
  /** The French text of an unreachable server or an unexplained failure (default: the generic one). */
  failureMessage?: string;
  /** Sent as `Authorization: Bearer …` when set. */
  bearer?: string | null;
  /** Extra request headers (the refresh endpoints' CSRF header). */
  headers?: Record<string, string>;
}

/** The ApiError of a refusal in the API's error shape (also a socket request's reply). */
export function parseError(status: number, payload: unknown, failureMessage: string): ApiError {
  if (payload && typeof payload === 'object' && 'error' in payload) {
    const err = (payload as { error: unknown }).error;
    if (err && typeof err === 'object') {
      const { code, message } = err as { code?: unknown; message?: unknown };
      return new ApiError(
        status,
        typeof code === 'string' ? code : 'internal_error',
        typeof message === 'string' && message ? message : failureMessage,
      );
    }
  }
  // No JSON error: a proxy's page, or a body cut short.
  if (status === 404) return new ApiError(404, 'not_found', SHELL_MESSAGES.not_found);
  if (status === 413) return new ApiError(413, 'payload_too_large', SHELL_MESSAGES.payload_too_large);
  return new ApiError(status, 'internal_error', failureMessage);
}

/**
 * One JSON (or multipart) call, no session logic (see api.ts for that). Throws ApiError on a non-2xx answer,
 * or with status 0 and code `network_error` when the server could not be reached.
 */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, signal, bearer, headers, failureMessage = SHELL_MESSAGES.internal_error } = options;
  const form = body instanceof FormData;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      signal,
      credentials: 'same-origin',
      headers: {
        Accept: 'application/json',
        ...(body !== undefined && !form ? { 'Content-Type': 'application/json' } : {}),
        ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
        ...headers,
      },
      body: form ? body : body !== undefined ? JSON.stringify(body) : undefined,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network_error', failureMessage);
  }
  const text = await response.text();
  let payload: unknown = null;
  if (text) {
    try {
      payload = JSON.parse(text);
    } catch {
      payload = null;
    }
  }
  if (!response.ok) throw parseError(response.status, payload, failureMessage);
  return payload as T;
}
