import type { OrderRow } from './orders';

/**
 * The bulk form of orders: what GET /api/order/sync?format=binary sends, what the browser cache stores per record
 * and what the worker's engine appends. A million rows then never exist as a million objects, and nothing on the
 * bulk path compares strings per row:
 * - numbers and dates as Float64Array (NaN: no date);
 * - repeated strings dictionary-encoded per chunk (the values once, a Uint16/Uint32 code per row), so the engine
 *   maps a chunk's few thousand values onto its own dictionary instead of hashing a million strings;
 * - unique strings (ids, posting, order, tracking numbers) as one string per column, values joined by U+001F
 *   (a control character no such field carries; one that does is written as a space), split once by the engine;
 * - tombstones as a Uint8Array.
 * Typed arrays and a few long strings are what structured clone (IndexedDB, postMessage) copies fastest.
 */

export const ORDER_NUMBER_FIELDS = ['inProcessAt', 'shipmentDate', 'deliveringDate', 'quantity', 'amount', 'updatedAt'] as const;
export const ORDER_DICT_FIELDS = [
  'shopId',
  'shopName',
  'status',
  'substatus',
  'warehouseId',
  'warehouseName',
  'currency',
  'source',
  'sku',
  'offerId',
  'productName',
] as const;
export const ORDER_TEXT_FIELDS = ['id', 'postingNumber', 'orderNumber', 'orderId', 'trackingNumber'] as const;

export type OrderNumberField = (typeof ORDER_NUMBER_FIELDS)[number];
export type OrderDictField = (typeof ORDER_DICT_FIELDS)[number];
export type OrderTextField = (typeof ORDER_TEXT_FIELDS)[number];

// Every field of a row is carried exactly once: this fails to compile when OrderRow gains a field.
type Missing = Exclude<keyof OrderRow, OrderNumberField | OrderDictField | OrderTextField | 'deleted'>;
const _everyFieldCarried: [Missing] extends [never] ? true : Missing = true;

export const TEXT_SEPARATOR = '\u001f';

export type DictCodes = Uint16Array | Uint32Array;
export type DictColumnData = { values: (string | number)[]; codes: DictCodes };

export type OrderChunk = {
  n: number;
  numbers: Record<OrderNumberField, Float64Array>;
  dicts: Record<OrderDictField, DictColumnData>;
  /** Each column's n values joined by TEXT_SEPARATOR ('' for n = 0, and for one empty value). */
  texts: Record<OrderTextField, string>;
  deleted: Uint8Array;
};

export class OrderChunkError extends Error {
  constructor(message: string) {
    super(`order chunk: ${message}`);
    this.name = 'OrderChunkError';
  }
}

/** Codes narrow enough for the dictionary: two bytes a row for up to 65,536 distinct values. */
export function codesFor(dictionarySize: number, n: number): DictCodes {
  return dictionarySize <= 0x10000 ? new Uint16Array(n) : new Uint32Array(n);
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
  if (values.length !== n) throw new OrderChunkError(`${field} holds ${values.length} values, expected ${n}`);
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
  if (count !== n) throw new OrderChunkError(`${field} holds ${count} values, expected ${n}`);
}

export function joinTexts(values: readonly string[]): string {
  return values.map((value) => value.replaceAll(TEXT_SEPARATOR, ' ')).join(TEXT_SEPARATOR);
}

export function chunkOfRows(rows: readonly OrderRow[]): OrderChunk {
  const n = rows.length;
  const numbers = {} as OrderChunk['numbers'];
  for (const field of ORDER_NUMBER_FIELDS) {
    const data = new Float64Array(n);
    for (let i = 0; i < n; i++) data[i] = rows[i]![field] ?? NaN;
    numbers[field] = data;
  }
  const dicts = {} as OrderChunk['dicts'];
  for (const field of ORDER_DICT_FIELDS) dicts[field] = encodeDict(rows.map((row) => row[field]));
  const texts = {} as OrderChunk['texts'];
  for (const field of ORDER_TEXT_FIELDS) texts[field] = joinTexts(rows.map((row) => row[field]));
  const deleted = new Uint8Array(n);
  for (let i = 0; i < n; i++) deleted[i] = rows[i]!.deleted ? 1 : 0;
  return { n, numbers, dicts, texts, deleted };
}

