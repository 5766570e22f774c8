import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { decodeOrderFrame, rowsOfChunk, TEXT_SEPARATOR, undecodedText, type OrderChunk } from '../../../contract/orderChunk';
import type { OrderRow, OrderSyncChunk } from '../../../contract/orders';
import { OrderCache, orderDatabaseName } from '../../../workers/orders/cache';
import { OrderEngine } from '../../../workers/orders/engine';
import { loadOrders, ordersLoaded, syncOrders } from '../../../workers/orders/sync';
import { generateOrders } from './generate';
import { ArrivalOrderModel } from './reference';

let userId = 0;
const opened: OrderCache[] = [];

function openCache(id: number, options?: ConstructorParameters<typeof OrderCache>[1]) {
  const cache = new OrderCache(id, options);
  opened.push(cache);
  return cache;
}

async function cachedRows(id: number): Promise<{ rows: Map<string, OrderRow>; cursor: string | null }> {
  const rows = new Map<string, OrderRow>();
  const { cursor } = await openCache(id).load((chunk) => rowsOfChunk(chunk).forEach((row) => rows.set(row.id, row)));
  return { rows, cursor };
}

async function chunkSizes(id: number): Promise<number[]> {
  const records = await openRecords(id);
  return Promise.all(records.map(async (record) => decodeOrderFrame(await record.frame.arrayBuffer()).chunk.n));
}

/** A server that answers the sync call from a list of changes, `limit` at a time; the cursor is a position. */
function fakeServer(changes: OrderRow[], limit: number) {
  return async (cursor: string | null): Promise<OrderSyncChunk> => {
    const from = cursor === null ? 0 : Number(cursor);
    const rows = changes.slice(from, from + limit);
    return { rows, cursor: String(from + rows.length), hasMore: from + rows.length < changes.length };
  };
}

beforeEach(() => {
  userId++;
});

afterEach(() => {
  for (const cache of opened.splice(0)) cache.close();
});

