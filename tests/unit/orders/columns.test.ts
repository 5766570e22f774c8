import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { ORDER_COLUMNS, type OrderColumnsChunk, type OrderRow } from '../../../contract/orders';
import { OrderCache, orderDatabaseName } from '../../../workers/orders/cache';
import { columnsOfRows, rowsOfColumns } from '../../../workers/orders/columns';
import { OrderEngine } from '../../../workers/orders/engine';
import type { OrderQuery, OrderQueryResult } from '../../../workers/orders/types';
import { loadOrders, syncOrders } from '../../../workers/orders/sync';
import { generateOrders, seededRandom } from './generate';
import { ArrivalOrderModel, referenceQuery } from './reference';

let userId = 5_000;
const opened: OrderCache[] = [];

function openCache(id: number, options?: ConstructorParameters<typeof OrderCache>[1]) {
  const cache = new OrderCache(id, options);
  opened.push(cache);
  return cache;
}

beforeEach(() => {
  userId++;
});

afterEach(() => {
  for (const cache of opened.splice(0)) cache.close();
});

function done(result: OrderQueryResult) {
  if (result.status !== 'done') throw new Error('superseded');
  return result;
}

async function ids(engine: OrderEngine, query: OrderQuery): Promise<string[]> {
  const { handle, total } = done(await engine.query(query));
  return engine.window(handle, 0, total).rows.map((row) => row.id);
}

const byId = (a: OrderRow, b: OrderRow) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The rows a cache holds (loaded the way the worker loads them) and its cursor. */
async function cachedRows(id: number): Promise<{ rows: OrderRow[]; cursor: string | null }> {
  const engine = new OrderEngine();
  const { cursor } = await openCache(id).load((rows) => engine.upsert(rows), (columns) => engine.appendColumns(columns));
  const { handle, total } = done(await engine.query({}));
  return { rows: engine.window(handle, 0, total).rows, cursor };
}

/** The first rows, then updates of some, tombstones of others, new rows and a tombstone of an unknown id. */
function history() {
  const initial = generateOrders({ count: 3_000, seed: 21, shops: 4, warehouses: 5, products: 200 });
  const random = seededRandom(5);
  const later: OrderRow[] = [];
  for (let i = 0; i < 400; i++) {
    const row = initial[Math.floor(random() * initial.length)]!;
    later.push(random() < 0.3 ? { ...row, deleted: true } : { ...row, amount: Math.floor(random() * 1000), trackingNumber: `T${i}` });
  }
  later.push(...generateOrders({ count: 250, seed: 22, idPrefix: 'new' }));
  later.push({ ...initial[0]!, id: 'never-seen', deleted: true });
  return { initial, later };
}

