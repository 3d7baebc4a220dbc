/**
 * A segmented LRU bounded by a total weight (bytes, for the feed's answer cache: feed-cache.ts).
 * A new key enters on probation; its next use promotes it to the protected segment, which holds
 * at most PROTECTED_SHARE of the weight (past that, its least recently used go back to the
 * recent end of probation). Room is always made from probation's least recently used first, so a
 * burst of keys used once (a crawler, one viewer's long pan over new places, the feed bench's
 * cold views) only cycles through probation, and the keys used again stay: a plain LRU loses them
 * as soon as the burst outweighs its free room, a FIFO sooner still.
 * No library here: lru-cache (in node_modules, not one of ours) is a single LRU whose sizes are
 * given at insertion, and an answer's size is known only once its load resolves.
 * A Map iterates in insertion order: deleting a key and setting it again makes it the most recent.
 */

/** The protected segment's share of the weight: the rest is probation's at least. */
const PROTECTED_SHARE = 0.8;

export interface SegmentedLru<K, V> {
  /** A use: promotes a key on probation, refreshes a protected one. */
  get(key: K): V | undefined;
  /** The value without counting a use (to tell whether an entry is still the kept one). */
  peek(key: K): V | undefined;
  /** A new key, on probation (a kept one is replaced). Least recently used keys leave if needed. */
  set(key: K, value: V, weight: number): void;
  /** A kept key's new value and weight, in its place (no use counted); nothing if not kept. */
  update(key: K, value: V, weight: number): void;
  delete(key: K): void;
  /** Every kept entry; deleting while iterating is allowed. */
  entries(): IterableIterator<[K, V]>;
  clear(): void;
  readonly size: number;
  /** The sum of the kept weights, at most maxWeight (a value heavier than that is not kept). */
  readonly weight: number;
}

interface Slot<V> {
  value: V;
  weight: number;
}

/** One segment: its keys from least to most recently used, and their total weight. */
class Segment<K, V> {
  readonly slots = new Map<K, Slot<V>>();
  weight = 0;

  /** Files the key as the most recent. */
  add(key: K, slot: Slot<V>): void {
    this.slots.set(key, slot);
    this.weight += slot.weight;
  }

  remove(key: K): Slot<V> | undefined {
    const slot = this.slots.get(key);
    if (!slot) return undefined;
    this.slots.delete(key);
    this.weight -= slot.weight;
    return slot;
  }

  /** Takes out the least recently used key (the segment is not empty). */
  removeOldest(): [K, Slot<V>] {
    const key: K = this.slots.keys().next().value!;
    return [key, this.remove(key)!];
  }

  clear(): void {
    this.slots.clear();
    this.weight = 0;
  }
}

export function createSegmentedLru<K, V>(maxWeight: number): SegmentedLru<K, V> {
  const probation = new Segment<K, V>();
  const protectedKeys = new Segment<K, V>();
  const total = () => probation.weight + protectedKeys.weight;

  const balance = () => {
    while (protectedKeys.weight > maxWeight * PROTECTED_SHARE) probation.add(...protectedKeys.removeOldest());
    while (total() > maxWeight) (probation.slots.size ? probation : protectedKeys).removeOldest();
  };
  const lru: SegmentedLru<K, V> = {
    get(key) {
      const kept = protectedKeys.remove(key);
      if (kept) {
        protectedKeys.add(key, kept);
        return kept.value;
      }
      const probed = probation.remove(key);
      if (!probed) return undefined;
      protectedKeys.add(key, probed);
      balance();
      return probed.value;
    },
    peek(key) {
      return (protectedKeys.slots.get(key) ?? probation.slots.get(key))?.value;
    },
    set(key, value, weight) {
      lru.delete(key);
      probation.add(key, { value, weight });
      balance();
    },
    update(key, value, weight) {
      const segment = protectedKeys.slots.has(key) ? protectedKeys : probation;
      const slot = segment.slots.get(key);
      if (!slot) return;
      segment.weight += weight - slot.weight;
      slot.value = value;
      slot.weight = weight;
      balance();
    },
    delete(key) {
      if (!protectedKeys.remove(key)) probation.remove(key);
    },
    *entries() {
      for (const segment of [probation, protectedKeys]) {
        for (const [key, slot] of segment.slots) yield [key, slot.value];
      }
    },
    clear() {
      probation.clear();
      protectedKeys.clear();
    },
    get size() {
      return probation.slots.size + protectedKeys.slots.size;
    },
    get weight() {
      return total();
    },
  };
  return lru;
}
