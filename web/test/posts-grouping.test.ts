import { describe, expect, it } from 'vitest';
import { MAP, type PostDto } from '@moodmap/core';
import { groupWithinRadius, haversineMeters, type GeoPoint } from '../src/features/map/markers/grouping.ts';
import { AGGREGATE_BELOW_ZOOM, MAX_MARKERS, buildMarkerIndex } from '../src/features/map/markers/marker-index.ts';
import { makeAuthor, makePost } from './support/posts.ts';

const R = MAP.earthRadiusM;
/** A point `metres` north (dy) and east (dx) of `origin`. */
function offset(origin: GeoPoint, dyMetres: number, dxMetres: number): GeoPoint {
  const latitude = origin.latitude + (dyMetres / R) * (180 / Math.PI);
  const longitude = origin.longitude + (dxMetres / (R * Math.cos((origin.latitude * Math.PI) / 180))) * (180 / Math.PI);
  return { latitude, longitude };
}

const PARIS = { latitude: 48.8566, longitude: 2.3522 };

/** Reference answer: connected components of the "within radius" graph, by brute force. */
function bruteForce(points: GeoPoint[], radius = MAP.clusterRadiusM): number[][] {
  const seen = new Set<number>();
  const groups: number[][] = [];
  for (let i = 0; i < points.length; i++) {
    if (seen.has(i)) continue;
    const group = [i];
    seen.add(i);
    for (let k = 0; k < group.length; k++) {
      for (let j = 0; j < points.length; j++) {
        if (!seen.has(j) && haversineMeters(points[group[k]!]!, points[j]!) <= radius) {
          seen.add(j);
          group.push(j);
        }
      }
    }
    groups.push(group.sort((a, b) => a - b));
  }
  return groups;
}

function asIndexGroups(points: GeoPoint[]): number[][] {
  const index = new Map(points.map((p, i) => [p, i]));
  return groupWithinRadius(points).map((g) => g.items.map((p) => index.get(p)!).sort((a, b) => a - b));
}

const canonical = (groups: number[][]) => groups.map((g) => g.join(',')).sort();

/** Deterministic pseudo-random numbers (mulberry32). */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('100 m grouping (spec §2 "Map screen", §9 "Map")', () => {
  it('measures with the haversine formula on a 6 371 km sphere', () => {
    expect(haversineMeters(PARIS, offset(PARIS, 100, 0))).toBeCloseTo(100, 6);
    // Paris – La Réunion, about 9 350 km.
    expect(haversineMeters(PARIS, { latitude: -21.0667, longitude: 55.2167 }) / 1000).toBeCloseTo(9360, -2);
  });

  it('merges two posts 50 m apart into one cluster at their average position', () => {
    const a = PARIS;
    const b = offset(PARIS, 30, 40); // 50 m
    const groups = groupWithinRadius([a, b]);
    expect(groups).toHaveLength(1);
    expect(groups[0]!.items).toEqual([a, b]);
    expect(groups[0]!.latitude).toBeCloseTo((a.latitude + b.latitude) / 2, 9);
    expect(groups[0]!.longitude).toBeCloseTo((a.longitude + b.longitude) / 2, 9);
  });

  it('keeps two posts 150 m apart separate', () => {
    expect(groupWithinRadius([PARIS, offset(PARIS, 0, 150)])).toHaveLength(2);
    expect(groupWithinRadius([PARIS, offset(PARIS, 150, 0)])).toHaveLength(2);
  });

  it('treats exactly the radius as "within", a centimetre more as apart', () => {
    expect(groupWithinRadius([PARIS, offset(PARIS, 99.99, 0)])).toHaveLength(1);
    expect(groupWithinRadius([PARIS, offset(PARIS, 100.01, 0)])).toHaveLength(2);
  });

  it('chains: A–B 80 m and B–C 80 m make one cluster although A–C is 160 m (single linkage)', () => {
    const a = PARIS;
    const b = offset(PARIS, 0, 80);
    const c = offset(PARIS, 0, 160);
    expect(haversineMeters(a, c)).toBeGreaterThan(150);
    const groups = groupWithinRadius([a, c, b]);
    expect(groups).toHaveLength(1);
    expect(groups[0]!.items).toHaveLength(3);
    // Without the middle post, the ends are two markers.
    expect(groupWithinRadius([a, c])).toHaveLength(2);
  });

  it('groups across the antimeridian and averages the longitude there', () => {
    const west = { latitude: -17, longitude: 179.9997 };
    const east = { latitude: -17, longitude: -179.9997 }; // about 64 m apart
    const groups = groupWithinRadius([west, east]);
    expect(groups).toHaveLength(1);
    expect(Math.abs(groups[0]!.longitude)).toBeCloseTo(180, 3);
  });

  it('works near the poles', () => {
    const pole = { latitude: -89.9995, longitude: 0 };
    const across = { latitude: -89.9995, longitude: 180 }; // about 111 m through the pole
    const near = { latitude: -89.9995, longitude: 90 }; // about 79 m
    expect(groupWithinRadius([pole, across])).toHaveLength(2);
    expect(groupWithinRadius([pole, near, across])).toHaveLength(1);
  });

  it.each([
    ['a city, dense', 1, 2_000, 0.03],
    ['a country, sparse', 2, 2_000, 3],
    ['high latitudes', 3, 1_500, 0.05],
  ])('agrees with the brute-force answer on random posts (%s)', (_name, seed, n, spreadDeg) => {
    const rand = random(seed);
    const centre = seed === 3 ? { latitude: 78.2, longitude: 15.6 } : PARIS;
    const points = Array.from({ length: n }, () => ({
      latitude: centre.latitude + (rand() - 0.5) * spreadDeg,
      longitude: centre.longitude + (rand() - 0.5) * spreadDeg,
    }));
    expect(canonical(asIndexGroups(points))).toEqual(canonical(bruteForce(points)));
  });

  it('handles 100 000 posts in one city without pairwise comparisons', () => {
    const rand = random(7);
    const points = Array.from({ length: 100_000 }, () => offset(PARIS, (rand() - 0.5) * 4000, (rand() - 0.5) * 4000));
    const groups = groupWithinRadius(points);
    // 100 000 posts on 16 km²: everything touches everything else through neighbours.
    expect(groups.reduce((n, g) => n + g.items.length, 0)).toBe(100_000);
    expect(groups.length).toBeLessThan(10);
  });
});

