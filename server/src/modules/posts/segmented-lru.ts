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

export function createSegmentedLru<K, V>(maxWeight: number): SegmentedLru<K, V> {
  interface Slot {
    value: V;
    weight: number;
  }
  const probation = new Map<K, Slot>();
  const protectedKeys = new Map<K, Slot>();
  let weight = 0;
  let protectedWeight = 0;

  const oldest = (segment: Map<K, Slot>): [K, Slot] => segment.entries().next().value!;
  const balance = () => {
    while (protectedWeight > maxWeight * PROTECTED_SHARE) {
      const [key, slot] = oldest(protectedKeys);
      protectedKeys.delete(key);
      protectedWeight -= slot.weight;
      probation.set(key, slot);
    }
    while (weight > maxWeight) {
      const segment = probation.size ? probation : protectedKeys;
      const [key, slot] = oldest(segment);
      segment.delete(key);
      weight -= slot.weight;
      if (segment === protectedKeys) protectedWeight -= slot.weight;
    }
  };
  const lru: SegmentedLru<K, V> = {
    get(key) {
      const kept = protectedKeys.get(key);
      if (kept) {
        protectedKeys.delete(key);
        protectedKeys.set(key, kept);
        return kept.value;
      }
      const probed = probation.get(key);
      if (!probed) return undefined;
      probation.delete(key);
      protectedKeys.set(key, probed);
      protectedWeight += probed.weight;
      balance();
      return probed.value;
    },
    peek(key) {
      return (protectedKeys.get(key) ?? probation.get(key))?.value;
    },
    set(key, value, slotWeight) {
      lru.delete(key);
      probation.set(key, { value, weight: slotWeight });
      weight += slotWeight;
      balance();
    },
    update(key, value, slotWeight) {
      const slot = protectedKeys.get(key) ?? probation.get(key);
      if (!slot) return;
      weight += slotWeight - slot.weight;
      if (protectedKeys.has(key)) protectedWeight += slotWeight - slot.weight;
      slot.value = value;
      slot.weight = slotWeight;
      balance();
    },
    delete(key) {
      const kept = protectedKeys.get(key);
      const slot = kept ?? probation.get(key);
      if (!slot) return;
      (kept ? protectedKeys : probation).delete(key);
      weight -= slot.weight;
      if (kept) protectedWeight -= slot.weight;
    },
    *entries() {
      for (const segment of [probation, protectedKeys]) {
        for (const [key, slot] of segment) yield [key, slot.value];
      }
    },
    clear() {
      probation.clear();
      protectedKeys.clear();
      weight = 0;
      protectedWeight = 0;
    },
    get size() {
      return probation.size + protectedKeys.size;
    },
    get weight() {
      return weight;
    },
  };
  return lru;
}
