import 'fake-indexeddb/auto';
import { readSheet } from 'read-excel-file/node';
import { chunkOfRows, encodeListFrame } from '../../../contract/listFrame';
import { PRODUCT_FRAME_TYPE, PRODUCT_LIST, type ProductRow } from '../../../contract/products';
import { createDataApi, createWorkerCore } from '../../../workers/dataApi';
import type { ProductExportColumn, ProductQuery } from '../../../workers/products/area';
import { createFakeServer } from '../../../workers/testing/fakeServer';

const CREATED = Date.UTC(2025, 2, 14, 9, 30);

function product(i: number, name: string, patch: Partial<ProductRow> = {}): ProductRow {
  return {
    id: `1001:${500 + i}`,
    productId: String(500 + i),
    offerId: `SKU-${i}`,
    sku: String(900_000 + i),
    name,
    barcode: `OZN${i}`,
    image: '',
    shopId: 1001,
    shopName: '义乌小店',
    status: 'selling',
    moderation: 'approved',
    visibility: 'visible',
    currency: 'CNY',
    price: 100 + i + 0.5,
    oldPrice: 0,
    minPrice: 0,
    fbsStock: i * 3,
    fboStock: 0,
    errorCount: 0,
    units30d: i,
    revenue30d: 0,
    createdAt: CREATED + i * 60_000,
    changedAt: CREATED,
    updatedAt: CREATED,
    deleted: false,
    ...patch,
  };
}

/** Ids the worker gets from a fresh user each test: the cache is per user. */
let userId = 700;

async function productsOf(rows: ProductRow[]) {
  const server = createFakeServer({
    '/product/sync': () => ({
      status: 200,
      blob: new Blob([encodeListFrame(PRODUCT_LIST, { chunk: chunkOfRows(PRODUCT_LIST, rows), cursor: 'end', hasMore: false })], { type: PRODUCT_FRAME_TYPE }),
    }),
  });
  const api = createDataApi(createWorkerCore({ fetch: server.fetch }));
  userId += 1;
  await api.products.open(userId);
  await api.products.sync();
  return api.products;
}

async function resultOf(products: Awaited<ReturnType<typeof productsOf>>, query: ProductQuery) {
  const result = await products.query(query);
  if (result.status !== 'done') throw new Error('the query was superseded');
  return result;
}

const COLUMNS: ProductExportColumn[] = [
  { id: 'name', header: '名称' },
  { id: 'offerId', header: '货号' },
  { id: 'status', header: '状态', labels: { selling: '在售', archived: '已归档' } },
  { id: 'price', header: '价格' },
  { id: 'fbsStock', header: 'FBS 库存' },
  { id: 'createdAt', header: '创建时间' },
];

