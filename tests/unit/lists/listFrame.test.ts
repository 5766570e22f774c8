import { chunkOfRows, decodeListFrame, encodeListFrame, ListFrameError, rowsOfChunk } from '../../../contract/listFrame';
import { defineListSchema, dict, ListSchemaError, text } from '../../../contract/listSchema';
import { ORDER_LIST } from '../../../contract/orders';
import { generateProducts, PRODUCT_LIST, type ProductRow } from './products';

const roundTrip = (rows: ProductRow[], remaining?: number) => {
  const bytes = encodeListFrame(PRODUCT_LIST, { chunk: chunkOfRows(PRODUCT_LIST, rows), cursor: 'c9', hasMore: true, ...(remaining === undefined ? {} : { remaining }) });
  return decodeListFrame(PRODUCT_LIST, bytes.slice().buffer);
};

describe('list frames of any schema', () => {
  it('gives a products list back exactly: nullable numbers, thirds, number dictionaries, texts', () => {
    const rows = generateProducts(2_000);
    rows[3] = { ...rows[3]!, deleted: true, title: 'a\u001fb' };
    const frame = roundTrip(rows, 5_000);
    expect(frame).toMatchObject({ cursor: 'c9', hasMore: true, remaining: 5_000 });
    const back = rowsOfChunk<ProductRow>(PRODUCT_LIST, frame.chunk);
    expect(back[3]).toEqual({ ...rows[3], title: 'a b' });
    expect(back.filter((_, i) => i !== 3)).toEqual(rows.filter((_, i) => i !== 3));
    expect(back.filter((row) => row.rating === null)).toHaveLength(400);
  });

  it('gives an empty chunk back', () => {
    expect(rowsOfChunk(PRODUCT_LIST, roundTrip([]).chunk)).toEqual([]);
  });

  it('refuses a frame of another list', () => {
    const bytes = encodeListFrame(PRODUCT_LIST, { chunk: chunkOfRows(PRODUCT_LIST, generateProducts(10)), cursor: '', hasMore: false });
    expect(() => decodeListFrame(ORDER_LIST, bytes.slice().buffer)).toThrow(ListFrameError);
  });

  it('refuses a description whose key, search fields or filters do not fit its columns', () => {
    const columns = { id: text(), status: dict() };
    expect(() => defineListSchema({ name: 'x', columns, key: 'status' as 'id', searchFields: [], filters: {}, sorts: [] })).toThrow(ListSchemaError);
    expect(() => defineListSchema({ name: 'x', columns, key: 'id', searchFields: [], filters: { s: { kind: 'range', column: 'status' } }, sorts: [] })).toThrow(
      /filter s needs a number column/,
    );
    expect(() => defineListSchema({ name: 'x', columns, key: 'id', searchFields: [], filters: {}, sorts: ['nope' as 'id'] })).toThrow(/sort nope/);
  });
});
