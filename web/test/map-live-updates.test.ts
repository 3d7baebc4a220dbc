/**
 * Live marker changes reach the map's source in batches: every change queued before the batch's
 * turn goes out as one `updateData`, changes of one post merge (the last wins), and the source
 * ends up holding exactly the groups the map keeps.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  LIVE_BATCH_MS,
  LiveUpdates,
  type Scheduler,
  liveScheduler,
  mergeDiffs,
} from '../src/features/map/markers/live-updates.ts';
import { type GroupDiff, MarkerGroups } from '../src/features/map/markers/marker-groups.ts';
import { type MarkerDto, toMarker } from '../src/features/posts/post-types.ts';
import { makePost } from './support/posts.ts';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** A post `north` × 1 km north of the same square: each alone in its 100 m group unless placed so. */
const post = (id: string, north: number, over: Partial<MarkerDto> = {}): MarkerDto =>
  toMarker(makePost({ id, latitude: 48.85 + north * 0.01, longitude: 2.35, ...over }));

/** A scheduler whose turns the test runs: one pending turn at a time, as a frame would be. */
function manualTurns() {
  const turns: Array<() => void> = [];
  const schedule: Scheduler = (flush) => {
    turns.push(flush);
    return () => turns.splice(turns.indexOf(flush), 1);
  };
  const run = () => turns.splice(0).forEach((flush) => flush());
  return { schedule, turns, run };
}

/** A map source that applies the diffs it gets, as MapLibre's GeoJSON source does. */
function fakeSource() {
  const features = new Map<number, string[]>();
  const updates: GroupDiff[] = [];
  const draw = (diff: GroupDiff) => {
    updates.push(diff);
    for (const id of diff.remove) {
      if (!features.delete(id)) throw new Error(`feature ${id} removed but never drawn`);
    }
    for (const group of diff.add) features.set(group.id, group.members.map((m) => m.id).sort());
  };
  const drawnPosts = () => [...features.values()].map((ids) => ids.join('+')).sort();
  return { draw, updates, drawnPosts };
}

/** An empty map's live updates on `schedule`. */
function liveOn(schedule: Scheduler) {
  const source = fakeSource();
  const live = new LiveUpdates({
    groups: new MarkerGroups(),
    shows: () => true,
    draw: source.draw,
    changed: () => undefined,
    schedule,
  });
  return { source, live };
}

function setup(initial: MarkerDto[] = [], shows: (m: MarkerDto) => boolean = () => true) {
  const groups = new MarkerGroups();
  const source = fakeSource();
  source.draw(groups.reset(initial));
  source.updates.length = 0;
  const turns = manualTurns();
  let changed = 0;
  const live = new LiveUpdates({
    groups,
    shows,
    draw: source.draw,
    changed: () => changed++,
    schedule: turns.schedule,
  });
  const heldPosts = () =>
    [...groups.allGroups()]
      .map((g) =>
        g.members
          .map((m) => m.id)
          .sort()
          .join('+'),
      )
      .sort();
  return { groups, source, turns, live, heldPosts, changes: () => changed };
}

