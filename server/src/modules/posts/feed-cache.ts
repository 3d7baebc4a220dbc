/**
 * The viewport answers as ready bytes: markers carry nothing viewer-specific, so an
 * answer is the same for everyone asking for the same snapped tiles or cells (feed.ts planView).
 * It is serialised and gzipped once, with a strong ETag per representation, and kept until a
 * post event inside its area (post.created, post.deleted — the sweeper's expiries included —
 * heard on the bus from every instance) or a profile change (profile.updated: a photo on the
 * markers) drops it. Past its lifetime (between half of ENTRY_TTL_MS and all of it, drawn per
 * fill) it is read again once, and served until the new answer is ready. An entry is dropped while its load is still in flight too, so an answer read before
 * a post committed is never kept after its event.
 * The answers kept are bounded by their bytes (MAX_BYTES), in a segmented LRU (segmented-lru.ts):
 * a view asked for again outlives any burst of views asked for once.
 * Browsers keep an answer MAX_AGE_S, then revalidate with If-None-Match (304 while unchanged).
 * One per app instance.
 */
import { createHash } from 'node:crypto';
import type { ViewportAnswer } from '@moodmap/core';
import { BUS_RESUMED, type RealtimeEvent } from '../../adapters/bus/types.ts';
import { inArea, type Area } from './feed.ts';
import { gzipParallel } from './parallel-gzip.ts';
import { createSegmentedLru } from './segmented-lru.ts';

/** How long a browser may show an answer without asking (a deleted post: at most this long). */
export const MAX_AGE_S = 5;
/**
 * The cursor of a kept answer ages; past this the changes replay from it grows, so reload. Each
 * entry lives 40–80 s, 60 s on average: the database reads as many reloads as with a fixed 60 s.
 */
export const ENTRY_TTL_MS = 80_000;
/**
 * Each entry lives a random part of ENTRY_TTL_MS, at least this share: the answers filled
 * together (a busy minute's views, a restart's warm-up) would otherwise all be read again in the
 * same instant, a burst of reloads that would stall the answers around it.
 */
const MIN_TTL_SHARE = 0.5;
/**
 * The answers' bytes kept at most (identity and gzip, plus ENTRY_OVERHEAD_BYTES each). A 2-core
 * server has some 2–4 GB, beside the process's own ~200 MB and often PostgreSQL: 256 MiB is an
 * eighth to a sixteenth of that. The protected segment (4/5 of this) keeps the most recently
 * used answers. A bound in bytes, not in entries: answers grow with the posts they hold.
 */
export const MAX_BYTES = 256 * 1024 * 1024;
/**
 * What an entry costs besides its two buffers (key, area, ETags, the objects around them), an
 * overestimate: many small answers are bounded too. A loading entry weighs only this.
 */
const ENTRY_OVERHEAD_BYTES = 1024;

/**
 * The viewport answer is compressed while its first viewer waits (a cache miss), so at the
 * fastest level, on every core (parallel-gzip.ts): level 1 takes about half the time of level 6
 * for a few more bytes — the same choice as the API's on-the-fly compression
 * (http/compression.ts); bench/results/ holds the measures.
 */
const GZIP_LEVEL = 1;

export interface AnswerBytes {
  identity: Buffer;
  gzip: Buffer;
  /** Strong ETags, one per representation (a content coding is another representation). */
  etag: string;
  gzipEtag: string;
}

export interface FeedCache {
  get(key: string, area: Area, load: () => Promise<string | ViewportAnswer>): Promise<AnswerBytes>;
  /** Drops the answers whose area holds this point. */
  invalidateAt(latitude: number, longitude: number): void;
  clear(): void;
  /** The bus's map events, as they arrive. */
  onEvent(event: RealtimeEvent): void;
  readonly size: number;
  /** The bytes kept (their identity and gzip buffers, ENTRY_OVERHEAD_BYTES each besides). */
  readonly bytes: number;
}

/**
 * The answer's bytes: the JSON text feed.ts builds around PostgreSQL's markers (planView's load),
 * taken as is; an answer object (the tests') goes through plain JSON.stringify.
 */
