import { TEXT_SEPARATOR } from '../../contract/orderChunk';

/**
 * A stretch of rows whose values are still one joined string, as a cache record holds the column, or still the
 * record's UTF-8 bytes of that string (`joined` null); `starts` (where each value begins, in `joined` or in `bytes`)
 * once a value of it was read; `decode`, when given, makes the string from the bytes (one the stretch shares with
 * another reader, see appendBytes).
 */
type Segment = { base: number; n: number; joined: string | null; bytes: Uint8Array | null; decode: (() => string) | null; starts: Int32Array | null; reads: number };

/**
 * Values read one by one from a stretch still held as bytes before the whole stretch is decoded: at least
 * BYTE_READS, and an eighth of the stretch (READS_SHARE_SHIFT). A search index or a selection's ids read every value
 * (a TextDecoder call per value made building the index several times slower); windows read a hundred rows at a
 * time, and must not decode the whole: a stretch of a cache record is 100,000 values, and decoding one column of it
 * took 10-25 ms, several columns in the window call that crossed the count. With 256 reads a stretch, a series of 50
 * random jumps after a warm open decoded 460 ms of stretches inside window calls, each of them 70-100 ms.
 */
const BYTE_READS = 256;
const READS_SHARE_SHIFT = 3;

const SEPARATOR_BYTE = TEXT_SEPARATOR.charCodeAt(0);
const decoder = new TextDecoder();

/**
 * The stretch's joined string, decoding its bytes the first time. Starts found in the bytes stay when every
 * character was one byte (the usual case: ids, posting and tracking numbers); otherwise they are found again in the
 * string.
 */
function joinedOf(segment: Segment): string {
  if (segment.joined === null) {
    const joined = segment.decode ? segment.decode() : decoder.decode(segment.bytes!);
    if (joined.length !== segment.bytes!.length) segment.starts = null;
    segment.joined = joined;
    segment.bytes = null;
    segment.decode = null;
  }
  return segment.joined;
}

/**
 * A column of mostly unique strings (ids, posting, order and tracking numbers) by slot. A cache load appends each
 * record's column as the one joined string the record holds, without splitting it: a million rows are five million
 * strings, and splitting them all was most of a warm open's time. Reading a value finds where the stretch's values
 * begin (one scan, no strings made) and cuts out that one; a whole read (a search index, a sort by the column)
 * splits what is left.
 *
 * A warm open's stretches come as the cache record's UTF-8 bytes, not decoded: a value read is
 * decoded alone, a stretch when the column is read whole, when an eighth of it has been read, or when `settleOne`
 * asks (the engine does, a stretch per slice, before it builds the search index). Decoding every frame's text was 12-17 ms a frame before the list could answer with every row; reading
 * it later made a warm open's all-rows answer about 130 ms sooner and its first rows about 100 ms sooner (medians of
 * 15 reloads each, a million cached rows, headless Chromium).
 *
 * The slot array itself is made only when values are written one by one or split: a load appends its stretches
 * without one (making and re-making an array of a million slots per column, as the stretches came, was 460 ms of a
 * warm open's worker time in headless Chromium).
 */
export class TextColumn {
  /** By slot, `undefined` where a value is still in a pending stretch; may be shorter than the column. */
  private values: (string | undefined)[] = [];
  /** Not yet split, by `base` ascending (loads append in slot order). */
  private pending: Segment[] = [];

  /**
   * Room for `capacity` slots before writing at the end. Writing far past the array's end (or setting a large length)
   * turns it into a slow dictionary, and splitting a stretch then costs tens of milliseconds.
   */
  private reserve(capacity: number): void {
    const values = this.values;
    if (values.length >= capacity) return;
    // Doubling: a load that appends record after record copies each value a couple of times, not once per record.
    const next = new Array<string | undefined>(Math.max(capacity, 2 * values.length));
    for (let i = 0; i < values.length; i++) next[i] = values[i];
    this.values = next;
  }

  get(slot: number): string {
    const value = slot < this.values.length ? this.values[slot] : undefined;
    return value !== undefined ? value : this.fill(slot);
  }

  set(slot: number, value: string): void {
    // A pending stretch would later overwrite the value when it is split: split it first.
    if (this.pending.length > 0) {
      const at = this.segmentOf(slot);
      if (at >= 0) this.split(at);
    }
    this.reserve(slot + 1);
    this.values[slot] = value;
  }

  /** `source[take[j]]` into slots `base + j` for j < k (a checked chunk, split already). */
  copy(source: readonly string[], take: Uint32Array, k: number, base: number): void {
    this.reserve(base + k);
    const values = this.values;
    for (let j = 0; j < k; j++) values[base + j] = source[take[j]!]!;
  }

  /** Slots `base` .. `base + n - 1` hold the values of `joined` (separated by TEXT_SEPARATOR), split when read. */
  appendJoined(base: number, joined: string, n: number, starts: Int32Array | null = null): void {
    if (n === 0) return;
    this.pending.push({ base, n, joined, bytes: null, decode: null, starts, reads: 0 });
  }

  /**
   * `appendJoined` of the UTF-8 bytes of such a string, not decoded yet: a value read is decoded on its own, the
   * whole stretch when the column is read whole (or `settleOne` asks). The bytes are a view of a frame: the frame stays
   * in memory until then. `decode`, when given, answers the bytes as a string: someone else needs the same string
   * (the cache, a record's ids), and whoever reads it first decodes it for both.
   */
  appendBytes(base: number, bytes: Uint8Array, n: number, decode: (() => string) | null = null): void {
    if (n === 0) return;
    this.pending.push({ base, n, joined: null, bytes, decode, starts: null, reads: 0 });
  }

