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
    /** Read-only handle on the map for end-to-end tests (getStyle(), isStyleLoaded()). */
    readonly __moodmapMap?: MapLibreMap;
  }
}

export function exposeMap(map: MapLibreMap | null): void {
  if (map) {
    Object.defineProperty(window, '__moodmapMap', { value: map, configurable: true, enumerable: false, writable: false });
  } else {
    delete (window as { __moodmapMap?: MapLibreMap }).__moodmapMap;
  }
}
