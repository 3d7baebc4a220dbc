/**
 * The places file (server/geodata/places/places.bin.br, written by place-build.ts): the place
 * search's index as typed arrays, opened without rebuilding anything.
 */
import { readFileSync } from 'node:fs';
import { decompressPack, encodePack, openPack } from './typed-pack.ts';
import { buildRankTree, type PlaceIndex } from './places-search.ts';

export const PLACES_FILE = new URL('../../../geodata/places/places.bin.br', import.meta.url);

const encodeUtf8 = (value: string) => new TextEncoder().encode(value);
const decodeUtf8 = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** The file's uncompressed bytes. */
export function encodePlaceIndex(index: PlaceIndex): Uint8Array {
  return encodePack(
    { places: index.ids.length, keys: index.order.length },
    {
      ids: index.ids,
      latitudes: index.latitudes,
      longitudes: index.longitudes,
      populations: index.populations,
      kinds: index.kinds,
      countries: index.countries,
      regions: index.regions,
      nameText: encodeUtf8(index.nameText),
      nameEnds: index.nameEnds,
      regionText: encodeUtf8(index.regionText),
      regionEnds: index.regionEnds,
      foldedText: encodeUtf8(index.foldedText),
      entryStarts: index.entryStarts,
      entryOwners: index.entryOwners,
      order: index.order,
    },
    ['nameEnds', 'regionEnds', 'entryStarts', 'entryOwners'],
  );
}

export function decodePlaceIndex(bytes: Uint8Array): PlaceIndex {
  const pack = openPack(bytes, 'places file');
  const ranked = {
    populations: pack.get('populations', Uint32Array),
    entryOwners: pack.get('entryOwners', Uint32Array),
    order: pack.get('order', Uint32Array),
  };
  return {
    ...ranked,
    ids: pack.get('ids', Uint32Array),
    latitudes: pack.get('latitudes', Int32Array),
    longitudes: pack.get('longitudes', Int32Array),
    kinds: pack.get('kinds', Uint8Array),
    countries: pack.get('countries', Uint16Array),
    regions: pack.get('regions', Uint16Array),
    nameText: decodeUtf8(pack.get('nameText', Uint8Array)),
    nameEnds: pack.get('nameEnds', Uint32Array),
    regionText: decodeUtf8(pack.get('regionText', Uint8Array)),
    regionEnds: pack.get('regionEnds', Uint32Array),
    foldedText: decodeUtf8(pack.get('foldedText', Uint8Array)),
    entryStarts: pack.get('entryStarts', Uint32Array),
    tree: buildRankTree(ranked),
  };
}

export function readPlaceFile(file: URL = PLACES_FILE): PlaceIndex {
  return decodePlaceIndex(decompressPack(readFileSync(file)));
}
