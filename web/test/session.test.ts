// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { resetSessionForTests, useSessionStore } from '../src/features/auth/session-store.ts';
import { toSessionUser } from '../src/features/auth/auth-api.ts';
import { captureAuthLink } from '../src/features/auth/auth-link.ts';
import { useMapStore } from '../src/features/map/map-store.ts';
import { api, ApiError } from '../src/lib/api.ts';
import { applySession, getAccessToken, startTokenSync } from '../src/lib/auth-tokens.ts';
import { useToastStore } from '../src/ui/toasts/toast-store.ts';
import { apiUser, CONFIG, deferred, fakeApi, json, sessionBody, type Call, WAIT } from './support/auth-fixtures.ts';

/** The sign-in marker (not a token): present while the HttpOnly cookie may hold a session. */
const SESSION_KEY = 'moodmap.session';
/** Where older versions kept the refresh token itself. */
const LEGACY_TOKEN_KEY = 'moodmap.refreshToken';
const USER_KEY = 'moodmap.currentUser';

/** How a refresh or logout must be sent: no body, the cookie (same-origin credentials), the CSRF header. */
function expectCookieCall(call: Call | undefined) {
  expect(call).toBeDefined();
  expect(call!.body).toBeUndefined();
  expect(call!.credentials).toBe('same-origin');
  expect(call!.requestedWith).toBe('moodmap');
}

const refused = () =>
  json(401, { error: { code: 'session_expired', message: 'Session expirée. Veuillez vous reconnecter.' } });

function signedInWith(n: number) {
  applySession(sessionBody(n));
}

