import { create } from 'zustand';
import type { Map as MapLibreMap } from 'maplibre-gl';

/** The live map instance, for code outside the map tree (locate me, later: search results). */
interface MapState {
  map: MapLibreMap | null;
  userPosition: { latitude: number; longitude: number } | null;
  setMap: (map: MapLibreMap | null) => void;
  setUserPosition: (position: { latitude: number; longitude: number } | null) => void;
}

export const useMapStore = create<MapState>()((set) => ({
  map: null,
  userPosition: null,
  setMap: (map) => set({ map }),
  setUserPosition: (userPosition) => set({ userPosition }),
}));

declare global {
  interface Window {
    /**
     * The test and bench hook (docs/architecture.md): the MapLibre map, read-only. Markers are
     * features of the `mm-markers` source (property `pid` = post id), so journeys and benches
     * find a post with queryRenderedFeatures / project() and tap the canvas at its pixel.
     */
    readonly __MOODMAP_MAP__?: MapLibreMap;
    /** The same map under its first name (older journeys). */
    readonly __moodmapMap?: MapLibreMap;
  }
}

const HOOKS = ['__MOODMAP_MAP__', '__moodmapMap'] as const;

export function exposeMap(map: MapLibreMap | null): void {
  for (const name of HOOKS) {
    if (map)
      Object.defineProperty(window, name, { value: map, configurable: true, enumerable: false, writable: false });
    else delete (window as { [K in (typeof HOOKS)[number]]?: MapLibreMap })[name];
  }
}
