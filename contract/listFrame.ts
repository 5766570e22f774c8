import type { AnyListSchema, ListRow } from './listSchema';

/**
 * The bulk form of a big list (its columns described by a ListSchema, contract/listSchema.ts): what a list's binary
 * sync sends (orders: GET /api/order/sync?format=binary), what the browser cache stores per record and what the
 * worker's list engine appends. A million rows then never exist as a million objects, and nothing on the
 * bulk path compares strings per row:
 * - numbers and dates as Float64Array (NaN: no date), on the wire each in the fewest bytes that are exact
 *   (NumberEncoding);
 * - repeated strings dictionary-encoded per chunk (the values once, a code per row), so the engine maps a chunk's
 *   few thousand values onto its own dictionary instead of hashing a million strings;
 * - unique strings (ids, posting, order, tracking numbers) as one string per column, values joined by U+001F
 *   (a control character no such field carries; one that does is written as a space), split once by the engine;
 * - tombstones as a Uint8Array.
 * Typed arrays and a few long strings are what structured clone (IndexedDB, postMessage) copies fastest.
 */

export const TEXT_SEPARATOR = '\u001f';

export type DictCodes = Uint8Array | Uint16Array | Uint32Array;
export type DictColumnData = { values: (string | number)[]; codes: DictCodes };

/** A chunk of a list's rows by column, keyed by the schema's field names (numberFields, dictFields, textFields). */
export type ListChunk<N extends string = string, D extends string = string, T extends string = string> = {
  n: number;
  numbers: Record<N, Float64Array>;
  dicts: Record<D, DictColumnData>;
  /** Each column's n values joined by TEXT_SEPARATOR ('' for n = 0, and for one empty value). */
  texts: Record<T, string>;
  deleted: Uint8Array;
};

export class ListFrameError extends Error {
  constructor(message: string) {
    super(`list chunk: ${message}`);
    this.name = 'ListFrameError';
  }
}

/** A chunk's column, which a chunk of the schema always holds (a missing one is a frame that was never checked). */
export function columnOf<T>(columns: Record<string, T>, field: string): T {
  const column = columns[field];
  if (column === undefined) throw new ListFrameError(`no column ${field}`);
  return column;
}

/** Codes narrow enough for the dictionary: a byte a row for up to 256 distinct values, two for up to 65,536. */
export function codesFor(dictionarySize: number, n: number): DictCodes {
  return dictionarySize <= 0x100 ? new Uint8Array(n) : dictionarySize <= 0x10000 ? new Uint16Array(n) : new Uint32Array(n);
}

/** Dictionary-encodes one column's values. */
export function encodeDict(values: readonly (string | number)[]): DictColumnData {
  const codeOf = new Map<string | number, number>();
  const dict: (string | number)[] = [];
  const raw = new Uint32Array(values.length);
  let last: string | number | undefined;
  let lastCode = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    if (value !== last) {
      let code = codeOf.get(value);
      if (code === undefined) {
        code = dict.length;
        dict.push(value);
        codeOf.set(value, code);
      }
      last = value;
      lastCode = code;
    }
    raw[i] = lastCode;
  }
  const codes = codesFor(dict.length, values.length);
  codes.set(raw);
  return { values: dict, codes };
}

/** Splits a joined text column, checking it holds exactly n values. */
export function splitTexts(text: string, n: number, field: string): string[] {
  if (n === 0) return [];
  const values = text.split(TEXT_SEPARATOR);
  if (values.length !== n) throw new ListFrameError(`${field} holds ${values.length} values, expected ${n}`);
  return values;
}

/** How many values a joined column holds (one more than its separators; '' holds one, empty). */
export function textCount(text: string): number {
  let count = 1;
  for (let at = text.indexOf(TEXT_SEPARATOR); at >= 0; at = text.indexOf(TEXT_SEPARATOR, at + 1)) count++;
  return count;
}

/** `splitTexts` without making the strings: throws unless `text` holds exactly `n` values. */
export function checkTextCount(text: string, n: number, field: string): void {
  if (n === 0) return;
  const count = textCount(text);
  if (count !== n) throw new ListFrameError(`${field} holds ${count} values, expected ${n}`);
}

export function joinTexts(values: readonly string[]): string {
  return values.map((value) => value.replaceAll(TEXT_SEPARATOR, ' ')).join(TEXT_SEPARATOR);
}

