import { chunkOfRows } from '../../../contract/orderChunk';
import { FBS_STATUSES, ORDER_COLUMNS, type OrderRow } from '../../../contract/orders';
import { OrderEngine } from '../../../workers/orders/engine';
import { isStaleHandleFailure, type OrderQuery, type OrderQueryResult } from '../../../workers/orders/types';
import { generateOrders, seededRandom } from './generate';
import { ArrivalOrderModel, referenceQuery } from './reference';

const DAY = 86_400_000;

function done(result: OrderQueryResult) {
  if (result.status !== 'done') throw new Error(`query ${result.seq} was superseded`);
  return result;
}

async function allIds(engine: OrderEngine, query: OrderQuery): Promise<string[]> {
  const { handle, total } = done(await engine.query(query));
  return engine.window(handle, 0, total).rows.map((row) => row.id);
}

function randomQuery(random: () => number, rows: readonly OrderRow[]): OrderQuery {
  const chance = (p: number) => random() < p;
  const some = <T>(values: readonly T[], max: number) =>
    Array.from({ length: 1 + Math.floor(random() * max) }, () => values[Math.floor(random() * values.length)]!);
  const sample = () => rows[Math.floor(random() * rows.length)]!;
  const query: OrderQuery = { filters: {} };
  const filters = query.filters!;
  if (chance(0.3)) filters.shopIds = some([1, 2, 3, 4, 5, 99], 3);
  if (chance(0.3)) filters.statuses = some(FBS_STATUSES, 4);
  if (chance(0.2)) filters.warehouseIds = [sample().warehouseId, sample().warehouseId];
  if (chance(0.2)) filters.sources = some(['ozon', 'manual'] as const, 1);
  if (chance(0.3)) {
    const from = Date.UTC(2024, 0, 1) + Math.floor(random() * 600) * DAY;
    filters.inProcessAt = chance(0.5) ? { from, to: from + Math.floor(random() * 200) * DAY } : { to: from };
  }
  if (chance(0.2)) filters.shipmentDate = { from: sample().inProcessAt };
  if (chance(0.2)) filters.amount = { from: Math.floor(random() * 200), to: chance(0.5) ? undefined : 200 + Math.floor(random() * 300) };
  if (chance(0.4)) {
    const row = sample();
    const field = some(['postingNumber', 'orderNumber', 'sku', 'offerId', 'productName', 'trackingNumber'] as const, 1)[0]!;
    const text = row[field] || 'ru1';
    const start = Math.floor(random() * text.length);
    const piece = text.slice(start, start + 1 + Math.floor(random() * 5));
    query.search = chance(0.5) ? piece.toUpperCase() : ` ${piece} `;
  }
  if (chance(0.8)) {
    query.sort = { column: some(ORDER_COLUMNS, 1)[0]!, direction: chance(0.5) ? 'asc' : 'desc' };
  }
  return query;
}

