import pg from 'pg';
import { FNV_OFFSET, FNV_PRIME } from '../../../contract/hashIndex';
import {
  codesFor,
  ORDER_DICT_FIELDS,
  ORDER_NUMBER_FIELDS,
  ORDER_TEXT_FIELDS,
  type DictColumnData,
  type EncodedOrderChunk,
  type OrderDictField,
  type OrderTextField,
} from '../../../contract/orderChunk';

/**
 * The binary sync's chunk (contract/orderChunk.ts) read from one `COPY (select ...) TO STDOUT (FORMAT binary)`.
 * A full sync of a million rows is ten such chunks one after the other, so every millisecond here is paid ten times
 * before the browser holds them all.
 * - Postgres writes each value in its send form (timestamps as int64 microseconds since 2000, numbers as their
 *   bytes, text as its UTF-8 bytes) with a length before it, and nothing else: no aggregate, no row objects, no text
 *   rendering. The earlier form of this read, a dozen string_agg aggregates over the same rows, cost Postgres about
 *   twice the time (100,000 rows: 720-930 ms to the last byte in Node, against 180-450 ms for the copy), most of it
 *   per-value function calls and concatenations; and Node then decoded base64 and hashed JS strings.
 * - Node reads those bytes once: numbers into Float64Arrays, repeated strings dictionary-encoded by hashing their
 *   bytes where they lie (only a chunk's few thousand distinct values become strings), unique strings copied byte by
 *   byte into the frame's joined columns (a separator byte inside a value written as a space, as joinTexts does).
 * COPY takes no parameters: the select is built with its values written in as literals (numbers checked, the cursor's
 * id quoted by pg's escapeLiteral).
 */

/** 2000-01-01, Postgres's own epoch, in microseconds since 1970. */
const POSTGRES_EPOCH_MICROS = 946_684_800_000_000;
const SEPARATOR = 0x1f;
const SPACE = 0x20;

/**
 * The number columns in the contract's order, which the row loop of readCopyFrame reads in that order (this fails to
 * compile when the contract's order changes): three times, the quantity (int4), the amount (float8), a time.
 */
const NUMBER_SQL = ['in_process_at', 'shipment_date', 'delivering_date', 'quantity', 'amount::float8', 'updated_at'] as const;
const _numbersInOrder: typeof ORDER_NUMBER_FIELDS = ['inProcessAt', 'shipmentDate', 'deliveringDate', 'quantity', 'amount', 'updatedAt'];
/** shopId travels as int4 and is read first, the others as text. */
const _shopIdFirst: (typeof ORDER_DICT_FIELDS)[0] = 'shopId';
const DICT_SQL: Record<OrderDictField, string> = {
  shopId: 'shop_id',
  shopName: 'shop_name',
  status: 'status',
  substatus: 'substatus',
  warehouseId: 'warehouse_id',
  warehouseName: 'warehouse_name',
  currency: 'currency',
  source: 'source',
  sku: 'sku',
  offerId: 'offer_id',
  productName: 'product_name',
};
const TEXT_SQL: Record<OrderTextField, string> = {
  id: 'id',
  postingNumber: 'posting_number',
  orderNumber: 'order_number',
  orderId: 'order_id',
  trackingNumber: 'tracking_number',
};

/** The copy's columns, in this order: numbers, dictionaries, texts, the tombstone. */
const COLUMNS = [
  ...NUMBER_SQL,
  ...ORDER_DICT_FIELDS.map((field) => DICT_SQL[field]),
  ...ORDER_TEXT_FIELDS.map((field) => TEXT_SQL[field]),
  'deleted',
];
const FIRST_DICT = ORDER_NUMBER_FIELDS.length;
const FIRST_TEXT = FIRST_DICT + ORDER_DICT_FIELDS.length;
const DELETED = FIRST_TEXT + ORDER_TEXT_FIELDS.length;

