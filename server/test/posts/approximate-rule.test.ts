/**
 * The snapping rule of 'Position approximative' (posts/approximate.ts), without the API: cells of
 * about 1 km that tile the world, one published point per cell whatever the point inside it, on
 * land, near where the post was made.
 */
import { describe, expect, it } from 'vitest';
import { cellOf, createApproximator } from '../../src/modules/posts/approximate.ts';
import { realGeo } from '../helpers/geo-fixture.ts';

/** On the prebuilt land, as the app's context opens it. */
const geo = realGeo();
const insideLand = geo.inside;
const approximatePoint = createApproximator(geo);

function km(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.latitude - a.latitude) * rad) / 2) ** 2 +
    Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(((b.longitude - a.longitude) * rad) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

/** A fixed-seed generator (mulberry32), so a failure names the same points on every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('approximate position: the grid', () => {
  it('cuts the world into cells of about 1.1 km whose centres belong to them, across the antimeridian and near the poles', () => {
    const next = random(20);
    for (let i = 0; i < 2_000; i++) {
      const lat = -89.99 + next() * 179.98;
      const lon = -180 + next() * 360;
      const cell = cellOf(lat, lon);
      expect(cellOf(cell.centre.latitude, cell.centre.longitude)).toEqual(cell);
      expect(Math.abs(lat - cell.centre.latitude)).toBeLessThanOrEqual(cell.height / 2 + 1e-9);
      const dLon = Math.abs(((lon - cell.centre.longitude + 540) % 360) - 180);
      expect(dLon).toBeLessThanOrEqual(cell.width / 2 + 1e-9);
      // Wide enough everywhere (about 1.1 km), and no wider than twice that except at the poles' last rows.
      const widthKm = km(
        { latitude: cell.centre.latitude, longitude: 0 },
        { latitude: cell.centre.latitude, longitude: Math.min(cell.width, 180) },
      );
      if (Math.abs(cell.centre.latitude) < 89) {
        expect(widthKm).toBeGreaterThan(1.1);
        expect(widthKm).toBeLessThan(2.3);
      }
    }
    // 180° and -180° are the same meridian: the same cell.
    expect(cellOf(-17.5, 180)).toEqual(cellOf(-17.5, -180));
  });

  it('publishes one point per cell, on land, within about 2 km of every point of the cell', () => {
    const next = random(7);
    const { land } = geo;
    let tried = 0;
    // Europe and La Réunion: coasts, islands and inland alike.
    const areas = [
      { south: 36, north: 60, west: -10, east: 30 },
      { south: -21.4, north: -20.85, west: 55.2, east: 55.85 },
    ];
    for (const area of areas) {
      for (let i = 0; i < 300; i++) {
        const lat = area.south + next() * (area.north - area.south);
        const lon = area.west + next() * (area.east - area.west);
        if (!land.isOnLand(lat, lon)) continue;
        tried++;
        const published = approximatePoint(lat, lon);
        expect(
          insideLand.isOnLand(published.latitude, published.longitude) ||
            land.isOnLand(published.latitude, published.longitude),
        ).toBe(true);
        expect(km({ latitude: lat, longitude: lon }, published)).toBeLessThan(2.5);
        // Any other point of the same cell gets exactly the same one.
        const cell = cellOf(lat, lon);
        const other = {
          latitude: cell.centre.latitude + (next() - 0.5) * cell.height * 0.99,
          longitude: cell.centre.longitude + (next() - 0.5) * cell.width * 0.99,
        };
        expect(approximatePoint(other.latitude, other.longitude)).toEqual(published);
      }
    }
    expect(tried).toBeGreaterThan(100);
  });
});
