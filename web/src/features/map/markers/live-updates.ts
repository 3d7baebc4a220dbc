/**
 * Live marker changes (a realtime post or deletion, a changes poll, an expiry) drawn in batches:
 * each one costs MapLibre a worker round trip, a reload of the tiles it touches and a redraw,
 * whatever its size, so a stream of posts applied one by one takes the whole main thread. The
 * changes wait in a queue, one per post (the last one wins: an arrival then its deletion is
 * nothing), and the scheduler's turn applies them all to the groups and to the map's source as
 * one diff (`updateData`); the groups, hence the popup and the list, change with that draw.
 */
import { MAP } from '@moodmap/core';
import type { MarkerChange } from '../../posts/for-map.ts';
import type { MarkerDto } from '../../posts/for-map.ts';
import type { GroupDiff, MarkerGroup, MarkerGroups } from './marker-groups.ts';

/** Runs `flush` later (or at once); answers how to call it off. */
export type Scheduler = (flush: () => void) => () => void;

/** The next animation frame: at most one source update per frame. */
export const nextFrame: Scheduler = (flush) => {
  const id = requestAnimationFrame(flush);
  return () => cancelAnimationFrame(id);
};

/** After `ms`: at most one source update per `ms`, however short the frames. */
export const after =
  (ms: number): Scheduler =>
  (flush) => {
    const id = setTimeout(flush, ms);
    return () => clearTimeout(id);
  };

/** No wait: one source update per change (the bench's reference build). */
export const immediately: Scheduler = (flush) => {
  flush();
  return () => undefined;
};

/**
 * The wait of a batch. Each batch costs the map a worker round trip and a few redraws, so a
 * batch per frame is hardly fewer than one per post (MapLibre already merges the updates sent
 * while one is under way); a quarter of a second halves them and a live post still shows at once
 * to the eye.
 */
export const LIVE_BATCH_MS = MAP.liveBatchMs;

/**
 * How often live changes reach the map. The bench (bench/browser/live-city.bench.ts) builds the
 * app with each VITE_MAP_LIVE_BATCH to compare them ('event', 'frame', or a wait in ms); a build
 * without it takes the default.
 */
export function liveScheduler(choice: unknown = import.meta.env.VITE_MAP_LIVE_BATCH): Scheduler {
  if (choice === 'event') return immediately;
  if (choice === 'frame') return nextFrame;
  const ms = Number(choice);
  return after(typeof choice === 'string' && Number.isFinite(ms) && ms > 0 ? ms : LIVE_BATCH_MS);
}

/** Diffs applied one after another, as one: a feature added then removed inside them never reaches the map. */
export function mergeDiffs(diffs: readonly GroupDiff[]): GroupDiff {
  const added = new Map<number, MarkerGroup>();
  const remove: number[] = [];
  for (const diff of diffs) {
    for (const id of diff.remove) {
      if (!added.delete(id)) remove.push(id);
    }
    for (const group of diff.add) added.set(group.id, group);
  }
  return { remove, add: [...added.values()] };
}

const DRAWN_FIELDS = [
  'userId',
  'category',
  'latitude',
  'longitude',
  'nickname',
  'photoUrl',
  'hasPulseEffect',
  'createdAt',
] as const;

function sameMarker(a: MarkerDto, b: MarkerDto): boolean {
  return a === b || DRAWN_FIELDS.every((key) => a[key] === b[key]);
}

export interface LiveUpdatesOptions {
  groups: MarkerGroups;
  /** Whether a post is drawn at all (the mood filter). */
  shows: (marker: MarkerDto) => boolean;
  /** Sends one diff to the map's source. */
  draw: (diff: GroupDiff) => void;
  /** Told after each batch applied to the groups (the popup, the list and the focus read them again). */
  changed: () => void;
  schedule: Scheduler;
}

export class LiveUpdates {
  private readonly queue = new Map<string, MarkerChange>();
  private cancel: (() => void) | null = null;
  private readonly options: LiveUpdatesOptions;

  constructor(options: LiveUpdatesOptions) {
    this.options = options;
  }

  /** Queues a change; the post's earlier change in the queue gives way to it. */
  push(change: MarkerChange): void {
    const id = change.kind === 'created' ? change.post.id : change.id;
    this.queue.delete(id);
    this.queue.set(id, change);
    if (this.cancel) return;
    let ran = false;
    const cancel = this.options.schedule(() => {
      ran = true;
      this.cancel = null;
      this.flush();
    });
    if (!ran) this.cancel = cancel;
  }

  /** Whether a change of this post waits in the queue. */
  holds(id: string): boolean {
    return this.queue.has(id);
  }

  /**
   * Applies the queued changes now, after `first` (a fetched answer's diff, already applied to the
   * groups): one source update for both, none when nothing drawn changes.
   */
  flush(first?: GroupDiff): void {
    this.cancel?.();
    this.cancel = null;
    const changes = [...this.queue.values()];
    this.queue.clear();
    if (!first && changes.length === 0) return;
    const diff = mergeDiffs([...(first ? [first] : []), ...changes.map((change) => this.apply(change))]);
    if (diff.remove.length > 0 || diff.add.length > 0) this.options.draw(diff);
    this.options.changed();
  }

  /** Drops what waits (the map is going away). */
  dispose(): void {
    this.cancel?.();
    this.cancel = null;
    this.queue.clear();
  }

  private apply(change: MarkerChange): GroupDiff {
    const { groups, shows } = this.options;
    const none = { remove: [], add: [] };
    if (change.kind === 'deleted') return groups.has(change.id) ? groups.remove(change.id) : none;
    const post = change.post;
    const held = groups.marker(post.id);
    if (!shows(post)) return held ? groups.remove(post.id) : none;
    // Already drawn the same (a fetched answer that holds it, the same post sent twice).
    return held && sameMarker(held, post) ? none : groups.add(post);
  }
}
