/**
 * The Protomaps basemap style over a PMTiles archive (MAP_PMTILES), in the app's two themes,
 * with French names where the data has them (`name:fr`, then English, then the local name).
 *
 * Offline by construction: no `glyphs` URL, so MapLibre draws every label with the browser's
 * own fonts (TinySDF), and no `sprite`, so nothing is asked of the Protomaps CDN. The layers
 * that need a sprite image are adapted: pure icon layers (one-way arrows, road shields) are
 * left out, and the others keep their text without the icon (a town's dot, a POI's pictogram),
 * instead of MapLibre warning about a missing image for every such feature.
 */
import { layers, namedFlavor } from '@protomaps/basemaps';
import type { LayerSpecification, StyleSpecification } from 'maplibre-gl';
import type { Theme } from '../theme/theme-store.ts';

/** The source every Protomaps layer reads. */
export const PROTOMAPS_SOURCE = 'protomaps';

const ATTRIBUTION =
  '<a href="https://protomaps.com">Protomaps</a> © <a href="https://openstreetmap.org/copyright">OpenStreetMap</a>';

/** Layers whose only content is a sprite image. */
const ICON_ONLY = new Set(['roads_oneway', 'roads_shields']);

function withoutSprite(layer: LayerSpecification): LayerSpecification | null {
  if (layer.type !== 'symbol' || !layer.layout || !('icon-image' in layer.layout)) return layer;
  if (ICON_ONLY.has(layer.id) || !layer.layout['text-field']) return null;
  const { 'icon-image': _icon, ...layout } = layer.layout;
  return { ...layer, layout };
}

/** `archiveUrl` absolute (the pmtiles reader fetches it from the page). */
export function protomapsStyle(theme: Theme, archiveUrl: string): StyleSpecification {
  const themed = layers(PROTOMAPS_SOURCE, namedFlavor(theme), { lang: 'fr' }) as LayerSpecification[];
  return {
    version: 8,
    name: `moodmap-pmtiles-${theme}`,
    sources: {
      [PROTOMAPS_SOURCE]: { type: 'vector', url: `pmtiles://${archiveUrl}`, attribution: ATTRIBUTION },
    },
    layers: themed.map(withoutSprite).filter((l): l is LayerSpecification => l !== null),
  };
}
