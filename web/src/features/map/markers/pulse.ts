/**
 * The pulse ring of pulse posts: two rings growing from the marker's
 * edge to twice its size and fading, 0.9 s apart, every 1.8 s. They are CSS animations on
 * elements laid over the map's canvas, which the compositor plays on its own: the
 * WebGL map is not redrawn for them. Animated as map paint, every frame would redraw the whole
 * map for as long as a pulse post is in view, and block the main thread in front of every tap.
 *
 * Which markers pulse is read from the map itself: layer `mm-pulse-a` (marker-layers.ts), drawn
 * transparent, holds the single pulse posts MapLibre shows (not those inside its zoomed-out
 * clusters). It is read when the map settles ('idle'); the rings follow the camera on every move.
 * With `prefers-reduced-motion: reduce` the ring stands still around the marker.
 */
import type { Map as MapLibreMap } from 'maplibre-gl';
import type { Point } from 'geojson';
import { PULSE_LAYER } from './marker-layers.ts';
import { POST_MARKER_SIZE } from './marker-images.ts';

/** Ring state at `phase` (0–1): radius in px and opacity, ease-out, gone by 80 % of the period. */
export function ringAt(phase: number): { radius: number; opacity: number } {
  const t = Math.min(1, phase / 0.8);
  const eased = 1 - (1 - t) ** 3;
  const r = POST_MARKER_SIZE / 2;
  return { radius: r + r * 1.1 * eased, opacity: 0.75 * (1 - t) };
}

/** The still ring shown instead of the animation when motion is reduced. */
export const STILL_RING = ringAt(0.3);

/** Rings drawn at most: a crowded view keeps its first ones, the map stays light. */
export const MAX_RINGS = 80;

export interface PulseSpot {
  pid: string;
  longitude: number;
  latitude: number;
  color: string;
}

type PulseMap = Pick<
  MapLibreMap,
  'getLayer' | 'queryRenderedFeatures' | 'project' | 'getCanvasContainer' | 'on' | 'off'
>;

/** The pulse posts the map draws now, once each (a feature comes once per tile it touches). */
export function readPulseSpots(map: Pick<MapLibreMap, 'getLayer' | 'queryRenderedFeatures'>): PulseSpot[] {
  if (!map.getLayer(PULSE_LAYER)) return [];
  const spots = new Map<string, PulseSpot>();
  for (const feature of map.queryRenderedFeatures({ layers: [PULSE_LAYER] })) {
    const pid = feature.properties?.pid;
    if (typeof pid !== 'string' || spots.has(pid)) continue;
    const [longitude, latitude] = (feature.geometry as Point).coordinates as [number, number];
    spots.set(pid, { pid, longitude, latitude, color: String(feature.properties.color ?? '') });
  }
  return [...spots.values()];
}

const RADIUS = POST_MARKER_SIZE / 2;
/** Half the side of a ring's box: its largest radius (2.1 × the marker's), rounded up. */
const HALF = Math.ceil(RADIUS * 2.1) + 1;

function makeRing(spot: PulseSpot, reduced: boolean): HTMLElement {
  const el = document.createElement('div');
  el.className = 'mm-pulse';
  el.dataset.postId = spot.pid;
  // The marker itself stays clear: the rings show only outside its edge, as they did under it.
  const mask = document.createElement('div');
  mask.className = 'mm-pulse-mask';
  Object.assign(mask.style, {
    left: `${-HALF}px`,
    top: `${-HALF}px`,
    width: `${HALF * 2}px`,
    height: `${HALF * 2}px`,
  });
  mask.style.setProperty('--mm-pulse-hole', `${RADIUS}px`);
  for (const delayed of reduced ? [false] : [false, true]) {
    const ring = document.createElement('span');
    ring.className = delayed ? 'mm-pulse-ring mm-delay' : 'mm-pulse-ring';
    Object.assign(ring.style, {
      left: `${HALF - RADIUS}px`,
      top: `${HALF - RADIUS}px`,
      width: `${RADIUS * 2}px`,
      height: `${RADIUS * 2}px`,
    });
    if (reduced) {
      Object.assign(ring.style, {
        animation: 'none',
        transform: `scale(${STILL_RING.radius / RADIUS})`,
        opacity: String(STILL_RING.opacity),
      });
    }
    mask.appendChild(ring);
  }
  el.appendChild(mask);
  return el;
}

function paint(el: HTMLElement, color: string): void {
  for (const ring of el.querySelectorAll<HTMLElement>('.mm-pulse-ring')) ring.style.backgroundColor = color;
}

/** Lays the rings over `map` and keeps them on its pulse posts; returns the function that removes them. */
export function startPulse(map: PulseMap, reduced = false): () => void {
  const layer = document.createElement('div');
  layer.className = 'mm-pulse-layer';
  layer.setAttribute('aria-hidden', 'true');
  layer.dataset.testid = 'pulse-rings';
  map.getCanvasContainer().appendChild(layer);
  const rings = new Map<string, { el: HTMLElement; spot: PulseSpot }>();

  const place = () => {
    for (const { el, spot } of rings.values()) {
      const { x, y } = map.project([spot.longitude, spot.latitude]);
      el.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
    }
  };

  const refresh = () => {
    const spots = readPulseSpots(map).slice(0, MAX_RINGS);
    const keep = new Set<string>();
    for (const spot of spots) {
      keep.add(spot.pid);
      const ring = rings.get(spot.pid);
      if (!ring) {
        const el = makeRing(spot, reduced);
        paint(el, spot.color);
        layer.appendChild(el);
        rings.set(spot.pid, { el, spot });
      } else {
        if (ring.spot.color !== spot.color) paint(ring.el, spot.color);
        ring.spot = spot;
      }
    }
    for (const [pid, ring] of rings) {
      if (keep.has(pid)) continue;
      ring.el.remove();
      rings.delete(pid);
    }
    place();
  };

  map.on('move', place);
  map.on('resize', place);
  map.on('idle', refresh);
  refresh();
  return () => {
    map.off('move', place);
    map.off('resize', place);
    map.off('idle', refresh);
    layer.remove();
  };
}
