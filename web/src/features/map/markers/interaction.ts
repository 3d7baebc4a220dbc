/**
 * Whether the person is touching or moving the map: a finger or button down on it, the camera
 * moving (a drag, its glide, a zoom, a flight), or a tap just ended (its popup is opening). Live
 * marker changes wait meanwhile (live-updates.ts), so their redraws do not take the frames the
 * gesture and the popup need.
 */
import type { Map as MapLibreMap } from 'maplibre-gl';

/** After a finger lifts: the time a tap's popup takes to open and paint on a slow phone. */
export const AFTER_TOUCH_MS = 400;

/** What the tracker reads of the map. */
export type InteractiveMap = Pick<MapLibreMap, 'getCanvasContainer' | 'isMoving'>;

export interface Interaction {
  busy(): boolean;
  dispose(): void;
}

export function trackInteraction(map: InteractiveMap, now: () => number = Date.now): Interaction {
  const container = map.getCanvasContainer();
  const view = container.ownerDocument.defaultView ?? window;
  const down = new Set<number>();
  let liftedAt = Number.NEGATIVE_INFINITY;
  const press = (event: PointerEvent) => down.add(event.pointerId);
  const lift = (event: PointerEvent) => {
    if (down.delete(event.pointerId)) liftedAt = now();
  };
  container.addEventListener('pointerdown', press);
  // Released anywhere: a drag may end off the map.
  view.addEventListener('pointerup', lift);
  view.addEventListener('pointercancel', lift);
  return {
    busy: () => down.size > 0 || map.isMoving() || now() - liftedAt < AFTER_TOUCH_MS,
    dispose() {
      container.removeEventListener('pointerdown', press);
      view.removeEventListener('pointerup', lift);
      view.removeEventListener('pointercancel', lift);
    },
  };
}
