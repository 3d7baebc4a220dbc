/**
 * The hub's spatial index over the sockets' views: it finds exactly the views that
 * contain a point (edges included, across the antimeridian, the whole world), and the views it
 * tests for a point stay near the ones that match, however many watch elsewhere.
 */
import { describe, expect, it } from 'vitest';
import { createViewIndex } from '../../src/realtime/view-index.ts';
import { parseView, viewContains, type View } from '../../src/realtime/view.ts';

const view = (west: number, south: number, east: number, north: number): View => {
  const parsed = parseView({ type: 'view', west, south, east, north });
  if (!parsed) throw new Error('bad view');
  return parsed;
};

const PARIS = view(2.2, 48.8, 2.5, 48.92);
const LYON = { latitude: 45.764, longitude: 4.8357 };

function matches(index: ReturnType<typeof createViewIndex<string>>, latitude: number, longitude: number): string[] {
  const found: string[] = [];
  index.forEachContaining(latitude, longitude, (id) => found.push(id));
  return found.sort();
}

/** A deterministic pseudo-random sequence (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

describe('a view frame', () => {
  it('wraps unwrapped longitudes and reads west > east as across the antimeridian', () => {
    expect(view(-250, 10, -170, 20)).toMatchObject({ west: 110, east: -170, allLongitudes: false });
    expect(view(350, 0, 370, 1)).toMatchObject({ west: -10, east: 10 });
    expect(view(-250, -90, 310, 90).allLongitudes).toBe(true);
    const pacific = view(170, -20, 190, 20);
    expect(viewContains(pacific, 0, 179.9)).toBe(true);
    expect(viewContains(pacific, 0, -175)).toBe(true);
    expect(viewContains(pacific, 0, 180)).toBe(true);
    expect(viewContains(pacific, 0, 0)).toBe(false);
  });

  it('is refused when it is not a view', () => {
    for (const frame of [
      { type: 'view', west: 0, south: 50, east: 1, north: 40 },
      { type: 'view', west: 0, south: -91, east: 1, north: 40 },
      { type: 'view', west: '0', south: 0, east: 1, north: 1 },
      { type: 'view', west: Number.NaN, south: 0, east: 1, north: 1 },
      { type: 'view', west: 0, south: 0, east: 1e9, north: 1 },
      { type: 'auth', west: 0, south: 0, east: 1, north: 1 },
      null,
    ])
      expect(parseView(frame)).toBeNull();
  });
});

describe('the view index', () => {
  it('finds the views holding a point, edges included, and none elsewhere', () => {
    const index = createViewIndex<string>();
    index.set('paris', PARIS);
    index.set('pacific', view(170, -20, 190, 20));
    index.set('world', view(-180, -90, 180, 90));
    expect(matches(index, 48.8566, 2.3522)).toEqual(['paris', 'world']);
    expect(matches(index, LYON.latitude, LYON.longitude)).toEqual(['world']);
    // The corners of the view are in it.
    expect(matches(index, 48.8, 2.2)).toEqual(['paris', 'world']);
    expect(matches(index, 48.92, 2.5)).toEqual(['paris', 'world']);
    expect(matches(index, 48.92, 2.500001)).toEqual(['world']);
    expect(matches(index, -20, -170)).toEqual(['pacific', 'world']);
    expect(matches(index, 5, 175)).toEqual(['pacific', 'world']);
  });

  it('follows a view that moves, and forgets a deleted one', () => {
    const index = createViewIndex<string>();
    index.set('tab', PARIS);
    index.set('tab', view(4.7, 45.7, 4.95, 45.82));
    expect(matches(index, LYON.latitude, LYON.longitude)).toEqual(['tab']);
    expect(matches(index, 48.8566, 2.3522)).toEqual([]);
    index.delete('tab');
    expect(matches(index, LYON.latitude, LYON.longitude)).toEqual([]);
    expect(index.size).toBe(0);
  });

  it('answers exactly like testing every view, for views of every size anywhere', () => {
    const next = random(15);
    const index = createViewIndex<string>();
    const views = new Map<string, View>();
    for (let i = 0; i < 3000; i++) {
      // Sizes from a street (0.002°) to more than the world, centres anywhere, some unwrapped.
      const width = 0.002 * 2 ** (next() * 18);
      const height = Math.min(170, width * (0.3 + next()));
      const west = (next() - 0.5) * 1000;
      const south = Math.max(-90, Math.min(90 - height, (next() - 0.5) * 180));
      const v = view(west, south, west + width, south + height);
      views.set(`v${i}`, v);
      index.set(`v${i}`, v);
    }
    for (let i = 0; i < 2000; i++) {
      const latitude = (next() - 0.5) * 180;
      const longitude = (next() - 0.5) * 360;
      const expected = [...views]
        .filter(([, v]) => viewContains(v, latitude, longitude))
        .map(([id]) => id)
        .sort();
      expect(matches(index, latitude, longitude)).toEqual(expected);
    }
  });

  it('tests about the views that match, not every view: 10 000 tabs on Paris cost a post in Lyon nothing', () => {
    const index = createViewIndex<string>();
    const next = random(7);
    for (let i = 0; i < 10_000; i++) {
      const west = 2.2 + next() * 0.1;
      const south = 48.8 + next() * 0.05;
      index.set(`paris${i}`, view(west, south, west + 0.2, south + 0.1));
    }
    index.set('lyon', view(4.7, 45.7, 4.95, 45.82));
    let found = 0;
    const tested = index.forEachContaining(LYON.latitude, LYON.longitude, () => found++);
    expect(found).toBe(1);
    expect(tested).toBe(1);
    // A point in Paris seen by all of them tests no more than twice as many views as it finds.
    let inParis = 0;
    const testedInParis = index.forEachContaining(48.86, 2.35, () => inParis++);
    expect(inParis).toBeGreaterThan(9000);
    expect(testedInParis).toBeLessThanOrEqual(2 * inParis);
  });
});
