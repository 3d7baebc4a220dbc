/**
 * The basemap's vector tiles as the routes ask for them (tile-cutter.ts says what a tile holds).
 * A first cut takes up to a second of geojson-vt drill-down and gzip, so tiles are cut in a worker
 * thread (tile-worker.ts) that owns the indexes, and the event loop only waits for its message.
 * Answers are kept here, least recently used out first.
 *
 * The worker starts with the first tile asked for (or prepareTiles) and stops when the last app
 * holding it closes (holdTileWorker); it never keeps the process alive while idle.
 */
import { Worker } from 'node:worker_threads';
import { type EncodedTile, type TileRequest, tileAnswerSchema, type WireTile } from './tile-protocol.ts';

export type { EncodedTile } from './tile-protocol.ts';

/** Encoded tiles kept in memory, least recently used out first (a tile is a few kB). */
const CACHE_TILES = 4096;
const cache = new Map<string, EncodedTile | null>();
/** Tiles being cut: a second request for one waits for the same answer. */
const cutting = new Map<string, Promise<EncodedTile | null>>();

const WORKER_ENTRY = new URL('./tile-worker-boot.mjs', import.meta.url);

/** A request before the worker numbers it. */
type Ask = TileRequest extends infer Each ? (Each extends TileRequest ? Omit<Each, 'id'> : never) : never;

interface TileWorker {
  ask(request: Ask): Promise<WireTile | null>;
  failed(): boolean;
  close(): Promise<void>;
}

function openTileWorker(): TileWorker {
  const thread = new Worker(WORKER_ENTRY);
  thread.unref();
  const pending = new Map<number, { resolve: (tile: WireTile | null) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let failure: Error | undefined;
  const failAll = (error: Error) => {
    failure ??= error;
    for (const waiting of pending.values()) waiting.reject(failure);
    pending.clear();
  };
  thread.on('message', (message: unknown) => {
    const parsed = tileAnswerSchema.safeParse(message);
    if (!parsed.success) {
      failAll(new Error('tile worker: unexpected message'));
      void thread.terminate();
      return;
    }
    const answer = parsed.data;
    const waiting = pending.get(answer.id);
    pending.delete(answer.id);
    // Only unanswered requests keep the process alive.
    if (pending.size === 0) thread.unref();
    if ('error' in answer) waiting?.reject(new Error(`tile worker: ${answer.error}`));
    else waiting?.resolve(answer.tile);
  });
  thread.on('error', failAll);
  thread.on('exit', (code) => failAll(new Error(`tile worker stopped (exit code ${code})`)));
  return {
    ask(request) {
      if (failure) return Promise.reject(failure);
      const id = nextId++;
      if (pending.size === 0) thread.ref();
      const answered = new Promise<WireTile | null>((resolve, reject) => pending.set(id, { resolve, reject }));
      thread.postMessage({ ...request, id } satisfies TileRequest);
      return answered;
    },
    failed: () => failure !== undefined,
    close: async () => {
      await thread.terminate();
    },
  };
}

let worker: TileWorker | undefined;
let holders = 0;

/** The running worker, or a new one when none runs or the last one failed (a crash is not forever). */
function tileWorker(): TileWorker {
  if (!worker || worker.failed()) worker = openTileWorker();
  return worker;
}

/**
 * Counts an app among the worker's users; the returned release (the app's onClose) stops the
 * worker when no app holds it any more. Tests build and close many apps in one process.
 */
export function holdTileWorker(): () => Promise<void> {
  holders += 1;
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    holders -= 1;
    if (holders > 0 || !worker) return;
    const closing = worker;
    worker = undefined;
    await closing.close();
  };
}

/**
 * Builds the worker's indexes now (a few seconds, off the event loop), so that no request waits
 * for them. A failure shows again, as a 500, on the first tile asked for.
 */
export function prepareTiles(): void {
  tileWorker().ask({ kind: 'prepare' }).catch(() => {});
}

/** The transferred bytes as Buffers, without copying them. */
const toBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

function remember(key: string, tile: EncodedTile | null): void {
  cache.set(key, tile);
  const oldest = cache.keys().next();
  if (cache.size > CACHE_TILES && !oldest.done) cache.delete(oldest.value);
}

/** The encoded tile (z/x/y checked by geoTileParamsSchema), or null when it holds nothing (open sea). */
export function getTile(z: number, x: number, y: number): Promise<EncodedTile | null> {
  const key = `${z}/${x}/${y}`;
  const cached = cache.get(key);
  if (cached !== undefined) {
    cache.delete(key);
    cache.set(key, cached);
    return Promise.resolve(cached);
  }
  const already = cutting.get(key);
  if (already) return already;
  const cut = tileWorker()
    .ask({ kind: 'cut', z, x, y })
    .then((wire) => {
      const tile = wire && { identity: toBuffer(wire.identity), gzip: toBuffer(wire.gzip), etag: wire.etag, gzipEtag: wire.gzipEtag };
      remember(key, tile);
      return tile;
    })
    .finally(() => cutting.delete(key));
  cutting.set(key, cut);
  return cut;
}