/** The chunk's rows as objects: the small paths only (incremental changes, tests). */
export function rowsOfChunk(chunk: OrderChunk): OrderRow[] {
  const texts = Object.fromEntries(ORDER_TEXT_FIELDS.map((field) => [field, splitTexts(chunk.texts[field], chunk.n, field)])) as Record<OrderTextField, string[]>;
  const rows: OrderRow[] = [];
  const { numbers, dicts } = chunk;
  const dict = (field: OrderDictField, i: number) => dicts[field].values[dicts[field].codes[i]!]!;
  const date = (field: OrderNumberField, i: number) => (Number.isNaN(numbers[field][i]!) ? null : numbers[field][i]!);
  for (let i = 0; i < chunk.n; i++) {
    rows.push({
      id: texts.id[i]!,
      shopId: dict('shopId', i) as number,
      shopName: dict('shopName', i) as string,
      postingNumber: texts.postingNumber[i]!,
      orderNumber: texts.orderNumber[i]!,
      orderId: texts.orderId[i]!,
      status: dict('status', i) as OrderRow['status'],
      substatus: dict('substatus', i) as string,
      warehouseId: dict('warehouseId', i) as string,
      warehouseName: dict('warehouseName', i) as string,
      inProcessAt: numbers.inProcessAt[i]!,
      shipmentDate: date('shipmentDate', i),
      deliveringDate: date('deliveringDate', i),
      trackingNumber: texts.trackingNumber[i]!,
      sku: dict('sku', i) as string,
      offerId: dict('offerId', i) as string,
      productName: dict('productName', i) as string,
      quantity: numbers.quantity[i]!,
      amount: numbers.amount[i]!,
      currency: dict('currency', i) as string,
      source: dict('source', i) as OrderRow['source'],
      updatedAt: numbers.updatedAt[i]!,
      deleted: chunk.deleted[i] === 1,
    });
  }
  return rows;
}

// ---------------------------------------------------------------- the wire frame

/** 'ORD1' little-endian: a frame of this layout. */
export const ORDER_FRAME_MAGIC = 0x3144524f;
export const ORDER_FRAME_TYPE = 'application/vnd.seller-tool.orders';

type FrameHeader = {
  n: number;
  cursor: string;
  hasMore: boolean;
  remaining?: number;
  dicts: Record<OrderDictField, (string | number)[]>;
  /** Bytes per code of each dictionary column (2 or 4). */
  codeBytes: Record<OrderDictField, 2 | 4>;
  /** UTF-8 bytes of each text column. */
  textBytes: Record<OrderTextField, number>;
};

export type OrderFrame = {
  chunk: OrderChunk;
  cursor: string;
  hasMore: boolean;
  /**
   * How many changes the sync had left when this frame was read, its own rows included (only when the server counted
   * them: the frame after a sync's first): the browser makes room for them at once.
   */
  remaining?: number;
};

const align = (offset: number, to: number) => Math.ceil(offset / to) * to;

/** A chunk whose text columns are already UTF-8 bytes (each column's values joined by the separator byte). */
export type EncodedOrderChunk = Omit<OrderChunk, 'texts'> & { textBytes: Record<OrderTextField, Uint8Array> };

/**
 * Layout: magic (u32 LE), header length (u32 LE), header JSON (UTF-8), then from an 8-byte boundary the number
 * columns (Float64 LE, n each), the tombstones (n bytes), each code column from a 4-byte boundary, and the text
 * columns' UTF-8 bytes back to back. Little-endian throughout (every browser we serve).
 */
export function encodeOrderFrame({ chunk, ...frame }: OrderFrame): Uint8Array<ArrayBuffer> {
  const encoder = new TextEncoder();
  const textBytes = Object.fromEntries(ORDER_TEXT_FIELDS.map((field) => [field, encoder.encode(chunk.texts[field])])) as Record<OrderTextField, Uint8Array>;
  return writeOrderFrame({ ...chunk, textBytes }, frame);
}

/** `encodeOrderFrame` of a chunk whose texts are bytes already (the server's copy reader never makes them strings). */
export function writeOrderFrame(chunk: EncodedOrderChunk, { cursor, hasMore, remaining }: Omit<OrderFrame, 'chunk'>): Uint8Array<ArrayBuffer> {
  const encoder = new TextEncoder();
  const texts = chunk.textBytes;
  const header: FrameHeader = {
    n: chunk.n,
    cursor,
    hasMore,
    ...(remaining === undefined ? {} : { remaining }),
    dicts: Object.fromEntries(ORDER_DICT_FIELDS.map((field) => [field, chunk.dicts[field].values])) as FrameHeader['dicts'],
    codeBytes: Object.fromEntries(ORDER_DICT_FIELDS.map((field) => [field, chunk.dicts[field].codes.BYTES_PER_ELEMENT])) as FrameHeader['codeBytes'],
    textBytes: Object.fromEntries(ORDER_TEXT_FIELDS.map((field) => [field, texts[field].byteLength])) as FrameHeader['textBytes'],
  };
  const headerBytes = encoder.encode(JSON.stringify(header));
  const n = chunk.n;
  let size = align(8 + headerBytes.byteLength, 8) + ORDER_NUMBER_FIELDS.length * n * 8 + n;
  for (const field of ORDER_DICT_FIELDS) size = align(size, 4) + n * header.codeBytes[field];
  for (const field of ORDER_TEXT_FIELDS) size += texts[field].byteLength;
  const frame = new Uint8Array(size);
  const view = new DataView(frame.buffer);
  view.setUint32(0, ORDER_FRAME_MAGIC, true);
  view.setUint32(4, headerBytes.byteLength, true);
  frame.set(headerBytes, 8);
  let offset = align(8 + headerBytes.byteLength, 8);
  for (const field of ORDER_NUMBER_FIELDS) {
    frame.set(new Uint8Array(chunk.numbers[field].buffer, chunk.numbers[field].byteOffset, n * 8), offset);
    offset += n * 8;
  }
  frame.set(chunk.deleted.subarray(0, n), offset);
  offset += n;
  for (const field of ORDER_DICT_FIELDS) {
    offset = align(offset, 4);
    const codes = chunk.dicts[field].codes;
    frame.set(new Uint8Array(codes.buffer, codes.byteOffset, n * codes.BYTES_PER_ELEMENT), offset);
    offset += n * codes.BYTES_PER_ELEMENT;
  }
  for (const field of ORDER_TEXT_FIELDS) {
    frame.set(texts[field], offset);
    offset += texts[field].byteLength;
  }
  return frame;
}

