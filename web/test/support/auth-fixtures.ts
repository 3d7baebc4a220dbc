/** Server answers of the auth API, as the web tests fake them (shapes of the real contract). */
import { vi } from 'vitest';

export function json(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

export function apiUser(overrides: Record<string, unknown> = {}, profile: Record<string, unknown> = {}) {
  return {
    id: 'u-1',
    email: 'camille@exemple.fr',
    role: 'user',
    isAdmin: false,
    ...overrides,
    profile: {
      id: 'u-1',
      username: 'Camille',
      bio: null,
      profilePhotoUrl: null,
      avatarUrl: null,
      firstName: 'Camille',
      lastName: 'Martin',
      dateOfBirth: '1990-01-01',
      phoneNumber: '+33600000000',
      createdAt: '2025-01-02T03:04:05.000Z',
      isPremium: false,
      isPro: false,
      isPlus: false,
      isMulti: false,
      pulseCredits: 0,
      lastUsernameChange: null,
      usernameChangesCount: 0,
      ...profile,
    },
  };
}

/** A session answer: the refresh token is in the HttpOnly cookie, never in the JSON. */
export function sessionBody(n: number, user: unknown = apiUser()) {
  return { accessToken: `A${n}`, expiresIn: 900, user };
}

export const CONFIG = { mapStyleUrl: null, mapStyleUrlDark: null, isAdmin: false };

export interface Call {
  method: string;
  url: string;
  body: unknown;
  authorization: string | null;
  /** The CSRF header of the refresh endpoints. */
  requestedWith: string | null;
  credentials: RequestCredentials | undefined;
}

type Handler = (call: Call) => Response | Promise<Response>;

/**
 * A fetch stand-in answering by "METHOD /path"; every call is recorded. Unknown routes get 404.
 */
export function fakeApi(routes: Record<string, Handler>) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = new Headers(init.headers);
    const call: Call = {
      method,
      url,
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      authorization: headers.get('Authorization'),
      requestedWith: headers.get('X-Requested-With'),
      credentials: init.credentials,
    };
    calls.push(call);
    const handler = routes[`${method} ${url.split('?')[0]}`];
    return handler ? handler(call) : json(404, { error: { code: 'not_found', message: 'Ressource introuvable' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    fetchMock,
    callsTo: (route: string) => calls.filter((c) => `${c.method} ${c.url.split('?')[0]}` === route),
  };
}

/** A promise to settle from the test, for answers that must arrive at a chosen moment. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** `vi.waitFor`'s wait for what the app would show: up to 10 s, as `findBy…` (setup.ts), not 1 s. */
export const WAIT = { timeout: 10_000 };
