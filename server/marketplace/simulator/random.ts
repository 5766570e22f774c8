/**
 * Deterministic randomness for the simulator: the same seed gives the same shops, products and postings on every
 * run, and any single item can be generated on its own (hash of seed + key), which is what lets a shop hold a
 * million postings without keeping a million objects.
 */

/** 32-bit hash of a string (FNV-1a, then an avalanche step so nearby keys differ in every bit). */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** mulberry32: a small, fast generator, good enough for demo data. */
export function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    chance: (p: number) => next() < p,
  };
}
export type Random = ReturnType<typeof createRandom>;

/** A generator for one keyed item. */
export const randomFor = (...key: (string | number)[]) => createRandom(hash32(key.join('|')));
