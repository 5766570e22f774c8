/**
 * Sort permutations for the list engine. Each answers the row indices 0..n-1 in the order of their keys, ties in
 * ascending index order (stable), so the engine can build one per column and direction and reuse it for every query.
 */

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
/** Digit width cap: 2,048 buckets stay in L1 while a pass scatters, where 65,536 thrash the cache. */
const MAX_DIGIT_BITS = 11;
const TWO_POW_32 = 4294967296;

/**
 * LSD radix sort of float64 keys; NaN (an empty value) sorts as the largest. Keys are first mapped to the fewest
 * bits that keep their order: values that are whole at some scale (ms dates, whole units, cents) become
 * `(value - min) / gcd` (dates in whole seconds over two years: 26 bits, two passes), and only arbitrary fractions pay
 * for the full 64-bit IEEE order. Passes whose digit never varies are skipped.
 */
export function numberPermutation(data: Float64Array, n: number, descending: boolean): Uint32Array {
  let min = Infinity;
  let max = -Infinity;
  let whole = true;
  let cents = true;
  for (let i = 0; i < n; i++) {
    const v = data[i]!;
    if (v !== v) continue;
    if (v < min) min = v;
    if (v > max) max = v;
    if (Math.floor(v) !== v) {
      whole = false;
      // Exact at scale 100 only when scaling back gives the very same double: then the scaled order is the order.
      if (cents && Math.round(v * 100) / 100 !== v) cents = false;
    }
  }
  if (min > max) return identity(n); // only empty values: all ties
  const scale = whole ? 1 : cents ? 100 : 0;
  if (scale === 0 || Math.abs(min * scale) >= 2 ** 52 || Math.abs(max * scale) >= 2 ** 52) {
    return ieeePermutation(data, n, descending);
  }
  const base = Math.round(min * scale);
  // The common step of all values (1,000 for dates in whole seconds); ms-precise data stops at its first rows.
  let step = 0;
  for (let i = 0; i < n && step !== 1; i++) {
    const v = data[i]!;
    if (v !== v) continue;
    const d = scale === 1 ? v - base : Math.round(v * scale) - base;
    // Below 2^53 a quotient that is not whole never rounds to a whole double: a division spares most `%` calls.
    const q = d / step;
    if (step === 0 || Math.floor(q) !== q) step = gcd(step, d);
  }
  if (step === 0) step = 1;
  const top = (Math.round(max * scale) - base) / step;
  // Keys 0..top for values, top + 1 for empty; descending mirrors them, which also puts empty values first.
  const emptyKey = top + 1;
  const bits = bitsFor(emptyKey);
  if (bits <= 32) {
    const keys = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      const v = data[i]!;
      const key = v !== v ? emptyKey : ((scale === 1 ? v : Math.round(v * scale)) - base) / step;
      keys[i] = descending ? emptyKey - key : key;
    }
    return radixByKey(keys, bits, n, null);
  }
  const lo = new Uint32Array(n);
  const hi = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const v = data[i]!;
    let key = v !== v ? emptyKey : (Math.round(v * scale) - base) / step;
    if (descending) key = emptyKey - key;
    lo[i] = key >>> 0;
    hi[i] = Math.floor(key / TWO_POW_32);
  }
  return radixByKey(hi, bits - 32, n, radixByKey(lo, 32, n, null));
}

/** Any doubles, by their IEEE 754 bits mapped to an unsigned order: two 32-bit halves. */
function ieeePermutation(data: Float64Array, n: number, descending: boolean): Uint32Array {
  const bits = new Uint32Array(data.buffer, data.byteOffset, n * 2);
  const hiAt = LITTLE_ENDIAN ? 1 : 0;
  const loAt = 1 - hiAt;
  const lo = new Uint32Array(n);
  const hi = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    let h = bits[2 * i + hiAt]!;
    let l = bits[2 * i + loAt]!;
    // Negatives flip every bit, positives flip the sign bit.
    if (h & 0x80000000) {
      h = ~h >>> 0;
      l = ~l >>> 0;
    } else {
      h = (h | 0x80000000) >>> 0;
    }
    if (descending) {
      h = ~h >>> 0;
      l = ~l >>> 0;
    }
    lo[i] = l;
    hi[i] = h;
  }
  return radixByKey(hi, 32, n, radixByKey(lo, 32, n, null));
}

