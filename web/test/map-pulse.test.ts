// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import type { Map as MapLibreMap } from 'maplibre-gl';
import { MAX_RINGS, STILL_RING, startPulse } from '../src/features/map/markers/pulse.ts';
import { HIGHLIGHT_SOURCE, PULSE_LAYER, setHighlighted } from '../src/features/map/markers/marker-layers.ts';
import type { MarkerGroup } from '../src/features/map/markers/marker-groups.ts';
import { mapPixelRatio } from '../src/features/map/world-map.ts';
import { POST_MARKER_SIZE } from '../src/features/map/markers/marker-images.ts';

interface Feature {
  pid: string;
  lng: number;
  lat: number;
  color: string;
}

/**
 * A map as pulse.ts sees it: the features its pulse layer draws now, a camera that projects
 * lng/lat to pixels with an offset (moving it moves every marker), and its events.
 */
function fakeMap() {
  const container = document.createElement('div');
  const handlers = new Map<string, Set<() => void>>();
  const state = { features: [] as Feature[], layer: true, dx: 0 };
  const map = {
    getCanvasContainer: () => container,
    getLayer: (id: string) => (id === PULSE_LAYER && state.layer ? {} : undefined),
    queryRenderedFeatures: ({ layers }: { layers: string[] }) =>
      layers.includes(PULSE_LAYER)
        ? state.features.map((f) => ({
            properties: { pid: f.pid, color: f.color },
            geometry: { type: 'Point', coordinates: [f.lng, f.lat] },
          }))
        : [],
    project: ([lng, lat]: [number, number]) => ({ x: lng * 10 + state.dx, y: lat * 10 }),
    on: (type: string, fn: () => void) => void (handlers.get(type) ?? handlers.set(type, new Set()).get(type)!).add(fn),
    off: (type: string, fn: () => void) => void handlers.get(type)?.delete(fn),
  };
  const fire = (type: string) => handlers.get(type)?.forEach((fn) => fn());
  return { map: map as unknown as MapLibreMap, container, state, fire, handlers };
}

const rings = (container: HTMLElement) =>
  [...container.querySelectorAll<HTMLElement>('.mm-pulse')].map((el) => ({
    pid: el.dataset.postId,
    at: el.style.transform,
    colors: [...el.querySelectorAll<HTMLElement>('.mm-pulse-ring')].map((r) => r.style.backgroundColor),
  }));

