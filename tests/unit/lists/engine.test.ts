import 'fake-indexeddb/auto';
import { chunkOfRows, decodeListFrame, encodeListFrame } from '../../../contract/listFrame';
import type { FiltersOf } from '../../../contract/listSchema';
import { ListCache } from '../../../workers/lists/cache';
import { ListEngine } from '../../../workers/lists/engine';
import { loadList, syncList, type ReceivedFrame } from '../../../workers/lists/sync';
import type { ListQuery, ListQueryResult } from '../../../workers/lists/types';
import { generateProducts, PRODUCT_LIST, type ProductRow } from './products';

type ProductQuery = ListQuery<FiltersOf<(typeof PRODUCT_LIST)['columns'], (typeof PRODUCT_LIST)['filters']>, keyof ProductRow & string>;

/** The obvious answer the engine must agree with, written for products alone. */
function reference(rows: readonly ProductRow[], query: ProductQuery): ProductRow[] {
  const { categories, brandIds, price, rating } = query.filters ?? {};
  const needle = (query.search ?? '').trim().toLowerCase();
  const within = (range: { from?: number; to?: number } | undefined, value: number | null) =>
    !range || (value !== null && value >= (range.from ?? -Infinity) && value <= (range.to ?? Infinity));
  const result = rows.filter(
    (row) =>
      !row.deleted &&
      (!categories?.length || categories.includes(row.category)) &&
      (!brandIds?.length || brandIds.includes(row.brandId)) &&
      within(price, row.price) &&
      within(rating, row.rating) &&
      (needle === '' || row.title.toLowerCase().includes(needle) || row.brand.toLowerCase().includes(needle)),
  );
  const sort = query.sort;
  if (!sort) return result;
  const sign = sort.direction === 'asc' ? 1 : -1;
  return result.sort((a, b) => {
    const x = a[sort.column as keyof ProductRow];
    const y = b[sort.column as keyof ProductRow];
    if (x === y) return 0;
    if (x === null) return sign;
    if (y === null) return -sign;
    return (x! < y! ? -1 : 1) * sign;
  });
}

function done(result: ListQueryResult) {
  if (result.status !== 'done') throw new Error('superseded');
  return result;
}

async function answer(engine: ListEngine<ProductRow, ProductQuery>, query: ProductQuery): Promise<ProductRow[]> {
  const { handle, total } = done(await engine.query(query));
  return engine.window(handle, 0, total).rows;
}

function received(rows: readonly ProductRow[], cursor: string, hasMore: boolean): ReceivedFrame {
  const bytes = encodeListFrame(PRODUCT_LIST, { chunk: chunkOfRows(PRODUCT_LIST, rows), cursor, hasMore }).slice().buffer as ArrayBuffer;
  return { ...decodeListFrame(PRODUCT_LIST, bytes), blob: new Blob([bytes]) };
}

const QUERIES: ProductQuery[] = [
  {},
  { sort: { column: 'rating', direction: 'asc' } },
  { sort: { column: 'rating', direction: 'desc' } },
  { sort: { column: 'brand', direction: 'asc' } },
  { sort: { column: 'title', direction: 'desc' } },
  { filters: { categories: ['toy', 'bag'] }, sort: { column: 'price', direction: 'desc' } },
  { filters: { brandIds: [902], price: { from: 100, to: 5_000 } }, sort: { column: 'listedAt', direction: 'asc' } },
  { filters: { rating: { from: 2.5 } }, sort: { column: 'stock', direction: 'desc' } },
  { search: '手机壳', sort: { column: 'sku', direction: 'asc' } },
  { search: 'сбер', filters: { categories: ['cable'] } },
  { search: 'MINI 1', sort: { column: 'category', direction: 'asc' } },
];

