/**
 * The people each signed-in socket must hear nothing about (blocks), kept on the socket so an
 * event's cost stays one set lookup per recipient. Absent: nobody.
 */
import type { WebSocket } from 'ws';

/** Whom a person blocked or was blocked by (modules/blocks/relations.ts). */
export interface HubBlocks {
  of(userId: string): Promise<Set<string>>;
}

export interface SocketBlocks {
  /** Reads whom `userId` must not hear about; kept only if `stillSignedIn()` once it is read. */
  load(socket: WebSocket, userId: string, stillSignedIn: () => boolean): Promise<void>;
  /** One more person hidden at once, before the reload a block change triggers. */
  add(socket: WebSocket, other: string): void;
  clear(socket: WebSocket): void;
  /** Whether an event about these people must skip this socket. */
  hides(socket: WebSocket, about: string[] | null): boolean;
}

export function createSocketBlocks(blocks?: HubBlocks): SocketBlocks {
  const hiddenOf = new WeakMap<WebSocket, Set<string>>();
  return {
    async load(socket, userId, stillSignedIn) {
      if (!blocks) return;
      const hidden = await blocks.of(userId).catch(() => null);
      if (!stillSignedIn()) return; // signed out or changed meanwhile
      if (hidden?.size) hiddenOf.set(socket, hidden);
      else hiddenOf.delete(socket);
    },
    add(socket, other) {
      hiddenOf.set(socket, new Set([...(hiddenOf.get(socket) ?? []), other]));
    },
    clear(socket) {
      hiddenOf.delete(socket);
    },
    hides(socket, about) {
      const hidden = about && hiddenOf.get(socket);
      return !!hidden && about.some((id) => hidden.has(id));
    },
  };
}