const textDecoder = new TextDecoder();
const undecodedTexts = new WeakMap<OrderChunk['texts'], Partial<Record<OrderTextField, Uint8Array>>>();

/**
 * The UTF-8 bytes of a decoded frame's text column while nobody has read it as a string; null once it was (or for a
 * chunk not decoded from a frame). A column's text is decoded when first read: a warm open of a million rows
 * appends ten frames, and decoding their 68 MB of text (12-17 ms per 50,000 rows) is work the list's first full answer
 * does not need; the engine keeps such bytes and decodes a value when it is read (see TextColumn).
 */
export function undecodedText(chunk: OrderChunk, field: OrderTextField): Uint8Array | null {
  return undecodedTexts.get(chunk.texts)?.[field] ?? null;
}

/**
 * Reads a frame without copying its columns (the typed arrays are views of `buffer`; the text columns are decoded
 * when first read, see undecodedText). Throws OrderChunkError when the frame is not one or does not add up: a cut or
 * garbled answer never reaches the cache.
 */
export function decodeOrderFrame(buffer: ArrayBuffer): OrderFrame {
  if (buffer.byteLength < 8) throw new OrderChunkError('too short');
  const view = new DataView(buffer);
  if (view.getUint32(0, true) !== ORDER_FRAME_MAGIC) throw new OrderChunkError('not an order frame');
  const headerLength = view.getUint32(4, true);
  if (8 + headerLength > buffer.byteLength) throw new OrderChunkError('header cut');
  let header: FrameHeader;
  try {
    header = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 8, headerLength))) as FrameHeader;
  } catch {
    throw new OrderChunkError('header is not JSON');
  }
  const n = header.n;
  if (!Number.isInteger(n) || n < 0 || typeof header.cursor !== 'string' || typeof header.hasMore !== 'boolean') {
    throw new OrderChunkError('header fields');
  }
  const { remaining } = header;
  if (remaining !== undefined && (!Number.isInteger(remaining) || remaining < n)) throw new OrderChunkError('remaining');
  let offset = align(8 + headerLength, 8);
  const need = (bytes: number) => {
    if (offset + bytes > buffer.byteLength) throw new OrderChunkError('columns cut');
  };
  const numbers = {} as OrderChunk['numbers'];
  for (const field of ORDER_NUMBER_FIELDS) {
    need(n * 8);
    numbers[field] = new Float64Array(buffer, offset, n);
    offset += n * 8;
  }
  need(n);
  const deleted = new Uint8Array(buffer, offset, n);
  offset += n;
  const dicts = {} as OrderChunk['dicts'];
  for (const field of ORDER_DICT_FIELDS) {
    const values = header.dicts?.[field];
    const bytes = header.codeBytes?.[field];
    if (!Array.isArray(values) || (bytes !== 2 && bytes !== 4)) throw new OrderChunkError(`${field} dictionary`);
    offset = align(offset, 4);
    need(n * bytes);
    const codes = bytes === 2 ? new Uint16Array(buffer, offset, n) : new Uint32Array(buffer, offset, n);
    offset += n * bytes;
    for (let i = 0; i < n; i++) if (codes[i]! >= values.length) throw new OrderChunkError(`${field} code out of range`);
    dicts[field] = { values, codes };
  }
  const texts = {} as OrderChunk['texts'];
  const undecoded: Partial<Record<OrderTextField, Uint8Array>> = {};
  for (const field of ORDER_TEXT_FIELDS) {
    const bytes = header.textBytes?.[field];
    if (!Number.isInteger(bytes) || bytes < 0) throw new OrderChunkError(`${field} length`);
    need(bytes);
    undecoded[field] = new Uint8Array(buffer, offset, bytes);
    // Decoded when first read (see undecodedText).
    Object.defineProperty(texts, field, {
      enumerable: true,
      configurable: true,
      get: () => {
        const view = undecoded[field];
        if (view) {
          Object.defineProperty(texts, field, { enumerable: true, value: textDecoder.decode(view) });
          delete undecoded[field];
        }
        return texts[field];
      },
    });
    offset += bytes;
  }
  undecodedTexts.set(texts, undecoded);
  if (offset !== buffer.byteLength) throw new OrderChunkError('trailing bytes');
  const frame: OrderFrame = { chunk: { n, numbers, dicts, texts, deleted }, cursor: header.cursor, hasMore: header.hasMore };
  if (remaining !== undefined) frame.remaining = remaining;
  return frame;
}
