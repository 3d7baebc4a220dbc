/**
 * The pulse ring of pulse posts (spec §2 "Single marker"): two circles growing from the marker's
 * edge to twice its size and fading, 0.9 s apart, every 1.8 s, as the DOM markers' CSS did. One
 * requestAnimationFrame loop drives both layers' paint, and it runs only while a pulse marker is
 * on screen: otherwise the map stays idle and draws nothing. With `prefers-reduced-motion: reduce`
 * the loop never starts: the ring stands still around the marker (issue 20), still marking the pulse.
 */
import type { Map as MapLibreMap } from 'maplibre-gl';
import { PULSE_LAYERS } from './marker-layers.ts';
import { POST_MARKER_SIZE } from './marker-images.ts';

const PERIOD_MS = 1800;
/** Frames between two checks that a pulse marker is still in view. */
const CHECK_EVERY = 45;

/** Ring state at `phase` (0–1): radius in px and opacity, ease-out, gone by 80 % of the period. */
export function ringAt(phase: number): { radius: number; opacity: number } {
  const t = Math.min(1, phase / 0.8);
  const eased = 1 - (1 - t) ** 3;
  const r = POST_MARKER_SIZE / 2;
  return { radius: r + r * 1.1 * eased, opacity: 0.75 * (1 - t) };
}

/** The still ring shown instead of the animation when motion is reduced. */
export const STILL_RING = ringAt(0.3);

export function startPulse(map: MapLibreMap, reduced = false): () => void {
  if (reduced) {
    const still = () => {
      for (const id of PULSE_LAYERS) {
        // Only on a change: a paint change must not feed the 'styledata' that called this.
        if (!map.getLayer(id) || map.getPaintProperty(id, 'circle-radius') === STILL_RING.radius) continue;
        map.setPaintProperty(id, 'circle-radius', STILL_RING.radius);
        // One ring only: the second would draw over the first at the same size.
        map.setPaintProperty(id, 'circle-opacity', id === PULSE_LAYERS[0] ? STILL_RING.opacity : 0);
      }
    };
    still();
    map.on('styledata', still);
    return () => map.off('styledata', still);
  }
  let frame = 0;
  let raf: number | null = null;
  let stopped = false;

  const visible = () => PULSE_LAYERS.every((id) => map.getLayer(id)) && map.queryRenderedFeatures({ layers: [PULSE_LAYERS[0]] }).length > 0;

  const tick = (now: number) => {
    raf = null;
    if (stopped) return;
    if (++frame % CHECK_EVERY === 0 && !visible()) {
      rest();
      return;
    }
    PULSE_LAYERS.forEach((id, i) => {
      if (!map.getLayer(id)) return;
      const { radius, opacity } = ringAt(((now + (i * PERIOD_MS) / 2) % PERIOD_MS) / PERIOD_MS);
      map.setPaintProperty(id, 'circle-radius', radius);
      map.setPaintProperty(id, 'circle-opacity', opacity);
    });
    raf = requestAnimationFrame(tick);
  };

  const rest = () => {
    for (const id of PULSE_LAYERS) if (map.getLayer(id)) map.setPaintProperty(id, 'circle-opacity', 0);
  };

  const check = () => {
    if (stopped || raf !== null) return;
    if (visible()) raf = requestAnimationFrame(tick);
  };

  map.on('moveend', check);
  map.on('idle', check);
  check();
  return () => {
    stopped = true;
    if (raf !== null) cancelAnimationFrame(raf);
    map.off('moveend', check);
    map.off('idle', check);
  };
}
