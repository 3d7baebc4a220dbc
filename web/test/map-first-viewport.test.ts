// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { padBounds } from '@moodmap/core';
import { viewBounds } from '../src/features/map/first-viewport.ts';
import { roundBounds } from '../src/features/posts/viewport-query.ts';

describe("the map's first viewport, asked at boot", () => {
  it('asks for the bounds the map itself asks for', () => {
    // What Chromium's map asked for on a 390 × 844 phone at Paris, zoom 12 (bench/browser): the
    // prefetch must hit the same cache key, or the map asks a second time.
    const bounds = viewBounds({ latitude: 48.857, longitude: 2.352, zoom: 12 }, 390, 844);
    expect(bounds).not.toBeNull();
    expect(roundBounds(padBounds(bounds!), 12)).toEqual([2.301636, 48.78479, 2.406006, 48.933105]);
  });

  it('centres the bounds on the camera, a screen wide', () => {
    const [west, south, east, north] = viewBounds({ latitude: 0, longitude: 0, zoom: 4 }, 1024, 512)!;
    // 512 px tiles: at zoom 4 the world is 8192 px, so 1024 px span 45° of longitude.
    expect(west).toBeCloseTo(-22.5, 6);
    expect(east).toBeCloseTo(22.5, 6);
    expect(north).toBeCloseTo(-south, 6);
  });

  it('leaves to the map a camera it would move or zoom to fit its limits', () => {
    expect(viewBounds({ latitude: 84, longitude: 0, zoom: 3 }, 390, 844)).toBeNull();
    expect(viewBounds({ latitude: 0, longitude: 179, zoom: 5 }, 1440, 900)).toBeNull();
    expect(viewBounds({ latitude: 0, longitude: 0, zoom: 1.5 }, 390, 844)).toBeNull();
    expect(viewBounds({ latitude: 0, longitude: 0, zoom: 5 }, 0, 0)).toBeNull();
  });
});
