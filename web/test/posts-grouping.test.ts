import { describe, expect, it } from 'vitest';
import { MAP, type PostDto } from '@moodmap/core';
import { groupWithinRadius, haversineMeters, type GeoPoint } from '../src/features/map/markers/grouping.ts';
import { MarkerGroups } from '../src/features/map/markers/marker-groups.ts';
import { toMarker } from '../src/features/posts/post-types.ts';
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

describe('100 m grouping', () => {
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
    id: `p${id}`,
    userId: `u${id}`,
    category,
    content: `post ${id}`,
    latitude: at.latitude,
    longitude: at.longitude,
    nickname: `User ${id}`,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, id)).toISOString(),
    author: makeAuthor(`User ${id}`),
  });
}

/** The groups as sorted id lists, to compare an incremental index with a fresh grouping. */
function partition(groups: MarkerGroups): string[][] {
  return [...groups.allGroups()]
    .map((g) => g.members.map((m) => m.id).sort())
    .sort((a, b) => a[0]!.localeCompare(b[0]!));
}
function fresh(posts: PostDto[]): string[][] {
  return groupWithinRadius(posts)
    .map((g) => g.items.map((p) => p.id).sort())
    .sort((a, b) => a[0]!.localeCompare(b[0]!));
}

describe("the map's 100 m groups, kept one marker at a time", () => {
  it('adds a lone post as one new feature and leaves every other group alone', () => {
    const groups = new MarkerGroups();
    groups.reset([post(1, PARIS), post(2, offset(PARIS, 40, 0)), post(3, offset(PARIS, 0, 2000))].map(toMarker));
    const before = new Map([...groups.allGroups()].map((g) => [g.id, g]));
    const diff = groups.add(toMarker(post(4, offset(PARIS, 0, 5000))));
    expect(diff.remove).toEqual([]);
    expect(diff.add.map((g) => g.members.map((m) => m.id))).toEqual([['p4']]);
    for (const [id, g] of before) expect(groups.group(id)).toBe(g);
  });

  it('merges every group within 100 m of a new post into one, newest first, at their mean position', () => {
    const groups = new MarkerGroups();
    // A and B 160 m apart: two markers, until C lands 80 m from each.
    const a = post(1, PARIS);
    const b = post(2, offset(PARIS, 160, 0));
    groups.reset([a, b].map(toMarker));
    const ids = [...groups.allGroups()].map((g) => g.id);
    const diff = groups.add(toMarker(post(3, offset(PARIS, 80, 0))));
    expect(diff.remove.sort()).toEqual(ids.sort());
    expect(diff.add).toHaveLength(1);
    expect(diff.add[0]!.members.map((m) => m.id)).toEqual(['p3', 'p2', 'p1']);
    expect(diff.add[0]!.latitude).toBeCloseTo((a.latitude + b.latitude + offset(PARIS, 80, 0).latitude) / 3, 9);
    expect(groups.groupOf('p1')).toBe(groups.groupOf('p3'));
  });

  it('a new answer keeps the feature ids of the groups it draws the same, and diffs only the rest', () => {
    const groups = new MarkerGroups();
    const far = offset(PARIS, 0, 3000);
    const first = groups.reset(
      [post(1, PARIS), post(2, offset(PARIS, 40, 0)), post(3, far), post(4, offset(PARIS, 0, 6000))].map(toMarker),
    );
    expect(first.remove).toEqual([]);
    expect(first.add).toHaveLength(3);
    const pair = groups.groupOf('p1')!.id;
    const lone = groups.groupOf('p3')!.id;
    const gone = groups.groupOf('p4')!.id;
    // The next answer (fresh objects): the pair unchanged, p4 gone, p5 joins p3 within 100 m.
    const next = groups.reset(
      [post(1, PARIS), post(2, offset(PARIS, 40, 0)), post(3, far), post(5, offset(far, 30, 0))].map(toMarker),
    );
    expect(groups.groupOf('p1')!.id).toBe(pair);
    expect(next.remove.sort()).toEqual([gone, lone].sort());
    expect(next.add.map((g) => g.members.map((m) => m.id))).toEqual([['p5', 'p3']]);
    // A changed look (the pulse bought) is a new feature too.
    const pulsed = groups.reset(
      [post(1, PARIS), { ...post(2, offset(PARIS, 40, 0)), hasPulseEffect: true }].map(toMarker),
    );
    expect(pulsed.remove).toContain(pair);
    expect(pulsed.add.map((g) => g.members.map((m) => m.id).sort())).toEqual([['p1', 'p2']]);
  });

  it('splits a chain when the post holding it together is removed', () => {
    const groups = new MarkerGroups();
    groups.reset([post(1, PARIS), post(2, offset(PARIS, 80, 0)), post(3, offset(PARIS, 160, 0))].map(toMarker));
    expect(partition(groups)).toEqual([['p1', 'p2', 'p3']]);
    const diff = groups.remove('p2');
    expect(diff.remove).toHaveLength(1);
    expect(diff.add.map((g) => g.members.map((m) => m.id)).sort()).toEqual([['p1'], ['p3']]);
    expect(groups.has('p2')).toBe(false);
    expect(groups.remove('p2')).toEqual({ remove: [], add: [] });
  });

  it('ends with the same groups as a fresh grouping after random adds and removes, across the antimeridian too', () => {
    const rand = random(7);
    const centres = [PARIS, { latitude: -17.5, longitude: 179.9995 }];
    const live = new Map<string, PostDto>();
    const groups = new MarkerGroups();
    for (let i = 0; i < 600; i++) {
      const centre = centres[i % 2]!;
      if (live.size > 20 && rand() < 0.3) {
        const id = [...live.keys()][Math.floor(rand() * live.size)]!;
        live.delete(id);
        groups.remove(id);
      } else {
        const p = post(i, offset(centre, (rand() - 0.5) * 1500, (rand() - 0.5) * 1500));
        live.set(p.id, p);
        groups.add(toMarker(p));
      }
    }
    expect(partition(groups)).toEqual(fresh([...live.values()]));
    expect(groups.size).toBe(live.size);
  });

  it('finds the groups of a view from its areas: the same as a pass over every group, after adds, removes and a reset', () => {
    const rand = random(11);
    const groups = new MarkerGroups();
    const around = (i: number) => post(i, offset(PARIS, (rand() - 0.5) * 40_000, (rand() - 0.5) * 40_000));
    groups.reset(Array.from({ length: 400 }, (_, i) => toMarker(around(i))));
    for (let i = 400; i < 700; i++) groups.add(toMarker(around(i)));
    for (let i = 0; i < 700; i += 3) groups.remove(`p${i}`);
    const views: Array<[number, number, number, number]> = [
      [2.3, 48.83, 2.4, 48.88],
      [2.349, 48.855, 2.356, 48.858],
      [2.0, 48.6, 2.7, 49.1],
      [-180, -85, 180, 85],
      [10, 10, 11, 11],
    ];
    const everyGroup = (w: number, s: number, e: number, n: number) =>
      [...groups.allGroups()]
        .filter((g) => g.latitude >= s && g.latitude <= n && g.longitude >= w && g.longitude <= e)
        .map((g) => g.id)
        .sort();
    for (const [w, s, e, n] of views)
      expect(
        groups
          .groupsIn(w, s, e, n)
          .map((g) => g.id)
          .sort(),
      ).toEqual(everyGroup(w, s, e, n));
    expect(groups.groupsIn(2.3, 48.83, 2.4, 48.88).length).toBeGreaterThan(10);
    groups.reset([]);
    expect(groups.groupsIn(-180, -85, 180, 85)).toEqual([]);
  });

  it('adds one post to 100 000 loaded by touching only its own group', () => {
    const rand = random(3);
    const posts = Array.from({ length: 100_000 }, (_, i) =>
      toMarker(post(i, { latitude: 30 + rand() * 30, longitude: -10 + rand() * 40 })),
    );
    const groups = new MarkerGroups();
    groups.reset(posts);
    const diff = groups.add(toMarker(post(100_001, { latitude: 0.5, longitude: 0.5 })));
    expect(diff).toEqual({
      remove: [],
      add: [expect.objectContaining({ members: [expect.objectContaining({ id: 'p100001' })] })],
    });
    expect(groups.size).toBe(100_001);
  });
});
