import { MESSAGES } from '@moodmap/core';
import { getAccessToken, hasSession, refreshSession } from './auth-tokens.ts';
import { ApiError, request, type RequestOptions } from './http.ts';

export { ApiError } from './http.ts';

/** What a failed call shows: the server's French text when it gave one, else `fallback`. */
export function errorText(error: unknown, fallback: string = MESSAGES.internal_error): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}

export interface ApiOptions extends Omit<RequestOptions, 'bearer'> {
  /**
   * Default true: send the access token, and on a 401 renew it once and retry. False for the
   * auth endpoints themselves, whose 401s are answers (wrong reset link), not expired tokens.
   */
  auth?: boolean;
}

type RefusalListener = (error: ApiError) => void;
const refusalListeners = new Set<RefusalListener>();

/** Lets app-wide UI answer a 403 any call may get (the terms of use to accept); returns the unsubscribe. */
export function onApiRefusal(listener: RefusalListener): () => void {
  refusalListeners.add(listener);
  return () => void refusalListeners.delete(listener);
}

function tellRefusal(error: unknown): void {
  if (error instanceof ApiError && error.status === 403) for (const listener of refusalListeners) listener(error);
}

/** `call`, telling the refusal listeners about a 403 before the caller sees it. */
export async function api<T>(path: string, options: ApiOptions = {}): Promise<T> {
  try {
    return await call<T>(path, options);
  } catch (error) {
    tellRefusal(error);
    throw error;
  }
}

/**
 * A call the realtime socket may carry (`ask`: lib/realtime.ts's askRealtime, null when the
 * socket cannot), else the HTTP one: the same answer either way, the same refusal listeners. A
 * 401 on the socket (its identity lapsed before the tab renewed its token) stored nothing: the
 * call goes over HTTP, which renews the token.
 */
export async function apiOrSocket(
  ask: () => Promise<unknown> | null,
  path: string,
  options: ApiOptions,
): Promise<unknown> {
  const asked = ask();
  if (!asked) return api<unknown>(path, options);
  try {
    return await asked;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return api<unknown>(path, options);
    tellRefusal(error);
    throw error;
  }
}

/**
 * JSON call to our API with the session's access token. A 401 renews the token once (shared
 * with any other call renewing at the same time) and retries; when the renewal is refused the
 * session ends and the 401 is thrown. Throws ApiError (status 0 for a network failure).
 */
async function call<T>(path: string, options: ApiOptions): Promise<T> {
  const { auth = true, ...rest } = options;
  if (!auth) return request<T>(path, rest);
  const sent = getAccessToken();
  try {
    return await request<T>(path, { ...rest, bearer: sent });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401 || !hasSession()) throw error;
    // A call that failed after another one already renewed the token just uses the new one.
    let token = getAccessToken();
    if (!token || token === sent) {
      const outcome = await refreshSession();
      if (!outcome.ok) throw error;
      token = outcome.session.accessToken;
    }
    return request<T>(path, { ...rest, bearer: token });
  }
}
