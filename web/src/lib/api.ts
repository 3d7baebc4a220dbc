import { getAccessToken, hasSession, refreshSession } from './auth-tokens.ts';
import { ApiError, request, type RequestOptions } from './http.ts';

export { ApiError } from './http.ts';

export interface ApiOptions extends Omit<RequestOptions, 'bearer'> {
  /**
   * Default true: send the access token, and on a 401 renew it once and retry. False for the
   * auth endpoints themselves, whose 401s are answers (wrong reset link), not expired tokens.
   */
  auth?: boolean;
}

/**
 * JSON call to our API with the session's access token. A 401 renews the token once (shared
 * with any other call renewing at the same time) and retries; when the renewal is refused the
 * session ends and the 401 is thrown. Throws ApiError (status 0 for a network failure).
 */
export async function api<T>(path: string, options: ApiOptions = {}): Promise<T> {
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
