import { FNV_OFFSET, FNV_PRIME } from '../../contract/hashIndex';
import { codesFor, type DictColumnData, type EncodedListChunk } from '../../contract/listFrame';
import type { AnyListSchema } from '../../contract/listSchema';

/**
 * A big list's binary sync chunk (contract/listFrame.ts) read from one `COPY (select ...) TO STDOUT (FORMAT binary)`
 * of the columns its ListCopy names (defineListCopy). A full sync of a million rows is ten such chunks one after the
 * other, so every millisecond here is paid ten times before the browser holds them all.
 * - Postgres writes each value in its send form (timestamps as int64 microseconds since 2000, numbers as their
 *   bytes, text as its UTF-8 bytes) with a length before it, and nothing else: no aggregate, no row objects, no text
 *   rendering. The earlier form of this read, a dozen string_agg aggregates over the same rows, cost Postgres about
 *   twice the time (100,000 rows: 720-930 ms to the last byte in Node, against 180-450 ms for the copy), most of it
 *   per-value function calls and concatenations; and Node then decoded base64 and hashed JS strings.
 * - Node reads those bytes once: numbers into Float64Arrays, repeated strings dictionary-encoded by hashing their
 *   bytes where they lie (only a chunk's few thousand distinct values become strings), unique strings copied byte by
 *   byte into the frame's joined columns (a separator byte inside a value written as a space, as joinTexts does).
 * COPY takes no parameters: the list's select is built with its values written in as literals (numbers checked,
 * strings quoted by pg's escapeLiteral).
 */

/** 2000-01-01, Postgres's own epoch, in microseconds since 1970. */
const POSTGRES_EPOCH_MICROS = 946_684_800_000_000;
const SEPARATOR = 0x1f;
const SPACE = 0x20;

/**
 * Milliseconds as the row answer gives them (`(extract(epoch from t) * 1000)::bigint`: halves away from zero).
 * Exact while the microseconds fit a float64's integers (until the year 2255).
 */
export function msOfMicros(micros: number): number {
  const ms = micros / 1000;
  return ms < 0 ? -Math.round(-ms) : Math.round(ms);
}

export class CopyFormatError extends Error {
  constructor(message: string) {
    super(`list frame: ${message}`);
    this.name = 'CopyFormatError';
  }
}

/** "PGCOPY\n\xff\r\n\0": the binary copy's signature. */
const SIGNATURE = [0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00];

const int32 = (b: Uint8Array, at: number) => (b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!;
const uint32 = (b: Uint8Array, at: number) => int32(b, at) >>> 0;

/** FNV-1a, 32 bits (as contract/hashIndex.ts hashes code units), over bytes. */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let hash = FNV_OFFSET;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i]!, FNV_PRIME);
  return hash | 0;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A dictionary column of int4 values (shop ids): a handful per chunk. */
class IntDictionary {
  readonly values: number[] = [];
  private readonly codes = new Map<number, number>();

  constructor(
    private readonly bytes: Uint8Array,
    private readonly field: string,
  ) {}

  codeOf(start: number, end: number): number {
    if (end - start !== 4) throw new CopyFormatError(`${end - start} bytes of ${this.field}`);
    const value = int32(this.bytes, start);
    let code = this.codes.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      this.codes.set(value, code);
    }
    return code;
  }
}

/**
 * One column's distinct values found in the copy's bytes: an open-addressing table of codes filed by a hash of the
 * bytes, a hit confirmed by comparing the bytes in place. Only a value seen for the first time is decoded into a
 * string. (Its own small table rather than contract/hashIndex's: a lookup per value and column, a million per frame,
 * is cheapest with the comparison written inline.)
 */
class ByteDictionary {
  readonly values: string[] = [];
  /** Where each value lies in the copy: start and end, by code. */
  private spans = new Int32Array(64);
  /** code + 1 per slot (0: empty), and the hash filed there. */
  private slots = new Int32Array(256);
  private hashes = new Int32Array(256);

  constructor(private readonly bytes: Uint8Array) {}

