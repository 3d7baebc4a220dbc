/**
 * The session's tokens (docs/security.md, Sessions): a short-lived access token kept in memory
 * only, and a rotating refresh token the page never sees — the server keeps it in an HttpOnly
 * cookie scoped to /api/auth, and sends it back rotated on every refresh.
 *
 * - `refreshSession()` is single-flight: every caller in the tab that needs a new access token
 *   at the same time shares one POST /api/auth/refresh (cookie + CSRF header).
 * - All tabs share the cookie. Tabs that refresh at once send the same token and get the same
 *   successor within the server's 30 s rotation grace (sessions.ts), so none is signed out.
 * - What scripts can read is only a marker in localStorage (STORAGE_KEYS.session): an opaque id
 *   of the current sign-in, set on sign-in, removed on sign-out. Without it the app does not
 *   even try to refresh (a visitor costs no request); its changes reach other tabs through the
 *   `storage` event, which is how they follow a sign-in or sign-out made elsewhere.
 * - The access token is renewed silently about a minute before it expires.
 *
 * Whoever holds the user (the session store) listens with `onSessionChange`.
 */
import { CSRF_HEADER, MINUTE } from '@moodmap/core';
import { ApiError, request } from './http.ts';
import { readString, removeKey, STORAGE_KEYS, writeString } from './storage.ts';

/** Sent with refresh and logout, the endpoints that act on the cookie (core's CSRF_HEADER). */
export const CSRF_HEADERS: Readonly<Record<string, string>> = { [CSRF_HEADER.name]: CSRF_HEADER.value };

/** What login, refresh, reset-password and a password change give: the access token and the user. */
export interface Session {
  accessToken: string;
  /** Seconds the access token is valid for. */
  expiresIn: number;
  /** The server's user, read by its holder (auth-api.ts). */
  user: unknown;
}

type SessionSchemas = typeof import('./session-schemas.ts');
let schemas: Promise<SessionSchemas> | undefined;
let loadedSchemas: SessionSchemas | undefined;

/** The session's zod schemas, fetched once on first use (a failed fetch is retried next time). */
export function loadSessionSchemas(): Promise<SessionSchemas> {
  schemas ??= import('./session-schemas.ts').then(
    (module) => (loadedSchemas = module),
    (error: unknown) => {
      schemas = undefined;
      throw error;
    },
  );
  return schemas;
}

/** The schemas if already fetched: every session parsed by parseSession has fetched them. */
export function sessionSchemasIfLoaded(): SessionSchemas | undefined {
  return loadedSchemas;
}

/** The session in an answer, or null when it is not one. */
export async function parseSession(payload: unknown): Promise<Session | null> {
  const parsed = (await loadSessionSchemas()).sessionSchema.safeParse(payload);
  return parsed.success
    ? { accessToken: parsed.data.accessToken, expiresIn: parsed.data.expiresIn, user: parsed.data.user }
    : null;
}

export type SignedOutReason =
  /** The server refused the refresh cookie (expired, revoked, reused, missing). */
  | 'expired'
  /** Another tab signed out. */
  | 'other-tab'
  /** This tab signed out. */
  | 'local';

export type SessionEvent = { type: 'session'; session: Session } | { type: 'signed-out'; reason: SignedOutReason };

export type RefreshOutcome =
  | { ok: true; session: Session }
  /** no_token: not signed in here; rejected: the server said no (signed out); unavailable: network or server trouble (nothing changes). */
  | { ok: false; reason: 'no_token' | 'rejected' | 'unavailable'; error?: ApiError };

/** Renew this long before the access token expires. */
export const REFRESH_AHEAD_MS = MINUTE;
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

/** The marker of the current sign-in, or null when this browser is signed out. */
function sessionMarker(): string | null {
  return readString(STORAGE_KEYS.session);
}

/** True while a session may be held in the refresh cookie (a sign-in happened and no sign-out since). */
export function hasSession(): boolean {
  return sessionMarker() !== null;
}

/**
 * Records a new sign-in whose refresh token the server has just put in the cookie (a login,
 * a reset, the confirmation link). The new id tells other tabs to join it.
 */
export function markSignedIn(): void {
  const id =
    typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;
  writeString(STORAGE_KEYS.session, id);
}

/** Older versions kept the refresh token itself in localStorage: it must not stay there. */
export function dropLegacyRefreshToken(): void {
  removeKey(STORAGE_KEYS.legacyRefreshToken);
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
      if (!outcome.ok && outcome.reason === 'unavailable' && hasSession()) schedule(REFRESH_RETRY_MS);
    });
  }, delayMs);
}

/** After a refresh the network prevented: try again shortly, and again, until the server answers. */
export function retryRefreshLater(): void {
  if (hasSession()) schedule(REFRESH_RETRY_MS);
}

/**
 * Takes a session the server just issued (its refresh token already in the cookie): access
 * token in memory, renewal planned. `fresh`: a new sign-in (login, reset, password change),
 * which other tabs are told about; false for a refresh.
 */
export function applySession(session: Session, { fresh = true }: { fresh?: boolean } = {}): void {
  accessToken = session.accessToken;
  const lifetimeMs = session.expiresIn * 1000;
  accessExpiresAt = Date.now() + lifetimeMs;
  if (fresh || !hasSession()) markSignedIn();
  schedule(Math.max(lifetimeMs - REFRESH_AHEAD_MS, lifetimeMs / 2));
  emit({ type: 'session', session });
}

/** Forgets the access token and the sign-in marker (the server-side sign-out, which clears the cookie, is the caller's business). */
export function clearSession(reason: SignedOutReason = 'local'): void {
  accessToken = null;
  accessExpiresAt = 0;
  cancelTimer();
  removeKey(STORAGE_KEYS.session);
  emit({ type: 'signed-out', reason });
}

async function exchange(retried: boolean): Promise<RefreshOutcome> {
  const marker = sessionMarker();
  if (!marker) return { ok: false, reason: 'no_token' };
  try {
    const session = await parseSession(
      await request<unknown>('/api/auth/refresh', { method: 'POST', headers: CSRF_HEADERS }),
    );
    if (!session) return { ok: false, reason: 'unavailable' };
    applySession(session, { fresh: false });
    return { ok: true, session };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status !== 400 && error.status !== 401 && error.status !== 403)
      return { ok: false, reason: 'unavailable', error };
    const current = sessionMarker();
    // Another tab signed in while ours was in flight: the cookie now holds its session.
    if (current && current !== marker && !retried) return exchange(true);
    if (current === marker) clearSession('expired');
    return { ok: false, reason: 'rejected', error };
  }
}

/** Exchanges the refresh cookie for a new access token; concurrent callers share one request. */
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
    if (event.key !== null && event.key !== STORAGE_KEYS.session) return;
    const marker = sessionMarker();
    if (!marker) {
      if (accessToken || event.oldValue) {
        accessToken = null;
        accessExpiresAt = 0;
        cancelTimer();
        emit({ type: 'signed-out', reason: 'other-tab' });
      }
      return;
    }
    // A sign-in in another tab (a new marker): the shared cookie holds it now, join it.
    // Rotations do not touch the marker: each tab refreshes when its own token is due.
    if (marker !== event.oldValue) void refreshSession();
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
