import {
  ORDER_ENDPOINTS as E,
  ORDER_LIST,
  type AddOrderBody,
  type FbsStatus,
  type BatchResult,
  type CancelOrdersBody,
  type CancelReasonsAnswer,
  type OrderListQuery,
  type OrderListPage,
  type OrderPictures,
  type OrderPicturesBody,
  type PickingFormat,
  type OrderRow,
  type PostingDetail,
  type StockResult,
  type UpdateOrderBody,
  type UpdateStockBody,
  type Warehouse,
} from '../../contract/orders';
import type { ApiFailure } from '../api';
import type { EventBus } from '../events';
import type { HttpClient } from '../http/client';
import {
  createListArea,
  receiveFrame,
  type ListAreaApi,
  type ListChangedEvent,
  type ListFirstAnswer,
  type ListOpenResult,
  type ListSelection,
  type ListSyncProgressEvent,
  type ListSyncResult,
} from '../lists/area';
import { pagesOnScreen, type PageWindow, type RowsOnScreen } from '../lists/types';
import { OrderCache } from './cache';
import { OrderEngine, type OrderEngineOptions } from './engine';
import type { OrderQuery } from './types';

/** Rows of the selection a batch action works on: listed ids, or a whole result except some. */
export type OrderSelection = ListSelection;

/** Values the filter bar offers, read from the cached rows. */
export type OrderFacets = {
  shops: { id: number; name: string }[];
  warehouses: { id: string; name: string }[];
};

export type OrdersOpenResult = ListOpenResult;
export type OrderRowsOnScreen = RowsOnScreen;
export type OrderPageWindow = PageWindow<OrderRow>;
export { pagesOnScreen };

export type OrdersFirstAnswer = ListFirstAnswer<OrderRow>;
export type OrdersSyncResult = ListSyncResult;

/**
 * The worker's `orders` area: the cached order list (workers/lists/area.ts over ORDER_LIST), kept fresh by
 * GET /api/order/sync and the 'orders.changed' push; plus the order and shipping calls.
 */
export type OrdersApi = ListAreaApi<OrderRow, OrderQuery> & {
  facets(): Promise<OrderFacets>;
  /**
   * Rows (postings, when the query groups by posting) per status among the cached rows that `query` finds with its
   * status filter left out: the counts on the status tabs. Null when a newer count superseded this one.
   */
  statusCounts(query: OrderQuery): Promise<Partial<Record<FbsStatus, number>> | null>;
  /** Every line of the posting the row `id` belongs to (an entered order: that row alone), as cached. */
  postingLines(id: string): Promise<OrderRow[]>;

  /** GET /api/order/list: a page filtered by the server (callers without the cache). Cancellable by a newer call. */
  list(query: OrderListQuery): Promise<OrderListPage>;
  add(body: AddOrderBody): Promise<OrderRow>;
  update(body: UpdateOrderBody): Promise<OrderRow>;
  remove(ids: string[]): Promise<number>;
  ship(selection: OrderSelection): Promise<BatchResult>;
  setTrackingNumbers(items: { id: string; trackingNumber: string }[]): Promise<BatchResult>;
  /** Ozon's details of the row's posting (buyer, address, commission), for its drawer; a newer call aborts the older. */
  posting(id: string): Promise<PostingDetail>;
  /** Ozon's cancel reasons for the rows' cancellable postings. */
  cancelReasons(ids: string[]): Promise<CancelReasonsAnswer>;
  /** Cancels the rows' postings on Ozon with one reason. */
  cancel(body: CancelOrdersBody): Promise<BatchResult>;
  /** The main pictures of the products (shop, offer id) on screen; offers without one are left out. */
  pictures(items: OrderPicturesBody['items']): Promise<OrderPictures>;
  /** The selection's picking list (products, quantities summed) as one PDF or Excel file (bytes). */
  pickingList(selection: OrderSelection, format: PickingFormat): Promise<ArrayBuffer>;
  /** The selection's labels as one PDF (bytes; the page turns them into a Blob URL). */
  labels(selection: OrderSelection): Promise<ArrayBuffer>;
  warehouses(storeId?: number): Promise<Warehouse[]>;
  updateStock(items: UpdateStockBody['items']): Promise<StockResult>;
};