describe('order list engine against a reference implementation', () => {
  const rows = generateOrders({ count: 4_000, seed: 7, shops: 5, warehouses: 6, products: 300 });

  it('counts the rows per status of random queries like Array.filter, and postings when grouped', async () => {
    const engine = new OrderEngine({ sliceRows: 333 });
    engine.load(rows);
    const random = seededRandom(11);
    const countOf = (found: readonly OrderRow[]) => {
      const counts = new Map<string | number, number>();
      for (const row of found) counts.set(row.status, (counts.get(row.status) ?? 0) + 1);
      return counts;
    };
    for (let i = 0; i < 40; i++) {
      const query = randomQuery(random, rows);
      const { statuses: _left, ...filters } = query.filters ?? {};
      const counted = await engine.countBy('status', { ...query, filters });
      expect(counted).toEqual(countOf(referenceQuery(rows, { ...query, filters })));
    }
    expect(await engine.countBy('status', {})).toEqual(countOf(rows));
    // By posting: a posting of several lines counts once.
    const postings = new Map(rows.map((row) => [row.postingNumber || row.id, row]));
    expect(await engine.countBy('status', { group: { by: 'postingNumber' } })).toEqual(countOf([...postings.values()]));
  });

  it('answers many random filter, search and sort combinations like Array.filter and Array.sort', async () => {
    const engine = new OrderEngine({ sliceRows: 333 });
    engine.load(rows);
    const random = seededRandom(42);
    for (let i = 0; i < 150; i++) {
      const query = randomQuery(random, rows);
      const expected = referenceQuery(rows, query).map((row) => row.id);
      expect(await allIds(engine, query), JSON.stringify(query)).toEqual(expected);
    }
  });

  it('answers windows with the rows at those positions, clamped to the result', async () => {
    const engine = new OrderEngine();
    engine.load(rows);
    const query: OrderQuery = { filters: { statuses: ['delivered', 'cancelled'] }, sort: { column: 'amount', direction: 'desc' } };
    const expected = referenceQuery(rows, query);
    const { handle, total } = done(await engine.query(query));
    expect(total).toBe(expected.length);
    const random = seededRandom(3);
    for (let i = 0; i < 30; i++) {
      const start = Math.floor(random() * total);
      const count = Math.floor(random() * 120);
      const window = engine.window(handle, start, count);
      expect(window.rows).toEqual(expected.slice(start, start + count));
      expect(window.total).toBe(total);
    }
    expect(engine.window(handle, total + 10, 50).rows).toEqual([]);
  });

  it('returns every stored field of a row unchanged, empty dates as null', () => {
    const engine = new OrderEngine();
    engine.load(rows);
    for (const row of rows.slice(0, 200)) expect(engine.get(row.id)).toEqual(row);
    expect(rows.some((row) => row.shipmentDate === null)).toBe(true);
  });

  it('sorts empty dates last ascending and first descending, ties in arrival order', async () => {
    const engine = new OrderEngine();
    const base = generateOrders({ count: 6, seed: 2 });
    const dated = base.map((row, i) => ({ ...row, shipmentDate: i % 2 === 0 ? null : Date.UTC(2024, 1, 1) + (i % 3) * DAY }));
    engine.load(dated);
    const asc = await allIds(engine, { sort: { column: 'shipmentDate', direction: 'asc' } });
    const desc = await allIds(engine, { sort: { column: 'shipmentDate', direction: 'desc' } });
    // shipment dates by index: null, +1 day, null, +0, null, +2 days
    expect(asc).toEqual(['o3', 'o1', 'o5', 'o0', 'o2', 'o4']);
    expect(desc).toEqual(['o0', 'o2', 'o4', 'o5', 'o1', 'o3']);
  });

  it('finds text case-insensitively in every searched column and in no other', async () => {
    const engine = new OrderEngine();
    const [a, b, c] = generateOrders({ count: 3, seed: 5 });
    engine.load([
      { ...a!, trackingNumber: 'RU000111222CN', productName: 'Чехол' },
      { ...b!, productName: 'Чехол для телефона', trackingNumber: '' },
      { ...c!, shopName: 'чехол shop', productName: 'Lamp', trackingNumber: '' },
    ]);
    expect(await allIds(engine, { search: 'ЧЕХОЛ' })).toEqual(['o0', 'o1']);
    expect(await allIds(engine, { search: '111222cn' })).toEqual(['o0']);
    // A match never spans two fields of a row.
    expect(await allIds(engine, { search: `${a!.orderNumber.slice(-2)}${a!.orderNumber.slice(0, 2)}` })).not.toContain('o0');
  });
});

