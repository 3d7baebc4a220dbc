import { describe, expect, it } from 'vitest';
import type { MapMouseEvent } from 'maplibre-gl';
import { type HoverMap, trackHover } from '../src/features/map/markers/hover.ts';

type Listener = (event?: unknown) => void;

/** A map that fires the events trackHover listens to, moving or not as the test says. */
function fakeMap() {
  const listeners = new Map<string, Set<Listener>>();
  const canvas = { style: { cursor: '' } };
  const state = { moving: false };
  const map = {
    on(type: string, fn: Listener) {
      if (!listeners.has(type)) listeners.set(type, new Set());
      listeners.get(type)!.add(fn);
      return map;
    },
    off(type: string, fn: Listener) {
      listeners.get(type)?.delete(fn);
      return map;
    },
    isMoving: () => state.moving,
    getCanvas: () => canvas,
  };
  const fire = (type: string, event?: unknown) => {
    for (const fn of listeners.get(type) ?? []) fn(event);
  };
  const pointer = (x: number, buttons = 0) =>
    fire('mousemove', { point: { x, y: 0 }, originalEvent: { buttons } } as unknown as MapMouseEvent);
  return { map: map as unknown as HoverMap, canvas, state, fire, pointer, listeners };
}

/** Markers at x = 10 (feature 1) and x = 20 (feature 2); hits are counted. */
function hitter() {
  const calls: number[] = [];
  const hit = (point: { x: number }) => {
    calls.push(point.x);
    const id = point.x === 10 ? 1 : point.x === 20 ? 2 : null;
    return { id, pointer: id !== null };
  };
  return { hit, calls };
}

describe('trackHover', () => {
  it('reports the marker under a still mouse once per change, with a pointing cursor', () => {
    const { map, canvas, pointer } = fakeMap();
    const { hit } = hitter();
    const heard: Array<number | null> = [];
    trackHover(map, hit, (id) => heard.push(id));
    pointer(10);
    expect(canvas.style.cursor).toBe('pointer');
    pointer(10);
    pointer(20);
    pointer(30);
    expect(heard).toEqual([1, 2, null]);
    expect(canvas.style.cursor).toBe('');
  });

  it('hit-tests nothing while a button is held (a drag) or the map moves, and forgets the hovered marker when a move starts', () => {
    const { map, state, fire, pointer } = fakeMap();
    const { hit, calls } = hitter();
    const heard: Array<number | null> = [];
    trackHover(map, hit, (id) => heard.push(id));
    pointer(10);
    expect(heard).toEqual([1]);
    // The press starts a pan: MapLibre fires movestart, the pointer sweeps over markers.
    state.moving = true;
    fire('movestart');
    pointer(20, 1);
    pointer(10, 1);
    pointer(20, 0); // inertia after the release
    expect(calls).toEqual([10]);
    expect(heard).toEqual([1, null]);
    // The map stops: the next move finds the marker under the mouse again.
    state.moving = false;
    pointer(20);
    expect(heard).toEqual([1, null, 2]);
  });

  it('stops listening when stopped', () => {
    const { map, listeners } = fakeMap();
    const stop = trackHover(map, hitter().hit, () => undefined);
    stop();
    expect([...listeners.values()].every((set) => set.size === 0)).toBe(true);
  });
});