/**
 * Stable LSD radix sort of rows 0..n-1 by the low `bits` bits of `keys` (indexed by row), continuing from the order
 * `start` (null: 0..n-1). Keys travel with their rows, so every pass reads sequentially; one counting loop makes the
 * histograms of all passes, and a pass whose digit is the same for every row is skipped.
 */
export function radixByKey(keys: Uint32Array, bits: number, n: number, start: Uint32Array | null): Uint32Array {
  if (bits <= 0 || n < 2) return start ?? identity(n);
  const passes = Math.ceil(bits / MAX_DIGIT_BITS);
  const width = Math.ceil(bits / passes);
  const size = 1 << width;
  const mask = size - 1;
  const histograms = new Uint32Array(passes * size);
  for (let p = 0; p < passes; p++) {
    const histogram = histograms.subarray(p * size, (p + 1) * size);
    const shift = p * width;
    for (let i = 0; i < n; i++) histogram[(keys[i]! >>> shift) & mask]!++;
  }
  const varying: number[] = [];
  for (let p = 0; p < passes; p++) {
    if (histograms[p * size + ((keys[0]! >>> (p * width)) & mask)] !== n) varying.push(p);
  }
  if (varying.length === 0) return start ?? identity(n);
  // Two buffers each for rows and keys, written alternately; the caller's `keys` and `start` are only read.
  const ownRows: Uint32Array[] = [];
  const ownKeys: Uint32Array[] = [];
  const other = (own: Uint32Array[], reading: Uint32Array | null) => {
    for (const buffer of own) if (buffer !== reading) return buffer;
    const buffer = new Uint32Array(n);
    own.push(buffer);
    return buffer;
  };
  let rows: Uint32Array | null = start;
  let rowKeys: Uint32Array = keys;
  if (start) {
    rowKeys = other(ownKeys, null);
    for (let j = 0; j < n; j++) rowKeys[j] = keys[start[j]!]!;
  }
  for (let v = 0; v < varying.length; v++) {
    const p = varying[v]!;
    const shift = p * width;
    const offsets = histograms.subarray(p * size, (p + 1) * size);
    let sum = 0;
    for (let d = 0; d < size; d++) {
      const c = offsets[d]!;
      offsets[d] = sum;
      sum += c;
    }
    const outRows = other(ownRows, rows);
    if (v === varying.length - 1) {
      if (rows === null) for (let j = 0; j < n; j++) outRows[offsets[(rowKeys[j]! >>> shift) & mask]!++] = j;
      else for (let j = 0; j < n; j++) outRows[offsets[(rowKeys[j]! >>> shift) & mask]!++] = rows[j]!;
      return outRows;
    }
    const outKeys = other(ownKeys, rowKeys);
    if (rows === null) {
      for (let j = 0; j < n; j++) {
        const key = rowKeys[j]!;
        const at = offsets[(key >>> shift) & mask]!++;
        outRows[at] = j;
        outKeys[at] = key;
      }
    } else {
      for (let j = 0; j < n; j++) {
        const key = rowKeys[j]!;
        const at = offsets[(key >>> shift) & mask]!++;
        outRows[at] = rows[j]!;
        outKeys[at] = key;
      }
    }
    rows = outRows;
    rowKeys = outKeys;
  }
  return rows!;
}

function bitsFor(value: number): number {
  let bits = 0;
  while (value >= 1) {
    bits++;
    value = Math.floor(value / 2);
  }
  return bits;
}