export function chunkOfRows(schema: AnyListSchema, rows: readonly ListRow[]): ListChunk {
  const n = rows.length;
  const numbers: ListChunk['numbers'] = {};
  for (const field of schema.numberFields) {
    const data = new Float64Array(n);
    for (let i = 0; i < n; i++) data[i] = (rows[i]![field] as number | null) ?? NaN;
    numbers[field] = data;
  }
  const dicts: ListChunk['dicts'] = {};
  for (const field of schema.dictFields) dicts[field] = encodeDict(rows.map((row) => row[field] as string | number));
  const texts: ListChunk['texts'] = {};
  for (const field of schema.textFields) texts[field] = joinTexts(rows.map((row) => row[field] as string));
  const deleted = new Uint8Array(n);
  for (let i = 0; i < n; i++) deleted[i] = rows[i]!.deleted ? 1 : 0;
  return { n, numbers, dicts, texts, deleted };
}

/** The chunk's rows as objects, fields in the schema's order: the small paths only (incremental changes, tests). */
export function rowsOfChunk<Row extends ListRow>(schema: AnyListSchema, chunk: ListChunk): Row[] {
  const rows = Array.from({ length: chunk.n }, () => ({}) as Record<string, unknown>);
  for (const field of schema.fields) {
    const spec = schema.columns[field]!;
    if (spec.kind === 'number') {
      const data = columnOf(chunk.numbers, field);
      for (let i = 0; i < chunk.n; i++) rows[i]![field] = spec.nullable && Number.isNaN(data[i]!) ? null : data[i]!;
    } else if (spec.kind === 'dict') {
      const { values, codes } = columnOf(chunk.dicts, field);
      for (let i = 0; i < chunk.n; i++) rows[i]![field] = values[codes[i]!]!;
    } else {
      const values = splitTexts(columnOf(chunk.texts, field), chunk.n, field);
      for (let i = 0; i < chunk.n; i++) rows[i]![field] = values[i]!;
    }
  }
  for (let i = 0; i < chunk.n; i++) rows[i]!.deleted = chunk.deleted[i] === 1;
  return rows as Row[];
}

// ---------------------------------------------------------------- the wire frame

/**
 * 'ORD2' little-endian (the layout's name from when orders were its only list): a frame of this layout. Frames of the
 * first layout, 'ORD1', every number a Float64 and every code two or four bytes, are refused; the browser's cache of
 * them is emptied once, see workers/lists/cache.ts. Which list a frame holds is known by the call that answered it.
 */
export const LIST_FRAME_MAGIC = 0x3244524f;

/**
 * How a number column travels. `bytes: 8`: as Float64. 1, 2 or 4: as unsigned integers c of that width, the largest
 * c of the width standing for NaN (no date), each the value base + c × 10^exp when exp >= 0 (integers: milliseconds
 * in steps of a second, a hundredth or a tenth, or quantities; base is the smallest value) or (base + c) / 10^-exp
 * when exp < 0 (tenths and hundredths: amounts in kopecks; base counts steps). Chosen per frame and column as the
 * narrowest that gives every value back exactly (numberEncoding). Every byte of a row is copied out of Postgres, sent,
 * stored in IndexedDB and read back a million times over: dates a whole number of seconds apart over a year, amounts
 * in kopecks and quantities take 4, 4 and 1 bytes rather than 8 (with one-byte codes for small dictionaries, a demo
 * row 141 -> 103 bytes).
 */
export type NumberEncoding = { bytes: 8 } | { bytes: 1 | 2 | 4; base: number; exp: number };

/** A number column as it travelled, narrowed (see NumberEncoding), while nobody has read it as Float64. */
export type ScaledNumbers = { codes: DictCodes; base: number; exp: number };

type FrameHeader = {
  n: number;
  cursor: string;
  hasMore: boolean;
  remaining?: number;
  numbers: Record<string, NumberEncoding>;
  dicts: Record<string, (string | number)[]>;
  /** Bytes per code of each dictionary column. */
  codeBytes: Record<string, 1 | 2 | 4>;
  /** UTF-8 bytes of each text column. */
  textBytes: Record<string, number>;
};

export type ListFrame<C extends ListChunk = ListChunk> = {
  chunk: C;
  cursor: string;
  hasMore: boolean;
  /**
   * How many changes the sync had left when this frame was read, its own rows included (only when the server counted
   * them: the frame after a sync's first): the browser makes room for them at once.
   */
  remaining?: number;
};

