/**
 * A minimal PMTiles v3 writer, for archives the tests build themselves (no maintained writer is
 * published for Node; go-pmtiles and the Python package are the reference ones). It writes what
 * the spec requires and nothing more: the 127-byte header, one root directory (no leaf
 * directories, so it holds a few hundred tiles at most), JSON metadata, then the tiles in
 * tile-id order. Readers check it: the tests read every archive back with the `pmtiles` package.
 *
 * Spec: github.com/protomaps/PMTiles, spec/v3/spec.md.
 */
import { gzipSync } from 'node:zlib';
import { Compression, TileType, zxyToTileId } from 'pmtiles';

export interface ArchiveTile {
  z: number;
  x: number;
  y: number;
  /** The tile as encoded (an MVT protobuf), uncompressed. */
  data: Uint8Array;
}

export interface ArchiveOptions {
  tiles: ArchiveTile[];
  /** Applied to the directory, the metadata and every tile. */
  compression: 'gzip' | 'none';
  /** The archive's JSON metadata (`vector_layers`, `attribution`...). */
  metadata: Record<string, unknown>;
  /** [west, south, east, north] in degrees. */
  bounds: [number, number, number, number];
  /** [longitude, latitude, zoom]. */
  center: [number, number, number];
}

const HEADER_BYTES = 127;
/** Readers fetch the first 16 KiB at once and expect the root directory inside it. */
const FIRST_FETCH_BYTES = 16_384;

function varints(values: number[]): Buffer {
  const bytes: number[] = [];
  for (let value of values) {
    // Unsigned LEB128, as protobuf; division keeps values above 2^32 exact (offsets are u64).
    while (value >= 0x80) {
      bytes.push((value % 0x80) | 0x80);
      value = Math.floor(value / 0x80);
    }
    bytes.push(value);
  }
  return Buffer.from(bytes);
}

interface Entry {
  tileId: number;
  offset: number;
  length: number;
}

/** Entries sorted by tile id; each column is written whole, ids as deltas, offsets +1 (0 = follows the previous). */
function serializeDirectory(entries: Entry[]): Buffer {
  const ids: number[] = [];
  let lastId = 0;
  for (const e of entries) {
    ids.push(e.tileId - lastId);
    lastId = e.tileId;
  }
  const offsets = entries.map((e, i) => (i > 0 && e.offset === entries[i - 1].offset + entries[i - 1].length ? 0 : e.offset + 1));
  return varints([entries.length, ...ids, ...entries.map(() => 1), ...entries.map((e) => e.length), ...offsets]);
}

export function writePmtiles(options: ArchiveOptions): Buffer {
  const compress = (bytes: Uint8Array): Buffer => (options.compression === 'gzip' ? gzipSync(bytes) : Buffer.from(bytes));
  const tiles = options.tiles
    .map((t) => ({ ...t, tileId: zxyToTileId(t.z, t.x, t.y) }))
    .sort((a, b) => a.tileId - b.tileId);
  if (new Set(tiles.map((t) => t.tileId)).size !== tiles.length) throw new Error('the same tile was given twice');

  const tileBlobs: Buffer[] = [];
  const entries: Entry[] = [];
  let tileDataLength = 0;
  for (const tile of tiles) {
    const blob = compress(tile.data);
    entries.push({ tileId: tile.tileId, offset: tileDataLength, length: blob.length });
    tileBlobs.push(blob);
    tileDataLength += blob.length;
  }

  const rootDirectory = compress(serializeDirectory(entries));
  if (HEADER_BYTES + rootDirectory.length > FIRST_FETCH_BYTES) throw new Error('too many tiles for a root directory alone');
  const metadata = compress(Buffer.from(JSON.stringify(options.metadata)));
  const rootOffset = HEADER_BYTES;
  const metadataOffset = rootOffset + rootDirectory.length;
  const tileDataOffset = metadataOffset + metadata.length;
  const codec = options.compression === 'gzip' ? Compression.Gzip : Compression.None;
  const zooms = tiles.map((t) => t.z);

  const header = Buffer.alloc(HEADER_BYTES);
  header.write('PMTiles', 0, 'ascii');
  header.writeUInt8(3, 7);
  const u64 = (value: number, at: number) => header.writeBigUInt64LE(BigInt(value), at);
  u64(rootOffset, 8);
  u64(rootDirectory.length, 16);
  u64(metadataOffset, 24);
  u64(metadata.length, 32);
  // No leaf directories: an empty section where the tile data starts.
  u64(tileDataOffset, 40);
  u64(0, 48);
  u64(tileDataOffset, 56);
  u64(tileDataLength, 64);
  u64(tiles.length, 72); // addressed tiles
  u64(entries.length, 80); // tile entries
  u64(tiles.length, 88); // tile contents
  header.writeUInt8(1, 96); // clustered: tiles in tile-id order
  header.writeUInt8(codec, 97);
  header.writeUInt8(codec, 98);
  header.writeUInt8(TileType.Mvt, 99);
  header.writeUInt8(Math.min(...zooms), 100);
  header.writeUInt8(Math.max(...zooms), 101);
  const e7 = (degrees: number, at: number) => header.writeInt32LE(Math.round(degrees * 1e7), at);
  const [west, south, east, north] = options.bounds;
  e7(west, 102);
  e7(south, 106);
  e7(east, 110);
  e7(north, 114);
  header.writeUInt8(options.center[2], 118);
  e7(options.center[0], 119);
  e7(options.center[1], 123);

  return Buffer.concat([header, rootDirectory, metadata, ...tileBlobs]);
}
