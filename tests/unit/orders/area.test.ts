import 'fake-indexeddb/auto';
import { expose, proxy } from 'comlink';
import { chunkOfRows, encodeOrderFrame, ORDER_FRAME_TYPE } from '../../../contract/orderChunk';
import type { OrderRow } from '../../../contract/orders';
import type { DataEvents } from '../../../workers/api';
import { connectDataApi, type DataClient } from '../../../workers/client';
import { createDataApi, createWorkerCore, type WorkerCore } from '../../../workers/dataApi';
import { OrderCache } from '../../../workers/orders/cache';
import type { OrderQuery } from '../../../workers/orders/types';
import { createFakeServer, fail, ok, type FakeServer } from '../../../workers/testing/fakeServer';
import { LABELS_NOT_READY_FIELD } from '../../../contract/orderActions';
import { generateOrders } from './generate';
import { referenceQuery } from './reference';

/** A server holding `rows` as a change log: the cursor is a position in it, as opaque to the worker as the real one. */
function orderServer(initial: OrderRow[], limit = 40) {
  const log = [...initial];
  const server = createFakeServer({
    '/order/sync': (request) => {
      const from = Number(request.query.get('cursor') ?? 0);
      const rows = log.slice(from, from + limit);
      const page = { cursor: String(from + rows.length), hasMore: from + rows.length < log.length };
      // As the real server: a binary frame when the worker asks for one.
      if (request.query.get('format') !== 'binary') return ok({ rows, ...page });
      return { status: 200, blob: new Blob([encodeOrderFrame({ chunk: chunkOfRows(rows), ...page })], { type: ORDER_FRAME_TYPE }) };
    },
  });
  return { server, log };
}

let userId = 100;
const channels: MessageChannel[] = [];

function connect(server: FakeServer): { api: DataClient; core: WorkerCore } {
  const core = createWorkerCore({ fetch: server.fetch });
  const channel = new MessageChannel();
  channels.push(channel);
  expose(createDataApi(core, { orders: { openCache: (id) => new OrderCache(id, { rowsPerChunk: 25 }) } }), channel.port1);
  return { api: connectDataApi(channel.port2), core };
}

afterEach(() => {
  for (const channel of channels.splice(0)) {
    channel.port1.close();
    channel.port2.close();
  }
});

async function until(check: () => boolean | Promise<boolean>) {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('condition not met');
}

/** Syncs a user's cache whole in one connection and closes it: the next connection opens it warm. */
async function fillCache(server: FakeServer, id: number, total: number) {
  const { api } = connect(server);
  await api.orders.open(id);
  await until(async () => (await api.orders.sync()).total === total);
  await api.orders.close();
}

/** As fillCache, after the list's opening query: the next sync keeps its order and its head with the cache. */
async function fillCacheWithHead(server: FakeServer, id: number, total: number, opening: OrderQuery) {
  const { api } = connect(server);
  await api.orders.open(id);
  await until(async () => (await api.orders.sync()).total === total);
  await api.orders.query(opening, 'orders');
  await api.orders.sync();
  await until(async () => {
    const probe = new OrderCache(id);
    try {
      await probe.load();
      return probe.openingHead()?.total === total;
    } finally {
      probe.close();
    }
  });
  await api.orders.close();
}

