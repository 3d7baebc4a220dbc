/**
 * The land index on land written here: what is inside, what is near land (a coast or a
 * landmark, never a window's cut nor Antarctica's closure over the pole), windows of finer coast
 * cut by ring-clip.ts, small polygons grouped by cell, and the same answers once written to the
 * land file's format and read back.
 */
import { describe, expect, it } from 'vitest';
import { decodeLandArrays, encodeLandArrays } from '../../src/modules/geo/land-file.ts';
import {
  buildLandIndex,
  buildLandIndexArrays,
  openLandIndex,
  type LandPolygon,
  type Ring,
} from '../../src/modules/geo/land-index.ts';
import { groupByCell } from '../../geodata/lib/land-precise.ts';
import { clipRing } from '../../geodata/lib/ring-clip.ts';

const square = (west: number, south: number, size: number): Ring => [
  [west, south],
  [west + size, south],
  [west + size, south + size],
  [west, south + size],
  [west, south],
];

/** A U open to the north: two arms 1° wide joined by a 1° base, 3° across. */
const U: Ring = [
  [0, 0],
  [3, 0],
  [3, 3],
  [2, 3],
  [2, 1],
  [1, 1],
  [1, 3],
  [0, 3],
  [0, 0],
];

/** About 100 m in degrees of latitude. */
const M100 = 0.0009;

describe('land index', () => {
  it('reads land inside its polygons, a lake as water, and a point off the coast as sea', () => {
    const index = buildLandIndex([{ rings: [square(10, 10, 1), square(10.4, 10.4, 0.2)] }]);
    expect(index.contains(10.2, 10.2)).toBe(true);
    expect(index.contains(10.5, 10.5)).toBe(false); // the lake
    expect(index.contains(11.1, 10.5)).toBe(false);
    expect(index.contains(10.5, 11.1)).toBe(false);
  });

  it('measures the distance to coasts and landmarks, not to the cut sides of a window', () => {
    // Land filling the west half of the window [20, 20, 21, 21]: its west, south and north
    // sides are cuts, its east side at 20.5 the coast.
    const window: LandPolygon = {
      rings: [
        [
          [20, 20],
          [20.5, 20],
          [20.5, 21],
          [20, 21],
          [20, 20],
        ],
      ],
      window: [20, 20, 21, 21],
    };
    const index = buildLandIndex([window], [[30, 30]]);
    expect(index.contains(20.5, 20.25)).toBe(true);
    expect(index.isNearLand(20.5, 20.5 + M100, 0.3)).toBe(true); // 100 m east of the coast
    expect(index.isNearLand(20.5, 20.5 + 4 * M100, 0.3)).toBe(false); // 400 m
    expect(index.isNearLand(20.5, 20 - M100, 0.3)).toBe(false); // 100 m west of the window's cut
    expect(index.isNearLand(21 + M100, 20.25, 0.3)).toBe(false); // 100 m north of it
    expect(index.isNearLand(30 + M100, 30, 0.3)).toBe(true); // 100 m from the landmark
    expect(index.isNearLand(30 + 4 * M100, 30, 0.3)).toBe(false);
    expect(index.contains(30, 30)).toBe(false); // a landmark is no polygon
    expect(index.stats).toEqual({ polygons: 1, edges: 4, landmarks: 1 });
  });

  it("does not count Antarctica's closure over the pole as a coast", () => {
    const antarctica = buildLandIndex([
      {
        rings: [
          [
            [-180, -70],
            [180, -70],
            [180, -90],
            [0, -90],
            [-180, -90],
            [-180, -70],
          ],
        ],
      },
    ]);
    expect(antarctica.contains(-89.99, 0)).toBe(true);
    expect(antarctica.isNearLand(-89.999, 0, 0.3)).toBe(false);
    expect(antarctica.isNearLand(-70 + M100, 0, 0.3)).toBe(true);
  });

  it('answers for rings past the antimeridian at the longitude on the other side', () => {
    const index = buildLandIndex([{ rings: [square(179, -17, 2)] }]);
    expect(index.contains(-16.5, -179.5)).toBe(true);
    expect(index.contains(-16.5, 179.5)).toBe(true);
    expect(index.contains(-16.5, -178.5)).toBe(false);
  });

  it('groups small polygons by cell and still answers each of them, with their lakes', () => {
    const islands = [
      [square(40.1, 40.1, 0.2), square(40.15, 40.15, 0.05)],
      [square(40.5, 40.5, 0.2)],
      [square(50, 50, 3)],
    ];
    const grouped = groupByCell(islands);
    expect(grouped).toHaveLength(2); // the two islets of cell (40, 40) together, the big one alone
    const index = buildLandIndex(grouped);
    expect(index.contains(40.12, 40.12)).toBe(true);
    expect(index.contains(40.17, 40.17)).toBe(false); // the first islet's lake
    expect(index.contains(40.6, 40.6)).toBe(true);
    expect(index.contains(40.4, 40.4)).toBe(false); // between them
    expect(index.contains(51, 51)).toBe(true);
  });

  it('gives the same answers once written to the land file and read back', () => {
    const arrays = buildLandIndexArrays([{ rings: [U] }, { rings: [square(179, -17, 2)] }], [[30, 30]]);
    const reread = openLandIndex(decodeLandArrays(encodeLandArrays(arrays, { test: true })));
    const fresh = openLandIndex(arrays);
    const points: Array<[number, number]> = [];
    for (let lat = -0.25; lat <= 3.25; lat += 0.25)
      for (let lon = -0.25; lon <= 3.25; lon += 0.25) points.push([lat, lon]);
    points.push([-16.5, -179.5], [-16.5, 179.5], [30, 30.001], [2.5, 1.5]);
    const answers = (index: typeof fresh) =>
      points.map(([lat, lon]) => [index.contains(lat, lon), index.isNearLand(lat, lon, 0.3)]);
    expect(answers(reread)).toEqual(answers(fresh));
    expect(answers(fresh).flat()).toContain(true);
    expect(answers(fresh).flat()).toContain(false);
  });
});

describe('cutting rings to a window', () => {
  it('keeps, inside the box, exactly the land of the ring', () => {
    const ring = { xs: Float64Array.from(U, ([x]) => x), ys: Float64Array.from(U, ([, y]) => y) };
    const box: [number, number, number, number] = [0.5, 0.5, 2.5, 2.5];
    const cut = clipRing(ring, box);
    if (!cut) throw new Error('the U crosses the box');
    const window = buildLandIndex([
      { rings: [Array.from(cut.xs, (x, i): [number, number] => [x, cut.ys[i]])], window: box },
    ]);
    const whole = buildLandIndex([{ rings: [U] }]);
    for (let lat = 0.55; lat < 2.5; lat += 0.1) {
      for (let lon = 0.55; lon < 2.5; lon += 0.1)
        expect([lat, lon, window.contains(lat, lon)]).toEqual([lat, lon, whole.contains(lat, lon)]);
    }
    // The cut's sides are no coast: near the box's west side, inside the U's arm, nothing is near.
    expect(window.isNearLand(1.5, 0.5 + M100, 0.3)).toBe(false);
    expect(window.isNearLand(1.5, 1 + M100, 0.3)).toBe(true); // the arm's real coast
  });

  it('leaves nothing of a ring outside the box', () => {
    expect(
      clipRing({ xs: Float64Array.from([5, 6, 6, 5, 5]), ys: Float64Array.from([5, 5, 6, 6, 5]) }, [0, 0, 1, 1]),
    ).toBeNull();
  });
});
