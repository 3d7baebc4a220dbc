/**
 * What the land takes from GSHHG (gshhg-extract.ts), on rings written here in GSHHG's form: the
 * islets near places that the land misses, the windows around the places it leaves at sea, and
 * the extract file read back as written.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import type { GshhgRing } from '../../geodata/lib/gshhg.ts';
import {
  cutCoastWindows,
  encodeGshhgExtract,
  mergeBoxes,
  readGshhgExtract,
  selectIslands,
  windowPolygon,
} from '../../geodata/lib/gshhg-extract.ts';
import { createLandChecker } from '../../src/modules/geo/land-check.ts';
import { buildLandIndex } from '../../src/modules/geo/land-index.ts';

let nextId = 0;
/** A GSHHG ring from [lon, lat] corners (closed here), longitudes 0…360 as GSHHG has them. */
function gshhg(level: number, corners: Array<[number, number]>, parent = -1): GshhgRing {
  const closed = [...corners, corners[0]];
  return {
    id: nextId++,
    level,
    parent,
    xs: Float64Array.from(closed, ([x]) => (x < 0 ? x + 360 : x)),
    ys: Float64Array.from(closed, ([, y]) => y),
  };
}

/** A mainland west of 10°E with a 2 km peninsula poking east at 45°N, and two islets of ~0.3 km². */
const mainland = gshhg(1, [
  [9, 44],
  [10, 44],
  [10, 44.99],
  [10.03, 44.99],
  [10.03, 45.01],
  [10, 45.01],
  [10, 46],
  [9, 46],
]);
const islet = gshhg(1, [
  [10.1, 45.3],
  [10.107, 45.3],
  [10.107, 45.305],
  [10.1, 45.305],
]);
const farIslet = gshhg(1, [
  [12, 45.3],
  [12.007, 45.3],
  [12.007, 45.305],
  [12, 45.305],
]);
const lake = gshhg(
  2,
  [
    [9.5, 45.5],
    [9.6, 45.5],
    [9.6, 45.6],
    [9.5, 45.6],
  ],
  mainland.id,
);
const rings = [mainland, islet, farIslet, lake];

/** The land without GSHHG: the mainland alone, its peninsula cut off (as 1 km generalisation does). */
const base = createLandChecker(
  buildLandIndex([
    {
      rings: [
        [
          [9, 44],
          [10, 44],
          [10, 46],
          [9, 46],
          [9, 44],
        ],
      ],
    },
  ]),
  { cacheSize: 0 },
);
const accepts = (index: Parameters<typeof createLandChecker>[0], lat: number, lon: number) =>
  createLandChecker(index, { cacheSize: 0 }).isOnLand(lat, lon);

describe('GSHHG islets', () => {
  it('keeps an islet the land misses when a place lies within reach, not one far from every place', () => {
    const places = [{ latitude: 45.28, longitude: 10.05 }];
    const islands = selectIslands(rings, base.isOnLand, places);
    expect(islands).toHaveLength(1);
    expect(buildLandIndex([{ rings: islands[0] }]).contains(45.3025, 10.1035)).toBe(true);
  });
});

describe('GSHHG windows', () => {
  it('cuts a window around a place the land leaves at sea when GSHHG has it on land, and none around a place at sea in both', () => {
    const onPeninsula = { latitude: 45, longitude: 10.02 };
    const atSea = { latitude: 44.5, longitude: 11 };
    expect(base.isOnLand(onPeninsula.latitude, onPeninsula.longitude)).toBe(false);
    const windows = cutCoastWindows(rings, [onPeninsula, atSea], accepts);
    expect(windows).toHaveLength(1);
    const [window] = windows;
    expect(window.box[0]).toBeLessThan(onPeninsula.longitude);
    expect(window.box[2]).toBeGreaterThan(onPeninsula.longitude);
    const land = createLandChecker(buildLandIndex([windowPolygon(window)]), { cacheSize: 0 });
    expect(land.isOnLand(onPeninsula.latitude, onPeninsula.longitude)).toBe(true);
    expect(land.isOnLand(45.02, 10.02)).toBe(false); // beside the peninsula, at sea
  });

  it('merges the windows of nearby places into one box', () => {
    expect(
      mergeBoxes([
        [0, 0, 1, 1],
        [0.5, 0.5, 2, 2],
        [5, 5, 6, 6],
      ]),
    ).toEqual([
      [0, 0, 2, 2],
      [5, 5, 6, 6],
    ]);
  });
});

describe('the extract file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gshhg-extract-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads back what was written, to the micro-degree', () => {
    const extract = {
      islands: selectIslands(rings, base.isOnLand, [{ latitude: 45.28, longitude: 10.05 }]),
      windows: cutCoastWindows(rings, [{ latitude: 45, longitude: 10.02 }], accepts),
    };
    const file = join(dir, 'gshhg.json.gz');
    writeFileSync(file, gzipSync(encodeGshhgExtract(extract, 'test')));
    expect(readGshhgExtract(pathToFileURL(file))).toEqual(extract);
  });
});