describe('order list engine query paths', () => {
  const rows = generateOrders({ count: 4_000, seed: 21, shops: 5, warehouses: 6, products: 300 });
  const expectIds = async (engine: OrderEngine, query: OrderQuery, source: readonly OrderRow[], view?: string) => {
    const { handle, total } = done(await engine.query(query, view));
    const ids = engine.window(handle, 0, total).rows.map((row) => row.id);
    expect(ids, JSON.stringify(query)).toEqual(referenceQuery(source, query).map((row) => row.id));
  };

  it('answers the status tabs made ahead like the reference, in the sort they were made in and any other, also after rows change', async () => {
    const engine = new OrderEngine({ yieldToEventLoop: async () => undefined });
    engine.load(rows);
    const sort = { column: 'inProcessAt', direction: 'desc' } as const;
    // The list shows this sort, so its order is at hand.
    await expectIds(engine, { sort }, rows);
    await engine.prepareFilterOrders('status', sort);
    for (const status of FBS_STATUSES) {
      await expectIds(engine, { filters: { statuses: [status] }, sort }, rows);
      await expectIds(engine, { filters: { statuses: [status] }, sort: { column: 'amount', direction: 'asc' } }, rows);
      // Asked twice, the kept answer is the same.
      await expectIds(engine, { filters: { statuses: [status] }, sort }, rows);
    }
    await expectIds(engine, { filters: { statuses: ['awaiting_packaging', 'delivered'] }, sort }, rows);
    await expectIds(engine, { filters: { statuses: ['awaiting_packaging'] }, search: '1', sort }, rows);
    // A row moves to another status: the tabs answer for the rows as they are now.
    const moved = rows.find((row) => row.status === 'awaiting_packaging')!;
    const changed = rows.map((row) => (row.id === moved.id ? { ...row, status: 'delivered' as const } : row));
    engine.upsert([{ ...moved, status: 'delivered' }]);
    await expectIds(engine, { filters: { statuses: ['awaiting_packaging'] }, sort }, changed);
    await expectIds(engine, { filters: { statuses: ['delivered'] }, sort }, changed);
  });

  it('makes every status tab in one walk of the list\'s sort, in slices, leaving out deleted rows', async () => {
    const engine = new OrderEngine({ sliceRows: 700, yieldToEventLoop: async () => undefined });
    engine.load(rows);
    const gone = rows.filter((_, i) => i % 13 === 0);
    engine.upsert(gone.map((row) => ({ ...row, deleted: true })));
    const live = rows.filter((_, i) => i % 13 !== 0);
    const sort = { column: 'amount', direction: 'asc' } as const;
    // The list shows this sort: its order is at hand, and the tabs are filled from it.
    await expectIds(engine, { sort }, live);
    await engine.prepareFilterOrders('status', sort);
    for (const status of FBS_STATUSES) await expectIds(engine, { filters: { statuses: [status] }, sort }, live);
    // Rows arriving while the tabs are made stop the walk: the answers then follow the rows as they are.
    const more = generateOrders({ count: 50, seed: 22, idPrefix: 'm' });
    const making = engine.prepareFilterOrders('status', sort);
    engine.upsert(more);
    await making;
    for (const status of FBS_STATUSES) await expectIds(engine, { filters: { statuses: [status] }, sort }, [...live, ...more]);
  });

  it('sorts a filtered or searched result by itself or through the permutation, by every column, before and after it is cached', async () => {
    const engine = new OrderEngine({ sliceRows: 700 });
    engine.load(rows);
    // A one-status filter keeps a fifteenth (sorted by itself), a two-source filter nearly all (walks the permutation).
    const narrowings: OrderQuery[] = [
      { filters: { statuses: ['awaiting_packaging'] } },
      { filters: { sources: ['ozon', 'manual'], amount: { from: 10 } } },
      { search: '7' },
      { search: rows[5]!.trackingNumber.slice(3, 7) },
      { filters: { shopIds: [2], shipmentDate: { from: Date.UTC(2024, 3, 1) } }, search: 'а' },
    ];
    for (const column of ORDER_COLUMNS) {
      for (const direction of ['asc', 'desc'] as const) {
        for (const round of [0, 1]) {
          for (const narrowing of narrowings) await expectIds(engine, { ...narrowing, sort: { column, direction } }, rows);
          if (round === 0) await expectIds(engine, { sort: { column, direction } }, rows);
        }
      }
    }
  });

  it('answers filters that match nothing, unknown values and open ranges', async () => {
    const engine = new OrderEngine({ sliceRows: 300 });
    engine.load(rows);
    await expectIds(engine, { filters: { shopIds: [99] } }, rows);
    await expectIds(engine, { filters: { shopIds: [99], statuses: ['delivered'] }, sort: { column: 'amount', direction: 'asc' } }, rows);
    await expectIds(engine, { filters: { amount: { to: 100 }, shipmentDate: { from: 0 }, inProcessAt: { from: Date.UTC(2024, 6, 1) } } }, rows);
    await expectIds(engine, { filters: { warehouseIds: [rows[0]!.warehouseId], sources: ['manual'] }, search: 'RU' }, rows);
  });

  it('types a needle letter by letter and deletes it again, alone, filtered and sorted, in two views at once', async () => {
    const engine = new OrderEngine({ sliceRows: 500 });
    engine.load(rows);
    const needles = [rows[17]!.postingNumber.slice(2, 9), rows[40]!.productName.slice(0, 9).toUpperCase(), rows[3]!.offerId];
    const shapes: OrderQuery[] = [
      {},
      { sort: { column: 'inProcessAt', direction: 'desc' } },
      { filters: { statuses: ['delivered', 'cancelled', 'awaiting_packaging'] }, sort: { column: 'productName', direction: 'asc' } },
    ];
    for (const needle of needles) {
      const typed = Array.from({ length: needle.length }, (_, i) => needle.slice(0, i + 1));
      const keystrokes = [...typed, ...typed.slice(0, -1).reverse(), ` ${needle} `, needle.slice(1)];
      for (const search of keystrokes) {
        for (const [s, shape] of shapes.entries()) await expectIds(engine, { ...shape, search }, rows, `view${s}`);
      }
    }
  });

  it('searches the current rows when rows change between keystrokes', async () => {
    const engine = new OrderEngine({ sliceRows: 500 });
    const model = new ArrivalOrderModel();
    engine.load(rows);
    model.apply(rows);
    const needle = rows[100]!.orderNumber.slice(0, 6);
    const random = seededRandom(77);
    for (let i = 1; i <= needle.length; i++) {
      const current = model.list();
      const picked = () => current[Math.floor(random() * current.length)]!;
      // A row starts to match, one stops matching, one goes away, one arrives, then the keystroke.
      const batch: OrderRow[] = [
        { ...picked(), trackingNumber: `X${needle}Y` },
        { ...picked(), postingNumber: 'none', orderNumber: 'none', trackingNumber: '' },
        { ...picked(), deleted: true },
        { ...rows[0]!, id: `fresh${i}`, productName: `new ${needle.slice(0, i)}` },
      ];
      engine.upsert(batch);
      model.apply(batch);
      await expectIds(engine, { search: needle.slice(0, i) }, model.list());
      // And the same needle again with no change in between.
      await expectIds(engine, { search: needle.slice(0, i), sort: { column: 'trackingNumber', direction: 'asc' } }, model.list());
    }
  });
});

