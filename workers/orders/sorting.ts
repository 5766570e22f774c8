/**
 * Sort permutations for the list engine. Each answers the row indices 0..n-1 in the order of their keys, ties in
 * ascending index order (stable), so the engine can build one per column and direction and reuse it for every query.
 */

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const RADIX_BITS = 16;
const RADIX_SIZE = 1 << RADIX_BITS;

/**
 * LSD radix sort of float64 keys (4 passes of 16 bits, passes whose digit never varies skipped): a million dates in
 * tens of milliseconds, where a comparator sort takes hundreds. NaN (an empty value) sorts as the largest.
 */
export function numberPermutation(data: Float64Array, n: number, descending: boolean): Uint32Array {
  const bits = new Uint32Array(data.buffer, data.byteOffset, n * 2);
  const hiAt = LITTLE_ENDIAN ? 1 : 0;
  const loAt = 1 - hiAt;
  const lo = new Uint32Array(n);
  const hi = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    let h = bits[2 * i + hiAt]!;
    let l = bits[2 * i + loAt]!;
    // IEEE 754 to an unsigned order: negatives flip every bit, positives flip the sign bit.
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
  let perm: Uint32Array = identity(n);
  let spare: Uint32Array = new Uint32Array(n);
  const count = new Uint32Array(RADIX_SIZE);
  const passes: [Uint32Array, number][] = [
    [lo, 0],
    [lo, RADIX_BITS],
    [hi, 0],
    [hi, RADIX_BITS],
  ];
  for (const [key, shift] of passes) {
    count.fill(0);
    for (let i = 0; i < n; i++) count[(key[i]! >>> shift) & 0xffff]!++;
    if (n === 0 || count[(key[0]! >>> shift) & 0xffff] === n) continue;
    let sum = 0;
    for (let d = 0; d < RADIX_SIZE; d++) {
      const c = count[d]!;
      count[d] = sum;
      sum += c;
    }
    for (let j = 0; j < n; j++) {
      const r = perm[j]!;
      spare[count[(key[r]! >>> shift) & 0xffff]!++] = r;
    }
    [perm, spare] = [spare, perm];
  }
  return perm;
}

/** Counting sort by a small-integer rank per row (dictionary-encoded columns): linear in rows plus ranks. */
export function rankPermutation(codes: Uint32Array, n: number, rankOfCode: Uint32Array, descending: boolean): Uint32Array {
  const ranks = rankOfCode.length;
  const count = new Uint32Array(ranks + 1);
  const rankOf = (i: number) => {
    const rank = rankOfCode[codes[i]!]!;
    return descending ? ranks - 1 - rank : rank;
  };
  for (let i = 0; i < n; i++) count[rankOf(i) + 1]!++;
  for (let r = 1; r <= ranks; r++) count[r]! += count[r - 1]!;
  const perm = new Uint32Array(n);
  for (let i = 0; i < n; i++) perm[count[rankOf(i)]!++] = i;
  return perm;
}

/** Characters looked at when choosing the radix alphabet and prefix. */
const PREFIX_SCAN = 16;
/** Radix passes spent on a prefix; ties beyond it are settled by comparison within their run. */
const MAX_PASSES = 6;

/**
 * Strings by UTF-16 code units, ties by index. A comparator sort of a million strings takes seconds, so:
 * LSD radix over a prefix, packing several characters into each 16-bit digit after mapping the characters that
 * occur to dense codes (posting numbers use 11 symbols: four characters a pass), then a comparator sort only
 * within runs whose prefixes are equal and that hold a longer string.
 */
export function stringPermutation(values: readonly string[], n: number, descending: boolean): Uint32Array {
  const seen = new Uint8Array(65536);
  let longest = 0;
  for (let i = 0; i < n; i++) {
    const s = values[i]!;
    const length = Math.min(s.length, PREFIX_SCAN);
    if (s.length > longest) longest = s.length;
    for (let p = 0; p < length; p++) seen[s.charCodeAt(p)] = 1;
  }
  // Symbol 0 ends a string, so a prefix sorts before its extensions.
  const symbolOf = new Uint32Array(65536);
  let symbols = 1;
  for (let c = 0; c < 65536; c++) if (seen[c] === 1) symbolOf[c] = symbols++;
  const bitsPerChar = Math.max(1, Math.ceil(Math.log2(symbols)));
  if (bitsPerChar > 16) return comparatorPermutation(values, identity(n), descending);
  const charsPerPass = Math.max(1, Math.floor(16 / bitsPerChar));
  const prefix = Math.min(longest, PREFIX_SCAN, MAX_PASSES * charsPerPass);
  const passes = Math.ceil(prefix / charsPerPass);
  const digitMax = 2 ** (bitsPerChar * charsPerPass) - 1;

  let perm: Uint32Array = identity(n);
  let spare: Uint32Array = new Uint32Array(n);
  const digits = new Uint32Array(n);
  const count = new Uint32Array(digitMax + 2);
  for (let pass = passes - 1; pass >= 0; pass--) {
    const first = pass * charsPerPass;
    const last = Math.min(first + charsPerPass, prefix);
    count.fill(0);
    for (let i = 0; i < n; i++) {
      const s = values[i]!;
      let digit = 0;
      for (let p = first; p < first + charsPerPass; p++) {
        digit = digit * (1 << bitsPerChar) + (p < last && p < s.length ? symbolOf[s.charCodeAt(p)]! : 0);
      }
      if (descending) digit = digitMax - digit;
      digits[i] = digit;
      count[digit + 1]!++;
    }
    for (let d = 1; d < count.length; d++) count[d]! += count[d - 1]!;
    for (let j = 0; j < n; j++) {
      const r = perm[j]!;
      spare[count[digits[r]!]!++] = r;
    }
    [perm, spare] = [spare, perm];
  }
  if (longest > prefix) settleRuns(values, perm, prefix, descending);
  return perm;
}

function settleRuns(values: readonly string[], perm: Uint32Array, prefix: number, descending: boolean): void {
  let runStart = 0;
  let runHasLonger = false;
  for (let j = 1; j <= perm.length; j++) {
    const previous = values[perm[j - 1]!]!;
    runHasLonger ||= previous.length > prefix;
    if (j < perm.length && samePrefix(previous, values[perm[j]!]!, prefix)) continue;
    if (runHasLonger && j - runStart > 1) comparatorPermutation(values, perm.subarray(runStart, j), descending);
    runStart = j;
    runHasLonger = false;
  }
}

function samePrefix(a: string, b: string, prefix: number): boolean {
  const length = Math.min(prefix, Math.max(a.length, b.length));
  for (let p = 0; p < length; p++) if (a.charCodeAt(p) !== b.charCodeAt(p)) return false;
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

/** Ranks of distinct values in ascending order (numbers numerically, strings by code units). */
export function rankValues(values: readonly (string | number)[]): Uint32Array {
  const order = Array.from(values.keys()).sort((a, b) => {
    const x = values[a]!;
    const y = values[b]!;
    return x < y ? -1 : x > y ? 1 : 0;
  });
  const rankOfCode = new Uint32Array(values.length);
  order.forEach((code, rank) => {
    rankOfCode[code] = rank;
  });
  return rankOfCode;
}

function identity(n: number): Uint32Array {
  const perm = new Uint32Array(n);
  for (let i = 0; i < n; i++) perm[i] = i;
  return perm;
}
