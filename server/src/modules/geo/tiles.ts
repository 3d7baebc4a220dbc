/**
 * The embedded basemap's vector tiles as the routes ask for them, read from the PMTiles archive
 * that server/geodata/basemap/build.ts cuts once (server/geodata/lib/basemap/tile-cutter.ts
 * says what a tile holds): nothing is cut or indexed at run time. Tiles are stored gzip and sent
 * as stored; a client that does not accept gzip gets them inflated.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { bytesToHeader, Compression, TileType } from 'pmtiles';
import { openTileArchive, type TileArchive } from './tile-archive.ts';

/** Where the build writes the archive and the server reads it. */
export const BASEMAP_ARCHIVE_FILE = fileURLToPath(new URL('../../../geodata/basemap/basemap.pmtiles', import.meta.url));

export interface EncodedTile {
  gzip: Buffer;
  /** The MVT bytes inflated, for the rare client that does not accept gzip. */
  identity(): Buffer;
  /** Strong ETags, one per representation (RFC 9110: a content coding is another representation). */
  etag: string;
  gzipEtag: string;
}

const HEADER_BYTES = 127;

function unreadable(file: string, french: string, english: string): Error {
  // Installs the data packages first when missing (the root install leaves them out).
  const rebuild = 'npm run geodata -w server';
  return new Error(
    `Fond de carte embarqué illisible (${file}) : ${french}. Reconstruisez-le : ${rebuild}\n` +
      `Embedded basemap unreadable (${file}): ${english}. Rebuild it: ${rebuild}`,
  );
}

/**
 * The archive's header read synchronously (French, then English, as operators of either read
 * the logs), so that a missing or foreign file stops the start instead of a map that never draws.
 */
export function checkBasemapArchive(file: string): void {
  let bytes: Buffer;
  try {
    const fd = openSync(file, 'r');
    try {
      bytes = Buffer.alloc(HEADER_BYTES);
      readSync(fd, bytes, 0, HEADER_BYTES, 0);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw unreadable(file, `fichier introuvable ou illisible (${reason})`, reason);
  }
  if (bytes.toString('ascii', 0, 7) !== 'PMTiles')
    throw unreadable(file, "ce n'est pas une archive PMTiles", 'not a PMTiles archive');
  const header = bytesToHeader(new Uint8Array(bytes).buffer);
  if (header.specVersion !== 3 || header.tileType !== TileType.Mvt || header.tileCompression !== Compression.Gzip) {
    throw unreadable(
      file,
      "ce n'est pas une archive PMTiles v3 de tuiles vectorielles gzip",
      'not PMTiles v3 of gzip vector tiles',
    );
  }
}

let archive: Promise<TileArchive> | undefined;

/** The archive, opened on first use; a failed open is tried again by the next request. */
function basemap(): Promise<TileArchive> {
  archive ??= openTileArchive(BASEMAP_ARCHIVE_FILE).catch((error: unknown) => {
    archive = undefined;
    throw error;
  });
  return archive;
}

/**
 * Checks the archive now (throws when it is missing or not one) and reads its root directory
 * ahead of the first tile. A millisecond: nothing is built.
 */
export function prepareTiles(): void {
  checkBasemapArchive(BASEMAP_ARCHIVE_FILE);
  // A failure here shows again, as a 500, on the first tile asked for.
  basemap().catch(() => {});
}

/** The tile (z/x/y checked by geoTileParamsSchema), or null when it holds nothing (open sea). */
export async function getTile(z: number, x: number, y: number): Promise<EncodedTile | null> {
  const stored = await (await basemap()).storedTile(z, x, y);
  if (!stored) return null;
  const gzip = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
  const hash = createHash('sha256').update(gzip).digest('base64url').slice(0, 24);
  return { gzip, identity: () => gunzipSync(gzip), etag: `"${hash}"`, gzipEtag: `"${hash}-gzip"` };
}
