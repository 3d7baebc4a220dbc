/**
 * The local PMTiles archive behind MAP_PMTILES, checked once at startup with the `pmtiles`
 * package's own reader: a missing file or anything but a PMTiles v3 vector archive stops the
 * server with a plain sentence (French, then English, as operators of either read the logs)
 * instead of a map that silently never draws.
 */
import { open, stat } from 'node:fs/promises';
import { type Header, PMTiles, type RangeResponse, type Source, TileType } from 'pmtiles';
import { ConfigError } from '../../config.ts';

/** Reads byte ranges of a file on disk, as the pmtiles reader asks for them. */
class LocalFileSource implements Source {
  private readonly file: string;
  constructor(file: string) {
    this.file = file;
  }

  getKey(): string {
    return this.file;
  }

  async getBytes(offset: number, length: number): Promise<RangeResponse> {
    const handle = await open(this.file, 'r');
    try {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, offset);
      return { data: buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + bytesRead) };
    } finally {
      await handle.close();
    }
  }
}

/** Magic number, version byte and the fixed-size header of the v3 spec. */
const HEADER_BYTES = 127;

function refuse(file: string, french: string, english: string): ConfigError {
  return new ConfigError(`MAP_PMTILES : ${french} (${file})\nMAP_PMTILES: ${english} (${file})`);
}

/** The archive's header, or a ConfigError saying what is wrong with it. */
export async function readArchiveHeader(file: string): Promise<Header> {
  const info = await stat(file).catch(() => null);
  if (!info) throw refuse(file, 'fichier introuvable', 'file not found');
  if (!info.isFile()) throw refuse(file, "ce n'est pas un fichier", 'not a file');
  if (info.size < HEADER_BYTES)
    throw refuse(
      file,
      "ce n'est pas une archive PMTiles v3 (fichier trop court)",
      'not a PMTiles v3 archive (file too short)',
    );
  let header: Header;
  try {
    // Also decodes the root directory: a truncated or corrupt index fails here, not in a browser.
    header = await new PMTiles(new LocalFileSource(file)).getHeader();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw refuse(
      file,
      `ce n'est pas une archive PMTiles v3 lisible : ${reason}`,
      `not a readable PMTiles v3 archive: ${reason}`,
    );
  }
  if (header.specVersion !== 3) {
    throw refuse(
      file,
      `archive PMTiles de version ${header.specVersion}, seule la version 3 est prise en charge`,
      `PMTiles spec version ${header.specVersion}, only version 3 is supported`,
    );
  }
  // The Protomaps basemap style draws vector tiles; a raster archive would show nothing.
  if (header.tileType !== TileType.Mvt) {
    throw refuse(
      file,
      "l'archive ne contient pas de tuiles vectorielles (MVT)",
      'the archive does not hold vector (MVT) tiles',
    );
  }
  return header;
}
