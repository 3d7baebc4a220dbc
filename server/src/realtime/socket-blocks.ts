/**
 * The people each signed-in socket must hear nothing about (blocks), kept on the socket so an
 * event's cost stays one set lookup per recipient. Absent: nobody.
 */
import type { WebSocket } from 'ws';

/** Whom a person blocked or was blocked by (modules/blocks/relations.ts). */
export interface HubBlocks {
  of(userId: string): Promise<Set<string>>;
}

/** Keyed by socket; generic so the rule can be checked without a connection. */
export interface SocketBlocks<S extends object = WebSocket> {
  /** Reads whom `userId` must not hear about; kept only if `stillSignedIn()` once it is read. */
  load(socket: S, userId: string, stillSignedIn: () => boolean): Promise<void>;
  /**
   * Until the socket's first read, it hears of nobody: an event still on the bus from before a
   * block must not slip through while the block is being read.
   */
  hideEveryoneUntilLoaded(socket: S): void;
  /** One more person hidden at once, before the reload a block change triggers. */
  add(socket: S, other: string): void;
  clear(socket: S): void;
  /** Whether an event about these people must skip this socket. */
  hides(socket: S, about: string[] | null): boolean;
}

const EVERYONE = 'everyone';

export function createSocketBlocks<S extends object = WebSocket>(blocks?: HubBlocks): SocketBlocks<S> {
  const hiddenOf = new WeakMap<S, Set<string> | typeof EVERYONE>();
  return {
    async load(socket, userId, stillSignedIn) {
      if (!blocks) return;
      const hidden = await blocks.of(userId).catch(() => null);
      if (!stillSignedIn()) return; // signed out or changed meanwhile
      if (hidden?.size) hiddenOf.set(socket, hidden);
      else hiddenOf.delete(socket);
    },
    hideEveryoneUntilLoaded(socket) {
      if (blocks) hiddenOf.set(socket, EVERYONE);
    },
    add(socket, other) {
      const hidden = hiddenOf.get(socket);
      if (hidden !== EVERYONE) hiddenOf.set(socket, new Set([...(hidden ?? []), other]));
    },
    clear(socket) {
      hiddenOf.delete(socket);
    },
    hides(socket, about) {
      const hidden = about && hiddenOf.get(socket);
      if (!hidden) return false;
      return hidden === EVERYONE || about.some((id) => hidden.has(id));
    },
  };
}