describe('order list engine changes', () => {
  it('keeps answering like the reference through upserts, updates and deletes, including after compaction', async () => {
    const engine = new OrderEngine({ sliceRows: 500 });
    const model = new ArrivalOrderModel();
    const initial = generateOrders({ count: 3_000, seed: 11, products: 200 });
    engine.load(initial);
    model.apply(initial);
    const random = seededRandom(9);
    const fresh = generateOrders({ count: 3_000, seed: 12, idPrefix: 'n', products: 200 });
    let freshUsed = 0;
    for (let round = 0; round < 25; round++) {
      const current = model.list();
      const batch: OrderRow[] = [];
      for (let i = 0; i < 120; i++) {
        const pickedRow = current[Math.floor(random() * current.length)]!;
        const roll = random();
        if (roll < 0.4) batch.push({ ...pickedRow, deleted: true });
        else if (roll < 0.8) {
          batch.push({
            ...pickedRow,
            amount: Math.round(random() * 1000),
            status: FBS_STATUSES[Math.floor(random() * FBS_STATUSES.length)]!,
            trackingNumber: `ZX${Math.floor(random() * 1e6)}`,
            productName: `${pickedRow.productName} v${round}`,
          });
        } else batch.push(fresh[freshUsed++]!);
      }
      // A deleted row coming back arrives again, at the end.
      if (round === 10) batch.push({ ...initial[0]!, deleted: false, amount: 1 });
      engine.upsert(batch);
      model.apply(batch);
      expect(engine.size).toBe(model.list().length);
      for (let q = 0; q < 4; q++) {
        const query = randomQuery(random, model.list());
        expect(await allIds(engine, query), JSON.stringify(query)).toEqual(referenceQuery(model.list(), query).map((row) => row.id));
      }
    }
  });

  it('widens a column\'s codes as its dictionary grows past 256 and 65,536 values, through appended chunks and single rows', async () => {
    const engine = new OrderEngine({ sliceRows: 4_000 });
    const model = new ArrivalOrderModel();
    // 200 products: every dictionary fits one byte a row.
    const first = generateOrders({ count: 3_000, seed: 31, products: 200 });
    engine.appendChunk(chunkOfRows(first), { trusted: true });
    model.apply(first);
    // A record with 70,000 new SKUs (past two bytes) and 300 new shop names (past one), appended in slices.
    const many = generateOrders({ count: 70_000, seed: 32, products: 200, idPrefix: 'm' }).map((row, i) => ({
      ...row,
      sku: String(5_000_000_000 + i),
      shopName: i < 300 ? `分店${i}` : row.shopName,
    }));
    await engine.appendTrustedInSlices(chunkOfRows(many), async () => true, 9_000);
    model.apply(many);
    // Single rows through the row path: a new warehouse name per row, past one byte there too, and changed SKUs.
    const edits = [
      ...generateOrders({ count: 400, seed: 33, products: 200, idPrefix: 'e' }).map((row, i) => ({ ...row, warehouseName: `仓库${i}` })),
      ...first.slice(0, 50).map((row, i) => ({ ...row, sku: `S${i}` })),
    ];
    engine.upsert(edits);
    model.apply(edits);
    const held = model.list();
    expect(engine.size).toBe(held.length);
    const queries: OrderQuery[] = [
      { sort: { column: 'sku', direction: 'asc' } },
      { sort: { column: 'sku', direction: 'desc' }, filters: { statuses: ['delivered'] } },
      { sort: { column: 'shopName', direction: 'asc' } },
      { sort: { column: 'warehouseName', direction: 'desc' }, filters: { shopIds: [2, 3] } },
      { search: '5000069' },
      { search: '分店29', sort: { column: 'amount', direction: 'desc' } },
      { search: '仓库39' },
    ];
    for (const query of queries) expect(await allIds(engine, query), JSON.stringify(query)).toEqual(referenceQuery(held, query).map((row) => row.id));
    expect(engine.get('m69999')!.sku).toBe('5000069999');
    expect(engine.get('m299')!.shopName).toBe('分店299');
    expect(engine.get('e399')!.warehouseName).toBe('仓库399');
    expect(engine.get(first[49]!.id)!.sku).toBe('S49');
  });

  it('sorts rows appended after a sort was cached like a sort of them all, by every column', async () => {
    // Few distinct amounts and dates, some empty: ties across the old and the new rows, and empty values to place.
    const all = generateOrders({ count: 1_500, seed: 11, shops: 3, warehouses: 2, products: 40 }).map((row, i) => ({
      ...row,
      amount: (i * 7) % 13,
      shipmentDate: i % 5 === 0 ? null : Date.UTC(2024, 0, 1 + (i % 9)),
    }));
    const engine = new OrderEngine({ sliceRows: 200 });
    const sorts = ORDER_COLUMNS.flatMap((column) => (['asc', 'desc'] as const).map((direction) => ({ column, direction })));
    for (const [from, to] of [[0, 600], [600, 601], [601, 1_100], [1_100, 1_500]] as const) {
      engine.appendChunk(chunkOfRows(all.slice(from, to)));
      const held = all.slice(0, to);
      for (const sort of sorts) expect(await allIds(engine, { sort }), `${sort.column} ${sort.direction} at ${to}`).toEqual(referenceQuery(held, { sort }).map((row) => row.id));
    }
  });

  it('re-sorts after a row changes the sorted value, with the permutation cached before', async () => {
    const engine = new OrderEngine();
    const rows = generateOrders({ count: 500, seed: 4 });
    engine.load(rows);
    const sort = { column: 'amount', direction: 'desc' } as const;
    await allIds(engine, { sort });
    engine.upsert([{ ...rows[123]!, amount: 1_000_000 }]);
    expect((await allIds(engine, { sort }))[0]).toBe(rows[123]!.id);
  });

  it('marks a deleted row in a window of an older result, and refuses a result whose rows were compacted', async () => {
    const engine = new OrderEngine();
    const rows = generateOrders({ count: 5_000, seed: 6 });
    engine.load(rows);
    const { handle } = done(await engine.query({}));
    engine.remove([rows[0]!.id]);
    expect(engine.window(handle, 0, 2).rows.map((row) => row.deleted)).toEqual([true, false]);
    engine.remove(rows.slice(1, 2_000).map((row) => row.id));
    let failure: unknown;
    try {
      engine.window(handle, 0, 2);
    } catch (error) {
      failure = error;
    }
    expect(isStaleHandleFailure(failure)).toBe(true);
    expect(await allIds(engine, { sort: { column: 'id', direction: 'asc' } })).toEqual(
      rows.slice(2_000).map((row) => row.id).sort(),
    );
  });

  it('counts each change in its version, and a released handle is stale', async () => {
    const engine = new OrderEngine();
    const rows = generateOrders({ count: 10, seed: 1 });
    engine.load(rows);
    const before = engine.version;
    engine.upsert([{ ...rows[1]!, amount: 5 }]);
    expect(engine.version).toBeGreaterThan(before);
    const { handle } = done(await engine.query({}));
    engine.release(handle);
    expect(() => engine.window(handle, 0, 1)).toThrow();
  });
});