/** What the orders area reports on the worker's event bus (merged into DataEvents). */
export type OrdersEvents = {
  /** A sync moved on: rows received so far in this sync, whether more wait, rows now held. */
  'orders.syncProgress': ListSyncProgressEvent;
  /** The rows in memory changed (sync, push, own edits): lists query again. */
  'orders.changed': ListChangedEvent;
  /** A sync failed; the cache keeps what it had. */
  'orders.syncFailed': { failure: ApiFailure };
};

/**
 * The batch actions' calls report failures without a message of their own: the order-actions machine shows each
 * one in its dialog, posting by posting (machines/orderActionsMachine.ts), and a toast beside it said it twice.
 */
const ACTION_CALL = { silent: true } as const;
/** Rows one picking list sums at most (its endpoint's limit). */
const PICKING_IDS = 10_000;
/** Server batch calls take at most this many rows. */
const BATCH_IDS = 1_000;

export type OrdersAreaDeps = {
  client: HttpClient;
  events: Pick<EventBus, 'emit' | 'on'>;
  engine?: OrderEngineOptions;
  /** Tests give each user a fresh cache name space. */
  openCache?: (userId: number) => OrderCache;
};

const SERVER_SORTS = new Set<string>(['inProcessAt', 'shipmentDate', 'amount', 'updatedAt']);

/**
 * A list query as GET /api/order/list's (the server's first page of it), or null when the server would not answer
 * it alike: a search (the engine matches differently), a grouping by posting, a sort or filter it does not have.
 */
export function serverListQuery(query: OrderQuery, rows: number): OrderListQuery | null {
  const { filters = {}, sort, search, group } = query;
  if (group || (search ?? '').trim() !== '' || (sort && !SERVER_SORTS.has(sort.column))) return null;
  const sources = filters.sources ?? [];
  if (sources.length > 1) return null;
  const some = <T>(values: readonly T[] | undefined) => (values && values.length > 0 ? [...values] : undefined);
  return {
    page: 1,
    rows,
    shopIds: some(filters.shopIds),
    statuses: some(filters.statuses),
    warehouseIds: some(filters.warehouseIds),
    source: sources[0],
    inProcessFrom: filters.inProcessAt?.from,
    inProcessTo: filters.inProcessAt?.to,
    shipmentFrom: filters.shipmentDate?.from,
    shipmentTo: filters.shipmentDate?.to,
    amountFrom: filters.amount?.from,
    amountTo: filters.amount?.to,
    sort: (sort?.column ?? 'inProcessAt') as OrderListQuery['sort'],
    direction: sort?.direction ?? 'desc',
  };
}