describe('the list engine over a products-like description', () => {
  it('filters, searches and sorts appended frames and single rows as the obvious implementation does', async () => {
    const engine = new ListEngine<ProductRow, ProductQuery>(PRODUCT_LIST, { sliceRows: 1_000 });
    const rows = generateProducts(6_000);
    engine.appendChunk(received(rows.slice(0, 4_000), 'a', true).chunk);
    engine.upsert(rows.slice(4_000));
    for (const query of QUERIES) expect(await answer(engine, query)).toEqual(reference(rows, query));

    // Changes in place, a tombstone and a row removed by key.
    const changed = [{ ...rows[10]!, price: 1, brand: 'Сбер', brandId: 904 }, { ...rows[20]!, deleted: true }];
    engine.upsert(changed);
    engine.remove([rows[30]!.sku]);
    const now = rows.map((row, i) => (i === 10 ? changed[0]! : i === 20 || i === 30 ? { ...row, deleted: true } : row));
    for (const query of QUERIES) expect(await answer(engine, query)).toEqual(reference(now, query));
    expect(engine.get(rows[10]!.sku)).toEqual(changed[0]);
    expect(engine.get(rows[20]!.sku)).toBeUndefined();
    expect(engine.pairs('brandId', 'brand')).toContainEqual([904, 'Сбер']);
  });

  it('builds the order of a sortAhead text column in slices, extends it with appended rows and drops it on a change', async () => {
    let pauses = 0;
    let duringPause: () => Promise<unknown> | void = () => undefined;
    const pause = async () => {
      pauses++;
      await duringPause();
    };
    const engine = new ListEngine<ProductRow, ProductQuery>(PRODUCT_LIST, { textOrderSliceMs: 0 });
    const rows = generateProducts(6_000, 3);
    engine.appendChunk(received(rows.slice(0, 5_000), 'a', true).chunk);
    expect(await engine.prepareTextOrders(pause)).toBe(true);
    expect(pauses).toBeGreaterThan(0);
    expect(engine.textOrdersAhead().map(({ sort, order }) => [sort, order.length])).toEqual([[{ column: 'title', direction: 'asc' }, 5_000]]);
    const byTitle = (direction: 'asc' | 'desc'): ProductQuery => ({ sort: { column: 'title', direction } });
    for (const direction of ['asc', 'desc'] as const) expect(await answer(engine, byTitle(direction))).toEqual(reference(rows.slice(0, 5_000), byTitle(direction)));

    // Rows appended: the order is extended, not built again, and still the reference's.
    engine.appendChunk(received(rows.slice(5_000), 'b', false).chunk);
    expect(engine.textOrdersAhead()).toEqual([]);
    expect(await engine.prepareTextOrders(pause)).toBe(true);
    for (const direction of ['asc', 'desc'] as const) expect(await answer(engine, byTitle(direction))).toEqual(reference(rows, byTitle(direction)));

    // A query that needs an order being built finishes it rather than starting over.
    engine.upsert([{ ...rows[9]!, title: 'yyyy' }]);
    const withNine = rows.map((row, i) => (i === 9 ? { ...row, title: 'yyyy' } : row));
    let answered: ProductRow[] = [];
    duringPause = () => {
      duringPause = () => undefined;
      return answer(engine, byTitle('desc')).then((found) => (answered = found));
    };
    expect(await engine.prepareTextOrders(pause)).toBe(false);
    expect(answered).toEqual(reference(withNine, byTitle('desc')));
    expect(engine.textOrdersAhead().map(({ order }) => order.length)).toEqual([6_000]);

    // A row changed while an order is being built: the build stops, and the sort answers the changed rows.
    const renamed = { ...rows[7]!, title: 'аааа first now' };
    engine.upsert([{ ...rows[8]!, title: 'zzzz' }]);
    duringPause = () => {
      duringPause = () => undefined;
      engine.upsert([renamed]);
    };
    expect(await engine.prepareTextOrders(pause)).toBe(false);
    const now = withNine.map((row, i) => (i === 7 ? renamed : i === 8 ? { ...row, title: 'zzzz' } : row));
    expect(await answer(engine, byTitle('asc'))).toEqual(reference(now, byTitle('asc')));
  });

  it('keeps a products cache of its own, synced in frames and rows, and loads it back into an engine', async () => {
    const rows = generateProducts(3_000, 7);
    const cache = new ListCache<ProductRow>(PRODUCT_LIST, 'u1', { rowsPerChunk: 1_000 });
    const engine = new ListEngine<ProductRow, ProductQuery>(PRODUCT_LIST);
    const answers = [received(rows.slice(0, 2_000), 'c1', true), received(rows.slice(2_000), 'c2', true)];
    const update = { ...rows[5]!, title: 'updated mini' };
    answers.push(received([update, { ...rows[6]!, deleted: true }], 'c3', false));
    let call = 0;
    await syncList(cache, engine, async () => answers[call++]!);
    expect(await cache.cursor()).toBe('c3');
    const expected = rows.map((row, i) => (i === 5 ? update : row)).filter((_, i) => i !== 6);
    cache.close();

    const reopened = new ListCache<ProductRow>(PRODUCT_LIST, 'u1');
    const loaded = new ListEngine<ProductRow, ProductQuery>(PRODUCT_LIST);
    await new Promise<void>((resolve) => void loadList(reopened, loaded, { onLoaded: () => resolve() }));
    const query: ProductQuery = { sort: { column: 'sku', direction: 'asc' } };
    expect(await answer(loaded, query)).toEqual(reference(expected, query));
    expect(await answer(loaded, { search: 'updated' })).toEqual([update]);

    // An order built ahead, saved with the cache: a later open takes it for the rows as they are, not after a change.
    expect(await loaded.prepareTextOrders()).toBe(true);
    const [ahead] = loaded.textOrdersAhead();
    const sortKey = JSON.stringify(ahead!.sort);
    await reopened.saveOrderAhead(sortKey, ahead!.order);
    expect(await reopened.savedOrdersAhead()).toEqual([{ sort: sortKey, order: ahead!.order }]);
    await syncList(reopened, loaded, async () => received([{ ...rows[9]!, title: 'changed' }], 'c4', false));
    expect(await reopened.savedOrdersAhead()).toEqual([]);
    reopened.close();
    await ListCache.remove(PRODUCT_LIST, 'u1');
  });
});
