/**
 * A live post or deletion on a map holding 10^5 markers: the viewport answers take it
 * without a copy of their markers, and yet every reader sees the same list as before.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import {
  addPostToCache,
  derivedFrom,
  findCachedMarker,
  removePostFromCache,
  resetPostsRealtimeForTests,
} from '../src/features/posts/posts-query.ts';
import { type MarkerDto, toMarker } from '../src/features/posts/post-types.ts';
import { makePost } from './support/posts.ts';

afterEach(() => resetPostsRealtimeForTests());

type Answer = {
  points: MarkerDto[];
  clusters: unknown[];
  cursor: string;
  serverTime: string;
  bbox: [number, number, number, number];
  zoom: number;
};
const KEY = ['posts', 'viewport', [50, -30, 60, -10], 12, 'all'] as const;
const BBOX: Answer['bbox'] = [50, -30, 60, -10];

const marker = (id: string, over: Partial<MarkerDto> = {}): MarkerDto => toMarker(makePost({ id, ...over }));

/** An answer that counts every read of its list (index, length, method) and of its markers' ids. */
function countedAnswer(count: number): { answer: Answer; reads: () => number; idReads: () => number } {
  let reads = 0;
  let idReads = 0;
  const list = Array.from({ length: count }, (_, i) => {
    const { id, ...rest } = marker(`m-${i}`);
    return Object.defineProperty(rest, 'id', { enumerable: true, get: () => (idReads++, id) }) as MarkerDto;
  });
  const points = new Proxy(list, {
    get(target, key, receiver) {
      reads++;
      return Reflect.get(target, key, receiver);
    },
  });
  return {
    answer: { points, clusters: [], cursor: 'c', serverTime: '2026-03-01T10:00:00.000Z', bbox: BBOX, zoom: 12 },
    reads: () => reads,
    idReads: () => idReads,
  };
}

/** A cache holding `answer` under a viewport key, watched as the map watches it (useViewportFeed: no structural sharing). */
function clientWith(answer: Answer, updatedAt = 1_000): QueryClient {
  const client = new QueryClient();
  client.setQueryData(KEY, answer, { updatedAt });
  new QueryObserver(client, { queryKey: KEY, enabled: false, structuralSharing: false });
  return client;
}

const viewport = (client: QueryClient) => client.getQueryData<Answer>(KEY)!;

/** The list as the one-change-at-a-time code made it. */
function naive(
  points: readonly MarkerDto[],
  changes: ReadonlyArray<{ add: MarkerDto } | { remove: string }>,
): MarkerDto[] {
  let list = [...points];
  for (const change of changes) {
    if ('add' in change) list = [change.add, ...list.filter((p) => p.id !== change.add.id)];
    else list = list.filter((p) => p.id !== change.remove);
  }
  return list;
}

describe('a live post reaches the viewport answers without copying their markers', () => {
  it('reads none of 10^5 markers on arrival, and the new answer lists the post first', () => {
    const { answer, reads } = countedAnswer(100_000);
    const client = clientWith(answer);
    const before = reads();
    for (let i = 0; i < 5; i++) addPostToCache(client, marker(`live-${i}`));
    expect(reads() - before).toBe(0);
    const next = viewport(client);
    expect(next).not.toBe(answer);
    expect(next.points.slice(0, 6).map((p) => p.id)).toEqual(['live-4', 'live-3', 'live-2', 'live-1', 'live-0', 'm-0']);
    expect(next.points).toHaveLength(100_005);
    // The fetched answer is left as it was; the map follows the derived chain back to it.
    expect(answer.points).toHaveLength(100_000);
    let from: object | undefined = next;
    while (from && from !== answer) from = derivedFrom(from);
    expect(from).toBe(answer);
  });

  it('gives every arrival a new answer object that observers hear about, with the fetch time kept', () => {
    const { answer } = countedAnswer(10);
    const client = clientWith(answer, 1_000);
    const seen: unknown[] = [];
    const observer = new QueryObserver(client, { queryKey: KEY, enabled: false, structuralSharing: false });
    const stop = observer.subscribe((result) => seen.push(result.data));
    addPostToCache(client, marker('live-a'));
    addPostToCache(client, marker('live-b'));
    stop();
    expect(seen).toHaveLength(2);
    expect(seen[0]).not.toBe(seen[1]);
    expect(seen[1]).toBe(viewport(client));
    // The map's clock offset is the server's time minus this: a live post must not move it.
    expect(client.getQueryState(KEY)?.dataUpdatedAt).toBe(1_000);
  });

  it('skips answers whose bounds do not hold the post', () => {
    const { answer } = countedAnswer(3);
    const client = clientWith(answer);
    addPostToCache(client, marker('far', { latitude: 48.85, longitude: 2.35 }));
    expect(viewport(client)).toBe(answer);
  });

  it('ends with the same list as applying each change in turn: re-posts, deletions, deletions of absent posts', () => {
    const base = Array.from({ length: 50 }, (_, i) => marker(`m-${i}`));
    const client = clientWith({ points: base, clusters: [], cursor: 'c', serverTime: 's', bbox: BBOX, zoom: 12 });
    const changes: Array<{ add: MarkerDto } | { remove: string }> = [];
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let i = 0; i < 400; i++) {
      const id = random() < 0.5 ? `m-${Math.floor(random() * 60)}` : `live-${Math.floor(random() * 40)}`;
      if (random() < 0.6) {
        const post = marker(id, { nickname: `n${i}` });
        changes.push({ add: post });
        addPostToCache(client, post);
      } else {
        changes.push({ remove: id });
        removePostFromCache(client, id);
      }
      // Read now and then (a like, a lookup), so the chain restarts from a worked-out list.
      if (i % 97 === 0) expect(viewport(client).points).toEqual(naive(base, changes));
    }
    expect(viewport(client).points).toEqual(naive(base, changes));
  });

  it('removes posts without a pass over the list each, and leaves an answer that lacks it as it is', () => {
    const { answer, idReads } = countedAnswer(100_000);
    const client = clientWith(answer);
    removePostFromCache(client, 'm-5');
    const built = idReads();
    removePostFromCache(client, 'm-6');
    removePostFromCache(client, 'nowhere');
    addPostToCache(client, marker('live'));
    removePostFromCache(client, 'live');
    // Membership comes from an index built once per fetched list, not a pass per deletion.
    expect(idReads()).toBe(built);
    const next = viewport(client);
    expect(next.points).toHaveLength(99_998);
    expect(next.points.some((p) => p.id === 'm-5' || p.id === 'm-6' || p.id === 'live')).toBe(false);
  });

  it('finds a live post in the caches without working out the answer', () => {
    const { answer, reads } = countedAnswer(1_000);
    const client = clientWith(answer);
    addPostToCache(client, marker('live', { nickname: 'Noa' }));
    const start = reads();
    expect(findCachedMarker(client, 'live')?.nickname).toBe('Noa');
    expect(reads()).toBe(start);
    expect(findCachedMarker(client, 'm-999')?.id).toBe('m-999');
    removePostFromCache(client, 'm-999');
    expect(findCachedMarker(client, 'm-999')).toBeUndefined();
  });

  it('spreads and serialises a derived answer like a plain one', () => {
    const { answer } = countedAnswer(2);
    const client = clientWith(answer);
    addPostToCache(client, marker('live'));
    const next = viewport(client);
    expect({ ...next }.points.map((p) => p.id)).toEqual(['live', 'm-0', 'm-1']);
    expect(JSON.parse(JSON.stringify(next)).points).toHaveLength(3);
    expect(Object.keys(next).sort()).toEqual(Object.keys(answer).sort());
  });
});
