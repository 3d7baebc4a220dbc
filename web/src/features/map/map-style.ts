import type { StyleSpecification } from 'maplibre-gl';
import type { AppConfig } from '../../lib/config.ts';
import type { Theme } from '../theme/theme-store.ts';
import { basemapStyle } from './basemap-style.ts';
import { pmtilesStyleUrl, registerPmtilesStyleProtocol } from './pmtiles-protocol.ts';

/** The style the map should show: a configured URL, the PMTiles basemap, or the embedded basemap. */
export interface StyleChoice {
  /** Stable identity: the URL (the PMTiles basemap's own style URL), or `embedded:<theme>`. */
  key: string;
  style: string | StyleSpecification;
  embedded: boolean;
  theme: Theme;
}

/**
 * MAP_STYLE_URL(_DARK) wins when set and not known to fail; a dark theme without a dark URL
 * keeps the light URL (one consistent look). Then MAP_PMTILES, drawn with the Protomaps style in
 * the theme. Anything that failed falls back to the next, and last to the embedded style.
 */
export function chooseStyle(theme: Theme, config: AppConfig, failed: ReadonlySet<string>): StyleChoice {
  const url = theme === 'dark' ? (config.mapStyleUrlDark ?? config.mapStyleUrl) : config.mapStyleUrl;
  if (url && !failed.has(url)) return { key: url, style: url, embedded: false, theme };
  if (config.mapPmtilesUrl) {
    const pmtiles = pmtilesStyleUrl(theme, config.mapPmtilesUrl);
    if (!failed.has(pmtiles)) {
      registerPmtilesStyleProtocol();
      return { key: pmtiles, style: pmtiles, embedded: false, theme };
    }
  }
  return { key: `embedded:${theme}`, style: basemapStyle(theme), embedded: true, theme };
}