const align = (offset: number, to: number) => Math.ceil(offset / to) * to;

/** Powers of ten by |exp|. */
const POWERS = [1, 10, 100, 1000] as const;
const EXPONENTS = [3, 2, 1, 0, -1, -2] as const;

const widthOf = (range: number): 1 | 2 | 4 | 8 => (range < 0xff ? 1 : range < 0xffff ? 2 : range < 0xffffffff ? 4 : 8);

/** The narrowest NumberEncoding that gives each of the first n values back exactly. */
export function numberEncoding(values: Float64Array, n = values.length): NumberEncoding {
  // Integers: the coarsest step of 1000, 100 or 10 between every two (measured from the first, as good as from the
  // smallest), or 1.
  let min = Infinity;
  let max = -Infinity;
  let first = NaN;
  let integers = true;
  let steps = 0b111;
  for (let i = 0; i < n; i++) {
    const value = values[i]!;
    if (value !== value) continue;
    // Infinities and -0 (which would come back as 0) travel as they are.
    if (value === Infinity || value === -Infinity || (value === 0 && 1 / value < 0)) return { bytes: 8 };
    if (!Number.isSafeInteger(value)) {
      integers = false;
      break;
    }
    if (first !== first) first = value;
    const apart = value - first;
    if (apart % 1000 !== 0) steps &= apart % 100 !== 0 ? (apart % 10 !== 0 ? 0 : 0b001) : 0b011;
    if (value < min) min = value;
    if (value > max) max = value;
  }
  if (first !== first && integers) return { bytes: 1, base: 0, exp: 0 };
  if (integers) {
    const exp = steps === 0b111 ? 3 : steps === 0b011 ? 2 : steps === 0b001 ? 1 : 0;
    const bytes = widthOf((max - min) / POWERS[exp]!);
    return bytes === 8 ? { bytes } : { bytes, base: min, exp };
  }
  // Tenths or hundredths: counted in steps.
  decimals: for (const exp of [-1, -2]) {
    const power = POWERS[-exp]!;
    min = Infinity;
    max = -Infinity;
    for (let i = 0; i < n; i++) {
      const value = values[i]!;
      if (value !== value) continue;
      const k = Math.round(value * power);
      if (k / power !== value) continue decimals;
      if (!Number.isSafeInteger(k) || (value === 0 && 1 / value < 0)) return { bytes: 8 };
      if (k < min) min = k;
      if (k > max) max = k;
    }
    const bytes = widthOf(max - min);
    return bytes === 8 ? { bytes } : { bytes, base: min, exp };
  }
  return { bytes: 8 };
}

const nanCode = (codes: ScaledNumbers['codes']) => 2 ** (8 * codes.BYTES_PER_ELEMENT) - 1;

/** Rows `from .. to - 1` of a narrowed column as numbers into `target`, row i at `offset + i`. */
export function expandScaled(target: Float64Array, { codes, base, exp }: ScaledNumbers, from: number, to: number, offset: number): void {
  const power = POWERS[Math.abs(exp)]!;
  if (codes instanceof Uint8Array) expand8(target, codes, base, exp >= 0, power, from, to, offset);
  else if (codes instanceof Uint16Array) expand16(target, codes, base, exp >= 0, power, from, to, offset);
  else expand32(target, codes, base, exp >= 0, power, from, to, offset);
}

// One function per code width: a loop that reads several kinds of array is slower for each.
function expand8(target: Float64Array, codes: Uint8Array, base: number, steps: boolean, power: number, from: number, to: number, offset: number): void {
  if (steps) for (let i = from; i < to; i++) target[offset + i] = codes[i] === 0xff ? NaN : base + codes[i]! * power;
  else for (let i = from; i < to; i++) target[offset + i] = codes[i] === 0xff ? NaN : (base + codes[i]!) / power;
}
function expand16(target: Float64Array, codes: Uint16Array, base: number, steps: boolean, power: number, from: number, to: number, offset: number): void {
  if (steps) for (let i = from; i < to; i++) target[offset + i] = codes[i] === 0xffff ? NaN : base + codes[i]! * power;
  else for (let i = from; i < to; i++) target[offset + i] = codes[i] === 0xffff ? NaN : (base + codes[i]!) / power;
}
function expand32(target: Float64Array, codes: Uint32Array, base: number, steps: boolean, power: number, from: number, to: number, offset: number): void {
  if (steps) for (let i = from; i < to; i++) target[offset + i] = codes[i] === 0xffffffff ? NaN : base + codes[i]! * power;
  else for (let i = from; i < to; i++) target[offset + i] = codes[i] === 0xffffffff ? NaN : (base + codes[i]!) / power;
}

