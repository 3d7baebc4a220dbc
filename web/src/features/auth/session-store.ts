import { type StoreApi, create } from 'zustand';
import type { QueryClient } from '@tanstack/react-query';
import { SHELL_MESSAGES } from '@moodmap/core';
import {
  fetchSessionUser,
  persistableUser,
  postLogin,
  postLogout,
  postRecover,
  postResetPassword,
  postSignUp,
  readPersistedUser,
  toSessionUser,
  withSessionUser,
  type SessionUser,
  type SignUpRequest,
} from './auth-api.ts';
import { takeAuthLink } from './auth-link.ts';
import { refetchAfterSignIn, refetchAfterSignOut, requestLocationQuietly } from './sign-in-sequence.ts';
import { ApiError } from '../../lib/api.ts';
import {
  applySession,
  clearSession,
  dropLegacyRefreshToken,
  hasSession,
  onSessionChange,
  parseSession,
  refreshSession,
  resetTokenStateForTests,
  retryRefreshLater,
  startTokenSync,
} from '../../lib/auth-tokens.ts';
import { readJson, removeKey, STORAGE_KEYS, writeJson } from '../../lib/storage.ts';
import { toast } from '../../ui/toasts/toast-store.ts';
import { configQuery } from '../../lib/config.ts';

export type { SessionUser } from './auth-api.ts';

export type SessionStatus = 'initialising' | 'ready';

/** Outcome of an auth form action: the form shows `message` (the server's French text) on failure. */
export type AuthResult = { ok: true } | { ok: false; status: number; code: string; message: string };

interface SessionState {
  status: SessionStatus;
  user: SessionUser | null;
  /** Runs once at start-up: config, confirmation link, session restore; the splash shows until it settles. */
  initialise: (queryClient: QueryClient) => Promise<void>;
  signIn: (email: string, password: string) => Promise<AuthResult>;
  signUp: (input: SignUpRequest) => Promise<AuthResult>;
  requestPasswordReset: (email: string) => Promise<AuthResult>;
  /** The reset screen: sets the new password with the link's tokens; the answer's session signs in. */
  resetPassword: (tokens: { accessToken: string; refreshToken: string }, password: string) => Promise<AuthResult>;
  signOut: () => Promise<void>;
  /** Refetches the signed-in user (after a profile change); failures are silent. */
  reloadUser: () => Promise<void>;
}

/** Rate-limit answers of sign-in and sign-up: the product's French text for that cause. */
const RATE_LIMIT_CODES = new Set(['rate_too_many', 'rate_blocked']);

function failure(error: unknown, authForm = false): AuthResult & { ok: false } {
  if (error instanceof ApiError) {
    if (authForm && error.status === 429 && RATE_LIMIT_CODES.has(error.code))
      return { ok: false, status: 429, code: error.code, message: SHELL_MESSAGES.auth_rate_limited };
    // Unreachable server: 'Erreur de connexion.' plus a hint.
    if (error.status === 0)
      return {
        ok: false,
        status: 0,
        code: error.code,
        message: `${SHELL_MESSAGES.auth_other} ${SHELL_MESSAGES.auth_other_hint}`,
      };
    return { ok: false, status: error.status, code: error.code, message: error.message };
  }
  return { ok: false, status: 0, code: 'internal_error', message: SHELL_MESSAGES.internal_error };
}

/**
 * An auth form's request: `{ ok: true }` once `run` succeeds, else the failure the form shows.
 * `run` answers false when the server's 2xx carries no usable session. `authForm`: sign-in, sign-up.
 */
async function authAction(run: () => Promise<boolean>, authForm = false): Promise<AuthResult> {
  try {
    return (await run()) ? { ok: true } : failure(null);
  } catch (error) {
    return failure(error, authForm);
  }
}

let queryClient: QueryClient | null = null;
let initialising: Promise<void> | null = null;
let stopTokenSync: (() => void) | null = null;

function persistUser(user: SessionUser | null): void {
  if (user) writeJson(STORAGE_KEYS.currentUser, persistableUser(user));
  else removeKey(STORAGE_KEYS.currentUser);
}

type SetSession = StoreApi<SessionState>['setState'];
type GetSession = StoreApi<SessionState>['getState'];

/** Takes a session the server just issued; the token listener (followSessionEvents) sets the user. */
async function startSession(payload: unknown): Promise<boolean> {
  const session = await parseSession(payload);
  if (!session || !(await toSessionUser(session.user))) return false;
  applySession(session);
  return true;
}

/**
 * Keeps the user in step with the tokens: sign-ins (here or in another tab), refreshes,
 * expiry, other tabs' sign-outs. A sign-in refetches the viewer's data.
 */
