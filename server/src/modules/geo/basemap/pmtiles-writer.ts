/**
 * A PMTiles v3 writer (spec: github.com/protomaps/PMTiles, spec/v3/spec.md). npm publishes
 * readers only (the `pmtiles` package); go-pmtiles and the Python package are the reference
 * writers. This one writes what the basemap needs: tiles in tile-id order (clustered), identical
 * tiles stored once and consecutive ones run-length encoded, a root directory that fits the
 * readers' first 16 KiB fetch with leaf directories behind it when the tiles do not, and gzip
 * for the directories and metadata. The tests read every archive back with the `pmtiles` reader.
 *
 * Layout: header (127 bytes) | root directory | JSON metadata | leaf directories | tile data.
 */
import { createHash } from 'node:crypto';
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
  /** Applied to every tile; the directories and metadata are gzip. */
  tileCompression: 'gzip' | 'none';
  /** The archive's JSON metadata (`vector_layers`, `attribution`…). */
  metadata: Record<string, unknown>;
  /** [west, south, east, north] in degrees. */
  bounds: [number, number, number, number];
  /** [longitude, latitude, zoom]. */
  center: [number, number, number];
}

export interface ArchiveStats {
  /** Tiles the archive answers for. */
  addressedTiles: number;
  /** Directory entries pointing at tiles (a run of identical tiles is one). */
  tileEntries: number;
  /** Distinct tile contents stored. */
  tileContents: number;
  leafDirectories: number;
  bytes: number;
}

export interface Entry {
  tileId: number;
  /** From the start of the tile data (or of the leaf directories, for a leaf). */
  offset: number;
  length: number;
  /** Consecutive tile ids sharing these bytes; 0 for a leaf directory. */
  runLength: number;
}

const HEADER_BYTES = 127;
/** Readers fetch the first 16 KiB at once and expect the root directory inside it. */
const FIRST_FETCH_BYTES = 16_384;
/** Entries per leaf directory to start with (go-pmtiles' choice); grown until the root fits. */
const FIRST_LEAF_SIZE = 4096;

/** Deterministic gzip: the same input gives the same archive on every build. */
const gzip = (bytes: Uint8Array): Buffer => gzipSync(bytes, { level: 9 });

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

/** Entries sorted by tile id; each column whole, ids as deltas, offsets +1 (0 = right after the previous). */
export function serializeDirectory(entries: readonly Entry[]): Buffer {
  const ids: number[] = [];
  let lastId = 0;
  for (const e of entries) {
    ids.push(e.tileId - lastId);
    lastId = e.tileId;
  }
  const offsets = entries.map((e, i) =>
    i > 0 && e.offset === entries[i - 1].offset + entries[i - 1].length ? 0 : e.offset + 1,
  );
  return varints([
    entries.length,
    ...ids,
    ...entries.map((e) => e.runLength),
    ...entries.map((e) => e.length),
    ...offsets,
  ]);
}

interface StoredTiles {
  entries: Entry[];
  blobs: Buffer[];
  dataLength: number;
  addressed: number;
}

/** Tiles in tile-id order, each distinct content stored once, runs of one content in one entry. */
function storeTiles(tiles: readonly ArchiveTile[], compress: (bytes: Uint8Array) => Buffer): StoredTiles {
  const sorted = tiles
    .map((t) => ({ tileId: zxyToTileId(t.z, t.x, t.y), data: t.data }))
    .sort((a, b) => a.tileId - b.tileId);
  const stored = new Map<string, { offset: number; length: number }>();
  const entries: Entry[] = [];
  const blobs: Buffer[] = [];
  let dataLength = 0;
  for (const { tileId, data } of sorted) {
    const last = entries[entries.length - 1];
    if (last && last.tileId === tileId) throw new Error(`tile ${tileId} was given twice`);
    const hash = createHash('sha256').update(data).digest('base64');
    let place = stored.get(hash);
    if (!place) {
      const blob = compress(data);
      place = { offset: dataLength, length: blob.length };
      stored.set(hash, place);
      blobs.push(blob);
      dataLength += blob.length;
    }
    if (last && last.tileId + last.runLength === tileId && last.offset === place.offset) last.runLength += 1;
    else entries.push({ tileId, offset: place.offset, length: place.length, runLength: 1 });
  }
  return { entries, blobs, dataLength, addressed: sorted.length };
}