describe('session restore at start-up', () => {
  beforeEach(() => {
    localStorage.clear();
    resetSessionForTests();
    useToastStore.setState({ toasts: [] });
    window.history.replaceState(null, '', '/');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('signs in with the refresh cookie when this browser signed in before, keeping the splash until the refresh answers', async () => {
    localStorage.setItem(SESSION_KEY, 'sid-1');
    const refresh = deferred<Response>();
    const server = fakeApi({
      'GET /api/config': () => json(200, CONFIG),
      'POST /api/auth/refresh': () => refresh.promise,
    });
    const done = useSessionStore.getState().initialise(new QueryClient());
    await vi.waitFor(() => expect(server.callsTo('POST /api/auth/refresh')).toHaveLength(1), WAIT);
    expect(useSessionStore.getState().status).toBe('initialising');
    expectCookieCall(server.callsTo('POST /api/auth/refresh')[0]);

    refresh.resolve(json(200, sessionBody(2)));
    await done;
    const { status, user } = useSessionStore.getState();
    expect(status).toBe('ready');
    expect(user).toMatchObject({
      id: 'u-1',
      email: 'camille@exemple.fr',
      nickname: 'Camille',
      role: 'user',
      isAdmin: false,
    });
    // The rotation happened in the cookie: the marker is unchanged; the access token stays in memory only.
    expect(localStorage.getItem(SESSION_KEY)).toBe('sid-1');
    expect(getAccessToken()).toBe('A2');
    expect(JSON.stringify({ ...localStorage })).not.toContain('A2');
    // The current user is persisted without its private fields.
    const persisted = JSON.parse(localStorage.getItem(USER_KEY)!) as Record<string, unknown>;
    expect(persisted).toMatchObject({ id: 'u-1', nickname: 'Camille' });
    expect(persisted).not.toHaveProperty('phoneNumber');
    expect(persisted).not.toHaveProperty('dateOfBirth');
  });

  it('starts signed out, without calling refresh, when this browser has not signed in', async () => {
    localStorage.setItem(USER_KEY, JSON.stringify({ id: 'u-1', email: 'x@y.fr', nickname: 'X' }));
    const server = fakeApi({ 'GET /api/config': () => json(200, CONFIG) });
    await useSessionStore.getState().initialise(new QueryClient());
    expect(useSessionStore.getState()).toMatchObject({ status: 'ready', user: null });
    expect(server.callsTo('POST /api/auth/refresh')).toHaveLength(0);
    expect(localStorage.getItem(USER_KEY)).toBeNull();
  });

  it('removes a refresh token an older version left in localStorage, and never sends it', async () => {
    localStorage.setItem(LEGACY_TOKEN_KEY, 'R-legacy');
    const server = fakeApi({ 'GET /api/config': () => json(200, CONFIG) });
    await useSessionStore.getState().initialise(new QueryClient());
    expect(localStorage.getItem(LEGACY_TOKEN_KEY)).toBeNull();
    expect(useSessionStore.getState().user).toBeNull();
    expect(JSON.stringify(server.calls)).not.toContain('R-legacy');
  });

  it('forgets a sign-in whose cookie the server refuses', async () => {
    localStorage.setItem(SESSION_KEY, 'sid-old');
    fakeApi({ 'GET /api/config': () => json(200, CONFIG), 'POST /api/auth/refresh': refused });
    await useSessionStore.getState().initialise(new QueryClient());
    expect(useSessionStore.getState()).toMatchObject({ status: 'ready', user: null });
    expect(localStorage.getItem(SESSION_KEY)).toBeNull();
    // A restore that fails is not announced.
    expect(useToastStore.getState().toasts).toHaveLength(0);
  });

  it('keeps the sign-in and shows the persisted user while the server is unreachable, then retries', async () => {
    localStorage.setItem(SESSION_KEY, 'sid-1');
    localStorage.setItem(USER_KEY, JSON.stringify({ id: 'u-1', email: 'camille@exemple.fr', nickname: 'Camille' }));
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const done = useSessionStore.getState().initialise(new QueryClient());
    await vi.advanceTimersByTimeAsync(2_000); // the config query's one retry
    await done;
    expect(useSessionStore.getState().user).toMatchObject({ id: 'u-1', nickname: 'Camille' });
    expect(localStorage.getItem(SESSION_KEY)).toBe('sid-1');

    // Back online: the planned retry signs in for real.
    const server = fakeApi({
      'POST /api/auth/refresh': () => json(200, sessionBody(2, apiUser({}, { username: 'Camille2' }))),
    });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(server.callsTo('POST /api/auth/refresh')).toHaveLength(1);
    expect(useSessionStore.getState().user?.nickname).toBe('Camille2');
    expect(getAccessToken()).toBe('A2');
  });

  it('signs in from the confirmation link (its session is in the cookie), cleans the address and says so', async () => {
    window.history.replaceState(null, '', '/?type=signup');
    expect(captureAuthLink()).toEqual({ kind: 'signup' });
    expect(window.location.pathname + window.location.search + window.location.hash).toBe('/');
    expect(localStorage.getItem(SESSION_KEY)).not.toBeNull();
    const server = fakeApi({
      'GET /api/config': () => json(200, CONFIG),
      'POST /api/auth/refresh': () => json(200, sessionBody(3)),
    });
    await useSessionStore.getState().initialise(new QueryClient());
    expectCookieCall(server.callsTo('POST /api/auth/refresh')[0]);
    expect(useSessionStore.getState().user?.email).toBe('camille@exemple.fr');
    expect(useToastStore.getState().toasts.map((t) => [t.type, t.message])).toEqual([
      ['success', 'Adresse email confirmée : vous êtes connecté.'],
    ]);
  });

  it('reports a used or expired confirmation link', async () => {
    window.history.replaceState(null, '', '/?error=link_invalid');
    expect(captureAuthLink()).toEqual({ kind: 'invalid' });
    expect(window.location.search).toBe('');
    fakeApi({ 'GET /api/config': () => json(200, CONFIG) });
    await useSessionStore.getState().initialise(new QueryClient());
    expect(useSessionStore.getState().user).toBeNull();
    expect(useToastStore.getState().toasts.map((t) => [t.type, t.message])).toEqual([
      ['error', 'Lien de confirmation invalide ou expiré.'],
    ]);
  });
});

describe('api() and the access token', () => {
  beforeEach(() => {
    localStorage.clear();
    resetSessionForTests();
    useSessionStore.setState({ status: 'ready' });
    useToastStore.setState({ toasts: [] });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
    resetSessionForTests();
  });

  it('sends the access token as a Bearer header', async () => {
    const server = fakeApi({ 'GET /api/things': () => json(200, { ok: true }) });
    signedInWith(1);
    await expect(api('/api/things')).resolves.toEqual({ ok: true });
    expect(server.calls[0]!.authorization).toBe('Bearer A1');
  });

  it('shares one refresh between concurrent 401s, then retries each call with the new token', async () => {
    const refresh = deferred<Response>();
    const server = fakeApi({
      'GET /api/things': ({ authorization }) =>
        authorization === 'Bearer A2' || authorization === 'Bearer A3'
          ? json(200, { ok: true })
          : json(401, { error: { code: 'not_authenticated', message: 'User not authenticated' } }),
      'POST /api/auth/refresh': () => refresh.promise,
    });
    signedInWith(1);
    const results = Promise.all([api('/api/things'), api('/api/things'), api('/api/things')]);
    await vi.waitFor(() => expect(server.callsTo('POST /api/auth/refresh')).toHaveLength(1), WAIT);
    refresh.resolve(json(200, sessionBody(2)));
    await expect(results).resolves.toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    expect(server.callsTo('POST /api/auth/refresh')).toHaveLength(1);
    expectCookieCall(server.callsTo('POST /api/auth/refresh')[0]);
    expect(server.callsTo('GET /api/things').map((c) => c.authorization)).toEqual([
      'Bearer A1',
      'Bearer A1',
      'Bearer A1',
      'Bearer A2',
      'Bearer A2',
      'Bearer A2',
    ]);

    // A call sent with the old token that fails after the renewal reuses the new token.
    const late = deferred<Response>();
    server.fetchMock.mockImplementationOnce(async () => late.promise);
    const lateCall = api('/api/things');
    signedInWith(3);
    late.resolve(json(401, { error: { code: 'not_authenticated', message: 'User not authenticated' } }));
    await expect(lateCall).resolves.toEqual({ ok: true });
    expect(server.callsTo('GET /api/things').at(-1)!.authorization).toBe('Bearer A3');
    expect(server.callsTo('POST /api/auth/refresh')).toHaveLength(1);
  });

  it('signs out when the refresh is refused, and the call fails with its 401', async () => {
    fakeApi({
      'GET /api/things': () => json(401, { error: { code: 'not_authenticated', message: 'User not authenticated' } }),
      'POST /api/auth/refresh': refused,
    });
    signedInWith(1);
    expect(useSessionStore.getState().user).not.toBeNull();
    const failure = await api('/api/things').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(401);
    expect(useSessionStore.getState().user).toBeNull();
    expect(localStorage.getItem(SESSION_KEY)).toBeNull();
    expect(getAccessToken()).toBeNull();
    expect(useToastStore.getState().toasts.map((t) => t.message)).toEqual([
      'Session expirée. Veuillez vous reconnecter.',
    ]);
  });

  it('renews the access token silently a minute before it expires', async () => {
    vi.useFakeTimers();
    const server = fakeApi({ 'POST /api/auth/refresh': () => json(200, sessionBody(2)) });
    signedInWith(1);
    await vi.advanceTimersByTimeAsync(839_000);
    expect(server.callsTo('POST /api/auth/refresh')).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(server.callsTo('POST /api/auth/refresh')).toHaveLength(1);
    expectCookieCall(server.callsTo('POST /api/auth/refresh')[0]);
    expect(getAccessToken()).toBe('A2');
  });

  it('retries with the cookie of a sign-in another tab made meanwhile instead of signing out', async () => {
    let calls = 0;
    const server = fakeApi({
      'POST /api/auth/refresh': () => {
        calls += 1;
        if (calls === 1) {
          // While ours was in flight another tab signed in: new marker, new cookie.
          localStorage.setItem(SESSION_KEY, 'sid-9');
          return refused();
        }
        return json(200, sessionBody(10));
      },
    });
    localStorage.setItem(SESSION_KEY, 'sid-1');
    useSessionStore.setState({ user: await toSessionUser(apiUser()) });
    const { refreshSession } = await import('../src/lib/auth-tokens.ts');
    await expect(refreshSession()).resolves.toMatchObject({ ok: true });
    expect(server.callsTo('POST /api/auth/refresh')).toHaveLength(2);
    expect(useSessionStore.getState().user).not.toBeNull();
    expect(localStorage.getItem(SESSION_KEY)).toBe('sid-9');
    expect(getAccessToken()).toBe('A10');
  });

  it('keeps no refresh token where scripts can read it, even if a server sent one in the JSON', async () => {
    fakeApi({ 'POST /api/auth/refresh': () => json(200, { ...sessionBody(2), refreshToken: 'R-in-json' }) });
    signedInWith(1);
    const { refreshSession } = await import('../src/lib/auth-tokens.ts');
    await expect(refreshSession()).resolves.toMatchObject({ ok: true });
    expect(JSON.stringify({ ...localStorage, ...sessionStorage })).not.toContain('R-in-json');
    expect(JSON.stringify({ ...localStorage })).not.toContain('A2');
  });

  it('follows other tabs: their sign-out signs this tab out, their sign-in signs it in', async () => {
    const stop = startTokenSync();
    try {
      const server = fakeApi({ 'POST /api/auth/refresh': () => json(200, sessionBody(5)) });
      signedInWith(1);
      const first = localStorage.getItem(SESSION_KEY);
      localStorage.removeItem(SESSION_KEY);
      window.dispatchEvent(new StorageEvent('storage', { key: SESSION_KEY, oldValue: first, newValue: null }));
      expect(useSessionStore.getState().user).toBeNull();
      expect(getAccessToken()).toBeNull();

      localStorage.setItem(SESSION_KEY, 'sid-4');
      window.dispatchEvent(new StorageEvent('storage', { key: SESSION_KEY, oldValue: null, newValue: 'sid-4' }));
      await vi.waitFor(() => expect(useSessionStore.getState().user).not.toBeNull(), WAIT);
      expectCookieCall(server.callsTo('POST /api/auth/refresh')[0]);

      // Another sign-in there (another account, maybe): the shared cookie holds it, this tab joins it.
      localStorage.setItem(SESSION_KEY, 'sid-6');
      window.dispatchEvent(new StorageEvent('storage', { key: SESSION_KEY, oldValue: 'sid-4', newValue: 'sid-6' }));
      await vi.waitFor(() => expect(server.callsTo('POST /api/auth/refresh')).toHaveLength(2), WAIT);

      // Other keys change nothing.
      window.dispatchEvent(new StorageEvent('storage', { key: 'moodmap.theme', oldValue: null, newValue: '"dark"' }));
      expect(server.callsTo('POST /api/auth/refresh')).toHaveLength(2);
    } finally {
      stop();
    }
  });
});

describe('sign-in and sign-out sequences', () => {
  let client: QueryClient;
  beforeEach(async () => {
    localStorage.clear();
    resetSessionForTests();
    client = new QueryClient();
    fakeApi({ 'GET /api/config': () => json(200, CONFIG) });
    await useSessionStore.getState().initialise(client);
    vi.unstubAllGlobals();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('signs in: user set, location asked with a 5 s timeout, data refetched', async () => {
    const getCurrentPosition = vi.fn(
      (ok: PositionCallback, _err?: PositionErrorCallback | null, _o?: PositionOptions) =>
        ok({ coords: { latitude: 48.85, longitude: 2.35 } } as GeolocationPosition),
    );
    vi.stubGlobal('navigator', { ...navigator, geolocation: { getCurrentPosition } });
    const server = fakeApi({ 'POST /api/auth/login': () => json(200, sessionBody(1)) });
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    vi.useFakeTimers();
    await expect(useSessionStore.getState().signIn('camille@exemple.fr', 'Secret123')).resolves.toEqual({ ok: true });
    expect(server.callsTo('POST /api/auth/login')[0]!.body).toEqual({
      email: 'camille@exemple.fr',
      password: 'Secret123',
    });
    expect(useSessionStore.getState().user?.nickname).toBe('Camille');
    // The sign-in is marked for the next start and for other tabs.
    expect(localStorage.getItem(SESSION_KEY)).not.toBeNull();
    expect(getCurrentPosition.mock.calls[0]![2]).toMatchObject({ timeout: 5000 });
    expect(useMapStore.getState().userPosition).toEqual({ latitude: 48.85, longitude: 2.35 });
    expect(invalidate).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(100);
    expect(invalidate).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(500);
    expect(invalidate).toHaveBeenLastCalledWith({ queryKey: ['posts'] });
  });

  it("returns the server's message when sign-in fails, and 'Erreur de connexion.' with a hint offline", async () => {
    fakeApi({
      'POST /api/auth/login': () =>
        json(403, {
          error: {
            code: 'email_not_confirmed',
            message: 'Veuillez vérifier votre email et cliquer sur le lien de confirmation',
          },
        }),
    });
    await expect(useSessionStore.getState().signIn('a@b.fr', 'Secret123')).resolves.toMatchObject({
      ok: false,
      code: 'email_not_confirmed',
      message: 'Veuillez vérifier votre email et cliquer sur le lien de confirmation',
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('offline'))),
    );
    await expect(useSessionStore.getState().signIn('a@b.fr', 'Secret123')).resolves.toMatchObject({
      ok: false,
      message: 'Erreur de connexion. Vérifiez votre connexion internet puis réessayez.',
    });
    expect(useSessionStore.getState().user).toBeNull();
  });

  it('signs out: user and tokens cleared at once, server told, posts refetched after 1 s', async () => {
    const server = fakeApi({ 'POST /api/auth/logout': () => new Response(null, { status: 204 }) });
    signedInWith(1);
    expect(localStorage.getItem(USER_KEY)).not.toBeNull();
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    vi.useFakeTimers();
    const done = useSessionStore.getState().signOut();
    // Before the server has answered, the tab is already signed out.
    expect(useSessionStore.getState().user).toBeNull();
    expect(getAccessToken()).toBeNull();
    expect(localStorage.getItem(SESSION_KEY)).toBeNull();
    expect(localStorage.getItem(USER_KEY)).toBeNull();
    await done;
    // The server revokes the cookie's session and clears the cookie.
    expectCookieCall(server.callsTo('POST /api/auth/logout')[0]);
    expect(invalidate).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1000);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['posts'] });
  });

  it('reloads the user through GET /api/auth/session, renewing an expired access token once', async () => {
    const server = fakeApi({
      'GET /api/auth/session': ({ authorization }) =>
        authorization === 'Bearer A2'
          ? json(200, { user: apiUser({}, { username: 'Camille_B', bio: 'Nouvelle bio' }) })
          : json(401, { error: { code: 'not_authenticated', message: 'User not authenticated' } }),
      'POST /api/auth/refresh': () => json(200, sessionBody(2)),
    });
    signedInWith(1);
    await useSessionStore.getState().reloadUser();
    expect(server.calls.map((c) => `${c.method} ${c.url} ${c.authorization ?? ''}`.trim())).toEqual([
      'GET /api/auth/session Bearer A1',
      'POST /api/auth/refresh',
      'GET /api/auth/session Bearer A2',
    ]);
    expect(useSessionStore.getState().user).toMatchObject({ nickname: 'Camille_B', bio: 'Nouvelle bio' });
    expect(JSON.parse(localStorage.getItem(USER_KEY)!)).toMatchObject({ nickname: 'Camille_B' });
  });

  it("ends this browser's push subscription at sign-out, so the next person gets no notification", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('offline'))),
    );
    const unsubscribe = vi.fn(async () => true);
    const subscription = { unsubscribe };
    vi.stubGlobal('PushManager', class {});
    vi.stubGlobal('Notification', class {});
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { getRegistration: async () => ({ pushManager: { getSubscription: async () => subscription } }) },
    });
    localStorage.setItem('moodmap.pushDevice', JSON.stringify('appareil-1'));
    try {
      signedInWith(1);
      await useSessionStore.getState().signOut();
      await vi.waitFor(() => expect(unsubscribe).toHaveBeenCalled(), WAIT);
      expect(localStorage.getItem('moodmap.pushDevice')).toBeNull();
    } finally {
      Reflect.deleteProperty(navigator, 'serviceWorker');
    }
  });

  it('signs out locally even when the server cannot be reached', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('offline'))),
    );
    signedInWith(1);
    await useSessionStore.getState().signOut();
    expect(useSessionStore.getState().user).toBeNull();
    expect(localStorage.getItem(SESSION_KEY)).toBeNull();
  });
});

describe('current user mapping', () => {
  it('takes the nickname from the profile, with the fallbacks, and "Chargement..." without a profile', async () => {
    expect((await toSessionUser(apiUser()))?.nickname).toBe('Camille');
    expect((await toSessionUser(apiUser({}, { username: '  ' })))?.nickname).toBe('Camille');
    expect((await toSessionUser(apiUser({}, { username: null, firstName: null })))?.nickname).toBe('camille');
    expect((await toSessionUser({ id: 'u', email: 'x@y.fr', role: 'user', isAdmin: false }))?.nickname).toBe(
      'Chargement...',
    );
    expect(await toSessionUser(apiUser({ role: 'moderator', isAdmin: true }))).toMatchObject({
      role: 'moderator',
      isAdmin: true,
    });
    expect((await toSessionUser(apiUser({ role: 'pirate' })))?.role).toBe('user');
    expect(await toSessionUser({ email: 'x@y.fr' })).toBeNull();
  });
});