function writeScaled(values: Float64Array, { codes, base, exp }: ScaledNumbers): void {
  const nan = nanCode(codes);
  const power = POWERS[Math.abs(exp)]!;
  for (let i = 0; i < codes.length; i++) {
    const value = values[i]!;
    codes[i] = value !== value ? nan : exp >= 0 ? (value - base) / power : Math.round(value * power) - base;
  }
}

const encoder = new TextEncoder();

/** Where each column of a frame begins, and the frame's size (the writer's and the reader's one layout). */
function frameLayout(schema: AnyListSchema, headerLength: number, n: number, header: Pick<FrameHeader, 'numbers' | 'codeBytes' | 'textBytes'>) {
  let offset = 8 + headerLength;
  const numbers = schema.numberFields.map((field) => {
    const { bytes } = columnOf(header.numbers, field);
    offset = align(offset, bytes);
    const at = offset;
    offset += n * bytes;
    return at;
  });
  const deleted = offset;
  offset += n;
  const codes = schema.dictFields.map((field) => {
    const bytes = columnOf(header.codeBytes, field);
    offset = align(offset, bytes);
    const at = offset;
    offset += n * bytes;
    return at;
  });
  const texts = schema.textFields.map((field) => {
    const at = offset;
    offset += columnOf(header.textBytes, field);
    return at;
  });
  return { numbers, deleted, codes, texts, size: offset };
}

const codesView = (buffer: ArrayBuffer, offset: number, n: number, bytes: 1 | 2 | 4) =>
  bytes === 1 ? new Uint8Array(buffer, offset, n) : bytes === 2 ? new Uint16Array(buffer, offset, n) : new Uint32Array(buffer, offset, n);

/** A chunk whose text columns are already UTF-8 bytes (each column's values joined by the separator byte). */
export type EncodedListChunk<N extends string = string, D extends string = string, T extends string = string> = Omit<ListChunk<N, D, T>, 'texts'> & {
  textBytes: Record<T, Uint8Array>;
};

/**
 * Layout: magic (u32 LE), header length (u32 LE), header JSON (UTF-8), then the number columns (each as its
 * NumberEncoding says, from a boundary of its width), the tombstones (n bytes), each code column from a boundary of its
 * width, and the text columns' UTF-8 bytes back to back. Little-endian throughout (every browser we serve).
 */
export function encodeListFrame(schema: AnyListSchema, { chunk, ...frame }: ListFrame): Uint8Array<ArrayBuffer> {
  const textBytes = Object.fromEntries(schema.textFields.map((field) => [field, encoder.encode(columnOf(chunk.texts, field))]));
  return writeListFrame(schema, { ...chunk, textBytes }, frame);
}