function followSessionEvents(set: SetSession, get: GetSession): void {
  let sessionEvents = 0;
  onSessionChange((event) => {
    const seen = ++sessionEvents;
    if (event.type === 'session') {
      withSessionUser(event.session.user, (user) => {
        if (seen !== sessionEvents) return; // a later event has spoken
        const wasSignedIn = get().user !== null;
        set({ user });
        persistUser(user);
        // During start-up the restore's own refetch follows `initialise`.
        if (!wasSignedIn && user && get().status === 'ready') refetchAfterSignIn(queryClient);
      });
      return;
    }
    const wasSignedIn = get().user !== null;
    set({ user: null });
    persistUser(null);
    if (!wasSignedIn || event.reason === 'local') return;
    refetchAfterSignOut(queryClient);
    // A session that ends by itself mid-use is worth saying; another tab's sign-out is not.
    if (event.reason === 'expired' && get().status === 'ready') toast.warning(SHELL_MESSAGES.session_expired);
  });
}

/** Signs in with the refresh cookie, if a sign-in happened here. Offline, the persisted user stands in until the server answers. */
async function restoreSession(set: SetSession, get: GetSession): Promise<boolean> {
  if (!hasSession()) {
    persistUser(null);
    return false;
  }
  const outcome = await refreshSession();
  if (outcome.ok) return get().user !== null;
  if (outcome.reason === 'unavailable') {
    const persisted = readPersistedUser(readJson(STORAGE_KEYS.currentUser));
    if (persisted) set({ user: persisted });
    retryRefreshLater();
    return false;
  }
  return false;
}

export const useSessionStore = create<SessionState>()((set, get) => {
  followSessionEvents(set, get);

  return {
    status: 'initialising',
    user: null,

    initialise: (client) => {
      queryClient = client;
      initialising ??= (async () => {
        dropLegacyRefreshToken();
        stopTokenSync ??= typeof window !== 'undefined' ? startTokenSync() : null;
        const link = takeAuthLink();
        // The config must be known before the map picks its style: the splash covers both.
        const config = client.fetchQuery(configQuery).then(
          () => undefined,
          () => undefined,
        );
        const signedIn = await restoreSession(set, get).catch(() => false);
        await config;
        set({ status: 'ready' });
        // Queries that ran for a visitor under the splash are refetched for the signed-in user.
        if (signedIn) refetchAfterSignIn(client);
        if (link?.kind === 'signup' && signedIn) {
          // Confirming the address is this account's first sign-in.
          toast.success(SHELL_MESSAGES.auth_email_confirmed);
          requestLocationQuietly();
        } else if (link) {
          toast.error(SHELL_MESSAGES.auth_confirm_link_invalid);
        }
      })();
      return initialising;
    },

    signIn: (email, password) =>
      authAction(async () => {
        if (!(await startSession(await postLogin(email, password)))) return false;
        // Location permission is asked at login (5 s timeout).
        requestLocationQuietly();
        return true;
      }, true),

    signUp: (input) =>
      authAction(async () => {
        await postSignUp(input);
        return true;
      }, true),

    requestPasswordReset: (email) => authAction(() => postRecover(email).then(() => true)),

    resetPassword: (tokens, password) =>
      authAction(async () => {
        // The password is changed once the server answers 2xx, whatever its body.
        await startSession(await postResetPassword({ ...tokens, password }));
        return true;
      }),

    signOut: async () => {
      const hadSession = hasSession();
      const wasSignedIn = get().user !== null;
      // Locally first: the screen changes at once, and even when the server is unreachable.
      clearSession('local');
      // Notifications for this account stop on this browser; loaded on demand, so the
      // push code (and the catalogue it reads) stays off the first load.
      void import('../push/browser-push.ts').then((push) => push.endPushOnThisBrowser()).catch(() => undefined);
      if (wasSignedIn) refetchAfterSignOut(queryClient);
      // The server revokes the cookie's session and clears the cookie.
      if (hadSession || wasSignedIn) await postLogout().catch(() => undefined);
    },

    reloadUser: async () => {
      const id = get().user?.id;
      if (!id) return;
      const user = await fetchSessionUser().catch(() => null);
      // Only if the same person is still signed in when the answer comes back.
      if (user && get().user?.id === user.id) {
        set({ user });
        persistUser(user);
      }
    },
  };
});

/** Test hook: back to a fresh start-up (tokens in memory, start-up promise, token sync). */
export function resetSessionForTests(): void {
  initialising = null;
  stopTokenSync?.();
  stopTokenSync = null;
  queryClient = null;
  resetTokenStateForTests();
  useSessionStore.setState({ status: 'initialising', user: null });
}
