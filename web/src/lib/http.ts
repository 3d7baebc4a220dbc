import { MESSAGES } from '@moodmap/core';

/** An API failure, carrying the server's `{ error: { code, message } }` (design.md §4). */
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
  body?: unknown;
  signal?: AbortSignal;
  /** Sent as `Authorization: Bearer …` when set. */
  bearer?: string | null;
}

function parseError(status: number, payload: unknown): ApiError {
  if (payload && typeof payload === 'object' && 'error' in payload) {
    const err = (payload as { error: unknown }).error;
    if (err && typeof err === 'object') {
      const { code, message } = err as { code?: unknown; message?: unknown };
      return new ApiError(
        status,
        typeof code === 'string' ? code : 'internal_error',
        typeof message === 'string' && message ? message : MESSAGES.internal_error,
      );
    }
  }
  return new ApiError(status, status === 404 ? 'not_found' : 'internal_error', status === 404 ? MESSAGES.not_found : MESSAGES.internal_error);
}

/**
 * One JSON call, no session logic (see api.ts for that). Throws ApiError on a non-2xx answer,
 * or with status 0 and code `network_error` when the server could not be reached.
 */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, signal, bearer } = options;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      signal,
      credentials: 'same-origin',
      headers: {
        Accept: 'application/json',
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network_error', MESSAGES.internal_error);
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
  if (!response.ok) throw parseError(response.status, payload);
  return payload as T;
}
