/**
 * The realtime client (docs/architecture.md, "A realtime event"): one WebSocket per tab on
 * /api/realtime, opened on first use and kept open, reconnecting with exponential backoff (0.5 s
 * doubling to 10 s, with jitter). Features subscribe to event types; whoever needs a catch-up after
 * a cut listens to `onRealtimeConnection` (reconnect: true). The socket authenticates with the
 * session's access token after each open and whenever the token changes, so private events
 * (messages) reach it.
 *
 * Protocol (server/src/realtime/hub.ts): server → { type: 'ready', userId } then
 * { type, data } events; client → { type: 'auth', token }, { type: 'ping' } (→ 'pong') and
 * { type: 'view', west, south, east, north } (core/src/schemas/realtime.ts): the map's fetched
 * bounds, sent on open and on 'ready', then after each change once the map has been still for
 * REALTIME_VIEW_DEBOUNCE_MS. A socket that has sent no view gets no post event.
 * A signed-in socket also carries requests (core's SOCKET_REQUESTS: a text message), each
 * answered by one `reply` with the same `ref` (askRealtime).
 */
import { create } from 'zustand';
import {
  REALTIME_VIEW_DEBOUNCE_MS,
  SHELL_MESSAGES,
  SOCKET_REPLY,
  SOCKET_REQUESTS,
  type RealtimeView,
} from '@moodmap/core';
import { getAccessToken, onSessionChange } from './auth-tokens.ts';
import { ApiError, parseError } from './http.ts';

export interface RealtimeEvent {
  type: string;
  data?: unknown;
}

interface RealtimeState {
  /** True while the socket is open: the fallback polls stop. */
  connected: boolean;
  /** The user the server recognised on this socket (null: anonymous). */
  userId: string | null;
}

export const useRealtimeStore = create<RealtimeState>()(() => ({ connected: false, userId: null }));

export const BACKOFF_MIN_MS = 500;
export const BACKOFF_MAX_MS = 10_000;
/** A ping every 25 s; no pong within 10 s means the connection is dead (sleeping laptop, lost network). */
const PING_EVERY_MS = 25_000;
const PONG_TIMEOUT_MS = 10_000;

/** Delay before reconnect attempt `attempt` (0-based): 0.5 s, 1 s, 2 s… up to 10 s, 50–100 % of it. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** Math.max(0, attempt));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

type Listener = (event: RealtimeEvent) => void;
type ConnectionListener = (info: { connected: boolean; reconnect: boolean }) => void;

const listeners = new Map<string, Set<Listener>>();
const connectionListeners = new Set<ConnectionListener>();
let socket: WebSocket | null = null;
let started = false;
let attempt = 0;
let everOpened = false;
let retryTimer: ReturnType<typeof setTimeout> | null = null;
let pingTimer: ReturnType<typeof setInterval> | null = null;
let pongTimer: ReturnType<typeof setTimeout> | null = null;
let sentToken: string | null | undefined;
/** The token the server's last `ready` took the socket as signed in with (null: a visitor). */
let identifiedToken: string | null = null;
let stopSessionSync: (() => void) | null = null;
/** The map's view to tell the server, the frame last sent on this socket, and the pending debounce. */
let view: RealtimeView | null = null;
let sentView: string | null = null;
let viewTimer: ReturnType<typeof setTimeout> | null = null;