const CHANGED_SQL = `from orders where user_id = $1 and (updated_at, id) > (timestamptz 'epoch' + $2::bigint * interval '1 microsecond', $3)`;
/** The number of changes after a cursor (parameters: user id, cursor microseconds, cursor id): an index-only count. */
export const REMAINING_SQL = `select count(*) as n ${CHANGED_SQL}`;

/**
 * The select of a frame's copy: the user's first `limit` changes after the cursor (microseconds since 1970 and id),
 * oldest first, in the order readCopyFrame reads. Ask for one row more than a frame holds to learn whether more wait.
 */
export function frameSelect(userId: number, micros: bigint, id: string, limit: number): string {
  if (!Number.isSafeInteger(userId) || !Number.isSafeInteger(limit) || limit < 0) throw new Error('frame select: bad user or limit');
  return `select ${COLUMNS.join(', ')} from orders
    where user_id = ${userId} and (updated_at, id) > (timestamptz 'epoch' + ${micros.toString()}::bigint * interval '1 microsecond', ${pg.escapeLiteral(id)})
    order by updated_at, id limit ${limit}`;
}

/**
 * Milliseconds as the row answer gives them (`(extract(epoch from t) * 1000)::bigint`: halves away from zero).
 * Exact while the microseconds fit a float64's integers (until the year 2255).
 */
export function msOfMicros(micros: number): number {
  const ms = micros / 1000;
  return ms < 0 ? -Math.round(-ms) : Math.round(ms);
}