function post(id: number, at: GeoPoint, category: PostDto['category'] = 'happy'): PostDto {
  return makePost({
    id: `p${id}`, userId: `u${id}`, category, content: `post ${id}`, latitude: at.latitude, longitude: at.longitude,
    nickname: `User ${id}`, createdAt: new Date(Date.UTC(2026, 0, 1, 0, id)).toISOString(), author: makeAuthor(`User ${id}`),
  });
}

const WORLD: [number, number, number, number] = [-180, -85, 180, 85];

describe('markers for a viewport', () => {
  it('shows single posts, 100 m clusters (newest first) and nothing outside the box', () => {
    const posts = [post(1, PARIS), post(2, offset(PARIS, 40, 0)), post(3, offset(PARIS, 0, 2000)), post(4, { latitude: -21.0667, longitude: 55.2167 })];
    const index = buildMarkerIndex(posts);
    const items = index.query([2.3, 48.8, 2.4, 48.9], 14);
    expect(items.map((i) => i.kind).sort()).toEqual(['group', 'post']);
    const group = items.find((i) => i.kind === 'group');
    expect(group?.kind === 'group' && group.posts.map((p) => p.id)).toEqual(['p2', 'p1']);
    expect(index.groupOf('p1')).toBe(index.groupOf('p2'));
  });

  it(`aggregates nearby markers below zoom ${AGGREGATE_BELOW_ZOOM}, keeping the post count`, () => {
    const posts = Array.from({ length: 30 }, (_, i) => post(i, offset(PARIS, i * 300, 0)));
    const index = buildMarkerIndex(posts);
    const zoomedOut = index.query(WORLD, 4);
    expect(zoomedOut).toHaveLength(1);
    expect(zoomedOut[0]).toMatchObject({ kind: 'aggregate', count: 30 });
    const zoomedIn = index.query(WORLD, 15);
    expect(zoomedIn).toHaveLength(30);
    expect(zoomedIn.every((i) => i.kind === 'post')).toBe(true);
    const aggregate = zoomedOut[0]!;
    expect(aggregate.kind === 'aggregate' && index.expansionZoom(aggregate.clusterId)).toBeGreaterThan(4);
  });

  it('never returns more DOM markers than the cap, even zoomed in on a crowd', () => {
    const rand = random(11);
    const posts = Array.from({ length: 5_000 }, (_, i) => post(i, { latitude: 48 + rand() * 2, longitude: 1 + rand() * 3 }));
    const items = buildMarkerIndex(posts).query(WORLD, 12);
    expect(items.length).toBeLessThanOrEqual(MAX_MARKERS);
    const total = items.reduce((n, i) => n + (i.kind === 'post' ? 1 : i.kind === 'group' ? i.posts.length : i.count), 0);
    expect(total).toBe(5_000);
  });
});
