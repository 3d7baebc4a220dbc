/**
 * The messages between the tile routes (tiles.ts, main thread) and the tile worker
 * (tile-worker.ts), checked on arrival on both sides.
 */
import { z } from 'zod';

export interface EncodedTile {
  identity: Buffer;
  gzip: Buffer;
  etag: string;
  gzipEtag: string;
}

/** Cut one tile, or build the indexes ahead of the first request (`prepare`). */
export const tileRequestSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('cut'), id: z.number().int(), z: z.number().int(), x: z.number().int(), y: z.number().int() }),
  z.object({ kind: z.literal('prepare'), id: z.number().int() }),
]);
export type TileRequest = z.infer<typeof tileRequestSchema>;

/** A tile's bytes as they cross threads: plain Uint8Arrays, each on an ArrayBuffer of its own (transferred, not copied). */
const wireTileSchema = z.object({
  identity: z.instanceof(Uint8Array),
  gzip: z.instanceof(Uint8Array),
  etag: z.string(),
  gzipEtag: z.string(),
});

/** `tile` is null for an empty tile (open sea) and for `prepare`; `error` when the worker failed. */
export const tileAnswerSchema = z.union([
  z.object({ id: z.number().int(), tile: wireTileSchema.nullable() }),
  z.object({ id: z.number().int(), error: z.string() }),
]);
export type TileAnswer = z.infer<typeof tileAnswerSchema>;
export type WireTile = z.infer<typeof wireTileSchema>;