/** `encodeListFrame` of a chunk whose texts are bytes already (the server's copy reader never makes them strings). */
export function writeListFrame(schema: AnyListSchema, chunk: EncodedListChunk, { cursor, hasMore, remaining }: Omit<ListFrame, 'chunk'>): Uint8Array<ArrayBuffer> {
  const n = chunk.n;
  const texts = chunk.textBytes;
  const header: FrameHeader = {
    n,
    cursor,
    hasMore,
    ...(remaining === undefined ? {} : { remaining }),
    numbers: Object.fromEntries(schema.numberFields.map((field) => [field, numberEncoding(columnOf(chunk.numbers, field), n)])),
    dicts: Object.fromEntries(schema.dictFields.map((field) => [field, columnOf(chunk.dicts, field).values])),
    codeBytes: Object.fromEntries(schema.dictFields.map((field) => [field, columnOf(chunk.dicts, field).codes.BYTES_PER_ELEMENT as 1 | 2 | 4])),
    textBytes: Object.fromEntries(schema.textFields.map((field) => [field, columnOf(texts, field).byteLength])),
  };
  const headerBytes = encoder.encode(JSON.stringify(header));
  const layout = frameLayout(schema, headerBytes.byteLength, n, header);
  const frame = new Uint8Array(layout.size);
  const view = new DataView(frame.buffer);
  view.setUint32(0, LIST_FRAME_MAGIC, true);
  view.setUint32(4, headerBytes.byteLength, true);
  frame.set(headerBytes, 8);
  schema.numberFields.forEach((field, k) => {
    const encoding = header.numbers[field]!;
    const values = columnOf(chunk.numbers, field).subarray(0, n);
    if (encoding.bytes === 8) new Float64Array(frame.buffer, layout.numbers[k], n).set(values);
    else writeScaled(values, { codes: codesView(frame.buffer, layout.numbers[k]!, n, encoding.bytes), base: encoding.base, exp: encoding.exp });
  });
  frame.set(chunk.deleted.subarray(0, n), layout.deleted);
  schema.dictFields.forEach((field, k) => {
    const codes = columnOf(chunk.dicts, field).codes;
    frame.set(new Uint8Array(codes.buffer, codes.byteOffset, n * codes.BYTES_PER_ELEMENT), layout.codes[k]);
  });
  schema.textFields.forEach((field, k) => frame.set(columnOf(texts, field), layout.texts[k]));
  return frame;
}

const textDecoder = new TextDecoder();
const undecodedTexts = new WeakMap<ListChunk['texts'], Partial<Record<string, Uint8Array>>>();
const scaledColumns = new WeakMap<ListChunk['numbers'], Partial<Record<string, ScaledNumbers>>>();

/**
 * The UTF-8 bytes of a decoded frame's text column while nobody has read it as a string; null once it was (or for a
 * chunk not decoded from a frame). A column's text is decoded when first read: a warm open of a million rows
 * appends ten frames, and decoding their 68 MB of text (12-17 ms per 50,000 rows) is work the list's first full answer
 * does not need; the engine keeps such bytes and decodes a value when it is read (see TextColumn).
 */
export function undecodedText(chunk: ListChunk, field: string): Uint8Array | null {
  return undecodedTexts.get(chunk.texts)?.[field] ?? null;
}

/**
 * A decoded frame's number column as it travelled, while nobody has read it as Float64 (then null, as for a column
 * that travelled as Float64): the engine writes it straight into its own columns (expandScaled) rather than through a
 * Float64Array of the frame's, which would be 800 kB of fresh memory per column and 100,000 rows.
 */
export function scaledNumbers(chunk: ListChunk, field: string): ScaledNumbers | null {
  return scaledColumns.get(chunk.numbers)?.[field] ?? null;
}

/** The largest of a column's codes (0 for none): one loop per code width, as in expandScaled. */
function largestCode(codes: DictCodes): number {
  if (codes instanceof Uint8Array) return largest8(codes);
  return codes instanceof Uint16Array ? largest16(codes) : largest32(codes);
}
function largest8(codes: Uint8Array): number {
  let max = 0;
  for (let i = 0; i < codes.length; i++) if (codes[i]! > max) max = codes[i]!;
  return max;
}
function largest16(codes: Uint16Array): number {
  let max = 0;
  for (let i = 0; i < codes.length; i++) if (codes[i]! > max) max = codes[i]!;
  return max;
}
function largest32(codes: Uint32Array): number {
  let max = 0;
  for (let i = 0; i < codes.length; i++) if (codes[i]! > max) max = codes[i]!;
  return max;
}

const isExponent = (exp: unknown): exp is number => (EXPONENTS as readonly unknown[]).includes(exp);

function checkHeader(schema: AnyListSchema, header: FrameHeader): void {
  const { n, remaining } = header;
  if (!Number.isInteger(n) || n < 0 || typeof header.cursor !== 'string' || typeof header.hasMore !== 'boolean') {
    throw new ListFrameError('header fields');
  }
  if (remaining !== undefined && (!Number.isInteger(remaining) || remaining < n)) throw new ListFrameError('remaining');
  for (const field of schema.numberFields) {
    const encoding = header.numbers?.[field];
    const narrow = encoding && (encoding.bytes === 1 || encoding.bytes === 2 || encoding.bytes === 4);
    if (!encoding || (!narrow && encoding.bytes !== 8) || (narrow && (!Number.isSafeInteger(encoding.base) || !isExponent(encoding.exp)))) {
      throw new ListFrameError(`${field} encoding`);
    }
  }
  for (const field of schema.dictFields) {
    const bytes = header.codeBytes?.[field];
    if (!Array.isArray(header.dicts?.[field]) || (bytes !== 1 && bytes !== 2 && bytes !== 4)) throw new ListFrameError(`${field} dictionary`);
  }
  for (const field of schema.textFields) {
    const bytes = header.textBytes?.[field];
    if (bytes === undefined || !Number.isInteger(bytes) || bytes < 0) throw new ListFrameError(`${field} length`);
  }
}