describe('pulse rings over the map, played by the compositor, not by redrawing the map', () => {
  it('rings each pulse post the map draws, once, at its pixel, two rings half a period apart', () => {
    const { map, container, state, fire } = fakeMap();
    state.features = [
      { pid: 'a', lng: 2, lat: 48, color: 'rgb(255, 0, 0)' },
      // The same post from a second tile it touches.
      { pid: 'a', lng: 2, lat: 48, color: 'rgb(255, 0, 0)' },
      { pid: 'b', lng: 3, lat: 49, color: 'rgb(0, 0, 255)' },
    ];
    startPulse(map);
    expect(rings(container)).toEqual([
      { pid: 'a', at: 'translate(20px, 480px)', colors: ['rgb(255, 0, 0)', 'rgb(255, 0, 0)'] },
      { pid: 'b', at: 'translate(30px, 490px)', colors: ['rgb(0, 0, 255)', 'rgb(0, 0, 255)'] },
    ]);
    expect(container.querySelectorAll('.mm-pulse-ring.mm-delay')).toHaveLength(2);
    // The rings follow the camera on every frame of a move, without reading the layer again.
    state.features = [];
    state.dx = 5;
    fire('move');
    expect(rings(container).map((r) => r.at)).toEqual(['translate(25px, 480px)', 'translate(35px, 490px)']);
    void fire;
  });

  it('follows what the map draws once it settles: a new pulse post gets its ring, a gone one loses it', () => {
    const { map, container, state, fire } = fakeMap();
    state.features = [{ pid: 'a', lng: 1, lat: 1, color: 'red' }];
    startPulse(map);
    const first = container.querySelector('.mm-pulse');
    state.features = [
      { pid: 'a', lng: 1, lat: 1, color: 'red' },
      { pid: 'c', lng: 4, lat: 4, color: 'green' },
    ];
    fire('idle');
    expect(rings(container).map((r) => r.pid)).toEqual(['a', 'c']);
    // The ring of a post still drawn is kept (its animation is not restarted).
    expect(container.querySelector('.mm-pulse')).toBe(first);
    state.features = [{ pid: 'c', lng: 4, lat: 4, color: 'green' }];
    fire('idle');
    expect(rings(container).map((r) => r.pid)).toEqual(['c']);
    // A style without our layers (switching theme): no ring until they are back.
    state.layer = false;
    fire('idle');
    expect(rings(container)).toEqual([]);
  });

  it('draws at most MAX_RINGS rings', () => {
    const { map, container, state } = fakeMap();
    state.features = Array.from({ length: MAX_RINGS + 20 }, (_, i) => ({ pid: `p${i}`, lng: i, lat: 0, color: 'red' }));
    startPulse(map);
    expect(container.querySelectorAll('.mm-pulse')).toHaveLength(MAX_RINGS);
  });

  it('stands still around the marker when motion is reduced: one ring, no animation', () => {
    const { map, container, state } = fakeMap();
    state.features = [{ pid: 'a', lng: 1, lat: 1, color: 'red' }];
    startPulse(map, true);
    const ring = container.querySelectorAll<HTMLElement>('.mm-pulse-ring');
    expect(ring).toHaveLength(1);
    expect(ring[0]!.style.animation).toBe('none');
    expect(ring[0]!.style.transform).toBe(`scale(${STILL_RING.radius / (POST_MARKER_SIZE / 2)})`);
    expect(Number(ring[0]!.style.opacity)).toBeCloseTo(STILL_RING.opacity, 5);
    expect(STILL_RING.radius).toBeGreaterThan(POST_MARKER_SIZE / 2);
  });

  it('stopping removes the rings and every listener', () => {
    const { map, container, state, handlers } = fakeMap();
    state.features = [{ pid: 'a', lng: 1, lat: 1, color: 'red' }];
    const stop = startPulse(map);
    expect(container.querySelector('.mm-pulse-layer')).not.toBeNull();
    stop();
    expect(container.querySelector('.mm-pulse-layer')).toBeNull();
    expect([...handlers.values()].every((set) => set.size === 0)).toBe(true);
  });
});

describe('highlighted markers (a source of their own)', () => {
  it('copies the groups as features with their ids, so a tap on the larger marker finds its group', () => {
    const data: unknown[] = [];
    const map = {
      getSource: (id: string) => (id === HIGHLIGHT_SOURCE ? { setData: (d: unknown) => void data.push(d) } : undefined),
    } as unknown as MapLibreMap;
    const group: MarkerGroup = {
      id: 42,
      latitude: 48.85,
      longitude: 2.35,
      members: [
        {
          id: 'p1',
          userId: 'u1',
          category: 'love',
          latitude: 48.85,
          longitude: 2.35,
          nickname: 'Léa',
          photoUrl: null,
          hasPulseEffect: true,
          createdAt: '2026-01-01T00:00:00.000Z',
        },
      ],
    };
    setHighlighted(map, [group]);
    setHighlighted(map, []);
    expect(data).toEqual([
      {
        type: 'FeatureCollection',
        features: [
          expect.objectContaining({
            id: 42,
            geometry: { type: 'Point', coordinates: [2.35, 48.85] },
            properties: expect.objectContaining({ k: 'p', pid: 'p1', pulse: 1 }),
          }),
        ],
      },
      { type: 'FeatureCollection', features: [] },
    ]);
  });
});

describe('the map pixel ratio', () => {
  it("is the screen's, up to 2", () => {
    expect(mapPixelRatio(1)).toBe(1);
    expect(mapPixelRatio(1.5)).toBe(1.5);
    expect(mapPixelRatio(3)).toBe(2);
    expect(mapPixelRatio(0)).toBe(1);
  });
});
