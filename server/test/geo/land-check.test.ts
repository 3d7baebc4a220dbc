import { describe, expect, it } from 'vitest';
import { COAST_TOLERANCE_KM, createLandChecker } from '../../src/modules/geo/land-check.ts';
import { readLandFile } from '../../src/modules/geo/land-file.ts';

/** The prebuilt land (server/geodata/land), as the app's context opens it. */
const land = readLandFile();
const checker = createLandChecker(land);

// [name, lat, lon]
const LAND: [string, number, number][] = [
  ['Saint-Denis de La Réunion', -20.8789, 55.4481],
  ['create picker default (OSM puts it 0.28 km off the Saint-Gilles shore)', -21.0667, 55.2167],
  ['Mamoudzou, Mayotte', -12.7806, 45.2278],
  ['Marseille, Vieux-Port', 43.2951, 5.374],
  ['Honolulu', 21.3069, -157.8583],
  ['Suva, Fiji', -18.1416, 178.4419],
  ['Taveuni, Fiji (west of 180°, on the island)', -16.85, -179.95],
  ['Anadyr, Chukotka', 64.7337, 177.5089],
  ['Uelen, Chukotka', 66.16, -169.81],
  ['Paris', 48.8566, 2.3522],
  ['Tokyo', 35.6762, 139.6503],
  ['McMurdo Station, Ross Island', -77.846, 166.676],
  // Refused by the 1 km OSM land alone: its generalisation cuts the peninsula, drops the islet.
  ['Ajaccio, centre (GSHHG window)', 41.9192, 8.7386],
  ['Mont-Saint-Michel (GSHHG islet)', 48.6361, -1.5115],
  ['Malé (GeoNames landmark: every data set draws the island 1 km off)', 4.1755, 73.5093],
  ['Monaco', 43.7384, 7.4246],
];

const SEA: [string, number, number][] = [
  ['mid-Atlantic', 30, -40],
  ['mid-Pacific', 0, -150],
  ['Gulf of Guinea at (0, 0), where land-10m has a bogus islet', 0, 0],
  ['Indian Ocean', -30, 80],
  ['Mediterranean open sea', 35, 18],
  ['Arctic Ocean (no land at the north pole in Natural Earth)', 85, 0],
  ['north pole', 90, 0],
  ['~30 km off La Réunion', -20.6, 55.6],
  ['Caspian Sea (a hole in Eurasia)', 42, 51],
];

describe('land check: known places', () => {
  it.each(LAND)('%s is land', (_name, lat, lon) => {
    expect(checker.isOnLand(lat, lon)).toBe(true);
  });

  it.each(SEA)('%s is sea', (_name, lat, lon) => {
    expect(checker.isOnLand(lat, lon)).toBe(false);
  });

  it('accepts quays just outside the generalised coast only thanks to the coast tolerance', () => {
    const strict = createLandChecker(land, { coastToleranceKm: 0 });
    expect(strict.isOnLand(14.6012, -61.0699)).toBe(false); // Fort-de-France, La Savane: 0.16 km off the polygon
    expect(strict.isOnLand(-21.0667, 55.2167)).toBe(false); // 0.28 km off
    expect(checker.isOnLand(14.6012, -61.0699)).toBe(true);
    expect(COAST_TOLERANCE_KM).toBeLessThan(0.5);
    const wide = createLandChecker(land, { coastToleranceKm: 40 });
    expect(wide.isOnLand(-20.6, 55.6)).toBe(true); // ~30 km off La Réunion
  });

  it('keeps islets the 1 km generalisation drops, from Natural Earth 10m', () => {
    // Clipperton (French atoll, 2 km across): absent from the OSM 1 km data, present in Natural Earth.
    expect(checker.isOnLand(10.3, -109.22)).toBe(true);
  });
});

describe('land check: antimeridian', () => {
  it.each([
    ['Wrangel Island, east of 180°', 71.2, -179.5],
    ['Wrangel Island, west of 180°', 71.2, 179.5],
    ['Chukotka on the meridian (+180)', 67, 180],
    ['Chukotka on the meridian (-180)', 67, -180],
    ['Chukotka east of 180°', 66.5, -175],
  ])('%s is land', (_name, lat, lon) => {
    expect(checker.isOnLand(lat, lon)).toBe(true);
  });

  it.each([
    ['Bering Sea on the meridian', 60, 180],
    ['Pacific on the meridian at the equator', 0, -180],
    ['Pacific on the meridian, south', -40, 180],
  ])('%s is sea', (_name, lat, lon) => {
    expect(checker.isOnLand(lat, lon)).toBe(false);
  });
});

describe('land check: Antarctica', () => {
  it.each([
    ['interior', -85, 0],
    ['near the south pole', -89.9, 0],
    ['south pole', -90, 0],
    ['near the pole on the antimeridian (+180)', -88, 180],
    ['near the pole on the antimeridian (-180)', -88, -180],
    ['East Antarctica', -75, 120],
  ])('%s is land', (_name, lat, lon) => {
    expect(checker.isOnLand(lat, lon)).toBe(true);
  });

  it('leaves the Southern Ocean as sea', () => {
    expect(checker.isOnLand(-60, 0)).toBe(false);
  });
});

describe('land check: invalid coordinates never pass', () => {
  it.each([
    [Number.NaN, 0],
    [0, Number.NaN],
    [Number.POSITIVE_INFINITY, 0],
    [0, Number.NEGATIVE_INFINITY],
    [90.0001, 0],
    [-91, 0],
    [0, 180.0001],
    [48.8566, -181],
    ['48.8566' as unknown as number, 2.3522],
    [null as unknown as number, 2.3522],
  ])('(%s, %s) is refused', (lat, lon) => {
    expect(checker.isOnLand(lat, lon)).toBe(false);
  });

  it('accepts the limits themselves', () => {
    expect(checker.isOnLand(-90, 180)).toBe(true);
    expect(checker.isOnLand(90, -180)).toBe(false);
  });
});

describe('land check: cache', () => {
  it('stays within its size bound', () => {
    const small = createLandChecker(land, { cacheSize: 5 });
    for (let i = 0; i < 50; i++) small.isOnLand(i, i * 2);
    expect(small.cacheEntries).toBe(5);
  });

  it('keys on coordinates rounded to 4 decimals', () => {
    const cached = createLandChecker(land, { cacheSize: 10 });
    cached.isOnLand(48.85661, 2.35221);
    cached.isOnLand(48.85664, 2.35224);
    expect(cached.cacheEntries).toBe(1);
    cached.isOnLand(48.8567, 2.3522);
    expect(cached.cacheEntries).toBe(2);
  });

  it('never changes an answer', () => {
    const cached = createLandChecker(land, { cacheSize: 200 });
    const uncached = createLandChecker(land, { cacheSize: 0 });
    let seed = 7;
    const next = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const points = Array.from({ length: 500 }, () => [next() * 180 - 90, next() * 360 - 180]);
    const expected = points.map(([lat, lon]) => uncached.isOnLand(lat, lon));
    for (let round = 0; round < 3; round++) {
      expect(points.map(([lat, lon]) => cached.isOnLand(lat, lon))).toEqual(expected);
    }
    expect(expected).toContain(true);
    expect(expected).toContain(false);
    expect(uncached.cacheEntries).toBe(0);
  });

  it('does not cache refused coordinates', () => {
    const cached = createLandChecker(land, { cacheSize: 10 });
    cached.isOnLand(Number.NaN, 0);
    cached.isOnLand(95, 0);
    expect(cached.cacheEntries).toBe(0);
  });
});