function gcd(a: number, b: number): number {
  a = Math.abs(a);
  b = Math.abs(b);
  while (b !== 0) {
    const t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/** Counting sort by a small-integer rank per row (dictionary-encoded columns): linear in rows plus ranks. */
export function rankPermutation(codes: Uint8Array | Uint16Array | Uint32Array, n: number, rankOfCode: Uint32Array, descending: boolean): Uint32Array {
  const ranks = rankOfCode.length;
  let rankOf = rankOfCode;
  if (descending) {
    rankOf = new Uint32Array(ranks);
    for (let c = 0; c < ranks; c++) rankOf[c] = ranks - 1 - rankOfCode[c]!;
  }
  const count = new Uint32Array(ranks + 1);
  for (let i = 0; i < n; i++) count[rankOf[codes[i]!]! + 1]!++;
  for (let r = 1; r <= ranks; r++) count[r]! += count[r - 1]!;
  const perm = new Uint32Array(n);
  for (let i = 0; i < n; i++) perm[count[rankOf[codes[i]!]!]!++] = i;
  return perm;
}

/** Code units of each value copied once into a typed buffer (fewer when no value is that long). */
const HEAD = 32;
/** Code units one round of a run's sort looks at: its alphabet and its keys. */
const WINDOW = 16;
/** Runs shorter than this are settled by comparison: an alphabet costs more than they do. */
const SMALL_RUN = 256;
/** Rows a step of a sort handles before it lets its driver give way (see stringPermutationSteps). */
const STEP_ROWS = 32_768;

/** One string sort's buffers: each sort has its own, so sorts run in slices can interleave. */
type StringSort = {
  values: readonly string[];
  descending: boolean;
  /** The first `head` code units of each value, `head` per row. */
  heads: Uint16Array;
  head: number;
  lengths: Uint32Array;
  seen: Uint8Array;
  symbols: Uint32Array;
  stepRows: number;
};

/** Characters looked at when choosing the radix alphabet and prefix of one round. */
const PREFIX_SCAN = 16;
/** Radix passes spent on one round's prefix; longer strings with equal prefixes go another round. */
const MAX_PASSES = 6;

// Scratch for one round's alphabet, reset after each round: rounds over small runs must not pay for 64K entries.
const seenScratch = new Uint8Array(65536);
const symbolScratch = new Uint32Array(65536);

/**
 * Strings by UTF-16 code units, ties by index. A comparator sort of a million strings takes seconds, so:
 * LSD radix over a prefix, packing several characters into each digit after mapping the characters that occur to
 * dense codes (posting numbers use 11 symbols: four characters a pass); runs whose prefixes are equal and that hold a
 * longer string (product names sharing their first words) go another round on the next characters, and small runs
 * are settled by comparison.
 */
export function stringPermutation(values: readonly string[], n: number, descending: boolean): Uint32Array {
  const perm = identity(n);
  sortRun(values, perm, 0, descending);
  return perm;
}

/** Sorts a run of rows, in index order and equal in their first `offset` characters, by the characters after. */
function sortRun(values: readonly string[], run: Uint32Array, offset: number, descending: boolean): void {
  const m = run.length;
  if (m < 2) return;
  if (m < SMALL_RUN) {
    comparatorPermutation(values, run, descending);
    return;
  }
  const chars: number[] = [];
  let longest = 0;
  for (let j = 0; j < m; j++) {
    const s = values[run[j]!]!;
    if (s.length > longest) longest = s.length;
    const end = Math.min(s.length, offset + PREFIX_SCAN);
    for (let p = offset; p < end; p++) {
      const c = s.charCodeAt(p);
      if (seenScratch[c] === 0) {
        seenScratch[c] = 1;
        chars.push(c);
      }
    }
  }
  // Symbol 0 ends a string, so a prefix sorts before its extensions.
  chars.sort((a, b) => a - b);
  for (let k = 0; k < chars.length; k++) {
    seenScratch[chars[k]!] = 0;
    symbolScratch[chars[k]!] = k + 1;
  }
  if (longest <= offset) return; // all end at `offset`: equal
  const bitsPerChar = Math.max(1, Math.ceil(Math.log2(chars.length + 1)));
  if (bitsPerChar > 16) {
    comparatorPermutation(values, run, descending);
    return;
  }
  const charsPerPass = Math.max(1, Math.floor(16 / bitsPerChar));
  const prefix = Math.min(longest - offset, PREFIX_SCAN, MAX_PASSES * charsPerPass);
  const passes = Math.ceil(prefix / charsPerPass);
  const digitMax = 2 ** (bitsPerChar * charsPerPass) - 1;
  const symbolOf = symbolScratch;

  // Positions within the run, sorted by digits read in the run's own order: strings are visited in memory order
  // each pass, not in the order of the previous pass.
  let perm: Uint32Array = identity(m);
  let spare: Uint32Array = new Uint32Array(m);
  const digits = new Uint32Array(m);
  const count = new Uint32Array(digitMax + 2);
  for (let pass = passes - 1; pass >= 0; pass--) {
    const first = offset + pass * charsPerPass;
    const last = Math.min(first + charsPerPass, offset + prefix);
    count.fill(0);
    for (let k = 0; k < m; k++) {
      const s = values[run[k]!]!;
      let digit = 0;
      for (let p = first; p < first + charsPerPass; p++) {
        digit = digit * (1 << bitsPerChar) + (p < last && p < s.length ? symbolOf[s.charCodeAt(p)]! : 0);
      }
      if (descending) digit = digitMax - digit;
      digits[k] = digit;
      count[digit + 1]!++;
    }
    for (let d = 1; d < count.length; d++) count[d]! += count[d - 1]!;
    for (let j = 0; j < m; j++) {
      const k = perm[j]!;
      spare[count[digits[k]!]!++] = k;
    }
    [perm, spare] = [spare, perm];
  }
  for (let j = 0; j < m; j++) spare[j] = run[perm[j]!]!;
  run.set(spare);
  if (longest > offset + prefix) settleRuns(values, run, offset + prefix, descending);
}

function settleRuns(values: readonly string[], perm: Uint32Array, prefix: number, descending: boolean): void {
  let runStart = 0;
  let runHasLonger = false;
  for (let j = 1; j <= perm.length; j++) {
    const previous = values[perm[j - 1]!]!;
    runHasLonger ||= previous.length > prefix;
    if (j < perm.length && samePrefix(previous, values[perm[j]!]!, prefix)) continue;
    if (runHasLonger && j - runStart > 1) sortRun(values, perm.subarray(runStart, j), prefix, descending);
    runStart = j;
    runHasLonger = false;
  }
}

function samePrefix(a: string, b: string, prefix: number): boolean {
  const length = Math.min(prefix, Math.max(a.length, b.length));
  for (let p = 0; p < length; p++) if (a.charCodeAt(p) !== b.charCodeAt(p)) return false;
  return true;
}

/** Runs steps (stringPermutationSteps, mergeByTextSteps) to their end at once. */
export function drain<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * Merges `old` (slots below `offset`, in order) with `fresh` (the slots from `offset` on, numbered from 0, in order)
 * by their strings, ties to the older slot (stringPermutation's order), in steps of STEP_ROWS.
 */
export function* mergeByTextSteps(old: Uint32Array, fresh: Uint32Array, offset: number, values: readonly string[], descending: boolean): Generator<void, Uint32Array, void> {
  const out = new Uint32Array(old.length + fresh.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < old.length && j < fresh.length) {
    const stop = Math.min(out.length, k + STEP_ROWS);
    while (k < stop && i < old.length && j < fresh.length) {
      const a = old[i]!;
      const b = fresh[j]! + offset;
      const va = values[a]!;
      const vb = values[b]!;
      if (descending ? va >= vb : va <= vb) {
        out[k++] = a;
        i++;
      } else {
        out[k++] = b;
        j++;
      }
    }
    yield;
  }
  while (i < old.length) out[k++] = old[i++]!;
  while (j < fresh.length) out[k++] = fresh[j++]! + offset;
  return out;
}

/**
 * The order of the other direction from a text column's order: runs of equal values in reverse, each run's slots
 * still ascending (ties go by slot in both directions). One pass, where a sort of half a million names is seconds.
 */
export function reversedTextOrder(order: Uint32Array, values: readonly string[]): Uint32Array {
  const n = order.length;
  const out = new Uint32Array(n);
  let k = 0;
  for (let end = n; end > 0; ) {
    const value = values[order[end - 1]!]!;
    let start = end - 1;
    while (start > 0 && values[order[start - 1]!] === value) start--;
    for (let j = start; j < end; j++) out[k++] = order[j]!;
    end = start;
  }
  return out;
}

/**
 * stringPermutation's order in steps of at most about `stepRows` rows each: the driver may give way between them (the
 * engine builds text orders ahead in the background, see ListEngine.prepareTextOrders). Reads `values` throughout:
 * they must not change until it is done. Its own buffers, so steps of two sorts may interleave: each value's first
 * code units are copied once into a typed buffer (read in memory order; later rounds read the buffer, not strings
 * scattered by the sort so far), then LSD radix over a span of code units, the characters that occur in it mapped to
 * dense codes packed several to a 32-bit key; rows equal over the span that hold a longer string go another round.
 * On 500,000 product names it took about 0.6-0.7 of stringPermutation's time; on short ids (order and posting
 * numbers) 1.3-1.7 times it, so a query's own sort keeps stringPermutation.
 */
export function* stringPermutationSteps(values: readonly string[], n: number, descending: boolean, stepRows = STEP_ROWS): Generator<void, Uint32Array, void> {
  const perm = identity(n);
  if (n < SMALL_RUN) return comparatorPermutation(values, perm, descending);
  const lengths = new Uint32Array(n);
  let longest = 0;
  for (let i = 0; i < n; i++) {
    const length = values[i]!.length;
    lengths[i] = length;
    if (length > longest) longest = length;
  }
  const head = Math.min(HEAD, longest);
  const heads = new Uint16Array(n * head);
  for (let from = 0; from < n; from += stepRows) {
    readHeads(values, heads, head, from, Math.min(n, from + stepRows));
    yield;
  }
  const sort: StringSort = { values, descending, heads, head, lengths, seen: new Uint8Array(65536), symbols: new Uint32Array(65536), stepRows };
  yield* sortRunInSteps(sort, perm, 0);
  return perm;
}

function readHeads(values: readonly string[], heads: Uint16Array, head: number, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const s = values[i]!;
    const end = Math.min(head, s.length);
    const at = i * head;
    for (let p = 0; p < end; p++) heads[at + p] = s.charCodeAt(p);
  }
}

/**
 * Where a round reads its code units: the head buffer by row while the span lies within it, else a copy of the span
 * made for the run, by position.
 */
type Units = { source: Uint16Array; stride: number; start: number; byRow: boolean };

/** Sorts a run of rows, in index order and equal in their first `offset` code units, by the code units after. */
function* sortRunInSteps(sort: StringSort, run: Uint32Array, offset: number): Generator<void, void, void> {
  const m = run.length;
  if (m < 2) return;
  const { lengths, seen, symbols, descending, stepRows } = sort;
  if (m < SMALL_RUN) {
    comparatorPermutation(sort.values, run, descending);
    return;
  }
  let span = 0;
  for (let k = 0; k < m; k++) {
    const left = lengths[run[k]!]! - offset;
    if (left > span) span = left;
  }
  if (span <= 0) return; // all end at `offset`: equal
  span = Math.min(span, WINDOW);
  let units: Units = { source: sort.heads, stride: sort.head, start: offset, byRow: true };
  if (offset + span > sort.head) {
    units = { source: new Uint16Array(m * span), stride: span, start: 0, byRow: false };
    for (let from = 0; from < m; from += stepRows) {
      readSpan(sort, run, offset, span, units.source, from, Math.min(m, from + stepRows));
      if (m > stepRows) yield;
    }
  }
  const chars = alphabet(run, lengths, offset, span, units, seen);
  // Symbol 0 ends a string, so a prefix sorts before its extensions.
  for (let k = 0; k < chars.length; k++) {
    seen[chars[k]!] = 0;
    symbols[chars[k]!] = k + 1;
  }
  const bitsPerChar = Math.max(1, Math.ceil(Math.log2(chars.length + 1)));
  if (bitsPerChar > 16) {
    comparatorPermutation(sort.values, run, descending);
    return;
  }
  // Keys of `perKey` characters each, the first key the most significant; sorted by the last key first.
  const perKey = Math.floor(32 / bitsPerChar);
  const keyCount = Math.ceil(span / perKey);
  const keys: Uint32Array[] = [];
  for (let w = 0; w < keyCount; w++) {
    const first = w * perKey;
    const key = new Uint32Array(m);
    for (let from = 0; from < m; from += stepRows) {
      packKeys(run, lengths, offset, units, symbols, first, Math.min(perKey, span - first), bitsPerChar, descending, key, from, Math.min(m, from + stepRows));
      if (m > stepRows) yield;
    }
    keys.push(key);
  }
  let order: Uint32Array | null = null;
  for (let w = keyCount - 1; w >= 0; w--) {
    order = radixByKey(keys[w]!, bitsPerChar * Math.min(perKey, span - w * perKey), m, order);
    if (m > stepRows) yield;
  }
  const sorted = new Uint32Array(m);
  for (let j = 0; j < m; j++) sorted[j] = run[order![j]!]!;
  run.set(sorted);
  // Rows equal over the span, one of them longer, go on with the next characters.
  const next = offset + span;
  let start = 0;
  let longer = lengths[sorted[0]!]! > next;
  for (let j = 1; j <= m; j++) {
    if (j < m && sameKeys(keys, order![j]!, order![j - 1]!)) {
      longer ||= lengths[sorted[j]!]! > next;
      continue;
    }
    if (longer && j - start > 1) yield* sortRunInSteps(sort, run.subarray(start, j), next);
    start = j;
    longer = j < m && lengths[sorted[j]!]! > next;
  }
}

function readSpan(sort: StringSort, run: Uint32Array, offset: number, span: number, units: Uint16Array, from: number, to: number): void {
  const { lengths, values } = sort;
  for (let k = from; k < to; k++) {
    const row = run[k]!;
    const count = Math.min(span, lengths[row]! - offset);
    const s = values[row]!;
    const at = k * span;
    for (let p = 0; p < count; p++) units[at + p] = s.charCodeAt(offset + p);
  }
}

/** The code units that occur in the run's span, ascending. */
function alphabet(run: Uint32Array, lengths: Uint32Array, offset: number, span: number, units: Units, seen: Uint8Array): number[] {
  const { source, stride, start, byRow } = units;
  const chars: number[] = [];
  for (let k = 0; k < run.length; k++) {
    const row = run[k]!;
    const count = Math.min(span, lengths[row]! - offset);
    const at = (byRow ? row : k) * stride + start;
    for (let p = 0; p < count; p++) {
      const c = source[at + p]!;
      if (seen[c] === 0) {
        seen[c] = 1;
        chars.push(c);
      }
    }
  }
  return chars.sort((a, b) => a - b);
}

function packKeys(
  run: Uint32Array,
  lengths: Uint32Array,
  offset: number,
  units: Units,
  symbols: Uint32Array,
  first: number,
  chars: number,
  bitsPerChar: number,
  descending: boolean,
  key: Uint32Array,
  from: number,
  to: number,
): void {
  const { source, stride, start, byRow } = units;
  const radix = 2 ** bitsPerChar;
  const max = radix ** chars - 1;
  for (let k = from; k < to; k++) {
    const row = run[k]!;
    const count = lengths[row]! - offset;
    const at = (byRow ? row : k) * stride + start;
    let value = 0;
    for (let p = first; p < first + chars; p++) value = value * radix + (p < count ? symbols[source[at + p]!]! : 0);
    key[k] = descending ? max - value : value;
  }
}

function sameKeys(keys: Uint32Array[], a: number, b: number): boolean {
  for (const key of keys) if (key[a] !== key[b]) return false;
  return true;
}

function comparatorPermutation(values: readonly string[], perm: Uint32Array, descending: boolean): Uint32Array {
  const sign = descending ? -1 : 1;
  return perm.sort((a, b) => {
    const x = values[a]!;
    const y = values[b]!;
    if (x < y) return -sign;
    if (x > y) return sign;
    return a - b;
  });
}

/**
 * Ranks of distinct values in ascending order (numbers numerically, strings by code units). Product names and offer
 * ids run to hundreds of thousands of distinct values, where a comparator sort takes a third of a second: strings go
 * through the radix path.
 */
export function rankValues(values: readonly (string | number)[]): Uint32Array {
  const order = values.every((value) => typeof value === 'string')
    ? stringPermutation(values as readonly string[], values.length, false)
    : Array.from(values.keys()).sort((a, b) => {
        const x = values[a]!;
        const y = values[b]!;
        return x < y ? -1 : x > y ? 1 : 0;
      });
  const rankOfCode = new Uint32Array(values.length);
  for (let rank = 0; rank < order.length; rank++) rankOfCode[order[rank]!] = rank;
  return rankOfCode;
}

function identity(n: number): Uint32Array {
  const perm = new Uint32Array(n);
  for (let i = 0; i < n; i++) perm[i] = i;
  return perm;
}
