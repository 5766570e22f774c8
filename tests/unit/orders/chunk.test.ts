import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import {
  chunkOfRows,
  decodeOrderFrame,
  undecodedText,
  encodeOrderFrame,
  numberEncoding,
  OrderChunkError,
  rowsOfChunk,
  scaledNumbers,
  TEXT_SEPARATOR,
} from '../../../contract/orderChunk';
import { ORDER_COLUMNS, type OrderRow } from '../../../contract/orders';
import { OrderCache, orderDatabaseName } from '../../../workers/orders/cache';
import { OrderEngine } from '../../../workers/orders/engine';
import { loadOrders, ordersLoaded, syncOrders, type ReceivedFrame } from '../../../workers/orders/sync';
import type { OrderQuery, OrderQueryResult } from '../../../workers/orders/types';
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

/** What the worker gets from the server for these rows: the frame's bytes, decoded as the sync decodes them. */
function received(rows: readonly OrderRow[], cursor: string, hasMore: boolean): ReceivedFrame {
  const bytes = encodeOrderFrame({ chunk: chunkOfRows(rows), cursor, hasMore }).slice().buffer as ArrayBuffer;
  return { ...decodeOrderFrame(bytes), blob: new Blob([bytes]) };
}

/** The rows a cache holds (loaded the way the worker loads them) and its cursor. */
async function cachedRows(id: number): Promise<{ rows: OrderRow[]; cursor: string | null }> {
  const engine = new OrderEngine();
  const { cursor } = await openCache(id).load((chunk) => engine.appendChunk(chunk));
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

describe('the binary order chunk', () => {
  it('carries every field of every row through a frame unchanged, empty dates and empty strings included', () => {
    const rows = generateOrders({ count: 500, seed: 3 });
    rows[0] = { ...rows[0]!, shipmentDate: null, deliveringDate: null, trackingNumber: '', substatus: '' };
    rows[1] = { ...rows[1]!, amount: 0.1 + 0.2, productName: '蓝牙耳机 «Pro» 🎧', deleted: true };
    const frame = decodeOrderFrame(encodeOrderFrame({ chunk: chunkOfRows(rows), cursor: 'c:1', hasMore: true }).slice().buffer);
    expect(frame.cursor).toBe('c:1');
    expect(frame.hasMore).toBe(true);
    expect(frame.remaining).toBeUndefined();
    expect(rowsOfChunk(frame.chunk)).toEqual(rows);
    // How many rows the sync has left, when the server counted them: at least this frame's.
    const counted = (remaining: number) => encodeOrderFrame({ chunk: chunkOfRows(rows), cursor: 'c:1', hasMore: true, remaining }).slice().buffer;
    expect(decodeOrderFrame(counted(90_000)).remaining).toBe(90_000);
    expect(() => decodeOrderFrame(counted(499))).toThrow(/remaining/);
    // Repeated strings travel once per chunk.
    expect(frame.chunk.dicts.status.values.length).toBeLessThan(20);
    expect(rowsOfChunk(decodeOrderFrame(encodeOrderFrame({ chunk: chunkOfRows([]), cursor: '', hasMore: false }).slice().buffer).chunk)).toEqual([]);
  });

  it('writes the separator inside a value as a space, so the other values keep their places', () => {
    const [row] = generateOrders({ count: 1, seed: 4 });
    const odd = { ...row!, trackingNumber: `A${TEXT_SEPARATOR}B`, productName: `x${TEXT_SEPARATOR}y` };
    expect(rowsOfChunk(chunkOfRows([odd, row!]))).toEqual([{ ...odd, trackingNumber: 'A B' }, row]);
  });

  it('refuses frames that are cut, garbled or point outside their dictionaries', () => {
    const bytes = encodeOrderFrame({ chunk: chunkOfRows(generateOrders({ count: 50, seed: 5 })), cursor: 'x', hasMore: false });
    expect(() => decodeOrderFrame(bytes.slice(0, bytes.byteLength - 7).buffer)).toThrow(OrderChunkError);
    expect(() => decodeOrderFrame(new TextEncoder().encode('{"code":200}').slice().buffer)).toThrow(OrderChunkError);
    const padded = new Uint8Array(bytes.byteLength + 3);
    padded.set(bytes);
    expect(() => decodeOrderFrame(padded.buffer)).toThrow(/trailing/);
    // A shop dictionary shorter than its codes need: the header rewritten to the same length.
    const broken = bytes.slice();
    const headerLength = new DataView(broken.buffer).getUint32(4, true);
    const header = JSON.parse(new TextDecoder().decode(broken.subarray(8, 8 + headerLength))) as { dicts: Record<string, unknown[]> };
    expect(header.dicts.shopId!.length).toBeGreaterThan(1);
    header.dicts.shopId = header.dicts.shopId!.slice(0, 1);
    broken.set(new TextEncoder().encode(JSON.stringify(header).padEnd(headerLength, ' ')), 8);
    expect(() => decodeOrderFrame(broken.buffer)).toThrow(/out of range/);
  });
});

describe('the frame\'s bytes', () => {
  const column = (...values: number[]) => new Float64Array(values);
  const DAY = 86_400_000;
  const start = Date.UTC(2025, 0, 1);

  it('sends each number column in the fewest bytes that give every value back exactly', () => {
    // Whole seconds apart over two years, empty dates among them: four bytes of seconds after the first.
    expect(numberEncoding(column(start + 490, start + 730 * DAY + 490, NaN, start + 1_490))).toEqual({ bytes: 4, base: start + 490, exp: 3 });
    // Hundredths of a second apart within a second: one byte.
    expect(numberEncoding(column(start + 490, start + 10))).toEqual({ bytes: 1, base: start + 10, exp: 1 });
    // Kopecks; quantities.
    expect(numberEncoding(column(0.1, 1527.81, 10.24))).toEqual({ bytes: 4, base: 10, exp: -2 });
    expect(numberEncoding(column(1, 2, 3, 4))).toEqual({ bytes: 1, base: 1, exp: 0 });
    // The largest code of a width stands for NaN.
    expect(numberEncoding(column(0, 254))).toMatchObject({ bytes: 1 });
    expect(numberEncoding(column(0, 255))).toMatchObject({ bytes: 2 });
    // Nothing narrower is exact: as Float64.
    for (const values of [column(0.1 + 0.2), column(-0, 1), column(0.5, -0), column(Infinity), column(start + 1, start + 730 * DAY), column(2 ** 53 + 2)]) {
      expect(numberEncoding(values)).toEqual({ bytes: 8 });
    }
    expect(numberEncoding(column(NaN, NaN))).toEqual({ bytes: 1, base: 0, exp: 0 });
  });

  it('gives narrowed numbers back exactly, widened only when read, and refuses an encoding it does not know', () => {
    const base = generateOrders({ count: 600, seed: 7 });
    const rows = base.map((row, i) => ({
      ...row,
      // Milliseconds, hundredths, kopecks at the edges of their widths, empty dates.
      inProcessAt: start + i * 1_001,
      shipmentDate: i % 4 === 0 ? null : start + (i % 255) * 10,
      amount: i === 0 ? 0 : i === 1 ? 42_949_672.94 : Math.round(i * 1234.5) / 100,
      quantity: i % 254,
    }));
    const bytes = encodeOrderFrame({ chunk: chunkOfRows(rows), cursor: '', hasMore: false });
    const { chunk } = decodeOrderFrame(bytes.slice().buffer);
    expect(scaledNumbers(chunk, 'amount')).toMatchObject({ exp: -2 });
    expect(scaledNumbers(chunk, 'shipmentDate')?.codes).toBeInstanceOf(Uint8Array);
    expect(rowsOfChunk(chunk)).toEqual(rows);
    // Read as Float64 once, the column stays so.
    expect(scaledNumbers(chunk, 'amount')).toBeNull();
    expect(chunk.numbers.amount).toBe(chunk.numbers.amount);

    const headerLength = new DataView(bytes.buffer).getUint32(4, true);
    const text = new TextDecoder().decode(bytes.subarray(8, 8 + headerLength));
    for (const garbled of [text.replace('"exp":-2', '"exp":-7'), text.replace('"bytes":4', '"bytes":3')]) {
      expect(garbled).not.toBe(text);
      const broken = bytes.slice();
      broken.set(new TextEncoder().encode(garbled.padEnd(headerLength, ' ')), 8);
      expect(() => decodeOrderFrame(broken.buffer)).toThrow(/encoding/);
    }
  });
});

describe('the bulk path into the engine and the cache', () => {
  it('answers every query as the row path does, after a full load and after incremental changes', async () => {
    const { initial, later } = history();
    const byRows = new OrderEngine({ sliceRows: 500 });
    const byChunks = new OrderEngine({ sliceRows: 500 });
    const model = new ArrivalOrderModel();
    for (let from = 0; from < initial.length; from += 700) {
      const chunk = initial.slice(from, from + 700);
      byRows.upsert(chunk);
      byChunks.appendChunk(received(chunk, '', false).chunk);
      model.apply(chunk);
    }
    for (let from = 0; from < later.length; from += 200) {
      const chunk = later.slice(from, from + 200);
      byRows.upsert(chunk);
      byChunks.appendChunk(received(chunk, '', false).chunk);
      model.apply(chunk);
    }
    const live = model.list();
    expect(byChunks.size).toBe(live.length);
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
      expect(await ids(byChunks, query), JSON.stringify(query)).toEqual(expected);
      expect(await ids(byRows, query)).toEqual(expected);
    }
    for (const row of live.slice(0, 50)) expect(byChunks.get(row.id)).toEqual(row);
  });

  it('after a trusted load (the cache records) finds, updates and deletes rows by id as after a checked one', async () => {
    const { initial, later } = history();
    const engine = new OrderEngine({ sliceRows: 500 });
    for (let from = 0; from < initial.length; from += 700) engine.appendChunk(received(initial.slice(from, from + 700), '', false).chunk, { trusted: true });
    expect(engine.get(initial[1_234]!.id)).toEqual(initial[1_234]);
    engine.appendChunk(received(later, '', false).chunk);
    engine.remove([initial[7]!.id]);
    const model = new ArrivalOrderModel();
    model.apply(initial);
    model.apply(later);
    model.apply([{ ...initial[7]!, deleted: true }]);
    expect(await ids(engine, {})).toEqual(model.list().map((row) => row.id));
    expect(engine.get(initial[7]!.id)).toBeUndefined();
  });

  it('appends a cache record in slices: rows of finished slices answer queries meanwhile, and the whole agrees with one append', async () => {
    const rows = generateOrders({ count: 2_300, seed: 41 });
    const engine = new OrderEngine();
    const seen: number[] = [];
    let slices = 0;
    await engine.appendTrustedInSlices(
      received(rows, '', false).chunk,
      async () => {
        slices++;
        const { handle, total } = done(await engine.query({ sort: { column: 'amount', direction: 'asc' } }));
        seen.push(total);
        expect(engine.window(handle, 0, total).rows.map((row) => row.id)).toEqual(referenceQuery(rows.slice(0, total), { sort: { column: 'amount', direction: 'asc' } }).map((row) => row.id));
        return true;
      },
      500,
    );
    expect(slices).toBe(4);
    expect(seen).toEqual([500, 1_000, 1_500, 2_000]);
    const whole = new OrderEngine();
    whole.appendChunk(received(rows, '', false).chunk, { trusted: true });
    for (const query of [{}, { search: rows[77]!.postingNumber.slice(3, 9) }, { sort: { column: 'productName', direction: 'desc' } }] as OrderQuery[]) {
      expect(await ids(engine, query)).toEqual(await ids(whole, query));
    }
    expect(engine.get(rows[2_299]!.id)).toEqual(rows[2_299]);
  });

  it('keeps a cached frame\'s texts as bytes until read: rows on screen, searches and order ids come out as they went in', async () => {
    const rows = generateOrders({ count: 1_200, seed: 43 }).map((row, i) =>
      i % 3 === 0 ? { ...row, trackingNumber: `ТРЕК-${i}-快递🚚`, orderId: `订单${i}` } : i % 3 === 1 ? { ...row, trackingNumber: '' } : row,
    );
    const frame = received(rows, '', false);
    expect(undecodedText(frame.chunk, 'trackingNumber')).toBeInstanceOf(Uint8Array);
    const engine = new OrderEngine({ yieldToEventLoop: async () => undefined });
    await engine.appendTrustedInSlices(frame.chunk, async () => true, 500);
    // The engine took the bytes; nothing decoded the column as a whole, nor the ids.
    expect(undecodedText(frame.chunk, 'trackingNumber')).toBeInstanceOf(Uint8Array);
    expect(undecodedText(frame.chunk, 'id')).toBeInstanceOf(Uint8Array);
    const { handle, total } = done(await engine.query({ sort: { column: 'amount', direction: 'desc' } }));
    const expected = referenceQuery(rows, { sort: { column: 'amount', direction: 'desc' } });
    // A screenful of rows decodes its own values only.
    expect(engine.window(handle, 0, 40).rows).toEqual(expected.slice(0, 40));
    expect(undecodedText(frame.chunk, 'id')).toBeInstanceOf(Uint8Array);
    expect(engine.window(handle, 0, total).rows).toEqual(expected);
    await engine.prepareSearch();
    // Settled with its search index, the engine decoded the ids through the chunk: a reader of the chunk's ids (the
    // cache) gets that same string.
    expect(undecodedText(frame.chunk, 'id')).toBeNull();
    expect(frame.chunk.texts.id.split(TEXT_SEPARATOR)).toEqual(rows.map((row) => row.id));
    expect(await ids(engine, { search: '快递🚚' })).toEqual(rows.filter((row) => row.trackingNumber.includes('快递🚚')).map((row) => row.id));
    expect(await ids(engine, { search: 'трек-300-' })).toEqual([rows[300]!.id]);
    expect(engine.get(rows[999]!.id)).toEqual(rows[999]);
    // Read as a string, the chunk's column is decoded once and its bytes let go.
    expect(frame.chunk.texts.trackingNumber.split(TEXT_SEPARATOR)).toEqual(rows.map((row) => row.trackingNumber));
    expect(undecodedText(frame.chunk, 'trackingNumber')).toBeNull();
  });

  it('stops a sliced append that is no longer wanted (a newer load cleared the engine)', async () => {
    const rows = generateOrders({ count: 2_000, seed: 42 });
    const engine = new OrderEngine();
    let pauses = 0;
    await engine.appendTrustedInSlices(received(rows, '', false).chunk, async () => ++pauses < 2, 500);
    expect(engine.size).toBe(1_000);
  });

  it('builds the search index in slices that give way, and drops a build the rows changed under', async () => {
    const rows = generateOrders({ count: 140_000, seed: 51 });
    let pauses = 0;
    let onPause: () => void = () => undefined;
    const engine = new OrderEngine({
      yieldToEventLoop: async () => {
        pauses++;
        onPause();
      },
    });
    engine.appendChunk(received(rows, '', false).chunk, { trusted: true });
    const needle = rows[139_999]!.postingNumber.toLowerCase();
    const expected = referenceQuery(rows, { search: needle }).map((row) => row.id);
    // A change between two slices: that build is dropped, the next search still answers right (and the new row).
    onPause = () => {
      onPause = () => undefined;
      engine.upsert([{ ...rows[5]!, postingNumber: `${needle}-copy` }]);
    };
    await engine.prepareSearch();
    expect(pauses).toBeGreaterThan(0);
    expect(await ids(engine, { search: needle })).toEqual([rows[5]!.id, ...expected].sort((a, b) => rows.findIndex((r) => r.id === a) - rows.findIndex((r) => r.id === b)));
    // Undisturbed, it builds in more than one slice, and searches agree with the reference.
    pauses = 0;
    engine.upsert([{ ...rows[5]! }]);
    await engine.prepareSearch();
    expect(pauses).toBeGreaterThan(1);
    expect(await ids(engine, { search: needle })).toEqual(expected);
  });

  it('finishes a query while chunks are appended (answering the rows it saw), and starts over when held rows change', async () => {
    const rows = generateOrders({ count: 3_000, seed: 61 });
    const more = generateOrders({ count: 500, seed: 62, idPrefix: 'more' });
    let duringQuery: () => void = () => undefined;
    const engine = new OrderEngine({
      sliceRows: 500,
      yieldToEventLoop: async () => {
        const work = duringQuery;
        duringQuery = () => undefined;
        work();
      },
    });
    engine.appendChunk(received(rows, '', false).chunk, { trusted: true });
    // A range filter scans the rows in slices, giving way between them (a list filter reads an index at once).
    const query: OrderQuery = { filters: { amount: { from: -1_000 } }, sort: { column: 'amount', direction: 'asc' } };
    duringQuery = () => engine.appendChunk(received(more, '', false).chunk);
    expect(await ids(engine, query)).toEqual(referenceQuery(rows, query).map((row) => row.id));
    expect(await ids(engine, query)).toEqual(referenceQuery([...rows, ...more], query).map((row) => row.id));
    // An amount changed under a running sort: the answer is the new one, never a mix.
    const changed = { ...rows[1]!, status: rows[0]!.status, amount: -1 };
    duringQuery = () => engine.upsert([changed]);
    const after = [...rows.map((row) => (row.id === changed.id ? changed : row)), ...more];
    expect(await ids(engine, query)).toEqual(referenceQuery(after, query).map((row) => row.id));
  });

  it('caches a binary sync as the frames it received and loads it back into an engine that agrees with the server', async () => {
    const { initial, later } = history();
    const changes = [...initial, ...later];
    const server = async (cursor: string | null): Promise<ReceivedFrame> => {
      const from = cursor === null ? 0 : Number(cursor);
      const rows = changes.slice(from, from + 1_000);
      return received(rows, String(from + rows.length), from + rows.length < changes.length);
    };
    const engine = new OrderEngine();
    await loadOrders(openCache(userId, { rowsPerChunk: 400 }), engine);
    const synced = await syncOrders(openCache(userId, { rowsPerChunk: 400 }), engine, server);
    expect(synced.rows).toBe(changes.length);

    const model = new ArrivalOrderModel();
    model.apply(changes);
    expect(engine.size).toBe(model.list().length);
    const reloaded = await cachedRows(userId);
    expect(reloaded.cursor).toBe(String(changes.length));
    expect([...reloaded.rows].sort(byId)).toEqual(model.list().sort(byId));

    const db = new Dexie(orderDatabaseName(userId));
    await db.open();
    const records = (await db.table('chunks').toArray()) as { frame: Blob }[];
    db.close();
    // The three all-new chunks are stored as the frames they came in (not cut to rowsPerChunk); the changes went
    // through the row path, rewriting those records and putting the new rows in one more.
    const sizes = await Promise.all(records.map(async (record) => decodeOrderFrame(await record.frame.arrayBuffer()).chunk.n));
    expect(sizes).toHaveLength(4);
    expect(sizes.slice(0, 3).every((size) => size > 900)).toBe(true);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(model.list().length);
  });

  it('keeps a list order with the records: a reload of the same rows takes it, and any change makes it stale', async () => {
    const rows = generateOrders({ count: 2_600, seed: 71 });
    const server = (log: OrderRow[]) => async (cursor: string | null): Promise<ReceivedFrame> => {
      const from = cursor === null ? 0 : Number(cursor);
      const part = log.slice(from, from + 1_000);
      return received(part, String(from + part.length), from + part.length < log.length);
    };
    const sort = { column: 'inProcessAt', direction: 'desc' } as const;
    const key = JSON.stringify(sort);
    const first = new OrderEngine();
    const writer = openCache(userId, { rowsPerChunk: 400 });
    await loadOrders(writer, first);
    await syncOrders(writer, first, server(rows));
    // A full sync appends whole new frames: the slots are as a load of the records will lay them out.
    expect(first.appendOnly).toBe(true);
    await writer.saveOrder(key, first.permutationFor(sort));
    expect(await writer.hasOrder(key)).toBe(true);

    const reader = openCache(userId, { rowsPerChunk: 400 });
    const second = new OrderEngine();
    await loadOrders(reader, second);
    await ordersLoaded(second);
    const saved = await reader.savedOrder();
    expect(saved?.sort).toBe(key);
    expect(second.adoptPermutation(sort, saved!.order)).toBe(true);
    expect(await ids(second, { sort })).toEqual(referenceQuery(rows, { sort }).map((row) => row.id));
    // An order that does not fit is refused: a slot twice, or another number of rows.
    const broken = saved!.order.slice();
    broken[1] = broken[0]!;
    expect(second.adoptPermutation(sort, broken)).toBe(false);
    expect(second.adoptPermutation(sort, saved!.order.subarray(1))).toBe(false);

    // Any write to the records (here an updated row) makes the saved order stale, and an engine that applied a
    // change no longer has a load's layout.
    await syncOrders(reader, second, server([...rows, { ...rows[5]!, amount: 1 }]));
    expect(await reader.savedOrder()).toBeNull();
    expect(second.appendOnly).toBe(false);
  });

  it('drops a cache written by the previous version (row or column records) and syncs afresh', async () => {
    const initial = generateOrders({ count: 120, seed: 31 });
    const db = new Dexie(orderDatabaseName(userId));
    db.version(1).stores({ chunks: 'id', meta: 'key' });
    await db.table('chunks').bulkPut([0, 1, 2].map((k) => ({ id: k + 1, rows: initial.slice(k * 50, k * 50 + 50) })));
    await db.table('meta').put({ key: 'sync', cursor: 'old', rowCount: 120, nextChunkId: 4, schema: 1 });
    db.close();

    const engine = new OrderEngine();
    const cache = openCache(userId, { rowsPerChunk: 50 });
    expect(await loadOrders(cache, engine)).toEqual({ cursor: null, rows: 0 });
    await syncOrders(cache, engine, async (cursor) => {
      expect(cursor).toBeNull();
      return received(initial, 'fresh', false);
    });
    const reloaded = await cachedRows(userId);
    expect(reloaded.cursor).toBe('fresh');
    expect([...reloaded.rows].sort(byId)).toEqual([...initial].sort(byId));
  });

  it('keeps the previous rows and cursor when a chunk fails before it is stored, and the retry completes it', async () => {
    const first = generateOrders({ count: 200, seed: 41 });
    const second = generateOrders({ count: 700, seed: 42, idPrefix: 'b' });
    let failOn: number | null = null;
    const cache = openCache(userId, {
      rowsPerChunk: 300,
      beforeChunkWrite: (chunkId) => {
        if (chunkId === failOn) throw new Error('simulated crash');
      },
    });
    const frame = received(first, 'first', true);
    await cache.applyFrame(frame, frame.blob);
    failOn = 2;
    const next = received(second, 'second', false);
    await expect(cache.applyFrame(next, next.blob)).rejects.toThrow('simulated crash');
    const afterCrash = await cachedRows(userId);
    expect(afterCrash.cursor).toBe('first');
    expect([...afterCrash.rows].sort(byId)).toEqual([...first].sort(byId));

    failOn = null;
    await cache.applyFrame(next, next.blob);
    const afterRetry = await cachedRows(userId);
    expect(afterRetry.cursor).toBe('second');
    expect([...afterRetry.rows].sort(byId)).toEqual([...first, ...second].sort(byId));
  });

  it('folds an incremental frame (updates, tombstones, new rows) into the records it touches', async () => {
    const { initial, later } = history();
    const cache = openCache(userId, { rowsPerChunk: 500 });
    const engine = new OrderEngine();
    await syncOrders(cache, engine, async () => received(initial, 'a', false));
    await syncOrders(cache, engine, async () => received(later, 'b', false));
    const model = new ArrivalOrderModel();
    model.apply(initial);
    model.apply(later);
    const reloaded = await cachedRows(userId);
    expect(reloaded.cursor).toBe('b');
    expect([...reloaded.rows].sort(byId)).toEqual(model.list().sort(byId));
    expect(await ids(engine, {})).toEqual(model.list().map((row) => row.id));
  });
});
