/**
 * A local PMTiles archive's tiles as they are stored (still compressed), looked up through the
 * `pmtiles` reader's own header and directory parsing and its directory cache. The reader's
 * getZxy would inflate each tile, which the server sends on as it is stored.
 */
import { type FileHandle, open } from 'node:fs/promises';
import { findTile, type Header, PMTiles, type RangeResponse, type Source, zxyToTileId } from 'pmtiles';

/**
 * Reads ranges through one handle, opened once: a rebuild that replaces the file (a new file
 * renamed over it) does not mix its bytes with the old directories.
 */
class OpenFileSource implements Source {
  private readonly file: string;
  private handle: Promise<FileHandle> | undefined;

  constructor(file: string) {
    this.file = file;
  }

  getKey(): string {
    return this.file;
  }

  async getBytes(offset: number, length: number): Promise<RangeResponse> {
    this.handle ??= open(this.file, 'r');
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await (await this.handle).read(buffer, 0, length, offset);
    return { data: buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + bytesRead) };
  }
}

/** Leaf directories nest at most this deep below the root (the reader's own limit). */
const MAX_DEPTH = 3;

export interface TileArchive {
  header: Header;
  /** The tile's bytes as stored (compressed as header.tileCompression says), or null when the archive has none there. */
  storedTile(z: number, x: number, y: number): Promise<Uint8Array | null>;
}

export async function openTileArchive(file: string): Promise<TileArchive> {
  const source = new OpenFileSource(file);
  const reader = new PMTiles(source);
  const header = await reader.getHeader();
  return {
    header,
    async storedTile(z, x, y) {
      if (z < header.minZoom || z > header.maxZoom) return null;
      const tileId = zxyToTileId(z, x, y);
      let offset = header.rootDirectoryOffset;
      let length = header.rootDirectoryLength;
      for (let depth = 0; depth <= MAX_DEPTH; depth++) {
        const entry = findTile(await reader.cache.getDirectory(source, offset, length, header), tileId);
        if (!entry) return null;
        if (entry.runLength > 0) {
          const { data } = await source.getBytes(header.tileDataOffset + entry.offset, entry.length);
          return new Uint8Array(data);
        }
        offset = header.leafDirectoryOffset + entry.offset;
        length = entry.length;
      }
      throw new Error(`${file}: PMTiles directories nested deeper than ${MAX_DEPTH} leaves`);
    },
  };
}
