/**
 * The session's tokens (issue 3): a short-lived access token kept in memory only, and a
 * rotating refresh token kept in localStorage so the session survives reloads.
 *
 * - `refreshSession()` is single-flight: every caller in the tab that needs a new access token
 *   at the same time shares one POST /api/auth/refresh.
 * - The refresh token is read from storage at the moment it is sent, never cached in memory,
 *   so a tab always uses the latest token, even one another tab has just rotated. Tabs that do
 *   refresh at once with the same token are fine: the server gives them the same successor
 *   within its grace window.
 * - The access token is renewed silently about a minute before it expires.
 * - Other tabs' sign-in and sign-out arrive through the `storage` event.
 *
 * Whoever holds the user (the session store) listens with `onSessionChange`.
 */
import { z } from 'zod';
import { ApiError, request } from './http.ts';
import { readString, removeKey, STORAGE_KEYS, writeString } from './storage.ts';

/** What login, refresh, reset-password and the confirmation link give: tokens plus the user. */
export interface Session {
  accessToken: string;
  refreshToken: string;
  /** Seconds the access token is valid for. */
  expiresIn: number;
  user: unknown;
}

const sessionSchema = z.object({
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1),
  expiresIn: z.number().positive(),
  user: z.unknown(),
});

export function parseSession(payload: unknown): Session | null {
  const parsed = sessionSchema.safeParse(payload);
  return parsed.success ? parsed.data : null;
}

export type SignedOutReason =
  /** The server refused the refresh token (expired, revoked, reused). */
  | 'expired'
  /** Another tab signed out. */
  | 'other-tab'
  /** This tab signed out. */
  | 'local';

export type SessionEvent = { type: 'session'; session: Session } | { type: 'signed-out'; reason: SignedOutReason };

export type RefreshOutcome =
  | { ok: true; session: Session }
  /** no_token: nothing stored; rejected: the server said no (signed out); unavailable: network or server trouble (nothing changes). */
  | { ok: false; reason: 'no_token' | 'rejected' | 'unavailable'; error?: ApiError };

/** Renew this long before the access token expires. */
export const REFRESH_AHEAD_MS = 60_000;
/** After a failed silent refresh (network), try again after this long. */
export const REFRESH_RETRY_MS = 30_000;

let accessToken: string | null = null;
let accessExpiresAt = 0;
let timer: ReturnType<typeof setTimeout> | null = null;
let inflight: Promise<RefreshOutcome> | null = null;
const listeners = new Set<(event: SessionEvent) => void>();

export function onSessionChange(listener: (event: SessionEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function emit(event: SessionEvent): void {
  for (const listener of [...listeners]) listener(event);
}

export function getAccessToken(): string | null {
  return accessToken;
}

export function storedRefreshToken(): string | null {
  return readString(STORAGE_KEYS.refreshToken);
}

function cancelTimer(): void {
  if (timer) clearTimeout(timer);
  timer = null;
}

function schedule(delayMs: number): void {
  cancelTimer();
  timer = setTimeout(() => {
    timer = null;
    void refreshSession().then((outcome) => {
      if (!outcome.ok && outcome.reason === 'unavailable' && storedRefreshToken()) schedule(REFRESH_RETRY_MS);
    });
  }, delayMs);
}

/** After a refresh the network prevented: try again shortly, and again, until the server answers. */
export function retryRefreshLater(): void {
  if (storedRefreshToken()) schedule(REFRESH_RETRY_MS);
}

/** Takes a session the server just issued: access token in memory, refresh token stored, renewal planned. */
export function applySession(session: Session): void {
  accessToken = session.accessToken;
  const lifetimeMs = session.expiresIn * 1000;
  accessExpiresAt = Date.now() + lifetimeMs;
  writeString(STORAGE_KEYS.refreshToken, session.refreshToken);
  schedule(Math.max(lifetimeMs - REFRESH_AHEAD_MS, lifetimeMs / 2));
  emit({ type: 'session', session });
}

/** Forgets both tokens (the server-side sign-out is the caller's business). */
export function clearSession(reason: SignedOutReason = 'local'): void {
  accessToken = null;
  accessExpiresAt = 0;
  cancelTimer();
  removeKey(STORAGE_KEYS.refreshToken);
  emit({ type: 'signed-out', reason });
}

async function exchange(retried: boolean): Promise<RefreshOutcome> {
  const token = storedRefreshToken();
  if (!token) return { ok: false, reason: 'no_token' };
  try {
    const session = parseSession(await request<unknown>('/api/auth/refresh', { method: 'POST', body: { refreshToken: token } }));
    if (!session) return { ok: false, reason: 'unavailable' };
    applySession(session);
    return { ok: true, session };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status !== 400 && error.status !== 401) return { ok: false, reason: 'unavailable', error };
    const current = storedRefreshToken();
    // Another tab stored a newer token (rotation, new sign-in) while ours was in flight: use it.
    if (current && current !== token && !retried) return exchange(true);
    if (current === token) clearSession('expired');
    return { ok: false, reason: 'rejected', error };
  }
}

/** Exchanges the stored refresh token for a new session; concurrent callers share one request. */
export function refreshSession(): Promise<RefreshOutcome> {
  inflight ??= exchange(false).finally(() => {
    inflight = null;
  });
  return inflight;
}

/**
 * Follows other tabs through the `storage` event, and renews the access token when the tab
 * comes back after sleeping past the planned renewal. Returns the stop function.
 */
export function startTokenSync(win: Window = window): () => void {
  const onStorage = (event: StorageEvent) => {
    // key null: the whole storage was cleared.
    if (event.key !== null && event.key !== STORAGE_KEYS.refreshToken) return;
    const token = storedRefreshToken();
    if (!token) {
      if (accessToken || event.oldValue) {
        accessToken = null;
        accessExpiresAt = 0;
        cancelTimer();
        emit({ type: 'signed-out', reason: 'other-tab' });
      }
      return;
    }
    // A rotation by another tab needs nothing: the new token is read when ours is due.
    // A sign-in in another tab (nothing stored before, or this tab signed out) is joined.
    if (!accessToken || event.oldValue === null) void refreshSession();
  };
  const onVisible = () => {
    if (win.document.visibilityState !== 'visible' || !accessToken) return;
    if (accessExpiresAt - Date.now() < REFRESH_AHEAD_MS) void refreshSession();
  };
  win.addEventListener('storage', onStorage);
  win.document.addEventListener('visibilitychange', onVisible);
  return () => {
    win.removeEventListener('storage', onStorage);
    win.document.removeEventListener('visibilitychange', onVisible);
  };
}

/** Test hook: forgets the in-memory state without touching storage or listeners. */
export function resetTokenStateForTests(): void {
  accessToken = null;
  accessExpiresAt = 0;
  inflight = null;
  cancelTimer();
}
