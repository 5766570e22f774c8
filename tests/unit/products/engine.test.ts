import { chunkOfRows } from '../../../contract/listFrame';
import { PRODUCT_LIST, PRODUCT_SEARCH_COLUMNS, PRODUCT_STATUSES, PRODUCT_VISIBILITIES, type ProductRow } from '../../../contract/products';
import type { NumberRange } from '../../../workers/lists/types';
import { ProductEngine, type ProductQuery } from '../../../workers/products/area';
import { seededRandom } from '../orders/generate';

const NAMES = ['Чехол для iPhone 15', '手机壳 透明', 'Кабель USB-C 2м', '儿童玩具车', 'Рюкзак городской', 'LED лампа'];

function generate(count: number, seed = 7): ProductRow[] {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  return Array.from({ length: count }, (_, i) => {
    const price = Math.round(random() * 2_000_000) / 100;
    const shopId = 1 + (i % 3);
    return {
      id: `${shopId}:${100_000 + i}`,
      productId: String(100_000 + i),
      offerId: `SKU-${shopId}-${String(i).padStart(5, '0')}`,
      sku: i % 11 === 0 ? '' : String(1_000_000_000 + i),
      name: `${pick(NAMES)} ${i}`,
      barcode: `OZN${100_000 + i}`,
      image: i % 13 === 0 ? '' : `https://cdn.example.com/${i}.jpg`,
      shopId,
      shopName: `店铺 ${shopId}`,
      status: pick(PRODUCT_STATUSES),
      moderation: pick(['approved', 'declined', 'moderating']),
      visibility: pick(PRODUCT_VISIBILITIES),
      currency: pick(['CNY', 'RUB']),
      price,
      oldPrice: random() < 0.5 ? 0 : Math.round(price * 1.3 * 100) / 100,
      minPrice: random() < 0.7 ? 0 : Math.round(price * 0.8 * 100) / 100,
      fbsStock: random() < 0.3 ? 0 : Math.floor(random() * 500),
      fboStock: Math.floor(random() * 20),
      errorCount: random() < 0.1 ? 1 + Math.floor(random() * 3) : 0,
      units30d: Math.floor(random() * 40),
      revenue30d: Math.round(random() * 100_000) / 100,
      createdAt: Date.UTC(2025, 0, 1) + Math.floor(random() * 300) * 86_400_000,
      changedAt: Date.UTC(2025, 6, 1) + Math.floor(random() * 9_000) * 60_000,
      updatedAt: Date.UTC(2025, 9, 1) + i,
      deleted: false,
    };
  });
}

/** The obvious implementation the engine must agree with: Array.filter and a stable Array.sort. */
function reference(rows: readonly ProductRow[], query: ProductQuery): string[] {
  const f = query.filters ?? {};
  const anyOf = <T>(values: readonly T[] | undefined, value: T) => !values || values.length === 0 || values.includes(value);
  const within = (range: NumberRange | undefined, value: number) => !range || (value >= (range.from ?? -Infinity) && value <= (range.to ?? Infinity));
  const needle = (query.search ?? '').trim().toLowerCase();
  const result = rows.filter(
    (row) =>
      !row.deleted &&
      anyOf(f.shopIds, row.shopId) &&
      anyOf(f.statuses, row.status) &&
      anyOf(f.visibilities, row.visibility) &&
      within(f.price, row.price) &&
      within(f.fbsStock, row.fbsStock) &&
      within(f.fboStock, row.fboStock) &&
      within(f.errorCount, row.errorCount) &&
      (needle === '' || PRODUCT_SEARCH_COLUMNS.some((column) => row[column].toLowerCase().includes(needle))),
  );
  const sort = query.sort;
  if (sort) {
    const sign = sort.direction === 'asc' ? 1 : -1;
    result.sort((a, b) => {
      const x = a[sort.column];
      const y = b[sort.column];
      return x === y ? 0 : (x < y ? -1 : 1) * sign;
    });
  }
  return result.map((row) => row.id);
}

describe('the list engine over the product columns', () => {
  const rows = generate(3_000);
  const engine = new ProductEngine();
  beforeAll(() => {
    engine.appendChunk(chunkOfRows(PRODUCT_LIST, rows.slice(0, 1_000)));
    engine.appendChunk(chunkOfRows(PRODUCT_LIST, rows.slice(1_000)));
  });

  const run = async (query: ProductQuery) => {
    const result = await engine.query(query);
    if (result.status !== 'done') throw new Error('superseded');
    return engine.window(result.handle, 0, result.total).rows.map((row) => row.id);
  };

  it.each<[string, ProductQuery]>([
    ['every product, newest change first', { sort: { column: 'changedAt', direction: 'desc' } }],
    ['by price, ascending', { sort: { column: 'price', direction: 'asc' } }],
    ['by name (UTF-16 order)', { sort: { column: 'name', direction: 'asc' } }],
    ['by 30-day revenue in one shop', { filters: { shopIds: [2] }, sort: { column: 'revenue30d', direction: 'desc' } }],
    ['archived or declined, by offer id', { filters: { statuses: ['archived', 'failed'] }, sort: { column: 'offerId', direction: 'asc' } }],
    ['visible, in stock, within a price range', { filters: { visibilities: ['visible'], fbsStock: { from: 1 }, price: { from: 100, to: 5_000 } }, sort: { column: 'fbsStock', direction: 'desc' } }],
    ['with Ozon errors', { filters: { errorCount: { from: 1 } }, sort: { column: 'errorCount', direction: 'desc' } }],
    ['a search in Cyrillic', { search: 'кабель', sort: { column: 'units30d', direction: 'asc' } }],
    ['a search by offer id', { search: 'sku-3-0001', sort: null }],
    ['a search by barcode', { search: 'OZN1002', sort: { column: 'createdAt', direction: 'asc' } }],
    ['a search by SKU', { search: '10000029', sort: null }],
  ])('%s', async (_, query) => {
    expect(await run(query)).toEqual(reference(rows, query));
  });

  it('drops a tombstoned product and shows a changed price in its place', async () => {
    const changed = { ...rows[5]!, price: 0.5 };
    engine.upsert([changed, { ...rows[6]!, deleted: true }]);
    const ids = await run({ sort: { column: 'price', direction: 'asc' } });
    expect(ids[0]).toBe(changed.id);
    expect(ids).not.toContain(rows[6]!.id);
  });
});