describe('order list engine cancellation', () => {
  /** Yields that only continue when the test says so. */
  function manualYields() {
    const waiting: (() => void)[] = [];
    return {
      yieldToEventLoop: () => new Promise<void>((resolve) => waiting.push(resolve)),
      async releaseAll() {
        while (waiting.length > 0) {
          waiting.shift()!();
          await Promise.resolve();
          await new Promise((resolve) => setTimeout(resolve, 0));
        }
      },
    };
  }

  it('answers an older query superseded once a newer one starts, and only the newer one with rows', async () => {
    const yields = manualYields();
    const engine = new OrderEngine({ yieldToEventLoop: yields.yieldToEventLoop, sliceRows: 100 });
    engine.load(generateOrders({ count: 1_000, seed: 3 }));
    const settled: OrderQueryResult[] = [];
    const first = engine.query({ filters: { statuses: ['delivered'] } }).then((r) => settled.push(r));
    const second = engine.query({ filters: { statuses: ['cancelled'] } }).then((r) => settled.push(r));
    await yields.releaseAll();
    await Promise.all([first, second]);
    expect(settled.map((r) => r.status)).toEqual(['superseded', 'done']);
    expect(settled[0]!.seq).toBeLessThan(settled[1]!.seq);
  });

  it('lets queries of different views run side by side', async () => {
    const yields = manualYields();
    const engine = new OrderEngine({ yieldToEventLoop: yields.yieldToEventLoop, sliceRows: 100 });
    engine.load(generateOrders({ count: 1_000, seed: 3 }));
    const orders = engine.query({ filters: { sources: ['ozon'] } }, 'order-list');
    const records = engine.query({ filters: { sources: ['manual'] } }, 'record-list');
    await yields.releaseAll();
    expect((await orders).status).toBe('done');
    expect((await records).status).toBe('done');
  });

  it('starts over when rows change while a query runs, so the answer reflects the new rows', async () => {
    const yields = manualYields();
    const engine = new OrderEngine({ yieldToEventLoop: yields.yieldToEventLoop, sliceRows: 100 });
    const rows = generateOrders({ count: 1_000, seed: 3 });
    engine.load(rows);
    const pending = engine.query({ filters: { statuses: ['delivered'] } });
    engine.upsert([{ ...rows[999]!, status: 'delivered' }, { ...rows[0]!, deleted: true }]);
    await yields.releaseAll();
    const { handle, total } = done(await pending);
    const ids = engine.window(handle, 0, total).rows.map((row) => row.id);
    expect(ids).toContain(rows[999]!.id);
    expect(ids).not.toContain(rows[0]!.id);
  });
});
