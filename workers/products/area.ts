import {
  PRODUCT_ENDPOINTS as E,
  PRODUCT_LIST,
  PRICE_BATCH,
  STOCK_BATCH,
  type MarketplaceProductListQuery,
  type MarketplaceProductProListBody,
  type PriceUpdateBody,
  type ProductColumn,
  type ProductFilters,
  type ProductInfo,
  type ProductOutcome,
  type ProductPage,
  type ProductRow,
  type ProductStockBody,
  type ProductWarehouse,
  type SkuImageResult,
  type UpdateSkuImageBody,
  type ProductImage,
  type ProductLimits,
} from '../../contract/products';
import { REUPLOAD_ENDPOINTS as R, type ReuploadAnswer, type ReuploadHistory, type ReuploadHistoryQuery, type ReuploadItems } from '../../contract/reupload';
import { isApiFailure, type ApiFailure } from '../api';
import type { EventBus } from '../events';
import type { HttpClient } from '../http/client';
import { createListArea, receiveFrame, type ListAreaApi, type ListChangedEvent, type ListSelection, type ListSyncProgressEvent } from '../lists/area';
import { ListCache } from '../lists/cache';
import { ListEngine, type ListEngineOptions } from '../lists/engine';
import { exportCsv, exportXlsx, type ExportProgress, type ProductExportColumn } from './export';
import type { ListQuery } from '../lists/types';

export type ProductQuery = ListQuery<ProductFilters, ProductColumn>;
export type ProductSelection = ListSelection;
export type ProductArchiveKind = 'archive' | 'unarchive' | 'deleteArchive';
export type { ExportProgress, ProductExportColumn };

/** Values the filter bar offers, read from the cached rows. */
export type ProductFacets = { shops: { id: number; name: string }[] };

/**
 * The worker's `products` area: the cached product list (workers/lists/area.ts over PRODUCT_LIST), kept fresh by
 * GET /api/product/sync and the 'products.changed' push; plus the product calls. Batch calls split what they are
 * given into Ozon's batch sizes and answer one outcome per item.
 */
export type ProductsApi = ListAreaApi<ProductRow, ProductQuery> & {
  facets(): Promise<ProductFacets>;
  /** The rows of a selection (a whole result: its rows but the excepted), at most `limit`: an action's subjects. */
  rowsOf(selection: ProductSelection, limit?: number): Promise<ProductRow[]>;
  list(query: MarketplaceProductListQuery): Promise<ProductPage>;
  proList(body: MarketplaceProductProListBody): Promise<ProductPage>;
  search(q: string): Promise<ProductRow[]>;
  info(id: string): Promise<ProductInfo>;
  warehouses(): Promise<ProductWarehouse[]>;
  updatePrices(items: PriceUpdateBody['items'], batchId?: string): Promise<ProductOutcome[]>;
  updateStocks(items: ProductStockBody['items'], batchId?: string): Promise<ProductOutcome[]>;
  archive(kind: ProductArchiveKind, ids: string[]): Promise<ProductOutcome[]>;
  updateSkuImage(body: UpdateSkuImageBody): Promise<SkuImageResult>;
  /** The same pictures put on each product's card (a few calls at a time): Ozon's answer or the failure, per product. */
  updateSkuImages(ids: string[], images: string[], keep: boolean): Promise<SkuImageOutcome[]>;
  /** Stores a picture the seller picked (JPEG or PNG, checked against Ozon's rules) at an address Ozon can fetch. */
  uploadImage(file: Blob, name: string): Promise<ProductImage>;
  /** Ozon's daily create and update quotas of the user's shops (all, or these). */
  limits(storeIds?: number[]): Promise<ProductLimits>;
  /** Delist and re-upload (contract/reupload.ts): a batch started or resumed, asked after, its failed retried. */
  reupload(batchId: string, ids: string[]): Promise<ReuploadAnswer>;
  reuploadStatus(batchId: string): Promise<ReuploadItems>;
  reuploadRetry(batchId: string, ids: number[]): Promise<ReuploadItems>;
  reuploadHistory(query: ReuploadHistoryQuery): Promise<ReuploadHistory>;
  /**
   * The current result (`handle`) as CSV (UTF-8 with a BOM, so Excel reads Chinese and Cyrillic), built in the worker
   * a window at a time, telling `onProgress` the rows written so far. The file comes back as a Blob made in the
   * worker: a Blob crosses to the page by reference, where one made there from the bytes copied them on the main thread
   * (97 MB for half a million products: a 0.7 s long task).
   */
  exportCsv(handle: number, columns: ProductExportColumn[], onProgress?: ExportProgress): Promise<Blob>;
  /**
   * The current result as an Excel workbook of one sheet named `sheetName`: numbers as numbers, dates as Excel
   * date-times, the header bold and frozen; streamed into the zip a window at a time, with progress as for CSV.
   */
  exportXlsx(handle: number, columns: ProductExportColumn[], sheetName: string, onProgress?: ExportProgress): Promise<Blob>;
};

/** One product's answer to a picture change: Ozon's state per picture, or why the call failed. */
export type SkuImageOutcome = { id: string; result: SkuImageResult } | { id: string; failure: string };

/** What the products area reports on the worker's event bus (merged into DataEvents). */
export type ProductsEvents = {
  'products.syncProgress': ListSyncProgressEvent;
  'products.changed': ListChangedEvent;
  'products.syncFailed': { failure: ApiFailure };
};

