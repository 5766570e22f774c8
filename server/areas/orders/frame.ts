import { hashJoined, HashIndex } from '../../../contract/hashIndex';
import {
  codesFor,
  ORDER_DICT_FIELDS,
  ORDER_NUMBER_FIELDS,
  ORDER_TEXT_FIELDS,
  TEXT_SEPARATOR,
  textCount,
  type DictColumnData,
  type OrderChunk,
  type OrderDictField,
  type OrderNumberField,
  type OrderTextField,
} from '../../../contract/orderChunk';

/**
 * The binary sync's chunk (contract/orderChunk.ts) read from one Postgres query of a few aggregates. A full sync of a
 * million rows is twenty such chunks one after the other, so every millisecond here is paid twenty times before the
 * browser holds them all. What each side does:
 * - Postgres sends every number column as the bytes of its binary send form, row after row (timestamps as int64
 *   microseconds since 2000, no date arithmetic per row), base64-encoded (see below); Node turns those into
 *   Float64Arrays.
 * - Every repeated string of a row travels in one text aggregate (fields and rows joined by U+001F); Node
 *   dictionary-encodes it in one pass, hashing each value where it lies in the text, so only a chunk's few thousand
 *   distinct values are ever cut out as strings (splitting the text made half a million strings to hash and collect).
 * - Each unique-string column is one aggregate passed through as it is (the worker splits it when it needs to).
 * The aggregates carry no ORDER BY of their own: they read the same sorted input in one pass, so they stay aligned.
 * The number aggregates leave Postgres as base64 text, not as bytea: a bytea answers in hex (twice its size), which
 * Postgres writes and node-postgres reads as one string and then decodes, and that transfer cost more than building
 * the aggregates (measured at 50,000 rows: the query answered in 510-730 ms with hex, 290-330 ms with base64). The
 * repeated strings stay text for the same reason: as bytes they would have to travel encoded too.
 */

/** 2000-01-01, Postgres's own epoch, in microseconds since 1970. */
const POSTGRES_EPOCH_MICROS = 946_684_800_000_000;
/** int64 minimum (Postgres's '-infinity'): stands for a missing date in a timestamp column's bytes. */
const NO_TIME_SQL = `'\\x8000000000000000'::bytea`;
const SEPARATOR_SQL = `E'\\x1f'`;

type NumberKind = 'time' | 'int4' | 'float8';
const NUMBER_SQL: Record<OrderNumberField, { sql: string; kind: NumberKind }> = {
  inProcessAt: { sql: 'timestamptz_send(o.in_process_at)', kind: 'time' },
  shipmentDate: { sql: `coalesce(timestamptz_send(o.shipment_date), ${NO_TIME_SQL})`, kind: 'time' },
  deliveringDate: { sql: `coalesce(timestamptz_send(o.delivering_date), ${NO_TIME_SQL})`, kind: 'time' },
  quantity: { sql: 'int4send(o.quantity)', kind: 'int4' },
  amount: { sql: 'float8send(o.amount::float8)', kind: 'float8' },
  updatedAt: { sql: 'timestamptz_send(o.updated_at)', kind: 'time' },
};
const WIDTH: Record<NumberKind, number> = { time: 8, int4: 4, float8: 8 };
const DICT_SQL: Record<OrderDictField, string> = {
  shopId: 'o.shop_id::text',
  shopName: 'o.shop_name',
  status: 'o.status',
  substatus: 'o.substatus',
  warehouseId: 'o.warehouse_id',
  warehouseName: 'o.warehouse_name',
  currency: 'o.currency',
  source: 'o.source',
  sku: 'o.sku',
  offerId: 'o.offer_id',
  productName: 'o.product_name',
};
const TEXT_SQL: Record<OrderTextField, string> = {
  id: 'o.id',
  postingNumber: 'o.posting_number',
  orderNumber: 'o.order_number',
  orderId: 'o.order_id',
  trackingNumber: 'o.tracking_number',
};

const CHANGED_SQL = `from orders where user_id = $1 and (updated_at, id) > (timestamptz 'epoch' + $2::bigint * interval '1 microsecond', $3)`;
const SINCE_SQL = `${CHANGED_SQL} order by updated_at, id`;
/** The number of changes after a cursor (parameters: user id, cursor microseconds, cursor id): an index-only count. */
export const REMAINING_SQL = `select count(*) as n ${CHANGED_SQL}`;
/** Parameters: user id, cursor microseconds, cursor id, limit. `n` counts up to limit + 1 (more waiting). */
export const FRAME_SQL = `select c.*, (select count(*) from (select 1 ${SINCE_SQL} limit $4 + 1) x) as n
  from (select
    ${ORDER_NUMBER_FIELDS.map((field) => `encode(string_agg(${NUMBER_SQL[field].sql}, ''::bytea), 'base64') as "${field}"`).join(',\n    ')},
    string_agg(${ORDER_DICT_FIELDS.map((field) => DICT_SQL[field]).join(` || ${SEPARATOR_SQL} || `)}, ${SEPARATOR_SQL}) as dicts,
    ${ORDER_TEXT_FIELDS.map((field) => `string_agg(${TEXT_SQL[field]}, ${SEPARATOR_SQL}) as "${field}"`).join(',\n    ')},
    string_agg(case when o.deleted then '1' else '0' end, '') as deleted
  from (select * ${SINCE_SQL} limit $4) o) c`;

/**
 * Milliseconds as the row answer gives them (`(extract(epoch from t) * 1000)::bigint`: halves away from zero).
 * Exact while the microseconds fit a float64's integers (until the year 2255).
 */