export async function toBytes(answer: string | ViewportAnswer): Promise<AnswerBytes> {
  const identity = Buffer.from(typeof answer === 'string' ? answer : JSON.stringify(answer));
  // A large answer is deflated on the thread pool: the hash is computed meanwhile.
  const gzip = gzipParallel(identity, GZIP_LEVEL);
  const hash = createHash('sha1').update(identity).digest('base64url');
  return { identity, gzip: compact(await gzip), etag: `"${hash}"`, gzipEtag: `"${hash}-gzip"` };
}

/**
 * zlib's synchronous gzip returns a view on its larger output chunk: a small answer's copy keeps
 * only its own bytes (what the cache counts). Buffer.alloc, not Buffer.from: a small copy from
 * Buffer.from is itself a slice of the shared pool (64 kB on Node 24).
 */
function compact(buffer: Buffer): Buffer {
  if (buffer.byteLength * 2 >= buffer.buffer.byteLength) return buffer;
  const own = Buffer.alloc(buffer.byteLength);
  buffer.copy(own);
  return own;
}

const weightOf = (bytes: AnswerBytes) => bytes.identity.byteLength + bytes.gzip.byteLength + ENTRY_OVERHEAD_BYTES;

export function createFeedCache(
  now: () => number = Date.now,
  random: () => number = Math.random,
  maxBytes = MAX_BYTES,
): FeedCache {
  interface Entry {
    expires: number;
    area: Area;
    bytes: Promise<AnswerBytes>;
    /** Set while an expired entry's answer is read again (it keeps being served meanwhile). */
    refreshing?: boolean;
  }
  const entries = createSegmentedLru<string, Entry>(maxBytes);
  /**
   * Loads the answer as `key`'s entry, weighed once loaded; a failed or superseded load never
   * replaces another entry.
   */
  const fill = (key: string, area: Area, load: () => Promise<string | ViewportAnswer>, time: number): Entry => {
    const lifetime = ENTRY_TTL_MS * (MIN_TTL_SHARE + (1 - MIN_TTL_SHARE) * random());
    const entry: Entry = { expires: time + lifetime, area, bytes: load().then(toBytes) };
    entry.bytes.then(
      (bytes) => {
        if (entries.peek(key) === entry) entries.update(key, entry, weightOf(bytes));
      },
      () => {
        if (entries.peek(key) === entry) entries.delete(key);
      },
    );
    return entry;
  };
  const cache: FeedCache = {
    get(key, area, load) {
      const time = now();
      const hit = entries.get(key);
      if (hit && hit.expires > time) return hit.bytes;
      if (hit) {
        // Only aged, never made stale by an event (an event deletes the entry): served while one
        // reload runs, so the expiry of many views at once costs no viewer a database read.
        if (!hit.refreshing) {
          hit.refreshing = true;
          const next = fill(key, area, load, time);
          next.bytes.then(
            (bytes) => {
              if (entries.peek(key) === hit) entries.update(key, next, weightOf(bytes));
            },
            () => {
              hit.refreshing = false;
            },
          );
        }
        return hit.bytes;
      }
      const entry = fill(key, area, load, time);
      entries.set(key, entry, ENTRY_OVERHEAD_BYTES);
      return entry.bytes;
    },
    invalidateAt(latitude, longitude) {
      for (const [key, entry] of entries.entries()) if (inArea(entry.area, latitude, longitude)) entries.delete(key);
    },
    clear() {
      entries.clear();
    },
    onEvent(event) {
      // The bus came back after a gap: the events missed meanwhile (a sweep's post.deleted) may touch any answer.
      if (event.type === BUS_RESUMED) cache.clear();
      else if ((event.type === 'post.created' || event.type === 'post.deleted') && event.at) {
        cache.invalidateAt(event.at.latitude, event.at.longitude);
      } else if (event.type === 'post.created' || event.type === 'post.deleted' || event.type === 'profile.updated') {
        // A post event without a place (an older instance), or a photo change: anything may be stale.
        cache.clear();
      }
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return entries.weight;
    },
  };
  return cache;
}

/** If-None-Match uses the weak comparison: W/ prefixes are ignored, `*` matches anything. */
export function matchesEtag(header: string | undefined, bytes: AnswerBytes): boolean {
  if (!header) return false;
  return header.split(',').some((raw) => {
    const tag = raw.trim().replace(/^W\//, '');
    return tag === '*' || tag === bytes.etag || tag === bytes.gzipEtag;
  });
}
