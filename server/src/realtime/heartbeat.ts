/**
 * Drops sockets whose peer vanished without closing (mobile networks, sleeping laptops): each
 * socket is pinged once per interval and dropped at its next turn if no pong came back since.
 *
 * The sockets are taken in slices spread over the interval, one slice a tick: a pass over
 * thousands of sockets at once would hold the event loop for as long as their writes take, and
 * every message and post event in flight would wait behind it.
 */
export interface HeartbeatSocket {
  ping(): void;
  terminate(): void;
}

export interface HeartbeatClients<S extends HeartbeatSocket> {
  sockets: Iterable<S>;
  /** Whether each socket answered its last ping (set true when it opens and on each pong). */
  alive: WeakMap<S, boolean>;
  forget(socket: S): void;
}

export interface HeartbeatTiming {
  intervalMs: number;
  slices: number;
}

export const HEARTBEAT: HeartbeatTiming = { intervalMs: 30_000, slices: 30 };

export function startHeartbeat<S extends HeartbeatSocket>(
  clients: HeartbeatClients<S>,
  { intervalMs, slices }: HeartbeatTiming = HEARTBEAT,
): () => void {
  const sliceOf = new WeakMap<S, number>();
  let assigned = 0;
  let tick = 0;
  const timer = setInterval(() => {
    tick = (tick + 1) % slices;
    for (const socket of clients.sockets) {
      let slice = sliceOf.get(socket);
      if (slice === undefined) {
        // Round-robin, so the slices stay even as sockets come and go.
        slice = assigned++ % slices;
        sliceOf.set(socket, slice);
      }
      if (slice !== tick) continue;
      if (!clients.alive.get(socket)) {
        socket.terminate();
        clients.forget(socket);
        continue;
      }
      clients.alive.set(socket, false);
      socket.ping();
    }
  }, intervalMs / slices);
  timer.unref();
  return () => clearInterval(timer);
}
