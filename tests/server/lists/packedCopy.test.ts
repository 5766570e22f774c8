import { decodeListFrame, rowsOfChunk, writeListFrame } from '../../../contract/listFrame';
import type { ProductRow } from '../../../contract/products';
import { PRODUCT_LIST } from '../../../contract/products';
import { ORDER_LIST, type OrderRow } from '../../../contract/orders';
import { ORDER_COPY } from '../../../server/areas/orders/frame';
import { PRODUCT_COPY, PRODUCT_SYNC_SOURCE } from '../../../server/areas/products/frame';
import type { Database } from '../../../server/db/database';
import { seedDemoUsers } from '../../../server/demo/seed';
import { copySelect, defineListCopy, readCopyFrame, type ListCopy } from '../../../server/lists/copyFrame';
import { listFrameSelect } from '../../../server/lists/frameSync';
import { ALL_DATABASE_TARGETS } from '../harness';

/** The same description read from the table's columns one by one, as the copy was before the packed column. */
const UNPACKED: ListCopy = defineListCopy({ schema: PRODUCT_COPY.schema, sql: PRODUCT_COPY.sql, cursorTime: PRODUCT_COPY.cursorTime });

const NAMES = ['a\\b', '\\x41 not hex', 'tab\tand\u001fseparator', '蓝牙耳机 Наушники 🎧', '', "it's", '\\\\double'];

describe.each(ALL_DATABASE_TARGETS)("products' packed sync row on $kind", (target) => {
  let database: Database;
  let dispose: () => Promise<void>;
  let userId: number;

  beforeAll(async () => {
    ({ database, dispose } = await target.open());
    await seedDemoUsers(database.db);
    userId = (await database.query<{ id: number }>(`select id from users where username = 'seller'`))[0]!.id;
    await database.query(
      `insert into products (id, user_id, shop_id, shop_name, product_id, offer_id, sku, name, barcode, image, status, moderation, visibility,
         currency, price, old_price, min_price, fbs_stock, fbo_stock, error_count, units_30d, revenue_30d, created_at, changed_at, deleted, updated_at)
       select 's:' || i, $1, 7 + i % 2, '店铺 ' || i % 2, (100 + i)::text, 'OFFER\\' || i, '', ($2::text[])[1 + i % 7], 'B' || i, 'https://a.example/' || i || '.jpg',
         'selling', 'approved', 'visible', 'CNY', 12345678.91 - i, 0, 0.01, -5 + i, 2147483647, 0, i, 99.99,
         timestamptz '1999-12-31 23:59:59.999999+00' + i * interval '1 day', timestamptz '2026-01-01 00:00:00.123456+00', i = 3,
         timestamptz '2026-02-01 00:00:00+00' + i * interval '1 second'
       from generate_series(0, 13) as i`,
      [userId, NAMES],
    );
  });
  afterAll(() => dispose());

  const read = async (copy: ListCopy) => {
    const select = listFrameSelect({ ...PRODUCT_SYNC_SOURCE, copy }, userId, -1n, '', 100);
    const frame = await database.copyBinary(select, (bytes) => readCopyFrame(copy, bytes, 100));
    const decoded = decodeListFrame(PRODUCT_LIST, writeListFrame(PRODUCT_LIST, frame.chunk, { cursor: '', hasMore: false }).slice().buffer);
    return { rows: rowsOfChunk<ProductRow>(PRODUCT_LIST, decoded.chunk), last: frame.last };
  };

  it('selects the packed column and reads the rows exactly as the columns give them', async () => {
    expect(copySelect(PRODUCT_COPY, 'products')).toBe('select sync_row, deleted from products');
    const packed = await read(PRODUCT_COPY);
    expect(packed).toEqual(await read(UNPACKED));
    expect(packed.rows).toHaveLength(14);
    const row = packed.rows[1]!;
    expect(row).toMatchObject({ id: 's:1', offerId: 'OFFER\\1', name: '\\x41 not hex', shopId: 8, shopName: '店铺 1', price: 12345677.91, minPrice: 0.01, fbsStock: -4, fboStock: 2147483647 });
    expect(row.createdAt).toBe(Date.parse('2000-01-01T23:59:59.999Z') + 1);
    expect(packed.rows.map((r) => r.name)).toEqual([...NAMES, ...NAMES].map((name) => name.replace('\u001f', ' ')));
    expect(packed.rows.filter((r) => r.deleted).map((r) => r.id)).toEqual(['s:3']);
  });

  it("reads orders' packed rows exactly as their columns give them, missing dates included", async () => {
    await database.query(
      `insert into orders (id, user_id, shop_id, shop_name, posting_number, order_number, order_id, status, substatus, warehouse_id, warehouse_name,
         in_process_at, shipment_date, delivering_date, tracking_number, sku, offer_id, product_name, quantity, amount, currency, source, deleted, updated_at)
       select 'o:' || i, $1, 3, 'Москва FBS', 'P-' || i, 'O\\' || i, (900 + i)::text, 'delivering', '', 'w1', '仓库 1',
         timestamptz '2026-01-01 00:00:00.0005+00' + i * interval '1 hour', case when i % 2 = 0 then null else timestamptz '2026-01-02 00:00:00+00' end, null,
         '', 'SKU' || i, 'OF' || i, ($2::text[])[1 + i % 7], 1 + i, 1234.5 * i, 'RUB', 'ozon', false, timestamptz '2026-02-01 00:00:00+00' + i * interval '1 second'
       from generate_series(0, 9) as i`,
      [userId, NAMES],
    );
    const unpacked = defineListCopy({ schema: ORDER_COPY.schema, sql: ORDER_COPY.sql, cursorTime: ORDER_COPY.cursorTime });
    const readOrders = async (copy: ListCopy) => {
      const select = listFrameSelect({ copy, table: 'orders', maxLimit: 100 }, userId, -1n, '', 100);
      const frame = await database.copyBinary(select, (bytes) => readCopyFrame(copy, bytes, 100));
      const decoded = decodeListFrame(ORDER_LIST, writeListFrame(ORDER_LIST, frame.chunk, { cursor: '', hasMore: false }).slice().buffer);
      return rowsOfChunk<OrderRow>(ORDER_LIST, decoded.chunk);
    };
    const rows = await readOrders(ORDER_COPY);
    expect(rows).toEqual(await readOrders(unpacked));
    expect(rows).toHaveLength(10);
    expect(rows[0]).toMatchObject({ id: 'o:0', orderNumber: 'O\\0', shipmentDate: null, deliveringDate: null, amount: 0 });
    expect(rows[1]).toMatchObject({ shipmentDate: Date.parse('2026-01-02T00:00:00Z'), inProcessAt: Date.parse('2026-01-01T01:00:00.001Z'), amount: 1234.5 });
  });

  it('follows every change of a row: Postgres recomputes it on update', async () => {
    await database.query(`update products set name = 'new \\ name', price = 1.5, fbs_stock = 0, shop_name = '', deleted = true, updated_at = timestamptz '2026-03-01 00:00:00+00' where id = 's:2'`);
    const packed = await read(PRODUCT_COPY);
    expect(packed).toEqual(await read(UNPACKED));
    expect(packed.rows.at(-1)).toMatchObject({ id: 's:2', name: 'new \\ name', price: 1.5, fbsStock: 0, shopName: '', deleted: true, updatedAt: Date.parse('2026-03-01T00:00:00Z') });
    expect(packed.last).toBe(`${Date.parse('2026-03-01T00:00:00Z') * 1000}:s:2`);
  });
});