export function msOfMicros(micros: number): number {
  const ms = micros / 1000;
  return ms < 0 ? -Math.round(-ms) : Math.round(ms);
}

/** A byte aggregate of FRAME_SQL: base64 text (Postgres breaks it into lines, which the decoder skips). */
function bytesOf(value: unknown): Uint8Array {
  if (typeof value !== 'string') throw new Error(`order frame: a byte column answered ${typeof value}`);
  return Buffer.from(value, 'base64');
}

/** One number column from its send-form bytes; a time column also gives its last value in microseconds (the cursor). */
function readNumbers(bytes: Uint8Array, kind: NumberKind, n: number): { values: Float64Array; lastMicros: number } {
  if (bytes.byteLength !== n * WIDTH[kind]) throw new Error(`order frame: ${bytes.byteLength} bytes of a ${kind} column for ${n} rows`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const values = new Float64Array(n);
  let micros = NaN;
  for (let i = 0; i < n; i++) {
    if (kind === 'int4') values[i] = view.getInt32(i * 4);
    else if (kind === 'float8') values[i] = view.getFloat64(i * 8);
    else {
      const high = view.getInt32(i * 8);
      const low = view.getUint32(i * 8 + 4);
      if (high === -0x80000000 && low === 0) {
        micros = NaN;
        values[i] = NaN;
      } else {
        micros = high * 0x1_0000_0000 + low + POSTGRES_EPOCH_MICROS;
        values[i] = msOfMicros(micros);
      }
    }
  }
  return { values, lastMicros: micros };
}

/**
 * A dictionary of values found inside one text, filed by a hash of their code units; a hit is confirmed by comparing
 * the units in place. Only a value seen for the first time is cut out as a string.
 */
class SpanDictionary {
  readonly values: string[] = [];
  /** Where each value lies in the text: start and end, by code. */
  private readonly spans: number[] = [];
  private readonly index = new HashIndex();
  /** The span being looked up (one matcher for every lookup: no closure per value). */
  private start = 0;
  private end = 0;
  private readonly matches = (code: number): boolean => {
    const { text, spans, start, end } = this;
    const from = spans[code * 2]!;
    if (spans[code * 2 + 1]! - from !== end - start) return false;
    for (let k = 0; k < end - start; k++) if (text.charCodeAt(from + k) !== text.charCodeAt(start + k)) return false;
    return true;
  };

  constructor(private readonly text: string) {}

  /** The code of text[start, end), whose hash is `hash`. */
  codeOf(start: number, end: number, hash: number): number {
    this.start = start;
    this.end = end;
    const found = this.index.find(hash, this.matches);
    if (found >= 0) return found;
    const code = this.values.length;
    this.values.push(this.text.slice(start, end));
    this.spans.push(start, end);
    this.index.add(hash, code);
    return code;
  }
}

/**
 * Dictionary-encodes `width` columns of `n` rows held row after row in one text (every value followed by U+001F but
 * the last). Null when it does not hold exactly n × width values (a value with the separator in it).
 */
export function encodeJoinedDicts(text: string, n: number, width: number): DictColumnData[] | null {
  const joined = hashJoined(text, n * width);
  if (!joined) return null;
  const { hashes, starts } = joined;
  const dictionaries = Array.from({ length: width }, () => new SpanDictionary(text));
  const raw = Array.from({ length: width }, () => new Uint32Array(n));
  for (let i = 0, k = 0; i < n; i++) {
    for (let f = 0; f < width; f++, k++) raw[f]![i] = dictionaries[f]!.codeOf(starts[k]!, starts[k + 1]! - 1, hashes[k]!);
  }
  return dictionaries.map(({ values }, f) => {
    const codes = codesFor(values.length, n);
    codes.set(raw[f]!);
    return { values, codes };
  });
}

/**
 * FRAME_SQL's answer (n ≥ 1 rows) as a chunk and the cursor of its last row, or null when a string value holds the
 * separator (the caller then builds the chunk from the row answer).
 */
export function readFrame(result: Record<string, unknown>, n: number): { chunk: OrderChunk; last: string } | null {
  const texts = {} as OrderChunk['texts'];
  for (const field of ORDER_TEXT_FIELDS) {
    texts[field] = result[field] as string;
    // A value that holds the separator makes a joined column unreadable.
    if (textCount(texts[field]) !== n) return null;
  }
  const columns = encodeJoinedDicts(result.dicts as string, n, ORDER_DICT_FIELDS.length);
  if (!columns) return null;
  const dicts = {} as OrderChunk['dicts'];
  ORDER_DICT_FIELDS.forEach((field, f) => {
    const column = columns[f]!;
    dicts[field] = field === 'shopId' ? { values: column.values.map(Number), codes: column.codes } : column;
  });
  const numbers = {} as OrderChunk['numbers'];
  let lastMicros = NaN;
  for (const field of ORDER_NUMBER_FIELDS) {
    const read = readNumbers(bytesOf(result[field]), NUMBER_SQL[field].kind, n);
    numbers[field] = read.values;
    if (field === 'updatedAt') lastMicros = read.lastMicros;
  }
  const flags = result.deleted as string;
  const deleted = new Uint8Array(n);
  for (let i = 0; i < n; i++) deleted[i] = flags.charCodeAt(i) === 49 ? 1 : 0;
  const lastId = texts.id.slice(texts.id.lastIndexOf(TEXT_SEPARATOR) + 1);
  return { chunk: { n, numbers, dicts, texts, deleted }, last: `${lastMicros}:${lastId}` };
}