  codeOf(start: number, end: number): number {
    const { bytes, slots, hashes, spans } = this;
    const hash = hashBytes(bytes, start, end);
    const mask = slots.length - 1;
    const length = end - start;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const slot = slots[at]!;
      if (slot === 0) break;
      if (hashes[at] !== hash) continue;
      const from = spans[(slot - 1) * 2]!;
      if (spans[(slot - 1) * 2 + 1]! - from !== length) continue;
      let k = 0;
      while (k < length && bytes[from + k] === bytes[start + k]) k++;
      if (k === length) return slot - 1;
    }
    return this.add(start, end, hash);
  }

  private add(start: number, end: number, hash: number): number {
    const code = this.values.length;
    this.values.push(utf8.decode(this.bytes.subarray(start, end)));
    if (this.spans.length < (code + 1) * 2) {
      const grown = new Int32Array(this.spans.length * 2);
      grown.set(this.spans);
      this.spans = grown;
    }
    this.spans[code * 2] = start;
    this.spans[code * 2 + 1] = end;
    if ((code + 1) * 2 > this.slots.length) this.refile(this.slots.length * 2);
    this.file(hash, code);
    return code;
  }

  private file(hash: number, code: number): void {
    const mask = this.slots.length - 1;
    let at = hash & mask;
    while (this.slots[at] !== 0) at = (at + 1) & mask;
    this.slots[at] = code + 1;
    this.hashes[at] = hash;
  }

  private refile(size: number): void {
    const { slots, hashes } = this;
    this.slots = new Int32Array(size);
    this.hashes = new Int32Array(size);
    for (let at = 0; at < slots.length; at++) if (slots[at] !== 0) this.file(hashes[at]!, slots[at]! - 1);
  }
}

/** How the reader takes each column of a copy (ListCopy's layout order), by its NumberSource and form. */
const TIME = 0;
const INT4 = 1;
const FLOAT8 = 2;
const INT_DICT = 3;
const TEXT_DICT = 4;
const TEXT = 5;

/**
 * A list's binary copy: its schema and the SQL expression of each column, whose send form is the column's source
 * (int4, float8, timestamptz or text); `cursorTime` is the epochMs column the sync's cursor moves by, with the key.
 * `packed`: a stored generated column of the table holding the row's columns already in the copy's form
 * (packedRowSql), which the copy then selects instead of the columns.
 */
export type ListCopySpec = { schema: AnyListSchema; sql: Readonly<Record<string, string>>; cursorTime: string; packed?: string };

export type ListCopy = ListCopySpec & {
  /** The copy's select list: numbers, dictionaries, texts (the frame's layout), then the tombstone. */
  columns: readonly string[];
  /** Per copy column but the tombstone: how it is read, into which of its kind's columns, and its field. */
  kinds: Uint8Array;
  targets: Int32Array;
  fields: readonly string[];
  cursorColumn: number;
  keyColumn: number;
  /** Runs of neighbouring columns read the same way (start, end, kind): the row loop dispatches once per run. */
  runs: Int32Array;
};

/** Checks a list's copy description and lays out its columns (once, where the list's area is defined). */
export function defineListCopy(spec: ListCopySpec): ListCopy {
  const { schema, sql } = spec;
  const fields = [...schema.numberFields, ...schema.dictFields, ...schema.textFields];
  const kinds = new Uint8Array(fields.length);
  const targets = new Int32Array(fields.length);
  const counts = [0, 0, 0];
  fields.forEach((field, f) => {
    if (sql[field] === undefined) throw new Error(`${schema.name} copy: no SQL for ${field}`);
    const column = schema.columns[field]!;
    if (column.kind === 'number') {
      kinds[f] = column.source === 'timestamptz' ? TIME : column.source === 'int4' ? INT4 : FLOAT8;
      targets[f] = counts[0]!++;
    } else if (column.kind === 'dict') {
      kinds[f] = column.source === 'int4' ? INT_DICT : TEXT_DICT;
      targets[f] = counts[1]!++;
    } else {
      kinds[f] = TEXT;
      targets[f] = counts[2]!++;
    }
  });
  const cursorColumn = fields.indexOf(spec.cursorTime);
  if (cursorColumn < 0 || kinds[cursorColumn] !== TIME) throw new Error(`${schema.name} copy: ${spec.cursorTime} is not a time column`);
  const runs: number[] = [];
  for (let f = 0; f < fields.length; f++) {
    if (f > 0 && kinds[f] === kinds[f - 1]) runs[runs.length - 2] = f + 1;
    else runs.push(f, f + 1, kinds[f]!);
  }
  const keyColumn = fields.indexOf(schema.key);
  return { ...spec, columns: [...fields.map((field) => sql[field]!), 'deleted'], kinds, targets, fields, cursorColumn, keyColumn, runs: Int32Array.from(runs) };
}

/** `select <the copy's columns> from <from>`: the caller adds its where, order and limit (values written in as literals). */
export function copySelect(copy: ListCopy, from: string): string {
  return `select ${copy.packed ? `${copy.packed}, deleted` : copy.columns.join(', ')} from ${from}`;
}

/**
 * The generation expression of a list's packed column: every column but the tombstone, in the copy's layout, each
 * as binary COPY writes a value (its length as int4, then its send form; -1 for a null), concatenated into one
 * bytea. Stored (`generated always as (...) stored`), Postgres keeps it up to date on every insert and update.
 * Only immutable functions may appear there: text gives its UTF-8 bytes through bytea's escape input, its
 * backslashes doubled (textsend and convert_to are only stable).
 *
 * Why: at 500,000 products PGlite (Postgres in WASM) spent most of a full sync's copy on the per-value work of
 * COPY (a send function call, a length, a buffer append for each of 25 values of a row); a copy of one packed value
 * a row costs a fraction of it (docs/performance.md, the product list).
 */
