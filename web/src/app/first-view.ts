/**
 * Whether the first screen is drawn: the map's first view (MapLibre's first 'idle': its style,
 * tiles and labels on screen), or at once on the routes that show no map. What waits for it
 * (the launch layer's notices and their catalogue, the service worker) stays out of the way of
 * the first load: its requests, its JS and its main-thread time come after the map.
 */
import { useEffect } from 'react';
import type { Map as MapLibreMap } from 'maplibre-gl';
import { create } from 'zustand';
import { useMapStore } from '../features/map/map-store.ts';

/**
 * A map that never becomes idle (no WebGL, a style that keeps failing) must not hold back the
 * notices for ever: they come after this long on the map screen whatever the map does.
 */
export const FIRST_VIEW_FALLBACK_MS = 8_000;

export const useFirstView = create<{ drawn: boolean }>(() => ({ drawn: false }));

const listeners = new Set<() => void>();

export function markFirstViewDrawn(): void {
  if (useFirstView.getState().drawn) return;
  useFirstView.setState({ drawn: true });
  for (const listener of [...listeners]) listener();
  listeners.clear();
}

/** Runs `run` once the first screen is drawn (now if it already is). */
export function afterFirstView(run: () => void): void {
  if (useFirstView.getState().drawn) run();
  else listeners.add(run);
}

/** The map screen: drawn at the map's first 'idle', or after FIRST_VIEW_FALLBACK_MS. */
export function useMarkFirstViewOnMap(): void {
  const map = useMapStore((s) => s.map);
  useEffect(() => {
    const timer = setTimeout(markFirstViewDrawn, FIRST_VIEW_FALLBACK_MS);
    return () => clearTimeout(timer);
  }, []);
  useEffect(() => {
    if (!map || useFirstView.getState().drawn) return;
    return whenIdle(map, markFirstViewDrawn);
  }, [map]);
}

function whenIdle(map: MapLibreMap, run: () => void): () => void {
  if (map.loaded() && map.isStyleLoaded()) {
    run();
    return () => undefined;
  }
  map.once('idle', run);
  return () => {
    map.off('idle', run);
  };
}

/** A route without the map: its screen is the first view. */
export function useMarkFirstViewNow(): void {
  useEffect(markFirstViewDrawn, []);
}

/** Test hook: back to a fresh start. */
export function resetFirstViewForTests(): void {
  listeners.clear();
  useFirstView.setState({ drawn: false });
}
