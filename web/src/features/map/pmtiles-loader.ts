/**
 * Loaded only when MAP_PMTILES is set (a dynamic import from pmtiles-protocol.ts): the `pmtiles`
 * reader and the Protomaps style stay out of the first chunks of everyone else.
 */
import { PMTiles, Protocol } from 'pmtiles';
import type { StyleSpecification } from 'maplibre-gl';
import type { Theme } from '../theme/theme-store.ts';
import { maplibregl } from './maplibre.ts';
import { protomapsStyle } from './pmtiles-style.ts';

let protocol: Protocol | undefined;

/** `pmtiles://<archive URL>` sources read the archive by byte ranges, in the page. */
function tileProtocol(): Protocol {
  if (!protocol) {
    protocol = new Protocol();
    maplibregl.addProtocol('pmtiles', protocol.tile);
  }
  return protocol;
}

/**
 * The style, once the archive's header has been read: an archive that cannot be reached or is
 * not one fails the style itself, which the map then replaces with the embedded basemap.
 */
export async function loadPmtilesStyle(
  theme: Theme,
  archiveUrl: string,
  signal: AbortSignal,
): Promise<StyleSpecification> {
  const tiles = tileProtocol();
  let archive = tiles.get(archiveUrl);
  if (!archive) {
    archive = new PMTiles(archiveUrl);
    tiles.add(archive);
  }
  await archive.getHeader();
  signal.throwIfAborted();
  return protomapsStyle(theme, archiveUrl);
}