describe('the columnar bulk path', () => {
  it('answers every query as the row path does, after a full load and after incremental changes', async () => {
    const { initial, later } = history();
    const byRows = new OrderEngine({ sliceRows: 500 });
    const byColumns = new OrderEngine({ sliceRows: 500 });
    const model = new ArrivalOrderModel();
    for (let from = 0; from < initial.length; from += 700) {
      const chunk = initial.slice(from, from + 700);
      byRows.upsert(chunk);
      byColumns.appendColumns(columnsOfRows(chunk));
      model.apply(chunk);
    }
    for (let from = 0; from < later.length; from += 200) {
      const chunk = later.slice(from, from + 200);
      byRows.upsert(chunk);
      byColumns.appendColumns(columnsOfRows(chunk));
      model.apply(chunk);
    }
    const live = model.list();
    expect(byColumns.size).toBe(live.length);
    const random = seededRandom(9);
    const sample = () => live[Math.floor(random() * live.length)]!;
    const queries: OrderQuery[] = [
      {},
      { sort: { column: 'amount', direction: 'desc' } },
      { search: sample().productName.slice(2, 6), sort: { column: 'inProcessAt', direction: 'asc' } },
      { search: 't1' },
      { filters: { statuses: [sample().status], shopIds: [sample().shopId] }, sort: { column: 'shipmentDate', direction: 'asc' } },
      ...ORDER_COLUMNS.map((column): OrderQuery => ({ sort: { column, direction: random() < 0.5 ? 'asc' : 'desc' } })),
    ];
    for (const query of queries) {
      const expected = referenceQuery(live, query).map((row) => row.id);
      expect(await ids(byColumns, query), JSON.stringify(query)).toEqual(expected);
      expect(await ids(byRows, query)).toEqual(expected);
    }
    for (const row of live.slice(0, 50)) expect(byColumns.get(row.id)).toEqual(row);
  });

  it('caches a columnar sync as column records and loads it back into an engine that agrees with the server', async () => {
    const { initial, later } = history();
    const changes = [...initial, ...later];
    const server = async (cursor: string | null): Promise<OrderColumnsChunk> => {
      const from = cursor === null ? 0 : Number(cursor);
      const rows = changes.slice(from, from + 1_000);
      return { columns: columnsOfRows(rows), cursor: String(from + rows.length), hasMore: from + rows.length < changes.length };
    };
    const engine = new OrderEngine();
    await loadOrders(openCache(userId, { rowsPerChunk: 400 }), engine);
    const synced = await syncOrders(openCache(userId, { rowsPerChunk: 400 }), engine, server);
    expect(synced.rows).toBe(changes.length);

    const model = new ArrivalOrderModel();
    model.apply(changes);
    const reloaded = await cachedRows(userId);
    expect(reloaded.cursor).toBe(String(changes.length));
    expect([...reloaded.rows].sort(byId)).toEqual(model.list().sort(byId));

    const db = new Dexie(orderDatabaseName(userId));
    await db.open();
    const records = (await db.table('chunks').toArray()) as { rows?: unknown; columns?: { id: string[] } }[];
    db.close();
    expect(records.every((record) => record.columns !== undefined && record.rows === undefined)).toBe(true);
    expect(Math.max(...records.map((record) => record.columns!.id.length))).toBeLessThanOrEqual(400);
  });

  it('still loads a cache written as row records, and folds later columnar changes into it', async () => {
    const initial = generateOrders({ count: 120, seed: 31 });
    // What the previous version stored: 50-row records of row objects.
    const db = new Dexie(orderDatabaseName(userId));
    db.version(1).stores({ chunks: 'id', meta: 'key' });
    await db.table('chunks').bulkPut([0, 1, 2].map((k) => ({ id: k + 1, rows: initial.slice(k * 50, k * 50 + 50) })));
    await db.table('meta').put({ key: 'sync', cursor: 'old', rowCount: 120, nextChunkId: 4, schema: 1 });
    db.close();

    const engine = new OrderEngine();
    const cache = openCache(userId, { rowsPerChunk: 50 });
    expect(await loadOrders(cache, engine)).toMatchObject({ cursor: 'old' });
    const changes = [{ ...initial[60]!, amount: 7 }, { ...initial[5]!, deleted: true as const }, ...generateOrders({ count: 3, seed: 32, idPrefix: 'n' })];
    await syncOrders(cache, engine, async () => ({ columns: columnsOfRows(changes), cursor: 'new', hasMore: false }));

    const model = new ArrivalOrderModel();
    model.apply(initial);
    model.apply(changes);
    const reloaded = await cachedRows(userId);
    expect(reloaded.cursor).toBe('new');
    expect([...reloaded.rows].sort(byId)).toEqual(model.list().sort(byId));
    expect(engine.get(initial[60]!.id)?.amount).toBe(7);
  });

  it('keeps the previous rows and cursor when a columnar chunk fails part-way, and the retry completes it', async () => {
    const first = generateOrders({ count: 200, seed: 41 });
    const second = generateOrders({ count: 700, seed: 42, idPrefix: 'b' });
    let failOn: number | null = null;
    const cache = openCache(userId, {
      rowsPerChunk: 300,
      beforeChunkWrite: (chunkId) => {
        if (chunkId === failOn) throw new Error('simulated crash');
      },
    });
    await cache.applyColumns(columnsOfRows(first), 'first');
    // The second chunk becomes records 2, 3 and 4; the crash strikes before the third.
    failOn = 3;
    await expect(cache.applyColumns(columnsOfRows(second), 'second')).rejects.toThrow('simulated crash');
    const afterCrash = await cachedRows(userId);
    expect(afterCrash.cursor).toBe('first');
    expect([...afterCrash.rows].sort(byId)).toEqual([...first].sort(byId));

    failOn = null;
    await cache.applyColumns(columnsOfRows(second), 'second');
    const afterRetry = await cachedRows(userId);
    expect(afterRetry.cursor).toBe('second');
    expect([...afterRetry.rows].sort(byId)).toEqual([...first, ...second].sort(byId));
    expect(rowsOfColumns(columnsOfRows(second))).toEqual(second);
  });
});
