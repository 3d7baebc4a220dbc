/**
 * The listening connection of a remote bus (PostgreSQL LISTEN, Redis SUBSCRIBE), kept open the
 * same way on every engine. It is replaced as soon as it is lost (a killed connection, a
 * restart, a failover): retries start after 100 ms and never wait more than 500 ms apart, so
 * events flow again within about half a second of the server coming back. A link can also die
 * silently (no FIN, no error: a cut network, a frozen peer), so it is sent a round trip every
 * check interval, and one left unanswered by the next round means the link is dead.
 *
 * Nothing sent while no link listened is replayed: clients catch up through their `since`
 * cursors, and `onResumed` tells this instance that it listens again after a gap.
 */
const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 500;

export interface Link {
  /** A round trip on the link (`select 1`, PING): rejects, or never settles, when it is dead. */
  check(): Promise<unknown>;
  /** Closes the link without waiting on it (it may be dead). */
  close(): Promise<void>;
}

export interface KeepLinkOptions {
  /** Connects and subscribes a new link; it calls `lost` when the connection drops or fails. */
  open(lost: () => void): Promise<Link>;
  /** A replacement link listens: events published meanwhile were missed. */
  onResumed(): void;
  checkIntervalMs: number;
}

export interface KeptLink {
  close(): Promise<void>;
}

/** Opens the first link (its failure is the caller's), then keeps one open until `close`. */
export async function keepLinkOpen({ open, onResumed, checkIntervalMs }: KeepLinkOptions): Promise<KeptLink> {
  let current: Link | null = null;
  let closed = false;
  let retryTimer: NodeJS.Timeout | null = null;
  let unansweredCheck: Link | null = null;

  async function attempt(): Promise<Link> {
    let link: Link | null = null;
    // Only the current link's first signal starts a replacement; a link still opening reports
    // its failure through `open` itself.
    link = await open(() => {
      if (link) lost(link);
    });
    return link;
  }

  function lost(link: Link): void {
    if (link !== current) return;
    current = null;
    void link.close();
    reconnect(FIRST_RETRY_MS);
  }

  function reconnect(delay: number): void {
    if (closed) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      attempt().then(
        (link) => {
          if (closed) return void link.close();
          current = link;
          onResumed();
        },
        () => reconnect(Math.min(delay * 2, MAX_RETRY_MS)),
      );
    }, delay);
  }

  const checker = setInterval(() => {
    const link = current;
    if (!link) return;
    if (unansweredCheck === link) return lost(link);
    unansweredCheck = link;
    link.check().then(
      () => {
        if (unansweredCheck === link) unansweredCheck = null;
      },
      () => lost(link),
    );
  }, checkIntervalMs);
  checker.unref();

  current = await attempt().catch((error: unknown) => {
    clearInterval(checker);
    throw error;
  });
  return {
    async close() {
      closed = true;
      clearInterval(checker);
      if (retryTimer) clearTimeout(retryTimer);
      const link = current;
      current = null;
      await link?.close();
    },
  };
}