export function packedRowSql(copy: ListCopy): string {
  const parts = copy.fields.map((_, f) => {
    const expr = copy.columns[f]!;
    const kind = copy.kinds[f];
    const value =
      kind === TIME
        ? `'\\x00000008'::bytea || timestamptz_send(${expr})`
        : kind === INT4 || kind === INT_DICT
          ? `'\\x00000004'::bytea || int4send(${expr})`
          : kind === FLOAT8
            ? `'\\x00000008'::bytea || float8send(${expr})`
            : `int4send(octet_length(${expr})) || replace(${expr}, '\\', '\\\\')::bytea`;
    return `coalesce(${value}, '\\xffffffff'::bytea)`;
  });
  return parts.join(' || ');
}

export type CopyFrame = {
  chunk: EncodedListChunk;
  /** More changes wait after this chunk (the copy held more than `limit` rows). */
  hasMore: boolean;
  /** The cursor of the chunk's last row (microseconds since 1970, key), null for an empty chunk. */
  last: string | null;
};

/**
 * A frame's copy (binary format, the columns of `copy.columns`) as a chunk of at most `limit` rows. Throws when the
 * bytes are not such a copy: a malformed answer never becomes a frame. The chunk holds nothing of `bytes`.
 */
export function readCopyFrame(copy: ListCopy, bytesOfCopy: Uint8Array, limit: number): CopyFrame {
  const { schema, kinds, targets, fields } = copy;
  // A plain view (not a Buffer): every loop below then sees one kind of array.
  const bytes = new Uint8Array(bytesOfCopy.buffer, bytesOfCopy.byteOffset, bytesOfCopy.byteLength);
  // A row: its column count, then (packed) the packed value's length, the columns, and the tombstone.
  const fieldCount = fields.length;
  const width = copy.packed ? 2 : fieldCount + 1;
  const rowHeader = copy.packed ? 6 : 2;
  const size = bytes.byteLength;
  if (size < 21 || SIGNATURE.some((byte, k) => bytes[k] !== byte)) throw new CopyFormatError('not a binary copy');
  // Pass one: the rows' bounds checked, and how many bytes each text column holds.
  const textSizes = new Int32Array(schema.textFields.length);
  const firstRow = 19 + uint32(bytes, 15);
  let at = firstRow;
  let n = 0;
  for (;;) {
    if (at + 2 > size) throw new CopyFormatError('cut short');
    const count = (bytes[at]! << 8) | bytes[at + 1]!;
    if (count === 0xffff || n === limit) break;
    if (count !== width) throw new CopyFormatError(`a row of ${count} columns, expected ${width}`);
    at += 2;
    let packedEnd = -1;
    if (copy.packed) {
      if (at + 4 > size) throw new CopyFormatError('cut short');
      const length = int32(bytes, at);
      if (length < 0) throw new CopyFormatError(`no ${copy.packed}`);
      at += 4;
      packedEnd = at + length;
    }
    for (let f = 0; f <= fieldCount; f++) {
      if (f === fieldCount && copy.packed && at !== packedEnd) throw new CopyFormatError(`${copy.packed} does not hold the row's ${fieldCount} columns`);
      if (at + 4 > size) throw new CopyFormatError('cut short');
      const length = int32(bytes, at);
      at += 4;
      if (length > 0) {
        if (f < fieldCount && kinds[f] === TEXT) textSizes[targets[f]!] = textSizes[targets[f]!]! + length;
        at += length;
      } else if (length < -1) throw new CopyFormatError(`a value of ${length} bytes`);
    }
    if (at > size) throw new CopyFormatError('cut short');
    n++;
  }
  const hasMore = n === limit && ((bytes[at]! << 8) | bytes[at + 1]!) !== 0xffff;

  // Pass two: row after row (the copy is read once, front to back), each value into its column.
  const numbers = schema.numberFields.map(() => new Float64Array(n));
  const nullable = schema.numberFields.map((field) => (schema.columns[field] as { nullable?: boolean }).nullable === true);
  const intDicts = schema.dictFields.map((field) => new IntDictionary(bytes, field));
  const byteDicts = schema.dictFields.map(() => new ByteDictionary(bytes));
  const rawCodes = schema.dictFields.map(() => new Uint32Array(n));
  const texts = Array.from(textSizes, (bytesOf) => new Uint8Array(bytesOf + Math.max(0, n - 1)));
  const textAt = new Int32Array(texts.length);
  const deleted = new Uint8Array(n);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { cursorColumn, keyColumn, runs } = copy;
  let lastTime = 0;
  let lastKey = 0;
  at = firstRow;
  for (let i = 0; i < n; i++) {
    at += rowHeader;
    for (let r = 0; r < runs.length; r += 3) {
      const end = runs[r + 1]!;
      switch (runs[r + 2]) {
        case TIME:
          for (let f = runs[r]!; f < end; f++) {
            if (f === cursorColumn) lastTime = at;
            at = readTime(bytes, at, numbers[targets[f]!]!, i);
          }
          break;
        case INT4:
        case FLOAT8:
          for (let f = runs[r]!; f < end; f++) at = readNumber(bytes, view, at, numbers[targets[f]!]!, i, kinds[f] === INT4, nullable[targets[f]!]!, fields[f]!);
          break;
        case INT_DICT:
          for (let f = runs[r]!; f < end; f++) {
            const length = int32(bytes, at);
            rawCodes[targets[f]!]![i] = intDicts[targets[f]!]!.codeOf(at + 4, at + 4 + length);
            at += 4 + length;
          }
          break;
        case TEXT_DICT:
          for (let f = runs[r]!; f < end; f++) {
            const length = int32(bytes, at);
            if (length < 0) throw new CopyFormatError(`no ${fields[f]}`);
            rawCodes[targets[f]!]![i] = byteDicts[targets[f]!]!.codeOf(at + 4, at + 4 + length);
            at += 4 + length;
          }
          break;
        default:
          for (let f = runs[r]!; f < end; f++) {
            if (f === keyColumn) lastKey = at;
            at = copyText(bytes, at, texts[targets[f]!]!, textAt, targets[f]!, i > 0, fields[f]!);
          }
      }
    }
    if (int32(bytes, at) !== 1) throw new CopyFormatError('no tombstone flag');
    deleted[i] = bytes[at + 4] === 1 ? 1 : 0;
    at += 5;
  }

  const dicts: EncodedListChunk['dicts'] = {};
  schema.dictFields.forEach((field, d) => {
    const values = schema.columns[field]!.source === 'int4' ? intDicts[d]!.values : byteDicts[d]!.values;
    const codes = codesFor(values.length, n);
    codes.set(rawCodes[d]!);
    dicts[field] = { values, codes } satisfies DictColumnData;
  });
  const chunk: EncodedListChunk = {
    n,
    numbers: Object.fromEntries(schema.numberFields.map((field, k) => [field, numbers[k]!])),
    dicts,
    textBytes: Object.fromEntries(schema.textFields.map((field, t) => [field, texts[t]!])),
    deleted,
  };
  if (n === 0) return { chunk, hasMore, last: null };
  const lastMicros = int32(bytes, lastTime + 4) * 0x1_0000_0000 + uint32(bytes, lastTime + 8) + POSTGRES_EPOCH_MICROS;
  const key = utf8.decode(bytes.subarray(lastKey + 4, lastKey + 4 + int32(bytes, lastKey)));
  return { chunk, hasMore, last: `${lastMicros}:${key}` };
}

