/**
 * gzip of one large buffer on several threads at once, as pigz does: the buffer is cut into
 * parts, each deflated on libuv's thread pool (zlib's async API), every part but the last ended
 * with a sync flush (an empty stored block: byte-aligned, not final), so the parts joined are one
 * valid deflate stream; then gzip's header, and its trailer (CRC-32 and size of the whole input).
 * Any gzip reader (browsers' zlib included) reads it as one member. A part cannot refer back to
 * the one before it: a few hundred bytes more on a large answer.
 * A viewport answer is compressed while its first viewer waits (feed-cache.ts): on two cores the
 * wait is about halved, and the event loop is free meanwhile.
 */
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';
import { constants, crc32, deflateRaw, gzipSync } from 'node:zlib';

const deflateRawAsync = promisify(deflateRaw);

/** Below this, one synchronous gzip: a trip through the thread pool costs more than it saves. */
export const PARALLEL_MIN_BYTES = 32 * 1024;
/** No part smaller than this (each part pays its own empty window). */
const PART_MIN_BYTES = 16 * 1024;
const PARTS_MAX = Math.max(1, Math.min(4, availableParallelism()));

/** gzip's 10-byte header as zlib writes it: no name, no time, XFL 4 at level 1 (2 at 9), OS 3 (Unix). */
function header(level: number): Buffer {
  const xfl = level === 9 ? 2 : level < 2 ? 4 : 0;
  return Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, xfl, 3]);
}

export async function gzipParallel(data: Buffer, level: number): Promise<Buffer> {
  const parts = Math.min(PARTS_MAX, Math.floor(data.length / PART_MIN_BYTES));
  if (data.length < PARALLEL_MIN_BYTES || parts < 2) return gzipSync(data, { level });
  const size = Math.ceil(data.length / parts);
  const deflated = await Promise.all(
    Array.from({ length: parts }, (_, i) => {
      const last = i === parts - 1;
      return deflateRawAsync(data.subarray(i * size, last ? data.length : (i + 1) * size), {
        level,
        finishFlush: last ? constants.Z_FINISH : constants.Z_SYNC_FLUSH,
      });
    }),
  );
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(data), 0);
  trailer.writeUInt32LE(data.length % 2 ** 32, 4);
  return Buffer.concat([header(level), ...deflated, trailer]);
}