describe('order cache', () => {
  it('stores a full sync of rows in chunks of the configured size and loads it back, cursor included', async () => {
    const rows = generateOrders({ count: 2_350, seed: 1 });
    const cache = openCache(userId, { rowsPerChunk: 500 });
    const engine = new OrderEngine();
    const result = await syncOrders(cache, engine, fakeServer(rows, 700));
    expect(result).toEqual({ rows: 2_350, cursor: '2350' });
    expect((await chunkSizes(userId)).sort((a, b) => b - a)).toEqual([500, 500, 500, 500, 350]);

    const reloaded = new OrderEngine();
    const loaded = await loadOrders(openCache(userId), reloaded);
    // It resolves once the first records are in; the rest follow.
    expect(loaded.cursor).toBe('2350');
    expect(loaded.rows).toBeGreaterThan(0);
    await ordersLoaded(reloaded);
    expect(reloaded.size).toBe(2_350);
    expect(reloaded.get(rows[1_234]!.id)).toEqual(rows[1_234]);

    // Loading leaves the search index to the first search: it must still find every match.
    const needle = rows[1_234]!.postingNumber.slice(-6).toLowerCase();
    const answer = await reloaded.query({ search: needle });
    if (answer.status !== 'done') throw new Error('superseded');
    const found = reloaded.window(answer.handle, 0, answer.total).rows.map((row) => row.id);
    expect(found).toContain(rows[1_234]!.id);
    expect(found.sort()).toEqual(
      rows
        .filter((row) => [row.postingNumber, row.orderNumber, row.sku, row.offerId, row.productName, row.trackingNumber].some((v) => v.toLowerCase().includes(needle)))
        .map((row) => row.id)
        .sort(),
    );
  });

  it('applies incremental updates, inserts and deletes to the right chunks, and a reload agrees', async () => {
    const initial = generateOrders({ count: 1_200, seed: 2 });
    const cache = openCache(userId, { rowsPerChunk: 400 });
    const engine = new OrderEngine();
    const model = new ArrivalOrderModel();
    // The fake server's cursor is a position in its list of changes: start it at 0.
    await cache.applyChanges(initial, '0');
    engine.upsert(initial);
    model.apply(initial);

    const changes: OrderRow[] = [
      { ...initial[5]!, status: 'delivered', amount: 42 },
      { ...initial[401]!, deleted: true },
      { ...initial[402]!, deleted: true },
      ...generateOrders({ count: 30, seed: 3, idPrefix: 'new' }),
      { ...initial[900]!, trackingNumber: 'RU999CN' },
      // Inserted then deleted in the same batch, and a tombstone for a row the cache never had.
      { ...generateOrders({ count: 1, seed: 4, idPrefix: 'flash' })[0]!, deleted: true },
      { ...initial[0]!, id: 'never-seen', deleted: true },
    ];
    await syncOrders(cache, engine, fakeServer(changes, 10));
    model.apply(changes);

    const { rows, cursor } = await cachedRows(userId);
    expect(cursor).toBe(String(changes.length));
    expect([...rows.values()].sort(byId)).toEqual(model.list().sort(byId));
    expect(rows.get(initial[5]!.id)!.amount).toBe(42);
    expect(rows.has(initial[401]!.id)).toBe(false);
    // New rows filled the free room of the last chunk instead of opening chunks of a few rows.
    expect((await chunkSizes(userId)).reduce((a, b) => a + b, 0)).toBe(1_200 - 2 + 30);
    expect((await chunkSizes(userId)).length).toBe(4);
    expect(engine.size).toBe(model.list().length);
    expect(engine.get(initial[900]!.id)!.trackingNumber).toBe('RU999CN');
  });

  it('leaves a loaded record\'s ids undecoded until a change needs them, and still files each change in its own record', async () => {
    const initial = generateOrders({ count: 900, seed: 21 });
    await openCache(userId, { rowsPerChunk: 300 }).applyChanges(initial, '0');

    // A warm open: the records' ids are not read as strings on the way in, neither by the cache nor by the engine.
    const cache = openCache(userId, { rowsPerChunk: 300 });
    const engine = new OrderEngine();
    const chunks: OrderChunk[] = [];
    await cache.load(async (chunk) => {
      chunks.push(chunk);
      await engine.appendTrustedInSlices(chunk, async () => true);
    });
    expect(chunks).toHaveLength(3);
    for (const chunk of chunks) expect(undecodedText(chunk, 'id')).toBeInstanceOf(Uint8Array);
    expect(engine.get(initial[450]!.id)).toEqual(initial[450]);

    // A change to a row of the second record and a new row: the cache reads the ids then, and files both right.
    const changes = [{ ...initial[450]!, amount: 7 }, ...generateOrders({ count: 1, seed: 22, idPrefix: 'new' })];
    await syncOrders(cache, engine, fakeServer(changes, 10));
    const { rows } = await cachedRows(userId);
    expect(rows.size).toBe(901);
    expect(rows.get(initial[450]!.id)!.amount).toBe(7);
    expect((await chunkSizes(userId)).reduce((a, b) => a + b, 0)).toBe(901);
  });

  it('lets go of a loaded record\'s frame once asked to settle its ids', async () => {
    const initial = generateOrders({ count: 600, seed: 23 });
    await openCache(userId, { rowsPerChunk: 300 }).applyChanges(initial, '0');
    const cache = openCache(userId, { rowsPerChunk: 300 });
    const chunks: OrderChunk[] = [];
    await cache.load((chunk) => void chunks.push(chunk));
    expect(chunks.every((chunk) => undecodedText(chunk, 'id') !== null)).toBe(true);
    cache.settleIds();
    expect(chunks.map((chunk) => undecodedText(chunk, 'id'))).toEqual([null, null]);
    expect(chunks.flatMap((chunk) => chunk.texts.id.split(TEXT_SEPARATOR)).sort()).toEqual(initial.map((row) => row.id).sort());
  });

  it('drops a chunk whose rows were all deleted', async () => {
    const rows = generateOrders({ count: 20, seed: 5 });
    const cache = openCache(userId, { rowsPerChunk: 10 });
    await cache.applyChanges(rows, 'a');
    await cache.applyChanges(rows.slice(0, 10).map((row) => ({ ...row, deleted: true })), 'b');
    expect(await chunkSizes(userId)).toEqual([10]);
    const { rows: left } = await cachedRows(userId);
    expect([...left.keys()]).toEqual(rows.slice(10).map((row) => row.id));
  });

  it('keeps the previous rows and cursor when a write fails between chunks, and the retry completes it', async () => {
    const initial = generateOrders({ count: 900, seed: 6 });
    let failOn: number | null = null;
    const cache = openCache(userId, {
      rowsPerChunk: 300,
      beforeChunkWrite: (chunkId) => {
        if (chunkId === failOn) throw new Error('simulated crash');
      },
    });
    await cache.applyChanges(initial, 'before');

    // Touches all three chunks and opens a fourth; the crash strikes while writing the second.
    const changes = [
      { ...initial[0]!, amount: 1 },
      { ...initial[350]!, amount: 2 },
      { ...initial[700]!, deleted: true as const },
      ...generateOrders({ count: 5, seed: 7, idPrefix: 'late' }),
    ];
    failOn = 2;
    await expect(cache.applyChanges(changes, 'after')).rejects.toThrow('simulated crash');

    const afterCrash = await cachedRows(userId);
    expect(afterCrash.cursor).toBe('before');
    expect([...afterCrash.rows.values()].sort(byId)).toEqual([...initial].sort(byId));

    // The same instance is still usable: its chunk map did not take in the failed plan.
    failOn = null;
    await cache.applyChanges(changes, 'after');
    const model = new ArrivalOrderModel();
    model.apply(initial);
    model.apply(changes);
    const afterRetry = await cachedRows(userId);
    expect(afterRetry.cursor).toBe('after');
    expect([...afterRetry.rows.values()].sort(byId)).toEqual(model.list().sort(byId));
  });

  it('opens with the first cached chunks, loads the rest behind them, and a sync never lets a cached row overwrite a fresher one', async () => {
    const rows = generateOrders({ count: 1_500, seed: 9 });
    const writer = openCache(userId, { rowsPerChunk: 100 });
    await writer.applyChanges(rows, 'cached');
    writer.close();

    const engine = new OrderEngine();
    const loadedAll: number[] = [];
    const opened = await loadOrders(openCache(userId, { rowsPerChunk: 100 }), engine, { onLoaded: (n) => loadedAll.push(n) });
    expect(opened.cursor).toBe('cached');
    expect(opened.rows).toBeGreaterThan(0);
    expect(opened.rows).toBeLessThan(1_500);
    expect(loadedAll).toEqual([]);

    // The newest version of a row in the last chunk arrives by sync while the cache is still loading.
    const fresher = { ...rows[1_499]!, status: 'cancelled' as const, updatedAt: rows[1_499]!.updatedAt + 1 };
    const cache = openCache(userId, { rowsPerChunk: 100 });
    await syncOrders(cache, engine, async () => ({ rows: [fresher], cursor: 'fresh', hasMore: false }));
    await ordersLoaded(engine);
    expect(loadedAll).toEqual([1_500]);
    expect(engine.size).toBe(1_500);
    expect(engine.get(fresher.id)).toEqual(fresher);
  });

  it('reads no other record until the first one is handed on: its rows are what a list waits for', async () => {
    const rows = generateOrders({ count: 500, seed: 4 });
    const writer = openCache(userId, { rowsPerChunk: 100 });
    await writer.applyChanges(rows, 'cached');
    writer.close();

    const reads = vi.spyOn(Blob.prototype, 'arrayBuffer');
    const readsByChunk: number[] = [];
    try {
      const loaded = await openCache(userId).load(async () => {
        // The engine's append takes its time (and gives way meanwhile): nothing else is read during the first.
        if (readsByChunk.length === 0) await new Promise((resolve) => setTimeout(resolve, 30));
        readsByChunk.push(reads.mock.calls.length);
      });
      expect(loaded.rows).toBe(500);
    } finally {
      reads.mockRestore();
    }
    expect(readsByChunk[0]).toBe(1);
    // Then the rest, read ahead of their turn.
    expect(readsByChunk.length).toBe(5);
    expect(readsByChunk[1]).toBeGreaterThan(2);
  });

  it('reads the cache again when another tab writes to it during the load, so no row is held twice or stale', async () => {
    const rows = generateOrders({ count: 1_000, seed: 10 });
    const writer = openCache(userId, { rowsPerChunk: 100 });
    await writer.applyChanges(rows, 'cached');
    const moved = { ...rows[950]!, amount: 123_456 };
    const added = generateOrders({ count: 30, seed: 11, idPrefix: 'other-tab' });
    let wrote: Promise<void> | null = null;
    const engine = new OrderEngine();
    const reader = openCache(userId, {
      rowsPerChunk: 100,
      pause: async () => {
        // The other tab: updates a row not read yet, deletes one already read, adds new ones.
        wrote ??= writer.applyChanges([moved, { ...rows[3]!, deleted: true }, ...added], 'other tab');
        await wrote;
      },
    });
    await loadOrders(reader, engine);
    await ordersLoaded(engine);
    const expected = [...rows.filter((row) => row.id !== rows[3]!.id).map((row) => (row.id === moved.id ? moved : row)), ...added];
    expect(engine.size).toBe(expected.length);
    expect(engine.get(moved.id)).toEqual(moved);
    expect(engine.get(rows[3]!.id)).toBeUndefined();
    const result = await engine.query({});
    if (result.status !== 'done') throw new Error('superseded');
    const held = engine.window(result.handle, 0, result.total).rows.map((row) => row.id);
    expect(new Set(held).size).toBe(held.length);
    expect(held.sort()).toEqual(expected.map((row) => row.id).sort());
  });

  it('resumes an interrupted sync from the stored cursor without losing or repeating rows', async () => {
    const rows = generateOrders({ count: 1_000, seed: 8 });
    const server = fakeServer(rows, 100);
    const controller = new AbortController();
    const first = openCache(userId);
    await syncOrders(first, new OrderEngine(), server, {
      signal: controller.signal,
      onProgress: ({ rows: done }) => {
        if (done >= 300) controller.abort();
      },
    });
    first.close();

    const engine = new OrderEngine();
    const second = openCache(userId);
    expect((await loadOrders(second, engine)).rows).toBe(300);
    const calls: (string | null)[] = [];
    await syncOrders(second, engine, (cursor) => {
      calls.push(cursor);
      return server(cursor);
    });
    expect(calls[0]).toBe('300');
    expect(engine.size).toBe(1_000);
    const { rows: cached } = await cachedRows(userId);
    expect(cached.size).toBe(1_000);
  });

  it('keeps each user in their own database, and clear forgets rows and cursor', async () => {
    const mine = openCache(userId);
    const theirs = openCache(userId + 1000);
    await mine.applyChanges(generateOrders({ count: 3, seed: 9 }), 'm');
    await theirs.applyChanges(generateOrders({ count: 5, seed: 10 }), 't');
    expect((await cachedRows(userId)).rows.size).toBe(3);
    expect((await cachedRows(userId + 1000)).rows.size).toBe(5);
    await mine.clear();
    expect(await cachedRows(userId)).toEqual({ rows: new Map(), cursor: null });
  });

  it('starts empty over a cache the previous version wrote (frames as ArrayBuffers), and a sync refills it', async () => {
    const old = new Dexie(orderDatabaseName(userId));
    old.version(2).stores({ chunks: 'id', meta: 'key' });
    await old.open();
    const rows = generateOrders({ count: 40, seed: 3 });
    const written = openCache(userId + 500);
    await written.applyChanges(rows, 'old');
    written.close();
    const frame = await (await openRecords(userId + 500))[0]!.frame.arrayBuffer();
    await old.table('chunks').put({ id: 1, frame });
    await old.table('meta').put({ key: 'sync', cursor: 'old', rowCount: 40, nextChunkId: 2, schema: 2 });
    old.close();

    expect(await cachedRows(userId)).toEqual({ rows: new Map(), cursor: null });
    const cache = openCache(userId);
    const engine = new OrderEngine();
    await loadOrders(cache, engine);
    await syncOrders(cache, engine, fakeServer(rows, 25));
    expect((await cachedRows(userId)).rows.size).toBe(40);
    expect(await chunkSizes(userId)).toEqual([40]);
  });
});

async function openRecords(id: number): Promise<{ id: number; frame: Blob }[]> {
  const db = new Dexie(orderDatabaseName(id));
  await db.open();
  const records = (await db.table('chunks').toArray()) as { id: number; frame: Blob }[];
  db.close();
  return records;
}

function byId(a: OrderRow, b: OrderRow) {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