export function createOrdersArea({ client, events, engine: engineOptions, openCache = (id) => new OrderCache(id) }: OrdersAreaDeps): OrdersApi {
  const engine = new OrderEngine(engineOptions);
  const list = createListArea<OrderRow, OrderQuery>({
    engine,
    openCache,
    removeCache: (id) => OrderCache.removeOrders(id),
    // The frame arrives as a Blob: the cache stores that very Blob (see workers/lists/frameBytes.ts).
    fetchFrame: async (request, signal) =>
      receiveFrame(ORDER_LIST, await client.call(E.sync, { ...request, format: 'binary' }, { signal }), (error) => client.contractFailure(E.sync, error, true)),
    notify: {
      changed: (event) => events.emit('orders.changed', event),
      progress: (event) => events.emit('orders.syncProgress', event),
      failed: (failure) => events.emit('orders.syncFailed', { failure }),
    },
    tabColumn: 'status',
    engineOptions,
    // A first visit's list shows the server's first page in the list's order while the cache fills.
    fetchHead: async (query, rows) => {
      const asked = serverListQuery(query, rows);
      if (!asked) return null;
      const page = await client.call(E.list, asked, { silent: true });
      return { total: page.total, rows: page.list };
    },
  });
  const { idsOf, settledSelection, afterEdit } = list;

  events.on('push.message', ({ message }) => {
    if (message.type === 'orders.changed') list.syncSoon();
  });

  async function inBatches<T>(ids: string[], call: (batch: string[]) => Promise<T>): Promise<T[]> {
    const results: T[] = [];
    for (let i = 0; i < ids.length; i += BATCH_IDS) results.push(await call(ids.slice(i, i + BATCH_IDS)));
    return results;
  }

  const mergeBatches = (results: BatchResult[]): BatchResult => ({
    done: results.reduce((sum, r) => sum + r.done, 0),
    failures: results.flatMap((r) => r.failures),
  });

  const api: OrdersApi = {
    ...list.api,
    async postingLines(id) {
      return engine.groupOf(id, 'postingNumber');
    },
    async facets() {
      return {
        shops: engine.pairs('shopId', 'shopName').map(([id, name]) => ({ id: Number(id), name })).sort((a, b) => a.id - b.id),
        warehouses: engine
          .pairs('warehouseId', 'warehouseName')
          .filter(([id, name]) => id !== '' || name !== '')
          .map(([id, name]) => ({ id: String(id), name }))
          .sort((a, b) => a.name.localeCompare(b.name)),
      };
    },
    async statusCounts(query) {
      const { statuses: _ignored, ...others } = query.filters ?? {};
      const counts = await engine.countBy('status', { ...query, filters: others }, 'statusCounts');
      return counts && (Object.fromEntries(counts) as Partial<Record<FbsStatus, number>>);
    },
    list: (query) =>
      client.call(E.list, query),
    async add(body) {
      const row = await client.call(E.add, body);
      await afterEdit();
      return row;
    },
    async update(body) {
      const row = await client.call(E.update, body);
      await afterEdit();
      return row;
    },
    async remove(ids) {
      const counts = await inBatches(ids, (batch) => client.call(E.delete, { ids: batch }));
      await afterEdit();
      return counts.reduce((sum, n) => sum + n, 0);
    },
    async ship(selection) {
      const result = mergeBatches(
        await inBatches(idsOf(await settledSelection(selection)), (ids) => client.call(E.ship, { ids }, ACTION_CALL)),
      );
      await afterEdit();
      return result;
    },
    async setTrackingNumbers(items) {
      const results: BatchResult[] = [];
      for (let i = 0; i < items.length; i += BATCH_IDS) {
        results.push(await client.call(E.addTrackNumber, { items: items.slice(i, i + BATCH_IDS) }, ACTION_CALL));
      }
      await afterEdit();
      return mergeBatches(results);
    },
    posting: (id) => client.call(E.posting, { id }),
    async cancelReasons(ids) {
      return (await inBatches(ids, (batch) => client.call(E.cancelReasons, { ids: batch }, ACTION_CALL))).flat();
    },
    async cancel(body) {
      const result = mergeBatches(await inBatches([...body.ids], (ids) => client.call(E.cancel, { ...body, ids }, ACTION_CALL)));
      await afterEdit();
      return result;
    },
    async labels(selection) {
      const ids = idsOf(await settledSelection(selection)).slice(0, BATCH_IDS);
      const blob = await client.call(E.labelPdf, { ids }, ACTION_CALL);
      return blob.arrayBuffer();
    },
    pictures: (items) => client.call(E.pictures, { items }),
    async pickingList(selection, format) {
      const ids = idsOf(await settledSelection(selection)).slice(0, PICKING_IDS);
      const blob = await client.call(E.pickingList, { ids, format }, ACTION_CALL);
      return blob.arrayBuffer();
    },
    warehouses: (storeId) => client.call(E.warehouseList, { storeId }),
    updateStock: (items) => client.call(E.updateStock, { items }, ACTION_CALL),
  };
  return api;
}