// The value readers: small functions of typed arrays (no closures), which V8 inlines into the row loop. Each takes
// the offset of a value's length and answers the offset after the value.

function readTime(bytes: Uint8Array, at: number, out: Float64Array, i: number): number {
  const length = int32(bytes, at);
  if (length === 8) {
    out[i] = msOfMicros(int32(bytes, at + 4) * 0x1_0000_0000 + uint32(bytes, at + 8) + POSTGRES_EPOCH_MICROS);
    return at + 12;
  }
  if (length !== -1) throw new CopyFormatError(`a time of ${length} bytes`);
  out[i] = NaN;
  return at + 4;
}

/** An int4 or float8 value into its column (NaN for a null in a nullable column). */
function readNumber(bytes: Uint8Array, view: DataView, at: number, out: Float64Array, i: number, int: boolean, nullable: boolean, field: string): number {
  const length = int32(bytes, at);
  if (length === (int ? 4 : 8)) {
    out[i] = int ? int32(bytes, at + 4) : view.getFloat64(at + 4);
    return at + 4 + length;
  }
  if (length !== -1 || !nullable) throw new CopyFormatError(`no ${field}`);
  out[i] = NaN;
  return at + 4;
}

/** Copies a text value into its joined column (after a separator unless it is the first), a separator byte as a space. */
function copyText(bytes: Uint8Array, at: number, out: Uint8Array, outAt: Int32Array, t: number, separate: boolean, field: string): number {
  const length = int32(bytes, at);
  if (length < 0) throw new CopyFormatError(`no ${field}`);
  let to = outAt[t]!;
  if (separate) out[to++] = SEPARATOR;
  const end = at + 4 + length;
  for (let k = at + 4; k < end; k++) {
    const byte = bytes[k]!;
    out[to++] = byte === SEPARATOR ? SPACE : byte;
  }
  outAt[t] = to;
  return end;
}
