import { TEXT_SEPARATOR } from './orderChunk';

/**
 * Hashing values where they lie in a joined column (contract/orderChunk.ts), and an index filed by those hashes: what
 * the server's frame builder dictionary-encodes a chunk's repeated strings with, and what the worker's engine finds
 * a million ids with, neither making a string per row.
 */

const SEPARATOR = TEXT_SEPARATOR.charCodeAt(0);
/** FNV-1a, 32 bits: a hash starts at the offset and takes each unit in as `Math.imul(hash ^ unit, FNV_PRIME)`. */
export const FNV_OFFSET = 0x811c9dc5;
export const FNV_PRIME = 0x01000193;

/** FNV-1a over the UTF-16 code units of text[start, end), computed where the value lies without cutting it out. */
export function hashRange(text: string, start: number, end: number): number {
  let hash = FNV_OFFSET;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME);
  return hash | 0;
}

export const hashId = (id: string): number => hashRange(id, 0, id.length);

const EMPTY = 0;
const GONE = -1;

/**
 * Numbers (slots, codes) filed under the hash of the value each stands for: open addressing in two typed arrays, not
 * a Map of a million strings. Filling it needs only the hashes; a lookup compares the value itself (`matches`) only
 * for entries of the same hash, so reading a stored value, which may mean cutting it out of a joined column, is rare.
 */
export class HashIndex {
  /** number + 1 per entry; EMPTY, or GONE after a delete. */
  private entries: Int32Array;
  private hashes: Int32Array;
  private mask: number;
  /** Entries not EMPTY (live and gone): what makes probing long. */
  private used = 0;
  private live = 0;

  constructor(expected = 0) {
    let size = 1024;
    while (size < expected * 2) size *= 2;
    this.entries = new Int32Array(size);
    this.hashes = new Int32Array(size);
    this.mask = size - 1;
  }

  get size(): number {
    return this.live;
  }

  /**
   * Room for `expected` entries without growing: a sync that knows how many rows are coming sizes the table once
   * (doubling to a million entries allocated and re-filed about twice that, and fresh memory is what costs).
   */
  reserve(expected: number): void {
    let size = this.entries.length;
    while (size < expected * 2) size *= 2;
    if (size !== this.entries.length) this.resize(size);
  }

  /** The number filed under `hash` whose value `matches`, or -1. */
  find(hash: number, matches: (slot: number) => boolean): number {
    const { entries, hashes, mask } = this;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const entry = entries[at]!;
      if (entry === EMPTY) return -1;
      if (entry !== GONE && hashes[at] === hash && matches(entry - 1)) return entry - 1;
    }
  }

  /** Files `slot` under `hash`: the caller knows no live entry stands for the same value. */
  add(hash: number, slot: number): void {
    if ((this.used + 1) * 2 > this.entries.length) this.rehash();
    const { entries, mask } = this;
    let at = hash & mask;
    while (entries[at]! > 0) at = (at + 1) & mask;
    if (entries[at] === EMPTY) this.used++;
    entries[at] = slot + 1;
    this.hashes[at] = hash;
    this.live++;
  }

  /** Moves the entry of `slot` (filed under `hash`) to `to`. */
  move(hash: number, slot: number, to: number): void {
    const at = this.entryOf(hash, slot);
    if (at >= 0) this.entries[at] = to + 1;
  }

  /** Drops the entry of `slot`, filed under `hash`. */
  remove(hash: number, slot: number): void {
    const at = this.entryOf(hash, slot);
    if (at < 0) return;
    this.entries[at] = GONE;
    this.live--;
  }

  private entryOf(hash: number, slot: number): number {
    const { entries, hashes, mask } = this;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const entry = entries[at]!;
      if (entry === EMPTY) return -1;
      if (entry === slot + 1 && hashes[at] === hash) return at;
    }
  }

  /** Doubles the table, or only drops the gone entries when they are what fills it. */
  private rehash(): void {
    this.resize(this.live * 4 < this.entries.length ? this.entries.length : this.entries.length * 2);
  }

  private resize(size: number): void {
    const { entries: oldEntries, hashes: oldHashes } = this;
    this.entries = new Int32Array(size);
    this.hashes = new Int32Array(size);
    this.mask = size - 1;
    this.used = 0;
    this.live = 0;
    for (let at = 0; at < oldEntries.length; at++) {
      const entry = oldEntries[at]!;
      if (entry > 0) this.add(oldHashes[at]!, entry - 1);
    }
  }
}

/** The hash of each of the `n` values of a joined column, and where each begins (plus one past the end of the last). */
export type JoinedHashes = { hashes: Int32Array; starts: Int32Array };

/** `hashRange` of every value of `joined` (n values separated by U+001F) in one pass; null when they are not `n`. */
export function hashJoined(joined: string, n: number): JoinedHashes | null {
  const hashes = new Int32Array(n);
  const starts = new Int32Array(n + 1);
  const length = joined.length;
  let start = 0;
  for (let i = 0; i < n; i++) {
    if (start > length) return null;
    let hash = FNV_OFFSET;
    let end = start;
    for (; end < length; end++) {
      const code = joined.charCodeAt(end);
      if (code === SEPARATOR) break;
      hash = Math.imul(hash ^ code, FNV_PRIME);
    }
    hashes[i] = hash;
    starts[i] = start;
    start = end + 1;
  }
  if (start !== length + 1) return null;
  starts[n] = start;
  return { hashes, starts };
}