describe('live changes drawn in batches', () => {
  it('sends every change queued before the turn as one updateData, and nothing before it', () => {
    const { source, turns, live, heldPosts, changes, groups } = setup([post('a', 0), post('b', 1)]);
    live.push({ kind: 'created', post: post('n1', 2) });
    live.push({ kind: 'created', post: post('n2', 3) });
    live.push({ kind: 'deleted', id: 'a' });
    // A new post 20 m from b joins b's group.
    live.push({ kind: 'created', post: post('n3', 1, { latitude: 48.86 + 0.0002 }) });
    expect(turns.turns).toHaveLength(1);
    expect(source.updates).toHaveLength(0);
    expect(groups.has('n1')).toBe(false);

    turns.run();
    expect(source.updates).toHaveLength(1);
    expect(changes()).toBe(1);
    expect(source.drawnPosts()).toEqual(['b+n3', 'n1', 'n2']);
    expect(heldPosts()).toEqual(source.drawnPosts());
  });

  it('leaves out a feature made and unmade inside the batch', () => {
    const { source, turns, live } = setup([post('b', 1)]);
    // n3 joins b's group, then leaves: the source keeps b's feature untouched.
    live.push({ kind: 'created', post: post('n3', 1, { latitude: 48.86 + 0.0002 }) });
    live.push({ kind: 'created', post: post('n4', 1, { latitude: 48.86 - 0.0002 }) });
    live.push({ kind: 'deleted', id: 'n3' });
    turns.run();
    expect(source.updates).toHaveLength(1);
    const [diff] = source.updates;
    // b's single feature goes, b+n4's comes: no intermediate b+n3 or b+n3+n4 feature.
    expect(diff!.remove).toHaveLength(1);
    expect(diff!.add.map((g) => g.members.map((m) => m.id).sort())).toEqual([['b', 'n4']]);
    expect(source.drawnPosts()).toEqual(['b+n4']);
  });

  it('draws nothing for a post that arrives and is deleted in the same batch', () => {
    const { source, turns, live, groups } = setup([post('a', 0)]);
    live.push({ kind: 'created', post: post('n1', 2) });
    live.push({ kind: 'deleted', id: 'n1' });
    turns.run();
    expect(source.updates).toHaveLength(0);
    expect(groups.has('n1')).toBe(false);
    expect(source.drawnPosts()).toEqual(['a']);
  });

  it('keeps the last of two changes of one post', () => {
    const { source, turns, live, groups } = setup();
    live.push({ kind: 'created', post: post('n1', 2) });
    live.push({ kind: 'created', post: post('n1', 5, { hasPulseEffect: true }) });
    turns.run();
    expect(source.updates).toHaveLength(1);
    expect(source.updates[0]!.add).toHaveLength(1);
    expect(groups.marker('n1')).toMatchObject({ latitude: 48.9, hasPulseEffect: true });
  });

  it('puts a change after the turn in the next batch', () => {
    const { source, turns, live } = setup();
    live.push({ kind: 'created', post: post('n1', 2) });
    turns.run();
    live.push({ kind: 'created', post: post('n2', 3) });
    expect(source.updates).toHaveLength(1);
    expect(turns.turns).toHaveLength(1);
    turns.run();
    expect(source.updates).toHaveLength(2);
    expect(source.updates[1]!.add.map((g) => g.members[0]!.id)).toEqual(['n2']);
    expect(source.drawnPosts()).toEqual(['n1', 'n2']);
  });

  it('says which posts wait: the focus on our own new post draws it without waiting for the batch', () => {
    const { source, turns, live, groups } = setup();
    live.push({ kind: 'created', post: post('other', 3) });
    live.push({ kind: 'created', post: post('mine', 2) });
    expect(live.holds('mine')).toBe(true);
    live.flush();
    expect(live.holds('mine')).toBe(false);
    expect(groups.has('mine')).toBe(true);
    expect(source.updates).toHaveLength(1);
    // The batch's turn was called off: nothing is left for it.
    expect(turns.turns).toHaveLength(0);
    expect(source.drawnPosts()).toEqual(['mine', 'other']);
  });

  it('leaves out posts of moods the map hides, and takes a hidden post off', () => {
    const { source, turns, live } = setup([post('a', 0, { category: 'love' })], (m) => m.category !== 'love');
    live.push({ kind: 'created', post: post('n1', 2, { category: 'love' }) });
    live.push({ kind: 'created', post: post('n2', 3, { category: 'happy' }) });
    live.push({ kind: 'created', post: post('a', 0, { category: 'love' }) });
    turns.run();
    expect(source.drawnPosts()).toEqual(['n2']);
  });

  it('adds the queue to a fetched answer in one update, without redrawing posts the answer holds', () => {
    const { groups, source, turns, live } = setup([post('a', 0), post('b', 1)]);
    const n1 = post('n1', 2);
    live.push({ kind: 'created', post: n1 });
    live.push({ kind: 'created', post: post('n2', 3) });
    // The answer already holds n1 (and a new c); b is gone from it.
    live.flush(groups.reset([post('a', 0), { ...n1 }, post('c', 4)]));
    expect(turns.turns).toHaveLength(0);
    expect(source.updates).toHaveLength(1);
    const [diff] = source.updates;
    expect(diff!.add.map((g) => g.members[0]!.id).sort()).toEqual(['c', 'n1', 'n2']);
    expect(diff!.remove).toHaveLength(1);
    expect(source.drawnPosts()).toEqual(['a', 'c', 'n1', 'n2']);
  });

  it('drops the queue when the map goes away', () => {
    const { source, turns, live } = setup();
    live.push({ kind: 'created', post: post('n1', 2) });
    live.dispose();
    expect(turns.turns).toHaveLength(0);
    expect(source.updates).toHaveLength(0);
  });
});

describe('mergeDiffs', () => {
  it('cancels a feature added then removed, and keeps removals of features drawn before', () => {
    const groups = new MarkerGroups();
    const first = groups.add(post('x', 0));
    const merged = mergeDiffs([
      { remove: [7], add: first.add },
      { remove: [first.add[0]!.id], add: [] },
    ]);
    expect(merged).toEqual({ remove: [7], add: [] });
  });
});

describe('the schedulers a build picks', () => {
  it('waits LIVE_BATCH_MS by default: one update for what arrives meanwhile', () => {
    vi.useFakeTimers();
    const { source, live } = liveOn(liveScheduler(undefined));
    live.push({ kind: 'created', post: post('n1', 2) });
    vi.advanceTimersByTime(LIVE_BATCH_MS - 1);
    live.push({ kind: 'created', post: post('n2', 3) });
    expect(source.updates).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(source.updates).toHaveLength(1);
    expect(source.drawnPosts()).toEqual(['n1', 'n2']);
  });

  it('waits the milliseconds a build names', () => {
    vi.useFakeTimers();
    const { source, live } = liveOn(liveScheduler('1000'));
    live.push({ kind: 'created', post: post('n1', 2) });
    vi.advanceTimersByTime(999);
    expect(source.updates).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(source.updates).toHaveLength(1);
  });

  it('draws on the next animation frame with "frame"', () => {
    const frames: Array<() => void> = [];
    vi.stubGlobal('requestAnimationFrame', (f: () => void) => frames.push(f));
    vi.stubGlobal('cancelAnimationFrame', () => undefined);
    const { source, live } = liveOn(liveScheduler('frame'));
    live.push({ kind: 'created', post: post('n1', 2) });
    live.push({ kind: 'created', post: post('n2', 3) });
    expect(frames).toHaveLength(1);
    frames[0]!();
    expect(source.updates).toHaveLength(1);
  });

  it('draws each change at once with "event" (the per-change reference)', () => {
    const { source, live } = liveOn(liveScheduler('event'));
    live.push({ kind: 'created', post: post('n1', 2) });
    live.push({ kind: 'created', post: post('n2', 3) });
    expect(source.updates).toHaveLength(2);
    expect(live.holds('n2')).toBe(false);
  });
});
