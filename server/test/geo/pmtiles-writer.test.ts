/**
 * The PMTiles writer the basemap build uses, checked by reading its archives back with the
 * `pmtiles` reader (the one browsers use) and with the server's own stored-tile reader.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PMTiles, type Source, TileType } from 'pmtiles';
import { afterAll, describe, expect, it } from 'vitest';
import { type ArchiveTile, writePmtiles } from '../../src/modules/geo/basemap/pmtiles-writer.ts';
import { openTileArchive } from '../../src/modules/geo/tile-archive.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'moodmap-pmtiles-writer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A reader over bytes in memory, as the browser's reader over HTTP ranges. */
function memoryReader(archive: Buffer): PMTiles {
  const source: Source = {
    getKey: () => 'memory',
    getBytes: async (offset, length) => ({ data: new Uint8Array(archive.subarray(offset, offset + length)).buffer }),
  };
  return new PMTiles(source);
}

/** Deterministic pseudo-random numbers (mulberry32). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const bytes = (...values: number[]) => Uint8Array.from(values);

/** Distinct z10 tiles: their directory, gzip, outgrows the readers' first 16 KiB. */
const SCATTERED = 12_000;

/**
 * Runs of one content (all of z2), contents shared by tiles far apart (z3), and enough distinct
 * tiles scattered over z10 that the directory outgrows the readers' first 16 KiB.
 */
function sampleTiles(): ArchiveTile[] {
  const next = random(19);
  const tiles: ArchiveTile[] = [{ z: 0, x: 0, y: 0, data: bytes(1, 2, 3) }];
  for (let x = 0; x < 4; x++) for (let y = 0; y < 4; y++) tiles.push({ z: 2, x, y, data: bytes(7, 7, 7) });
  for (let x = 0; x < 8; x++) for (let y = 0; y < 8; y++) tiles.push({ z: 3, x, y, data: bytes(8, (x + y) % 2) });
  const taken = new Set<number>();
  while (taken.size < SCATTERED) {
    const x = Math.floor(next() * 1024);
    const y = Math.floor(next() * 1024);
    if (taken.has(x * 1024 + y)) continue;
    taken.add(x * 1024 + y);
    tiles.push({
      z: 10,
      x,
      y,
      data: Uint8Array.from({ length: 5 + Math.floor(next() * 60) }, () => Math.floor(next() * 256)),
    });
  }
  return tiles;
}

const options = {
  metadata: { name: 'test', vector_layers: [] },
  bounds: [-180, -85, 180, 85] as [number, number, number, number],
  center: [2.35, 48.85, 3] as [number, number, number],
};

describe('writePmtiles', () => {
  const tiles = sampleTiles();
  const { archive, stats } = writePmtiles({ ...options, tiles, tileCompression: 'gzip' });

  it('writes a v3 header the reader decodes: counts, zooms, bounds, centre, compression', async () => {
    const header = await memoryReader(archive).getHeader();
    expect(header).toMatchObject({
      specVersion: 3,
      tileType: TileType.Mvt,
      tileCompression: 2,
      internalCompression: 2,
      clustered: true,
      minZoom: 0,
      maxZoom: 10,
      minLon: -180,
      maxLon: 180,
      minLat: -85,
      maxLat: 85,
      centerLon: 2.35,
      centerLat: 48.85,
      centerZoom: 3,
      numAddressedTiles: tiles.length,
    });
    // z2 is one entry (a run of 16), z3's 64 tiles share two contents.
    expect(header.numTileEntries).toBe(1 + 1 + 64 + SCATTERED);
    expect(header.numTileContents).toBe(1 + 1 + 2 + SCATTERED);
    expect(stats).toMatchObject({
      addressedTiles: tiles.length,
      tileEntries: header.numTileEntries,
      tileContents: header.numTileContents,
      bytes: archive.length,
    });
    expect(await memoryReader(archive).getMetadata()).toEqual(options.metadata);
  });

  it('puts leaf directories behind a root that fits the first 16 KiB when the tiles outgrow it', async () => {
    const header = await memoryReader(archive).getHeader();
    expect(stats.leafDirectories).toBeGreaterThan(1);
    expect(header.rootDirectoryOffset + header.rootDirectoryLength).toBeLessThanOrEqual(16_384);
    const small = writePmtiles({ ...options, tiles: tiles.slice(0, 81), tileCompression: 'gzip' });
    expect(small.stats.leafDirectories).toBe(0);
    expect(await memoryReader(small.archive).getZxy(3, 5, 2)).toMatchObject({
      data: new Uint8Array(bytes(8, 1)).buffer,
    });
  });

  it('gives back every tile, through runs, shared contents and leaves, and nothing where there is none', async () => {
    const reader = memoryReader(archive);
    for (const tile of tiles) {
      const answer = await reader.getZxy(tile.z, tile.x, tile.y);
      expect(answer && new Uint8Array(answer.data), `${tile.z}/${tile.x}/${tile.y}`).toEqual(tile.data);
    }
    expect(await reader.getZxy(1, 0, 0)).toBeUndefined();
    expect(await reader.getZxy(4, 3, 3)).toBeUndefined();
  });

  it("gives the server's reader each tile as stored (gzip), and null outside the archive", async () => {
    const file = path.join(dir, 'sample.pmtiles');
    writeFileSync(file, archive);
    const opened = await openTileArchive(file);
    for (const tile of tiles.filter((_, i) => i % 97 === 0)) {
      const stored = await opened.storedTile(tile.z, tile.x, tile.y);
      expect(stored && gunzipSync(stored), `${tile.z}/${tile.x}/${tile.y}`).toEqual(Buffer.from(tile.data));
    }
    expect(await opened.storedTile(1, 1, 1)).toBeNull();
    expect(await opened.storedTile(11, 0, 0)).toBeNull();
  });

  it('stores tiles uncompressed when asked, and refuses a tile given twice', async () => {
    const plain = writePmtiles({ ...options, tiles: tiles.slice(0, 81), tileCompression: 'none' });
    expect((await memoryReader(plain.archive).getHeader()).tileCompression).toBe(1);
    expect(new Uint8Array((await memoryReader(plain.archive).getZxy(0, 0, 0))!.data)).toEqual(bytes(1, 2, 3));
    expect(() => writePmtiles({ ...options, tiles: [tiles[0], tiles[0]], tileCompression: 'gzip' })).toThrow(/twice/);
  });
});
