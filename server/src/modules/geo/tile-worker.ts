/**
 * The tile worker thread (started by tiles.ts through tile-worker-boot.mjs): it alone holds the
 * basemap's geojson-vt indexes and cuts, encodes and gzips tiles, one message at a time, so a
 * first cut never holds the server's event loop.
 */
import { type MessagePort, parentPort } from 'node:worker_threads';
import { cutTile, prepareTileIndexes } from './tile-cutter.ts';
import { type TileAnswer, type TileRequest, tileRequestSchema } from './tile-protocol.ts';

function workerPort(): MessagePort {
  if (!parentPort) throw new Error('tile-worker.ts runs in a worker thread (tiles.ts starts it)');
  return parentPort;
}
const port = workerPort();

/** A copy on an ArrayBuffer of its own: a small Buffer may sit in Node's shared pool, which must not be transferred. */
const own = (bytes: Buffer) => new Uint8Array(bytes);

function answer(request: TileRequest): void {
  if (request.kind === 'prepare') {
    prepareTileIndexes();
    port.postMessage({ id: request.id, tile: null } satisfies TileAnswer);
    return;
  }
  const tile = cutTile(request.z, request.x, request.y);
  if (!tile) {
    port.postMessage({ id: request.id, tile: null } satisfies TileAnswer);
    return;
  }
  const identity = own(tile.identity);
  const gzip = own(tile.gzip);
  const message: TileAnswer = { id: request.id, tile: { identity, gzip, etag: tile.etag, gzipEtag: tile.gzipEtag } };
  port.postMessage(message, [identity.buffer, gzip.buffer]);
}

port.on('message', (message: unknown) => {
  const request = tileRequestSchema.parse(message);
  try {
    answer(request);
  } catch (error) {
    port.postMessage({ id: request.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies TileAnswer);
  }
});