function url(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}/api/realtime`;
}

function sendRaw(message: unknown): boolean {
  if (!socket || socket.readyState !== WebSocket.OPEN) return false;
  socket.send(JSON.stringify(message));
  return true;
}

/** Hook point for the session: sends the current token when it differs from the last one sent. */
export function syncRealtimeAuth(token: string | null = getAccessToken()): void {
  if (token === sentToken) return;
  if (sendRaw({ type: 'auth', token })) sentToken = token;
}

function sendView(): void {
  if (!view) return;
  const frame = JSON.stringify(view);
  if (frame === sentView) return;
  if (sendRaw(view)) sentView = frame;
}

export type ViewBounds = Omit<RealtimeView, 'type'>;

/**
 * The bounds the map fetched its markers for; the server sends this tab the post events inside
 * them. Sent once the view has not changed for REALTIME_VIEW_DEBOUNCE_MS (a pan is one frame,
 * not one per step), and again on every (re)connection.
 */
export function setRealtimeView(bounds: ViewBounds): void {
  view = { type: 'view', west: bounds.west, south: bounds.south, east: bounds.east, north: bounds.north };
  if (viewTimer) clearTimeout(viewTimer);
  viewTimer = setTimeout(() => {
    viewTimer = null;
    sendView();
  }, REALTIME_VIEW_DEBOUNCE_MS);
}

/** A request waits this long for its reply before it is given up as a network failure. */
const REPLY_TIMEOUT_MS = 15_000;
interface AwaitedReply {
  resolve: (data: unknown) => void;
  reject: (error: ApiError) => void;
  timer: ReturnType<typeof setTimeout>;
}
/** Requests sent on the current socket, by ref; a lost socket fails them all. */
const awaitingReply = new Map<string, AwaitedReply>();
let lastRef = 0;

const networkError = () => new ApiError(0, 'network_error', SHELL_MESSAGES.internal_error);

/**
 * Sends a request (core's SOCKET_REQUESTS) on the socket: resolves with its reply's data, or
 * rejects with the server's refusal as an ApiError (status 0 when the socket was lost or the reply
 * did not come: the request may or may not have been carried out). Null, with nothing sent, when
 * the socket is not open and signed in with the session's current token: the caller uses HTTP.
 */
export function askRealtime(
  type: (typeof SOCKET_REQUESTS)[keyof typeof SOCKET_REQUESTS],
  fields: Record<string, unknown>,
): Promise<unknown> | null {
  const token = getAccessToken();
  if (!token || identifiedToken !== token) return null;
  const ref = String(++lastRef);
  if (!sendRaw({ ...fields, type, ref })) return null;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      awaitingReply.delete(ref);
      reject(networkError());
    }, REPLY_TIMEOUT_MS);
    awaitingReply.set(ref, { resolve, reject, timer });
  });
}

function settleReply(frame: { ref?: unknown; data?: unknown; status?: unknown; error?: unknown }): void {
  const ref = typeof frame.ref === 'string' ? frame.ref : '';
  const awaited = awaitingReply.get(ref);
  if (!awaited) return;
  awaitingReply.delete(ref);
  clearTimeout(awaited.timer);
  if (frame.data !== undefined) awaited.resolve(frame.data);
  else
    awaited.reject(
      parseError(typeof frame.status === 'number' ? frame.status : 0, frame, SHELL_MESSAGES.internal_error),
    );
}

function failAwaitedReplies(): void {
  for (const { reject, timer } of awaitingReply.values()) {
    clearTimeout(timer);
    reject(networkError());
  }
  awaitingReply.clear();
}

function dispatch(event: RealtimeEvent): void {
  for (const key of [event.type, '*']) {
    for (const listener of [...(listeners.get(key) ?? [])]) {
      try {
        listener(event);
      } catch (error) {
        console.error('MoodMap realtime listener failed', error);
      }
    }
  }
}

function setConnected(connected: boolean, reconnect: boolean): void {
  if (useRealtimeStore.getState().connected === connected) return;
  useRealtimeStore.setState(connected ? { connected } : { connected, userId: null });
  for (const listener of [...connectionListeners]) listener({ connected, reconnect });
}

function clearTimers(): void {
  if (retryTimer) clearTimeout(retryTimer);
  if (pingTimer) clearInterval(pingTimer);
  if (pongTimer) clearTimeout(pongTimer);
  retryTimer = pingTimer = pongTimer = null;
}

function scheduleReconnect(): void {
  if (!started || retryTimer) return;
  retryTimer = setTimeout(() => {
    retryTimer = null;
    connect();
  }, backoffDelay(attempt++));
}

function connect(): void {
  if (!started || socket) return;
  let ws: WebSocket;
  try {
    ws = new WebSocket(url());
  } catch {
    scheduleReconnect();
    return;
  }
  socket = ws;
  ws.onopen = () => {
    if (socket !== ws) return;
    attempt = 0;
    sentToken = undefined;
    const token = getAccessToken();
    if (token) syncRealtimeAuth(token);
    else sentToken = null;
    sentView = null;
    sendView();
    const reconnect = everOpened;
    everOpened = true;
    setConnected(true, reconnect);
    pingTimer = setInterval(() => {
      if (!sendRaw({ type: 'ping' })) return;
      pongTimer ??= setTimeout(() => ws.close(4000, 'no pong'), PONG_TIMEOUT_MS);
    }, PING_EVERY_MS);
  };
  ws.onmessage = (message) => {
    if (socket !== ws) return;
    let event: RealtimeEvent;
    try {
      event = JSON.parse(String(message.data)) as RealtimeEvent;
    } catch {
      return;
    }
    if (!event || typeof event.type !== 'string') return;
    if (event.type === 'pong') {
      if (pongTimer) clearTimeout(pongTimer);
      pongTimer = null;
      return;
    }
    if (event.type === SOCKET_REPLY) {
      settleReply(event);
      return;
    }
    if (event.type === 'ready') {
      const userId = (event as { userId?: unknown }).userId;
      useRealtimeStore.setState({ userId: typeof userId === 'string' ? userId : null });
      identifiedToken = typeof userId === 'string' && sentToken ? sentToken : null;
      // The server (re)identified the socket: it hears the view again.
      sentView = null;
      sendView();
    }
    dispatch(event);
  };
  const lost = () => {
    if (socket !== ws) return;
    socket = null;
    identifiedToken = null;
    clearTimers();
    failAwaitedReplies();
    setConnected(false, false);
    scheduleReconnect();
  };
  ws.onclose = lost;
  ws.onerror = () => {
    // An open socket's error is followed by onclose. One that never opened may get no close
    // event at all (Chromium, when the CSP refuses the address): give it up here, or the tab
    // would wait for it forever and never reconnect.
    if (ws.readyState === ws.OPEN) return;
    lost();
    try {
      ws.close();
    } catch {
      // already failed
    }
  };
}

function onOnline(): void {
  if (!started || socket) return;
  if (retryTimer) clearTimeout(retryTimer);
  retryTimer = null;
  attempt = 0;
  connect();
}

/** Opens the tab's socket if it is not open yet (idempotent). */
export function startRealtime(): void {
  if (started || typeof window === 'undefined' || typeof WebSocket === 'undefined') return;
  started = true;
  window.addEventListener('online', onOnline);
  // Sign-in, silent renewal, sign-out: the socket follows the session.
  stopSessionSync = onSessionChange((event) =>
    syncRealtimeAuth(event.type === 'session' ? event.session.accessToken : null),
  );
  connect();
}

/** Closes the socket and forgets everything (tests, or a full sign-out teardown). */
export function stopRealtime(): void {
  started = false;
  everOpened = false;
  attempt = 0;
  sentToken = undefined;
  view = null;
  sentView = null;
  if (viewTimer) clearTimeout(viewTimer);
  viewTimer = null;
  clearTimers();
  stopSessionSync?.();
  stopSessionSync = null;
  if (typeof window !== 'undefined') window.removeEventListener('online', onOnline);
  const ws = socket;
  socket = null;
  identifiedToken = null;
  failAwaitedReplies();
  ws?.close(1000, 'stopped');
  setConnected(false, false);
}

/** Listens to one event type ('*' for all); returns the unsubscribe function. Starts the socket. */
export function subscribeRealtime(type: string, listener: Listener): () => void {
  let set = listeners.get(type);
  if (!set) listeners.set(type, (set = new Set()));
  set.add(listener);
  startRealtime();
  return () => {
    set.delete(listener);
  };
}

/** Connection changes; `reconnect` is true on every open after the first (time for a catch-up). */
export function onRealtimeConnection(listener: ConnectionListener): () => void {
  connectionListeners.add(listener);
  return () => {
    connectionListeners.delete(listener);
  };
}