describe('the orders area of the worker', () => {
  it('fills an empty cache from the server in chunks, reporting progress, and answers queries with windows', async () => {
    const rows = generateOrders({ count: 130, seed: 3 });
    const { server } = orderServer(rows);
    const { api } = connect(server);
    const progress: DataEvents['orders.syncProgress'][] = [];
    await api.subscribe('orders.syncProgress', proxy((event) => void progress.push(event)));

    const opened = await api.orders.open(++userId);
    expect(opened.rows).toBe(0);
    await until(() => progress.some((p) => !p.hasMore));
    expect(server.to('/order/sync')).toHaveLength(4);
    expect(progress.at(-1)).toEqual({ rows: 130, hasMore: false, total: 130 });

    const status = rows[0]!.status;
    const result = await api.orders.query({ filters: { statuses: [status] }, sort: { column: 'amount', direction: 'desc' } });
    if (result.status !== 'done') throw new Error('superseded');
    const expected = rows.filter((row) => row.status === status).sort((a, b) => b.amount - a.amount);
    expect(result.total).toBe(expected.length);
    const window = await api.orders.window(result.handle, 0, 5);
    expect(window.rows.map((row) => row.amount)).toEqual(expected.slice(0, 5).map((row) => row.amount));
  });

  it('on a first visit asks for the next chunk once the list has shown the first rows', async () => {
    const rows = generateOrders({ count: 130, seed: 8 });
    const { server } = orderServer(rows);
    const { api } = connect(server);
    const changes: number[] = [];
    await api.subscribe('orders.changed', proxy((event) => void changes.push(event.total)));
    await api.orders.open(++userId);
    await until(() => changes.at(-1) === 40);
    // The first rows are told: the next chunk waits for the list to show them rather than taking a core from that.
    const result = await api.orders.query({}, undefined, { start: 0, end: 10, window: 50 });
    expect(result.status === 'done' && result.windows?.[0]?.rows).toHaveLength(40);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.to('/order/sync')).toHaveLength(1);
    await api.orders.shown();
    await until(() => changes.at(-1) === 130);
    expect(server.to('/order/sync')).toHaveLength(4);
  });

  it("on a first visit answers the list's query with the server's first page until the sync is over: the top rows never jump", async () => {
    // The sync brings the oldest orders first: the top of its first chunk is an old order.
    const rows = generateOrders({ count: 130, seed: 9 }).sort((a, b) => a.inProcessAt - b.inProcessAt);
    const { server } = orderServer(rows);
    const opening: OrderQuery = { filters: {}, search: '', sort: { column: 'inProcessAt', direction: 'desc' } };
    const newest = referenceQuery(rows, opening);
    server.on('/order/list', (request) => {
      expect(request.query.get('sort')).toBe('inProcessAt');
      expect(request.query.get('direction')).toBe('desc');
      return ok({ list: newest.slice(0, Number(request.query.get('rows'))), total: newest.length });
    });
    const { api } = connect(server);
    const changes: number[] = [];
    await api.subscribe('orders.changed', proxy((event) => void changes.push(event.total)));
    await api.orders.open(++userId);
    await until(() => changes.at(-1) === 40);

    const early = await api.orders.query(opening, 'orders', { start: 0, end: 10, window: 50 });
    if (early.status !== 'done') throw new Error('superseded');
    expect(early.total).toBe(130);
    expect(early.windows?.[0]?.rows.slice(0, 5).map((row) => row.id)).toEqual(newest.slice(0, 5).map((row) => row.id));

    await api.orders.shown();
    await until(() => changes.at(-1) === 130);
    const settled = await api.orders.query(opening, 'orders', { start: 0, end: 10, window: 50 });
    if (settled.status !== 'done') throw new Error('superseded');
    expect(settled.handle).toBeGreaterThanOrEqual(0);
    expect(settled.windows?.[0]?.rows.slice(0, 5).map((row) => row.id)).toEqual(newest.slice(0, 5).map((row) => row.id));
    // A search is not the server's to answer: it is never asked for one.
    await api.orders.query({ ...opening, search: 'x' }, 'orders');
    expect(server.to('/order/list')).toHaveLength(1);
  });

  it('tells a list that starts listening mid-sync how far the sync is, and nothing once it is over', async () => {
    const rows = generateOrders({ count: 130, seed: 12 });
    const { server } = orderServer(rows);
    const { api } = connect(server);
    const changes: number[] = [];
    await api.subscribe('orders.changed', proxy((event) => void changes.push(event.total)));
    expect(await api.orders.progress()).toBeNull();
    // The worker began the sync (at start-up) before any list listened to its progress.
    await api.orders.open(++userId);
    await until(() => changes.at(-1) === 40);
    expect(await api.orders.progress()).toEqual({ rows: 40, hasMore: true, total: 40 });
    await api.orders.query({});
    await until(() => changes.at(-1) === 130);
    await until(async () => (await api.orders.progress()) === null);
  });

  it('opens from the cache after a reload, then fetches only what changed since', async () => {
    const rows = generateOrders({ count: 60, seed: 4 });
    const { server, log } = orderServer(rows);
    const id = ++userId;
    await fillCache(server, id, 60);

    log.push({ ...rows[0]!, trackingNumber: 'NEW-TRACK-1', updatedAt: rows[0]!.updatedAt + 1 });
    const before = server.to('/order/sync').length;
    const second = connect(server);
    // It answers once the first cached record is in (rows to show at once); the rest follows.
    const reopened = await second.api.orders.open(id);
    expect(reopened.rows).toBeGreaterThan(0);
    expect(reopened.cursor).toBe('60');
    await until(async () => (await second.api.orders.get(rows[0]!.id))?.trackingNumber === 'NEW-TRACK-1');
    expect((await second.api.orders.sync()).total).toBe(60);
    const later = server.to('/order/sync').slice(before);
    expect(later[0]!.query.get('cursor')).toBe('60');
  });

  it('reads the rest of the cache once a page has shown the first rows it asked for at start-up, or after a grace', async () => {
    const rows = generateOrders({ count: 60, seed: 5 });
    const { server } = orderServer(rows);
    const id = ++userId;
    await fillCache(server, id, 60);
    const held = async (api: DataClient) => {
      const result = await api.orders.query({});
      return result.status === 'done' ? result.total : -1;
    };

    const { api } = connect(server);
    const answer = await api.orders.first(id, {}, 'orders', 10);
    expect(answer.rows).toHaveLength(10);
    const firstRecord = answer.opened.rows;
    expect(firstRecord).toBeGreaterThan(0);
    expect(firstRecord).toBeLessThan(60);
    // The page has not painted them yet: the other records wait.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await held(api)).toBe(firstRecord);
    await api.orders.shown();
    await until(async () => (await held(api)) === 60);

    // A page that never says so (it went away) holds the load back no longer than the grace.
    const other = connect(server);
    const started = Date.now();
    await other.api.orders.first(id, {}, 'orders', 10);
    await until(async () => (await held(other.api)) === 60);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
  });

  it('after a reload answers the opening query with the head kept with the cache: the whole total and true first rows', async () => {
    const rows = generateOrders({ count: 260, seed: 9 });
    const { server } = orderServer(rows);
    const id = ++userId;
    const opening = { sort: { column: 'amount', direction: 'desc' } } as const;
    const expected = referenceQuery(rows, opening).map((row) => row.id);
    await fillCacheWithHead(server, id, 260, opening);

    const { api } = connect(server);
    const answer = await api.orders.first(id, opening, 'orders', 10);
    if (answer.result.status !== 'done') throw new Error('superseded');
    // Answered as soon as the head is read: not one record is in the engine yet, and the answer is that of all 260.
    expect(answer.opened.rows).toBe(0);
    expect(answer.opened.cursor).not.toBeNull();
    // Until the page has painted those rows, not even the first record is read (the worker is left to the session's
    // calls): a query the head does not answer finds no rows yet.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const other = await api.orders.query({}, 'other');
    expect(other.status === 'done' && other.total).toBe(0);
    expect(answer.result.handle).toBeLessThan(0);
    expect(answer.result.total).toBe(260);
    expect(answer.rows.map((row) => row.id)).toEqual(expected.slice(0, 10));
    // Asked again meanwhile (the list re-queries), the same; rows past the head wait for the load, then say stale.
    const again = await api.orders.query(opening, 'orders', { start: 0, end: 20, window: 10 });
    expect(again.status === 'done' && again.handle).toBe(answer.result.handle);
    expect(again.status === 'done' && again.windows?.map((w) => w.rows.map((row) => row.id))).toEqual([expected.slice(0, 10), expected.slice(10, 20)]);
    const past = api.orders.window(answer.result.handle, 150, 10).catch((error: unknown) => error);
    await api.orders.shown();
    expect(await past).toEqual({ type: 'StaleHandle', handle: answer.result.handle });
    const settled = await api.orders.query(opening, 'orders');
    if (settled.status !== 'done') throw new Error('superseded');
    expect(settled.handle).toBeGreaterThan(0);
    expect((await api.orders.window(settled.handle, 0, 260)).rows.map((row) => row.id)).toEqual(expected);
  });

  it('after a reload answered from the head, a list the head does not answer opens the cache without waiting for the paint', async () => {
    const rows = generateOrders({ count: 120, seed: 11 });
    const { server } = orderServer(rows);
    const id = ++userId;
    const opening = { sort: { column: 'amount', direction: 'desc' } } as const;
    await fillCacheWithHead(server, id, 120, opening);

    const { api } = connect(server);
    const answer = await api.orders.first(id, opening, 'orders', 10);
    expect(answer.opened.rows).toBe(0);
    // Another list (the user went on to the record list before the first rows were painted) needs the records: its
    // open reads them now, not once the first page has painted or its grace is over.
    const started = Date.now();
    const opened = await api.orders.open(id);
    expect(Date.now() - started).toBeLessThan(300);
    expect(opened.rows).toBeGreaterThan(0);
  });

  it('lets an early open and the list open share one load, and forgets the rows when the session ends', async () => {
    const rows = generateOrders({ count: 60, seed: 7 });
    const { server } = orderServer(rows);
    const id = ++userId;
    await fillCache(server, id, 60);

    const { api, core } = connect(server);
    const [early, list] = await Promise.all([api.orders.open(id), api.orders.open(id)]);
    // The second call waits for the same first rows instead of answering an empty engine.
    expect(list).toEqual(early);
    expect(list.rows).toBeGreaterThan(0);
    await until(async () => (await api.orders.sync()).total === 60);

    core.client.setCredentials(null);
    await until(async () => (await api.orders.get(rows[0]!.id)) === null);
    const result = await api.orders.query({});
    expect(result.status === 'done' && result.total).toBe(0);
  });

  it('syncs when the server pushes orders.changed, and lists see the tombstone drop the row', async () => {
    const rows = generateOrders({ count: 30, seed: 5 });
    const { server, log } = orderServer(rows);
    const { api, core } = connect(server);
    const changes: number[] = [];
    await api.subscribe('orders.changed', proxy((event) => void changes.push(event.total)));
    await api.orders.open(++userId);
    await until(() => changes.at(-1) === 30);

    log.push({ ...rows[1]!, deleted: true });
    core.events.emit('push.message', { message: { type: 'orders.changed' } });
    await until(() => changes.at(-1) === 29);
    expect(await api.orders.get(rows[1]!.id)).toBeNull();
    const search = await api.orders.query({ search: rows[1]!.postingNumber });
    expect(search.status === 'done' && search.total).toBe(0);
  });

  it('sends batch actions for a whole result except the rows the user unticked', async () => {
    const rows = generateOrders({ count: 50, seed: 6 });
    const { server } = orderServer(rows);
    server.on('/shipOrder', (request) => ok({ done: (request.body as { ids: string[] }).ids.length, failures: [] }));
    const { api } = connect(server);
    await api.orders.open(++userId);
    await until(async () => (await api.orders.sync()).total === 50);
    const shop = rows[0]!.shopId;
    const result = await api.orders.query({ filters: { shopIds: [shop] } });
    if (result.status !== 'done') throw new Error('superseded');
    const { rows: [first] } = await api.orders.window(result.handle, 0, 1);
    const shipped = await api.orders.ship({ kind: 'all', handle: result.handle, except: [first!.id] });
    expect(shipped.done).toBe(result.total - 1);
    const sent = server.to('/shipOrder')[0]!.body as { ids: string[] };
    expect(sent.ids).not.toContain(first!.id);
    expect(new Set(sent.ids)).toEqual(new Set(rows.filter((row) => row.shopId === shop && row.id !== first!.id).map((row) => row.id)));
  });

  it('rejects a refused batch action without a message of its own: the action dialog shows the reason', async () => {
    const { server } = orderServer([]);
    server.on('/ets/pdf', () => fail(400, 'Ozon尚未生成面单，请1分钟后重试', { field: LABELS_NOT_READY_FIELD }));
    server.on('/shipOrder', () => fail(504));
    const { api, core } = connect(server);
    const messages: DataEvents['http.message'][] = [];
    core.events.on('http.message', (message) => void messages.push(message));

    await expect(api.orders.labels({ kind: 'ids', ids: ['a'] })).rejects.toMatchObject({ field: LABELS_NOT_READY_FIELD, silent: true });
    await expect(api.orders.ship({ kind: 'ids', ids: ['a'] })).rejects.toMatchObject({ type: 'MarketplaceTimeout', silent: true });
    expect(messages).toEqual([]);
  });

  it('offers the shops and warehouses of the cached rows to the filter bar', async () => {
    const rows = generateOrders({ count: 80, seed: 7, shops: 3, warehouses: 4 });
    const { server } = orderServer(rows);
    const { api } = connect(server);
    await api.orders.open(++userId);
    await until(async () => (await api.orders.sync()).total === 80);
    const facets = await api.orders.facets();
    expect(facets.shops.map((shop) => shop.id)).toEqual([...new Set(rows.map((row) => row.shopId))].sort((a, b) => a - b));
    expect(facets.warehouses).toHaveLength(new Set(rows.map((row) => row.warehouseId)).size);
  });
});