/** Makes `object[field]` the value `make` gives, made when first read. */
function defineLazily<T extends object, K extends keyof T>(object: T, field: K, make: () => T[K]): void {
  Object.defineProperty(object, field, {
    enumerable: true,
    configurable: true,
    get: () => {
      const value = make();
      Object.defineProperty(object, field, { enumerable: true, value });
      return value;
    },
  });
}

/**
 * Reads a frame without copying its columns (the typed arrays are views of `buffer`; narrowed numbers are widened
 * and texts decoded when first read, see scaledNumbers and undecodedText). Throws ListFrameError when the frame is not
 * one of this schema's or does not add up: a cut or garbled answer never reaches the cache.
 */
export function decodeListFrame(schema: AnyListSchema, buffer: ArrayBuffer): ListFrame {
  if (buffer.byteLength < 8) throw new ListFrameError('too short');
  const view = new DataView(buffer);
  if (view.getUint32(0, true) !== LIST_FRAME_MAGIC) throw new ListFrameError(`not a frame of ${schema.name}`);
  const headerLength = view.getUint32(4, true);
  if (8 + headerLength > buffer.byteLength) throw new ListFrameError('header cut');
  let header: FrameHeader;
  try {
    header = JSON.parse(textDecoder.decode(new Uint8Array(buffer, 8, headerLength))) as FrameHeader;
  } catch {
    throw new ListFrameError('header is not JSON');
  }
  if (typeof header !== 'object' || header === null) throw new ListFrameError('header fields');
  checkHeader(schema, header);
  const n = header.n;
  const layout = frameLayout(schema, headerLength, n, header);
  if (layout.size > buffer.byteLength) throw new ListFrameError('columns cut');
  if (layout.size < buffer.byteLength) throw new ListFrameError('trailing bytes');

  const numbers: ListChunk['numbers'] = {};
  const scaled: Partial<Record<string, ScaledNumbers>> = {};
  schema.numberFields.forEach((field, k) => {
    const encoding = header.numbers[field]!;
    if (encoding.bytes === 8) {
      numbers[field] = new Float64Array(buffer, layout.numbers[k], n);
      return;
    }
    const column = { codes: codesView(buffer, layout.numbers[k]!, n, encoding.bytes), base: encoding.base, exp: encoding.exp };
    scaled[field] = column;
    defineLazily(numbers, field, () => {
      delete scaled[field];
      const values = new Float64Array(n);
      expandScaled(values, column, 0, n, 0);
      return values;
    });
  });
  scaledColumns.set(numbers, scaled);
  const deleted = new Uint8Array(buffer, layout.deleted, n);
  const dicts: ListChunk['dicts'] = {};
  schema.dictFields.forEach((field, k) => {
    const values = header.dicts[field]!;
    const codes = codesView(buffer, layout.codes[k]!, n, header.codeBytes[field]!);
    if (largestCode(codes) >= values.length && n > 0) throw new ListFrameError(`${field} code out of range`);
    dicts[field] = { values, codes };
  });
  const texts: ListChunk['texts'] = {};
  const undecoded: Partial<Record<string, Uint8Array>> = {};
  schema.textFields.forEach((field, k) => {
    undecoded[field] = new Uint8Array(buffer, layout.texts[k], header.textBytes[field]);
  });
  // Decoded when first read (see undecodedText).
  for (const field of schema.textFields) {
    defineLazily(texts, field, () => {
      const bytes = undecoded[field]!;
      delete undecoded[field];
      return textDecoder.decode(bytes);
    });
  }
  undecodedTexts.set(texts, undecoded);
  const frame: ListFrame = { chunk: { n, numbers, dicts, texts, deleted }, cursor: header.cursor, hasMore: header.hasMore };
  if (header.remaining !== undefined) frame.remaining = header.remaining;
  return frame;
}