  /**
   * Finds where each value of the last stretch begins now rather than when a value of it is first read: a load does
   * this as it appends (the worker mostly waits for the next record's bytes then), where the first window of a full
   * list reads a value or two from every stretch of every column (a scan each, about 2 ms per 50,000 values).
   */
  indexLast(): void {
    const segment = this.pending[this.pending.length - 1];
    if (!segment || segment.starts) return;
    segment.starts = segment.joined === null ? byteStartsOf(segment.bytes!, segment.n) : startsOf(segment.joined, segment.n);
  }

  /**
   * Decodes the first stretch still held as bytes, letting go of the frame it is a view of; false when there was
   * none. One at a time: a stretch of a cache record is 10-25 ms.
   */
  settleOne(): boolean {
    const segment = this.pending.find((pending) => pending.joined === null);
    if (!segment) return false;
    joinedOf(segment);
    return true;
  }

  /**
   * Splits the last stretch still joined (or bytes); false when there was none. One at a time, for work done in
   * slices before it reads the column whole (all()).
   */
  splitOne(): boolean {
    if (this.pending.length === 0) return false;
    this.split(this.pending.length - 1);
    return true;
  }

  /** `hash` of the value of every slot below `length`, computed where the values lie (no string per pending value). */
  hashes(length: number, hash: (text: string, start: number, end: number) => number): Int32Array {
    const out = new Int32Array(length);
    const values = this.values;
    for (let slot = 0; slot < Math.min(length, values.length); slot++) {
      const value = values[slot];
      if (value !== undefined) out[slot] = hash(value, 0, value.length);
    }
    const empty = hash('', 0, 0);
    for (const segment of this.pending) {
      const joined = joinedOf(segment);
      const starts = (segment.starts ??= startsOf(joined, segment.n));
      for (let i = 0; i < segment.n && segment.base + i < length; i++) {
        // A count that no longer adds up reads as empty values (see fill).
        out[segment.base + i] = starts.length === 0 ? empty : hash(joined, starts[i]!, starts[i + 1]! - 1);
      }
    }
    return out;
  }

  /** Every value split: what a sort by the column or a whole scan reads. */
  all(): string[] {
    // The last stretch first: the array is made as long as the column once.
    while (this.pending.length > 0) this.split(this.pending.length - 1);
    return this.values as string[];
  }

  /** Drops the slots from `length` on. */
  truncate(length: number): void {
    this.all();
    this.values.length = length;
  }

  /** A value of a pending stretch, cut out of it ('' outside every stretch). */
  private fill(slot: number): string {
    const at = this.segmentOf(slot);
    if (at < 0) return '';
    const segment = this.pending[at]!;
    const i = slot - segment.base;
    // A count that no longer adds up (see split) reads as empty values. Not kept: cutting it again is as cheap as
    // keeping it would be (an array per stretch read).
    if (segment.joined === null && ++segment.reads <= Math.max(BYTE_READS, segment.n >> READS_SHARE_SHIFT)) {
      const bytes = segment.bytes!;
      const starts = (segment.starts ??= byteStartsOf(bytes, segment.n));
      return starts.length === 0 ? '' : decoder.decode(bytes.subarray(starts[i]!, starts[i + 1]! - 1));
    }
    const joined = joinedOf(segment);
    const starts = (segment.starts ??= startsOf(joined, segment.n));
    return starts.length === 0 ? '' : joined.substring(starts[i]!, starts[i + 1]! - 1);
  }

  /** The pending stretch holding `slot`, or -1. */
  private segmentOf(slot: number): number {
    let low = 0;
    let high = this.pending.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const segment = this.pending[mid]!;
      if (slot < segment.base) high = mid - 1;
      else if (slot >= segment.base + segment.n) low = mid + 1;
      else return mid;
    }
    return -1;
  }

  /** Every value of the stretch, replacing those cut out already by equal strings. */
  private split(at: number): void {
    const segment = this.pending[at]!;
    const { base, n } = segment;
    const joined = joinedOf(segment);
    this.pending.splice(at, 1);
    // The record was checked when it arrived; a count that no longer adds up reads as empty values, never as
    // another row's.
    const parts = joined.split(TEXT_SEPARATOR);
    this.reserve(base + n);
    const values = this.values;
    for (let i = 0; i < n; i++) values[base + i] = parts.length === n ? parts[i]! : '';
  }
}

/** Where each of the `n` values of `joined` begins, and one past the end of the last; empty when they are not `n`. */
function startsOf(joined: string, n: number): Int32Array {
  const starts = new Int32Array(n + 1);
  let at = 0;
  for (let i = 1; i < n; i++) {
    const next = joined.indexOf(TEXT_SEPARATOR, at);
    if (next < 0) return new Int32Array(0);
    starts[i] = at = next + 1;
  }
  if (joined.indexOf(TEXT_SEPARATOR, at) >= 0) return new Int32Array(0);
  starts[n] = joined.length + 1;
  return starts;
}

/**
 * `startsOf` for the UTF-8 bytes of a joined string, in bytes (the separator is one byte, never part of another
 * character). One pass over the bytes: a call of `indexOf` per value cost more than the values are long.
 */
function byteStartsOf(bytes: Uint8Array, n: number): Int32Array {
  const starts = new Int32Array(n + 1);
  let count = 1;
  for (let at = 0; at < bytes.length; at++) {
    if (bytes[at] === SEPARATOR_BYTE) {
      if (count === n) return new Int32Array(0);
      starts[count++] = at + 1;
    }
  }
  if (count !== n) return new Int32Array(0);
  starts[n] = bytes.length + 1;
  return starts;
}
