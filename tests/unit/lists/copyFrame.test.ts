import { decodeListFrame, rowsOfChunk, writeListFrame } from '../../../contract/listFrame';
import type { AnyListSchema, ListRow } from '../../../contract/listSchema';
import { copySelect, defineListCopy, readCopyFrame } from '../../../server/lists/copyFrame';
import { generateProducts, PRODUCT_LIST, type ProductRow } from './products';

/**
 * Rows as Postgres's binary COPY sends a list's columns: each value in its source's send form, after its length.
 * `packed`: the columns inside one bytea value (a packed column, packedRowSql), `cut` bytes short of its length.
 */
function binaryCopy(schema: AnyListSchema, rows: readonly ListRow[], packed?: { cut: number }): Uint8Array {
  const parts: number[] = [0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00, 0, 0, 0, 0, 0, 0, 0, 0];
  const int32 = (value: number) => parts.push((value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff);
  const bytes = (write: (view: DataView) => void, size: number) => {
    const view = new DataView(new ArrayBuffer(size));
    write(view);
    int32(size);
    parts.push(...new Uint8Array(view.buffer));
  };
  const fields = [...schema.numberFields, ...schema.dictFields, ...schema.textFields];
  for (const row of rows) {
    parts.push(0, packed ? 2 : fields.length + 1);
    let lengthAt = -1;
    if (packed) {
      lengthAt = parts.length;
      int32(0);
    }
    for (const field of fields) {
      const value = row[field] as string | number | null;
      const source = schema.columns[field]!.source;
      if (value === null) int32(-1);
      else if (source === 'text') {
        const text = new TextEncoder().encode(value as string);
        int32(text.length);
        parts.push(...text);
      } else if (source === 'int4') bytes((view) => view.setInt32(0, value as number), 4);
      else if (source === 'float8') bytes((view) => view.setFloat64(0, value as number), 8);
      else bytes((view) => view.setBigInt64(0, BigInt(value as number) * 1000n - 946_684_800_000_000n), 8);
    }
    if (packed) {
      const length = parts.length - lengthAt - 4 - packed.cut;
      parts.splice(lengthAt, 4, (length >>> 24) & 0xff, (length >>> 16) & 0xff, (length >>> 8) & 0xff, length & 0xff);
    }
    bytes((view) => view.setUint8(0, row.deleted ? 1 : 0), 1);
  }
  parts.push(0xff, 0xff);
  return new Uint8Array(parts);
}

const PRODUCT_COPY = defineListCopy({
  schema: PRODUCT_LIST,
  sql: { category: 'category', sku: 'sku', price: 'price::float8', title: 'title', brandId: 'brand_id', stock: 'stock', rating: 'rating::float8', listedAt: 'listed_at', brand: 'brand' },
  cursorTime: 'listedAt',
});

describe("the server's copy reader over a products-like description", () => {
  it('selects the columns in the frame layout and reads a copy into a frame that gives the rows back', () => {
    expect(copySelect(PRODUCT_COPY, 'products')).toBe(
      'select price::float8, stock, rating::float8, listed_at, category, brand_id, brand, sku, title, deleted from products',
    );
    const rows = generateProducts(500, 3);
    rows[9] = { ...rows[9]!, deleted: true, title: 'x\u001fy' };
    const read = readCopyFrame(PRODUCT_COPY, binaryCopy(PRODUCT_LIST, rows), 400);
    expect(read.hasMore).toBe(true);
    expect(read.last).toBe(`${rows[399]!.listedAt * 1000}:${rows[399]!.sku}`);
    const frame = decodeListFrame(PRODUCT_LIST, writeListFrame(PRODUCT_LIST, read.chunk, { cursor: read.last!, hasMore: true }).slice().buffer);
    const back = rowsOfChunk<ProductRow>(PRODUCT_LIST, frame.chunk);
    expect(back[9]).toEqual({ ...rows[9], title: 'x y' });
    expect(back.filter((_, i) => i !== 9)).toEqual(rows.slice(0, 400).filter((_, i) => i !== 9));
  });

  it('reads the same rows from a packed column, and refuses one that does not hold exactly the columns', () => {
    const packed = defineListCopy({ ...PRODUCT_COPY, packed: 'sync_row' });
    expect(copySelect(packed, 'products')).toBe('select sync_row, deleted from products');
    const rows = generateProducts(50, 4);
    rows[3] = { ...rows[3]!, deleted: true };
    expect(readCopyFrame(packed, binaryCopy(PRODUCT_LIST, rows, { cut: 0 }), 40)).toEqual(readCopyFrame(PRODUCT_COPY, binaryCopy(PRODUCT_LIST, rows), 40));
    expect(() => readCopyFrame(packed, binaryCopy(PRODUCT_LIST, rows, { cut: 1 }), 40)).toThrow(/sync_row does not hold the row's 9 columns/);
    expect(() => readCopyFrame(packed, binaryCopy(PRODUCT_LIST, rows), 40)).toThrow(/a row of 10 columns, expected 2/);
  });

  it('refuses a null in a column that is not nullable, naming it', () => {
    const rows = generateProducts(3).map((row, i) => (i === 1 ? { ...row, stock: null } : row));
    expect(() => readCopyFrame(PRODUCT_COPY, binaryCopy(PRODUCT_LIST, rows), 10)).toThrow(/no stock/);
  });

  it('refuses a description without the SQL of a column or with a cursor that is not a time', () => {
    expect(() => defineListCopy({ schema: PRODUCT_LIST, sql: { ...PRODUCT_COPY.sql, brand: undefined as unknown as string }, cursorTime: 'listedAt' })).toThrow(/no SQL for brand/);
    expect(() => defineListCopy({ schema: PRODUCT_LIST, sql: PRODUCT_COPY.sql, cursorTime: 'price' })).toThrow(/not a time column/);
  });
});