class CopyFormatError extends Error {
  constructor(message: string) {
    super(`order frame: ${message}`);
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

/** The shop ids (int4): a handful per chunk. */
class IntDictionary {
  readonly values: number[] = [];
  private readonly codes = new Map<number, number>();

  constructor(private readonly bytes: Uint8Array) {}

  codeOf(start: number, end: number): number {
    if (end - start !== 4) throw new CopyFormatError(`${end - start} bytes of shopId`);
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

export type CopyFrame = {
  chunk: EncodedOrderChunk;
  /** More changes wait after this chunk (the copy held more than `limit` rows). */
  hasMore: boolean;
  /** The cursor of the chunk's last row (microseconds since 1970, id), null for an empty chunk. */
  last: string | null;
};

/**
 * A frame's copy (binary format, the columns of frameSelect) as a chunk of at most `limit` rows. Throws when the
 * bytes are not such a copy: a malformed answer never becomes a frame. The chunk holds nothing of `copy`.
 */
export function readCopyFrame(copy: Uint8Array, limit: number): CopyFrame {
  // A plain view (not a Buffer): every loop below then sees one kind of array.
  const bytes = new Uint8Array(copy.buffer, copy.byteOffset, copy.byteLength);
  const width = COLUMNS.length;
  const size = bytes.byteLength;
  if (size < 21 || SIGNATURE.some((byte, k) => bytes[k] !== byte)) throw new CopyFormatError('not a binary copy');
  // Pass one: the rows' bounds checked, and how many bytes each text column holds.
  const textSizes = new Int32Array(ORDER_TEXT_FIELDS.length);
  const firstRow = 19 + uint32(bytes, 15);
  let at = firstRow;
  let n = 0;
  for (;;) {
    if (at + 2 > size) throw new CopyFormatError('cut short');
    const fields = (bytes[at]! << 8) | bytes[at + 1]!;
    if (fields === 0xffff || n === limit) break;
    if (fields !== width) throw new CopyFormatError(`a row of ${fields} columns, expected ${width}`);
    at += 2;
    for (let f = 0; f < width; f++) {
      if (at + 4 > size) throw new CopyFormatError('cut short');
      const length = int32(bytes, at);
      at += 4;
      if (length > 0) {
        if (f >= FIRST_TEXT && f < DELETED) textSizes[f - FIRST_TEXT] = textSizes[f - FIRST_TEXT]! + length;
        at += length;
      } else if (length < -1) throw new CopyFormatError(`a value of ${length} bytes`);
    }
    if (at > size) throw new CopyFormatError('cut short');
    n++;
  }
  const hasMore = n === limit && ((bytes[at]! << 8) | bytes[at + 1]!) !== 0xffff;

  // Pass two: row after row (the copy is read once, front to back), each value into its column.
  const inProcessAt = new Float64Array(n);
  const shipmentDate = new Float64Array(n);
  const deliveringDate = new Float64Array(n);
  const updatedAt = new Float64Array(n);
  const quantity = new Float64Array(n);
  const amount = new Float64Array(n);
  const shops = new IntDictionary(bytes);
  const dictionaries = ORDER_DICT_FIELDS.slice(1).map(() => new ByteDictionary(bytes));
  const rawCodes = ORDER_DICT_FIELDS.map(() => new Uint32Array(n));
  const texts = Array.from(textSizes, (bytesOf) => new Uint8Array(bytesOf + Math.max(0, n - 1)));
  const textAt = new Int32Array(texts.length);
  const deleted = new Uint8Array(n);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let lastTime = 0;
  let lastId = 0;
  at = firstRow;
  for (let i = 0; i < n; i++) {
    at += 2;
    at = readTime(bytes, at, inProcessAt, i);
    at = readTime(bytes, at, shipmentDate, i);
    at = readTime(bytes, at, deliveringDate, i);
    if (int32(bytes, at) !== 4) throw new CopyFormatError('no quantity');
    quantity[i] = int32(bytes, at + 4);
    if (int32(bytes, at + 8) !== 8) throw new CopyFormatError('no amount');
    amount[i] = view.getFloat64(at + 12);
    at += 20;
    lastTime = at;
    at = readTime(bytes, at, updatedAt, i);
    rawCodes[0]![i] = shops.codeOf(at + 4, at + 4 + int32(bytes, at));
    at += 8;
    for (let d = 0; d < dictionaries.length; d++) {
      const length = int32(bytes, at);
      if (length < 0) throw new CopyFormatError(`no ${ORDER_DICT_FIELDS[d + 1]}`);
      rawCodes[d + 1]![i] = dictionaries[d]!.codeOf(at + 4, at + 4 + length);
      at += 4 + length;
    }
    lastId = at;
    for (let t = 0; t < texts.length; t++) at = copyText(bytes, at, texts[t]!, textAt, t, i > 0);
    if (int32(bytes, at) !== 1) throw new CopyFormatError('no tombstone flag');
    deleted[i] = bytes[at + 4] === 1 ? 1 : 0;
    at += 5;
  }

  const numbers = { inProcessAt, shipmentDate, deliveringDate, quantity, amount, updatedAt } satisfies EncodedOrderChunk['numbers'];
  const dicts = {} as EncodedOrderChunk['dicts'];
  ORDER_DICT_FIELDS.forEach((field, d) => {
    const values = d === 0 ? shops.values : dictionaries[d - 1]!.values;
    const codes = codesFor(values.length, n);
    codes.set(rawCodes[d]!);
    dicts[field] = { values, codes } satisfies DictColumnData;
  });
  const textBytes = Object.fromEntries(ORDER_TEXT_FIELDS.map((field, t) => [field, texts[t]!])) as EncodedOrderChunk['textBytes'];
  const chunk = { n, numbers, dicts, textBytes, deleted };
  if (n === 0) return { chunk, hasMore, last: null };
  const lastMicros = int32(bytes, lastTime + 4) * 0x1_0000_0000 + uint32(bytes, lastTime + 8) + POSTGRES_EPOCH_MICROS;
  const id = utf8.decode(bytes.subarray(lastId + 4, lastId + 4 + int32(bytes, lastId)));
  return { chunk, hasMore, last: `${lastMicros}:${id}` };
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

/** Copies a text value into its joined column (after a separator unless it is the first), a separator byte as a space. */
function copyText(bytes: Uint8Array, at: number, out: Uint8Array, outAt: Int32Array, t: number, separate: boolean): number {
  const length = int32(bytes, at);
  if (length < 0) throw new CopyFormatError(`no ${ORDER_TEXT_FIELDS[t]}`);
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
