/**
 * Sessions seen live, remembered by this instance for their access token's life so that a
 * request does not wait on the session lookup. A revocation heard drops its sessions; a lookup
 * begun before a revocation (its row may be stale) is not remembered.
 */

/** The memory drops the entries past their token's expiry every this many fills. */
const SWEEP_EVERY = 1000;

export interface SessionMemory {
  /** The user of a session remembered live and still within its token's life; undefined otherwise. */
  liveUser(sessionId: string): string | undefined;
  /** Moves at each revocation heard: compare it before and after a lookup. */
  generation(): number;
  remember(sessionId: string, userId: string, untilMs: number): void;
  forget(sessionIds: string[]): void;
  /** Events may have been missed (a bus outage): nothing remembered can be trusted. */
  forgetAll(): void;
}

export function createSessionMemory(now: () => Date): SessionMemory {
  /** Sessions seen live: their user, and until when (the latest access token's expiry, epoch ms). */
  const live = new Map<string, { userId: string; untilMs: number }>();
  let generation = 0;
  let fills = 0;

  function forget(sessionIds: string[]): void {
    generation++;
    for (const id of sessionIds) live.delete(id);
  }

  return {
    liveUser(sessionId) {
      const known = live.get(sessionId);
      return known && known.untilMs > now().getTime() ? known.userId : undefined;
    },
    generation: () => generation,
    remember(sessionId, userId, untilMs) {
      const known = live.get(sessionId);
      live.set(sessionId, { userId, untilMs: Math.max(untilMs, known?.untilMs ?? 0) });
      if (++fills % SWEEP_EVERY !== 0) return;
      const at = now().getTime();
      for (const [id, entry] of live) if (entry.untilMs <= at) live.delete(id);
    },
    forget,
    forgetAll: () => forget([...live.keys()]),
  };
}
