/**
 * What later taps need (the popups' chunk, core's schemas) is off the map's first load and
 * fetched once the map is drawn with its markers: at the map's next 'idle', once per page.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Map as MapLibreMap } from 'maplibre-gl';
import { resetWarmUpForTests, warmUpAfterMarkers } from '../src/features/map/markers/warm-up.ts';

function fakeMap() {
  const idle = new Set<() => void>();
  const map = {
    once: (type: string, listener: () => void) => {
      if (type === 'idle') idle.add(listener);
      return map;
    },
    off: (type: string, listener: () => void) => {
      if (type === 'idle') idle.delete(listener);
      return map;
    },
  };
  return {
    map: map as unknown as Pick<MapLibreMap, 'once' | 'off'>,
    fireIdle: () => [...idle].forEach((listener) => listener()),
    listening: () => idle.size,
  };
}

beforeEach(() => {
  vi.useFakeTimers();
  resetWarmUpForTests();
});
afterEach(() => vi.useRealTimers());

describe('warm-up after the markers (features/map/markers/warm-up.ts)', () => {
  it('loads nothing until the map is idle with its markers, then each part once', async () => {
    const load = vi.fn(async () => undefined);
    const { map, fireIdle } = fakeMap();
    warmUpAfterMarkers(map, [load]);
    await vi.advanceTimersByTimeAsync(100);
    expect(load).not.toHaveBeenCalled();
    fireIdle();
    await vi.advanceTimersByTimeAsync(0);
    expect(load).toHaveBeenCalledTimes(1);
    // Once per page: another map (the screen mounted again) does not load it again.
    const again = fakeMap();
    warmUpAfterMarkers(again.map, [load]);
    again.fireIdle();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('still loads them when the map never becomes idle again', async () => {
    const load = vi.fn(async () => undefined);
    warmUpAfterMarkers(fakeMap().map, [load]);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(load).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(100);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('loads nothing once cancelled (the map gone before it was idle)', async () => {
    const load = vi.fn(async () => undefined);
    const { map, listening } = fakeMap();
    const cancel = warmUpAfterMarkers(map, [load]);
    cancel();
    expect(listening()).toBe(0);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(load).not.toHaveBeenCalled();
  });
});