/** Batch actions show each item's failure themselves: the worker adds no toast. */
const ACTION_CALL = { silent: true } as const;
const ARCHIVE_BATCH = 1_000;
/** /updateSkuImage calls in flight at once (one product each; Ozon's rate limiter paces them further). */
const SKU_IMAGE_CALLS = 4;
export class ProductEngine extends ListEngine<ProductRow, ProductQuery> {
  constructor(options: ListEngineOptions = {}) {
    super(PRODUCT_LIST, options);
  }
}

export type ProductsAreaDeps = {
  client: HttpClient;
  events: Pick<EventBus, 'emit' | 'on'>;
  engine?: ListEngineOptions;
  /** Tests give each user a fresh cache name space. */
  openCache?: (userId: number) => ListCache<ProductRow>;
};

async function inBatches<T, R>(items: readonly T[], size: number, call: (batch: T[]) => Promise<R[]>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size) results.push(...(await call(items.slice(i, i + size))));
  return results;
}

export function createProductsArea({ client, events, engine: engineOptions, openCache = (id) => new ListCache<ProductRow>(PRODUCT_LIST, id) }: ProductsAreaDeps): ProductsApi {
  const engine = new ProductEngine(engineOptions);
  const list = createListArea<ProductRow, ProductQuery>({
    engine,
    openCache,
    removeCache: (id) => ListCache.remove(PRODUCT_LIST, id),
    fetchFrame: async (request, signal) =>
      receiveFrame(PRODUCT_LIST, await client.call(E.sync, { ...request, format: 'binary' }, { signal }), (error) => client.contractFailure(E.sync, error, true)),
    notify: {
      changed: (event) => events.emit('products.changed', event),
      progress: (event) => events.emit('products.syncProgress', event),
      failed: (failure) => events.emit('products.syncFailed', { failure }),
    },
    tabColumn: 'status',
    engineOptions,
  });
  events.on('push.message', ({ message }) => {
    if (message.type === 'products.changed') list.syncSoon();
  });
  const afterEdit = list.afterEdit;

  return {
    ...list.api,
    async facets() {
      return { shops: engine.pairs('shopId', 'shopName').map(([id, name]) => ({ id: Number(id), name })).sort((a, b) => a.id - b.id) };
    },
    async rowsOf(selection, limit = Number.POSITIVE_INFINITY) {
      const ids = list.idsOf(await list.settledSelection(selection)).slice(0, limit);
      return ids.map((id) => engine.get(id)).filter((row): row is ProductRow => row !== undefined);
    },
    list: (query) => client.call(E.ozonList, query),
    proList: (body) => client.call(E.ozonProList, body),
    search: (q) => client.call(E.search, { q }),
    info: (id) => client.call(E.info, { id }),
    warehouses: () => client.call(E.warehouses),
    async updatePrices(items, batchId) {
      const outcomes = await inBatches(items, PRICE_BATCH, async (batch) => (await client.call(E.priceUpdate, { items: batch, batchId }, ACTION_CALL)).outcomes);
      await afterEdit();
      return outcomes;
    },
    async updateStocks(items, batchId) {
      const outcomes = await inBatches(items, STOCK_BATCH, async (batch) => (await client.call(E.stockUpdate, { items: batch, batchId }, ACTION_CALL)).outcomes);
      await afterEdit();
      return outcomes;
    },
    async archive(kind, ids) {
      const endpoint = kind === 'archive' ? E.archive : kind === 'unarchive' ? E.unarchive : E.deleteArchive;
      const outcomes = await inBatches(ids, ARCHIVE_BATCH, async (batch) => (await client.call(endpoint, { ids: batch }, ACTION_CALL)).outcomes);
      await afterEdit();
      return outcomes;
    },
    exportCsv: async (handle, columns, onProgress) => exportCsv(engine, handle, columns, onProgress),
    exportXlsx: async (handle, columns, sheetName, onProgress) => exportXlsx(engine, handle, columns, sheetName, onProgress),
    limits: (storeIds) => client.call(E.limits, { storeIds }, ACTION_CALL),
    async reupload(batchId, ids) {
      const answer = await client.call(R.reUpload, { batchId, ids }, ACTION_CALL);
      await afterEdit();
      return answer;
    },
    async reuploadStatus(batchId) {
      const answer = await client.call(R.status, { batchId }, ACTION_CALL);
      await afterEdit();
      return answer;
    },
    async reuploadRetry(batchId, ids) {
      const answer = await client.call(R.retry, { batchId, ids }, ACTION_CALL);
      await afterEdit();
      return answer;
    },
    reuploadHistory: (query) => client.call(R.history, query),
    async updateSkuImage(body) {
      const result = await client.call(E.updateSkuImage, body, ACTION_CALL);
      await afterEdit();
      return result;
    },
    async updateSkuImages(ids, images, keep) {
      const outcomes: SkuImageOutcome[] = new Array(ids.length);
      let next = 0;
      const worker = async () => {
        for (let i = next++; i < ids.length; i = next++) {
          const id = ids[i]!;
          try {
            outcomes[i] = { id, result: await client.call(E.updateSkuImage, { id, images, keep }, ACTION_CALL) };
          } catch (failure) {
            outcomes[i] = { id, failure: isApiFailure(failure) ? failure.message : String(failure) };
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(SKU_IMAGE_CALLS, ids.length) }, worker));
      await afterEdit();
      return outcomes;
    },
    uploadImage(file, name) {
      const form = new FormData();
      form.append('name', name);
      form.append('file', file, name);
      return client.call(E.imageUpload, form, ACTION_CALL);
    },
  };
}