describe('export of the product list', () => {
  it('writes the current result as an Excel sheet: header, numbers, labels, dates, Chinese and Cyrillic names', async () => {
    const products = await productsOf([
      product(1, '手机壳 透明 <防摔>'),
      product(2, 'Чехол для iPhone 15 & кабель', { status: 'archived' }),
      product(3, '  儿童玩具车  '),
    ]);
    const { handle, total } = await resultOf(products, { sort: { column: 'offerId', direction: 'asc' } });
    expect(total).toBe(3);
    const progress: [number, number][] = [];
    const file = await products.exportXlsx(handle, COLUMNS, '商品', (done, all) => progress.push([done, all]));

    expect(file.type).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const sheet = await readSheet(Buffer.from(await file.arrayBuffer()), 1, { trim: false });
    expect(sheet[0]).toEqual(['名称', '货号', '状态', '价格', 'FBS 库存', '创建时间']);
    expect(sheet.slice(1).map((row) => row.slice(0, 5))).toEqual([
      ['手机壳 透明 <防摔>', 'SKU-1', '在售', 101.5, 3],
      ['Чехол для iPhone 15 & кабель', 'SKU-2', '已归档', 102.5, 6],
      ['  儿童玩具车  ', 'SKU-3', '在售', 103.5, 9],
    ]);
    // A date-time cell in the writer's local time, read back as that wall-clock time.
    const created = new Date(CREATED + 60_000);
    const wallClock = new Date(created.getTime() - created.getTimezoneOffset() * 60_000);
    const cell = sheet[1]![5];
    if (!(cell instanceof Date)) throw new Error(`not a date: ${String(cell)}`);
    // Excel keeps days as a double: the read-back time is the written one to the second.
    expect(Math.round(cell.getTime() / 1000) * 1000).toBe(wallClock.getTime());
    expect(progress.at(-1)).toEqual([3, 3]);
  });

  it('follows the query: a filtered result exports only its rows; an empty cell keeps its column', async () => {
    const products = await productsOf([product(1, 'Кабель USB-C 2м'), product(2, '数据线', { status: 'archived' }), product(3, '')]);
    const { handle } = await resultOf(products, { filters: { statuses: ['selling'] }, sort: { column: 'offerId', direction: 'asc' } });
    const sheet = await readSheet(Buffer.from(await (await products.exportXlsx(handle, COLUMNS, 'Products')).arrayBuffer()));
    expect(sheet.map((row) => row.slice(0, 2))).toEqual([
      ['名称', '货号'],
      ['Кабель USB-C 2м', 'SKU-1'],
      [null, 'SKU-3'],
    ]);
  });

  it('writes the same result as CSV with the labels', async () => {
    const products = await productsOf([product(1, '手机壳, "透明"'), product(2, 'Чехол', { status: 'archived' })]);
    const { handle } = await resultOf(products, { sort: { column: 'offerId', direction: 'asc' } });
    const file = await products.exportCsv(handle, COLUMNS.slice(0, 3));
    expect(file.type).toBe('text/csv;charset=utf-8');
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await file.arrayBuffer());
    expect(text).toBe('\uFEFF名称,货号,状态\r\n"手机壳, ""透明""",SKU-1,在售\r\nЧехол,SKU-2,已归档\r\n');
  });

  it('writes texts a spreadsheet would run as formulas as text; negative numbers stay numbers', async () => {
    const names = ['=HYPERLINK("http://evil.example","x")', '+1+1', '-2+3', '@SUM(A1)', '\tTab', '\rCR', 'plain -not a formula'];
    const products = await productsOf(names.map((name, i) => product(i, name, { revenue30d: -5 })));
    const { handle } = await resultOf(products, { sort: { column: 'offerId', direction: 'asc' } });
    const columns: ProductExportColumn[] = [
      { id: 'name', header: 'name' },
      { id: 'revenue30d', header: 'revenue' },
    ];
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await (await products.exportCsv(handle, columns)).arrayBuffer());
    expect(text.slice(1).split('\r\n').slice(1, -1)).toEqual([
      `"'=HYPERLINK(""http://evil.example"",""x"")",-5`,
      `'+1+1,-5`,
      `'-2+3,-5`,
      `'@SUM(A1),-5`,
      `'\tTab,-5`,
      `"'\rCR",-5`,
      'plain -not a formula,-5',
    ]);
  });

  it('writes every number as JavaScript prints it and every time as ISO 8601 UTC to the millisecond', async () => {
    const prices = [0.1, 0.07, 19.99, 20, 100.5, 1234567.89, 0.3 + 0.6, 1e-7, 12.345, 99999999999.99];
    const times = [CREATED, CREATED + 999, Date.UTC(1969, 11, 31, 23, 59, 59, 1), Date.UTC(2026, 1, 28, 23, 59, 59, 999), Date.UTC(2028, 1, 29, 12, 0, 0, 5)];
    const rows = prices.map((price, i) => product(i, `p${i}`, { price, revenue30d: -price, createdAt: times[i % times.length]! }));
    const products = await productsOf(rows);
    const { handle } = await resultOf(products, { sort: { column: 'offerId', direction: 'asc' } });
    const columns: ProductExportColumn[] = [
      { id: 'offerId', header: 'offer' },
      { id: 'price', header: 'price' },
      { id: 'revenue30d', header: 'revenue' },
      { id: 'createdAt', header: 'created' },
    ];
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await (await products.exportCsv(handle, columns)).arrayBuffer());
    const lines = text.slice(1).split('\r\n').slice(1, -1);
    const expected = [...rows]
      .sort((a, b) => (a.offerId < b.offerId ? -1 : 1))
      .map((row) => [row.offerId, String(row.price), String(row.revenue30d), new Date(row.createdAt).toISOString()].join(','));
    expect(lines).toEqual(expected);
  });
});
