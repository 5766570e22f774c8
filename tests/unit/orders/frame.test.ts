import { decodeOrderFrame, rowsOfChunk, writeOrderFrame } from '../../../contract/orderChunk';
import type { OrderRow } from '../../../contract/orders';
import { msOfMicros, readCopyFrame } from '../../../server/areas/orders/frame';
import { generateOrders } from './generate';

/**
 * Rows as Postgres's binary COPY writes the orders sync's select (`sync_row, deleted`): the packed column holding the
 * list's columns (send forms, each value after its length), then the tombstone. What the server's frame reader gets
 * from the database.
 */
function binaryCopy(rows: readonly OrderRow[], options: { trailer?: boolean; columns?: number } = {}): Uint8Array {
  const parts: number[] = [0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00, 0, 0, 0, 0, 0, 0, 0, 0];
  const int32 = (value: number) => parts.push((value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff);
  const value = (bytes: ArrayLike<number> | null) => {
    if (bytes === null) return int32(-1);
    int32(bytes.length);
    for (let k = 0; k < bytes.length; k++) parts.push(bytes[k]!);
  };
  const bytesOf = (write: (view: DataView) => void, size: number) => {
    const view = new DataView(new ArrayBuffer(size));
    write(view);
    return new Uint8Array(view.buffer);
  };
  const time = (ms: number | null) =>
    value(ms === null ? null : bytesOf((view) => view.setBigInt64(0, BigInt(ms) * 1000n - 946_684_800_000_000n), 8));
  const text = (s: string) => value(new TextEncoder().encode(s));
  for (const row of rows) {
    const columns = options.columns ?? 2;
    parts.push(columns >> 8, columns & 0xff);
    const packedAt = parts.length;
    int32(0);
    time(row.inProcessAt);
    time(row.shipmentDate);
    time(row.deliveringDate);
    value(bytesOf((view) => view.setInt32(0, row.quantity), 4));
    value(bytesOf((view) => view.setFloat64(0, row.amount), 8));
    time(row.updatedAt);
    value(bytesOf((view) => view.setInt32(0, row.shopId), 4));
    for (const field of ['shopName', 'status', 'substatus', 'warehouseId', 'warehouseName', 'currency', 'source', 'sku', 'offerId', 'productName'] as const) text(row[field]);
    for (const field of ['id', 'postingNumber', 'orderNumber', 'orderId', 'trackingNumber'] as const) text(row[field]);
    const packed = parts.length - packedAt - 4;
    parts.splice(packedAt, 4, (packed >>> 24) & 0xff, (packed >>> 16) & 0xff, (packed >>> 8) & 0xff, packed & 0xff);
    value([row.deleted ? 1 : 0]);
  }
  if (options.trailer !== false) parts.push(0xff, 0xff);
  return new Uint8Array(parts);
}

/** The chunk a copy of `rows` becomes, as the browser reads it back out of the frame. */
function framed(copy: Uint8Array, limit: number) {
  const read = readCopyFrame(copy, limit);
  const frame = decodeOrderFrame(writeOrderFrame(read.chunk, { cursor: read.last ?? '', hasMore: read.hasMore }).slice().buffer);
  return { ...read, rows: rowsOfChunk(frame.chunk) };
}

describe('the server side of a binary frame', () => {
  const rows = generateOrders({ count: 300, seed: 7 }).map((row, i) => ({
    ...row,
    // Texts in several scripts, a value holding the frame separator, missing dates, a tombstone.
    productName: ['深圳数码 Shenzhen Digital', 'Москва FBS', '雨伞 便携 #116 ☂️', 'A\u001fB'][i % 4]!,
    trackingNumber: i % 5 === 0 ? '' : i === 3 ? '\u001f' : `TRK-${i}`,
    shipmentDate: i % 3 === 0 ? null : row.shipmentDate,
    deleted: i === 7,
  }));

  it('reads a binary copy into the same rows, a separator inside a unique-string value written as a space', () => {
    const { rows: read, hasMore, last } = framed(binaryCopy(rows), 1000);
    expect(hasMore).toBe(false);
    expect(read).toEqual(rows.map((row, i) => (i === 3 ? { ...row, trackingNumber: ' ' } : row)));
    expect(read.filter((row) => row.productName === 'A\u001fB')).toHaveLength(75);
    expect(last).toBe(`${rows.at(-1)!.updatedAt * 1000}:${rows.at(-1)!.id}`);
  });

  it('takes at most `limit` rows and says more wait when the copy holds more', () => {
    const copy = binaryCopy(rows.slice(0, 11));
    const ten = framed(copy, 10);
    expect(ten.rows.map((row) => row.id)).toEqual(rows.slice(0, 10).map((row) => row.id));
    expect([ten.hasMore, ten.last]).toEqual([true, `${rows[9]!.updatedAt * 1000}:${rows[9]!.id}`]);
    expect(framed(copy, 11).hasMore).toBe(false);
    expect(framed(binaryCopy([]), 10)).toMatchObject({ rows: [], hasMore: false, last: null });
  });

  it('refuses bytes that are not such a copy, cut short, or of other columns', () => {
    const copy = binaryCopy(rows.slice(0, 5));
    expect(() => readCopyFrame(new TextEncoder().encode('id,status\n1,awaiting'), 10)).toThrow(/not a binary copy/);
    expect(() => readCopyFrame(copy.subarray(0, copy.length - 40), 10)).toThrow(/cut short/);
    expect(() => readCopyFrame(binaryCopy(rows.slice(0, 5), { trailer: false }), 10)).toThrow(/cut short/);
    expect(() => readCopyFrame(binaryCopy(rows.slice(0, 2), { columns: 23 }), 10)).toThrow(/23 columns/);
  });

  it('turns microseconds into milliseconds as the row answer does, halves away from zero', () => {
    expect([msOfMicros(1_500), msOfMicros(1_499), msOfMicros(-1_500), msOfMicros(-1_499)]).toEqual([2, 1, -2, -1]);
    expect(msOfMicros(1_795_280_202_011_500)).toBe(1_795_280_202_012);
  });
});
