/**
 * `prefers-reduced-motion: reduce` in one place: the CSS animations stop in
 * index.css; what JavaScript animates or starts (camera flights, the pulse rings laid over the
 * map) asks here, so a person who turned motion off gets jumps and still rings everywhere.
 */
import { useSyncExternalStore } from 'react';
import type { Map as MapLibreMap } from 'maplibre-gl';

const QUERY = '(prefers-reduced-motion: reduce)';

function media(): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(QUERY) : null;
}

export function prefersReducedMotion(): boolean {
  return media()?.matches ?? false;
}

/** The same, as a React value that follows a change of the system setting. */
export function useReducedMotion(): boolean {
  return useSyncExternalStore(
    (notify) => {
      const list = media();
      list?.addEventListener('change', notify);
      return () => list?.removeEventListener('change', notify);
    },
    prefersReducedMotion,
    () => false,
  );
}

export interface CameraTarget {
  center: [number, number];
  zoom?: number;
  /** The animation's length when motion is allowed (MapLibre's default otherwise). */
  duration?: number;
}

/**
 * Moves the map's camera: a flight (`fly`) or a glide (`ease`), or a jump when motion is
 * reduced. `essential` keeps MapLibre's own reduced-motion check from cutting it to nothing
 * mid-way, since the choice is made here.
 */
export function moveCamera(
  map: Pick<MapLibreMap, 'flyTo' | 'easeTo' | 'jumpTo'>,
  target: CameraTarget,
  kind: 'fly' | 'ease' = 'fly',
): void {
  const { center, zoom, duration } = target;
  if (prefersReducedMotion()) {
    map.jumpTo(zoom === undefined ? { center } : { center, zoom });
    return;
  }
  const options = {
    center,
    ...(zoom === undefined ? {} : { zoom }),
    ...(duration === undefined ? {} : { duration }),
    essential: true,
  };
  if (kind === 'ease') map.easeTo(options);
  else map.flyTo(options);
}

/** An animation length in ms, or 0 when motion is reduced (a popup's pan into view). */
export function motionMs(ms: number): number {
  return prefersReducedMotion() ? 0 : ms;
}
