/**
 * The heartbeat: every socket is pinged once per interval, a socket that answered stays, one that
 * did not is dropped at its next turn, and the pings of thousands of sockets are spread over the
 * interval instead of all written in one turn of the event loop.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startHeartbeat, type HeartbeatSocket } from '../../src/realtime/heartbeat.ts';

const TIMING = { intervalMs: 30_000, slices: 30 };
const TICK = TIMING.intervalMs / TIMING.slices;

interface Peer extends HeartbeatSocket {
  pings: number;
  terminated: boolean;
  /** Whether it answers pings (a pong arrives at once). */
  answers: boolean;
}

function crowd(count: number) {
  const sockets = new Set<Peer>();
  const alive = new WeakMap<Peer, boolean>();
  const pingsAt: number[] = [];
  for (let i = 0; i < count; i++) {
    const peer: Peer = {
      pings: 0,
      terminated: false,
      answers: true,
      ping() {
        peer.pings++;
        pingsAt.push(Date.now());
        if (peer.answers) alive.set(peer, true);
      },
      terminate() {
        peer.terminated = true;
      },
    };
    sockets.add(peer);
    alive.set(peer, true);
  }
  const clients = { sockets, alive, forget: (peer: Peer) => void sockets.delete(peer) };
  return { clients, peers: [...sockets], pingsAt };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the heartbeat', () => {
  it('pings each of 5 000 sockets once an interval, a thirtieth of them at a time', () => {
    const { clients, peers, pingsAt } = crowd(5000);
    const stop = startHeartbeat(clients, TIMING);
    vi.advanceTimersByTime(TIMING.intervalMs);
    expect(peers.every((p) => p.pings === 1)).toBe(true);
    const perTick = new Map<number, number>();
    for (const at of pingsAt) perTick.set(at, (perTick.get(at) ?? 0) + 1);
    expect(perTick.size).toBe(TIMING.slices);
    expect(Math.max(...perTick.values())).toBeLessThanOrEqual(Math.ceil(5000 / TIMING.slices));
    vi.advanceTimersByTime(TIMING.intervalMs);
    expect(peers.every((p) => p.pings === 2)).toBe(true);
    stop();
  });

  it('keeps a socket that answers and drops one that stopped answering, at its next turn', () => {
    const { clients, peers } = crowd(60);
    const [silent, talking] = [peers[7]!, peers[8]!];
    const stop = startHeartbeat(clients, TIMING);
    vi.advanceTimersByTime(TIMING.intervalMs);
    silent.answers = false;
    vi.advanceTimersByTime(TIMING.intervalMs);
    expect(silent.terminated).toBe(false);
    // Its ping of the second interval went unanswered: the third turn drops it.
    vi.advanceTimersByTime(TIMING.intervalMs);
    expect(silent.terminated).toBe(true);
    expect([...clients.sockets]).not.toContain(silent);
    expect(talking.terminated).toBe(false);
    expect(clients.sockets.size).toBe(59);
    stop();
  });

  it('stops pinging once stopped', () => {
    const { clients, peers } = crowd(3);
    const stop = startHeartbeat(clients, TIMING);
    vi.advanceTimersByTime(TICK);
    stop();
    vi.advanceTimersByTime(TIMING.intervalMs * 2);
    expect(peers.reduce((n, p) => n + p.pings, 0)).toBeLessThanOrEqual(1);
  });
});
