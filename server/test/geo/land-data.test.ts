import { describe, expect, it } from 'vitest';
import { getBordersGeoJSON, getLandGeoJSON, type Ring } from '../../geodata/lib/land-data.ts';
import {
  closeAroundPole,
  repairPolygons,
  signedArea,
  splitLinesAtAntimeridian,
  unwrapRing,
} from '../../geodata/lib/land-repair.ts';

const maxJump = (line: Ring): number =>
  line.reduce((max, p, i) => (i === 0 ? 0 : Math.max(max, Math.abs(p[0] - line[i - 1][0]))), 0);
const lons = (ring: Ring) => ring.map(([x]) => x);

describe('repair helpers', () => {
  it('unwraps a ring crossing the antimeridian into a continuous one', () => {
    const ring: Ring = [
      [179, -16],
      [-179, -16],
      [-179, -17],
      [179, -17],
      [179, -16],
    ];
    const out = unwrapRing(ring);
    expect(maxJump(out)).toBe(2);
    expect(Math.max(...lons(out)) - Math.min(...lons(out))).toBe(2); // not 358
    expect(Math.abs(signedArea(out))).toBeCloseTo(2);
  });

  it('closes a ring circling the south pole along the map edge down to -90', () => {
    // Round the pole like world-atlas' Antarctica: one jump, from +170 back to -170.
    const ring: Ring = [
      [-170, -70],
      [-10, -70],
      [10, -72],
      [170, -70],
      [-170, -70],
    ];
    const out = closeAroundPole(ring);
    expect(maxJump(out)).toBeLessThanOrEqual(180);
    expect(Math.min(...out.map(([, y]) => y))).toBe(-90);
    expect(out[0]).toEqual(out[out.length - 1]);
    expect(out).toContainEqual([180, -70]);
    expect(out).toContainEqual([-180, -70]);
  });

  it('drops degenerate rings and the null island, and winds outer rings counter-clockwise', () => {
    const clockwise: Ring = [
      [10, 10],
      [10, 11],
      [11, 11],
      [11, 10],
      [10, 10],
    ];
    const flat: Ring = [
      [20, 20],
      [21, 20],
      [22, 20],
      [20, 20],
    ];
    const nullIsland: Ring = [
      [-0.005, -0.005],
      [0.005, -0.005],
      [0.005, 0.005],
      [-0.005, -0.005],
    ];
    const out = repairPolygons([[clockwise], [flat], [nullIsland]]);
    expect(out).toHaveLength(1);
    expect(signedArea(out[0][0])).toBeGreaterThan(0);
  });

  it('splits border lines where they cross the antimeridian, on the meridian itself', () => {
    const out = splitLinesAtAntimeridian([
      [
        [178, 10],
        [-178, 12],
        [-176, 12],
      ],
    ]);
    expect(out).toEqual([
      [
        [178, 10],
        [180, 11],
      ],
      [
        [-180, 11],
        [-178, 12],
        [-176, 12],
      ],
    ]);
  });
});

describe.each(['50m', '10m'] as const)('repaired land-%s GeoJSON', (resolution) => {
  const land = getLandGeoJSON(resolution);
  const rings = land.features.flatMap((f) => f.geometry.coordinates);

  it('is a FeatureCollection of polygons with closed, non-degenerate rings', () => {
    expect(land.type).toBe('FeatureCollection');
    expect(land.features.length).toBeGreaterThan(1000);
    for (const ring of rings) {
      expect(ring.length).toBeGreaterThanOrEqual(4);
      expect(ring[0]).toEqual(ring[ring.length - 1]);
      expect(Math.abs(signedArea(ring))).toBeGreaterThan(0);
    }
  });

  it('has no segment jumping more than 180° of longitude (stitching undone)', () => {
    const worst = Math.max(...rings.map(maxJump));
    expect(worst).toBeLessThanOrEqual(180);
  });

  it('goes past ±180 only for rings that straddle the antimeridian', () => {
    for (const ring of rings) {
      const min = Math.min(...lons(ring));
      const max = Math.max(...lons(ring));
      if (max > 180) expect(min).toBeLessThan(180);
      if (min < -180) expect(max).toBeGreaterThan(-180);
      expect(max - min).toBeLessThanOrEqual(360);
    }
  });

  it('winds outer rings counter-clockwise and holes clockwise (RFC 7946)', () => {
    for (const { geometry } of land.features) {
      const [outer, ...holes] = geometry.coordinates;
      expect(signedArea(outer)).toBeGreaterThan(0);
      for (const hole of holes) expect(signedArea(hole)).toBeLessThan(0);
    }
  });

  it('closes Antarctica over the south pole, across the whole width of the map', () => {
    const antarctica = land.features.find(({ geometry }) => geometry.coordinates[0].some(([, y]) => y === -90));
    expect(antarctica).toBeDefined();
    const outer = antarctica!.geometry.coordinates[0];
    expect(Math.min(...lons(outer))).toBe(-180);
    expect(Math.max(...lons(outer))).toBe(180);
    expect(outer).toContainEqual([180, -90]);
    expect(outer).toContainEqual([-180, -90]);
  });

  it('holds no bogus polygon at (0, 0)', () => {
    const nearNullIsland = rings.some((ring) => ring.every(([x, y]) => Math.abs(x) < 1 && Math.abs(y) < 1));
    expect(nearNullIsland).toBe(false);
  });
});

describe('borders GeoJSON', () => {
  const borders = getBordersGeoJSON();

  it('is a MultiLineString of country borders never drawn across the map', () => {
    const [feature] = borders.features;
    expect(feature.geometry.type).toBe('MultiLineString');
    expect(feature.geometry.coordinates.length).toBeGreaterThan(100);
    const lines = feature.geometry.coordinates;
    expect(Math.max(...lines.map(maxJump))).toBeLessThanOrEqual(180);
    const outside = lines.flat().filter(([x, y]) => Math.abs(x) > 180 || Math.abs(y) > 90);
    expect(outside).toEqual([]);
  });
});