/** The root directory alone when it fits the first fetch, else a root of leaf pointers and the leaves. */
function buildDirectories(entries: readonly Entry[]): { root: Buffer; leaves: Buffer[] } {
  const rootOnly = gzip(serializeDirectory(entries));
  if (HEADER_BYTES + rootOnly.length <= FIRST_FETCH_BYTES) return { root: rootOnly, leaves: [] };
  for (let leafSize = FIRST_LEAF_SIZE; ; leafSize = Math.ceil(leafSize * 1.2)) {
    const leaves: Buffer[] = [];
    const pointers: Entry[] = [];
    let offset = 0;
    for (let i = 0; i < entries.length; i += leafSize) {
      const leaf = gzip(serializeDirectory(entries.slice(i, i + leafSize)));
      pointers.push({ tileId: entries[i].tileId, offset, length: leaf.length, runLength: 0 });
      leaves.push(leaf);
      offset += leaf.length;
    }
    const root = gzip(serializeDirectory(pointers));
    if (HEADER_BYTES + root.length <= FIRST_FETCH_BYTES) return { root, leaves };
  }
}

function header(fields: {
  root: Buffer;
  metadata: Buffer;
  leavesLength: number;
  dataLength: number;
  stored: StoredTiles;
  tileCodec: Compression;
  zooms: [number, number];
  bounds: ArchiveOptions['bounds'];
  center: ArchiveOptions['center'];
}): Buffer {
  const bytes = Buffer.alloc(HEADER_BYTES);
  bytes.write('PMTiles', 0, 'ascii');
  bytes.writeUInt8(3, 7);
  const u64 = (value: number, at: number) => bytes.writeBigUInt64LE(BigInt(value), at);
  const rootOffset = HEADER_BYTES;
  const metadataOffset = rootOffset + fields.root.length;
  const leavesOffset = metadataOffset + fields.metadata.length;
  const dataOffset = leavesOffset + fields.leavesLength;
  u64(rootOffset, 8);
  u64(fields.root.length, 16);
  u64(metadataOffset, 24);
  u64(fields.metadata.length, 32);
  u64(leavesOffset, 40);
  u64(fields.leavesLength, 48);
  u64(dataOffset, 56);
  u64(fields.dataLength, 64);
  u64(fields.stored.addressed, 72);
  u64(fields.stored.entries.length, 80);
  u64(fields.stored.blobs.length, 88);
  bytes.writeUInt8(1, 96); // clustered: tile contents in tile-id order
  bytes.writeUInt8(Compression.Gzip, 97);
  bytes.writeUInt8(fields.tileCodec, 98);
  bytes.writeUInt8(TileType.Mvt, 99);
  bytes.writeUInt8(fields.zooms[0], 100);
  bytes.writeUInt8(fields.zooms[1], 101);
  const e7 = (degrees: number, at: number) => bytes.writeInt32LE(Math.round(degrees * 1e7), at);
  const [west, south, east, north] = fields.bounds;
  e7(west, 102);
  e7(south, 106);
  e7(east, 110);
  e7(north, 114);
  bytes.writeUInt8(fields.center[2], 118);
  e7(fields.center[0], 119);
  e7(fields.center[1], 123);
  return bytes;
}

export function writePmtiles(options: ArchiveOptions): { archive: Buffer; stats: ArchiveStats } {
  if (options.tiles.length === 0) throw new Error('an archive needs at least one tile');
  const compress = options.tileCompression === 'gzip' ? gzip : (bytes: Uint8Array) => Buffer.from(bytes);
  const stored = storeTiles(options.tiles, compress);
  const { root, leaves } = buildDirectories(stored.entries);
  const metadata = gzip(Buffer.from(JSON.stringify(options.metadata)));
  const leavesLength = leaves.reduce((sum, leaf) => sum + leaf.length, 0);
  let minZoom = Infinity;
  let maxZoom = -Infinity;
  for (const { z } of options.tiles) [minZoom, maxZoom] = [Math.min(minZoom, z), Math.max(maxZoom, z)];
  const head = header({
    root,
    metadata,
    leavesLength,
    dataLength: stored.dataLength,
    stored,
    tileCodec: options.tileCompression === 'gzip' ? Compression.Gzip : Compression.None,
    zooms: [minZoom, maxZoom],
    bounds: options.bounds,
    center: options.center,
  });
  const archive = Buffer.concat([head, root, metadata, ...leaves, ...stored.blobs]);
  const stats: ArchiveStats = {
    addressedTiles: stored.addressed,
    tileEntries: stored.entries.length,
    tileContents: stored.blobs.length,
    leafDirectories: leaves.length,
    bytes: archive.length,
  };
  return { archive, stats };
}
