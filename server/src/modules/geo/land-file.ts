/**
 * The land file (server/geodata/land/land.bin.br, written by server/geodata/lib/land-build.ts):
 * the land index's arrays (land-index.ts), opened as views without rebuilding anything.
 */
import { readFileSync } from 'node:fs';
import { decompressPack, encodePack, openPack } from './typed-pack.ts';
import { openLandIndex, type LandIndex, type LandIndexArrays } from './land-index.ts';

export const LAND_FILE = new URL('../../../geodata/land/land.bin.br', import.meta.url);

/** The file's uncompressed bytes; `meta` says what went in (counts, sources). */
export function encodeLandArrays(arrays: LandIndexArrays, meta: Record<string, unknown>): Uint8Array {
  return encodePack(meta, { ...arrays }, ['xs', 'ys', 'chunkFrom']);
}

export function decodeLandArrays(bytes: Uint8Array): LandIndexArrays {
  const pack = openPack(bytes, 'land file');
  return {
    xs: pack.get('xs', Int32Array),
    ys: pack.get('ys', Int32Array),
    chunkFrom: pack.get('chunkFrom', Uint32Array),
    chunkEdges: pack.get('chunkEdges', Uint8Array),
    chunkPolygon: pack.get('chunkPolygon', Uint32Array),
    chunkCoast: pack.get('chunkCoast', Uint8Array),
    chunkTree: pack.get('chunkTree', Uint8Array),
    polygonBoxes: pack.get('polygonBoxes', Int32Array),
    polygonTree: pack.get('polygonTree', Uint8Array),
    landmarkXs: pack.get('landmarkXs', Int32Array),
    landmarkYs: pack.get('landmarkYs', Int32Array),
    landmarkTree: pack.get('landmarkTree', Uint8Array),
  };
}

export function readLandFile(file: URL = LAND_FILE): LandIndex {
  return openLandIndex(decodeLandArrays(decompressPack(readFileSync(file))));
}
