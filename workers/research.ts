import type { FiltersOf } from '../contract/listSchema';
import {
  MARKET_PRODUCT_LIST,
  MAX_RESULT_DEPTH,
  MAX_RESULT_ROWS,
  RESEARCH_ENDPOINTS,
  type KeywordDetail,
  type KeywordQuery,
  type KeywordResult,
  type MarketData,
  type OwnQueries,
  type MarketProductRow,
  type NewProductQuery,
  type PotentialQuery,
  type ProductDetail,
  type ProductQuery,
  type ProductResult,
} from '../contract/research';
import type { CategoryNode } from '../contract/research';
import type { ApiFailure } from './api';
import { exportPages, type ExportFormat, type ExportProgress, type ResearchExportColumn } from './researchExport';
import type { EventBus } from './events';
import type { HttpClient } from './http/client';
import { ListEngine } from './lists/engine';
import type { ListOpenResult, ListChangedEvent, ListSyncProgressEvent } from './lists/area';
import type { ListQuery, ListQueryResult, ListWindow } from './lists/types';

/**
 * Market research in the worker. A research page's query goes to the server (filters, a sort, the first page of the
 * whole market in that sort, in the database); its answer is loaded into the one list engine (MARKET_PRODUCT_LIST)
 * in the server's order, and the next page is asked as the table's window nears the end of what is loaded (up to
 * MAX_RESULT_DEPTH rows). A sort is always the server's: the page runs the query again with it. The page's quick
 * search narrows the loaded rows through the same list calls as a cached list (open, query, window). A newer query
 * of a page aborts its older one and its page and count calls (the server then cancels them in the database), as
 * does `cancel` when the page goes away.
 */

export type MarketProductQuery = ListQuery<FiltersOf<(typeof MARKET_PRODUCT_LIST)['columns'], (typeof MARKET_PRODUCT_LIST)['filters']>, string>;
export type ResearchListName = 'hot' | 'fresh' | 'cn' | 'potential';
export type ResearchEvents = { 'research.changed': ListChangedEvent & { list: ResearchListName } };
export type ResearchRun = Omit<ProductResult, 'rows'> & { loaded: number };
/** A page of the result is asked when the window comes this close to the end of the loaded rows. */
const PAGE_AHEAD = 300;
type CallOptions = { cancelKey: string; silent?: boolean };

/** One research page's result list: a server query, then the list calls over what it loaded. */
export type ResearchResultApi<Query> = {
  run(query: Query): Promise<ResearchRun>;
  /** The exact number of products the query matches (asked apart when the run's count stopped at COUNT_CAP). */
  count(query: Query): Promise<number>;
  /** Aborts the page's running query (the page closed). */
  cancel(): Promise<void>;
  open(userId: number): Promise<ListOpenResult>;
  query(query: MarketProductQuery, view?: string): Promise<ListQueryResult>;
  window(handle: number, start: number, count: number): Promise<ListWindow<MarketProductRow>>;
  progress(): Promise<ListSyncProgressEvent | null>;
  shown(): Promise<void>;
};

export type ResearchApi = {
  hot: ResearchResultApi<ProductQuery>;
  fresh: ResearchResultApi<NewProductQuery>;
  cn: ResearchResultApi<ProductQuery>;
  potential: ResearchResultApi<PotentialQuery>;
  categories(): Promise<CategoryNode[]>;
  productDetail(sku: number): Promise<ProductDetail>;
  keywords(query: KeywordQuery): Promise<KeywordResult>;
  keywordDetail(keyword: string): Promise<KeywordDetail>;
  /** Aborts a running keyword or detail query (the page closed). */
  cancelDetails(): Promise<void>;
  /** The search queries behind the user's own products, from Ozon (the keyword page shows them beside the market's). */
  ownQueries(): Promise<OwnQueries>;
  /** The market research reads and the latest imports (administrators). */
  marketData(): Promise<MarketData>;
  /** Replaces the market with the two files, the products file sent first (administrators). */
  importMarket(products: File, keywords: File): Promise<MarketData>;
  /**
   * A list's rows for the page's query (filters and sort) as Excel or CSV, written here page after page
   * (researchExport.ts); a newer export or `cancelExport` aborts it. The server refuses more than EXPORT_MAX_ROWS.
   */
  exportList(
    list: ResearchExportList,
    query: object,
    format: ExportFormat,
    columns: ResearchExportColumn[],
    sheetName: string,
    onProgress?: ExportProgress,
  ): Promise<Blob>;
  cancelExport(): Promise<void>;
};
export type ResearchExportList = ResearchListName | 'keywords';
const EXPORT_KEY = 'research-export';

function resultList<Query extends { limit?: number; offset?: number; countOnly?: boolean }>(
  client: HttpClient,
  events: EventBus,
  list: ResearchListName,
  fetch: (query: Query, options: CallOptions) => Promise<ProductResult>,
  path: string,
): ResearchResultApi<Query> {
  const engine = new ListEngine<MarketProductRow, MarketProductQuery>(MARKET_PRODUCT_LIST);
  const keys = { run: path, page: `${path}#page`, count: `${path}#count` };
  /** The query whose pages are loaded, whether the server has more, and the run they belong to. */
  let paged: { query: Query; more: boolean; runs: number; fetching: boolean } | null = null;
  let runs = 0;
  const changed = () => events.emit('research.changed', { list, version: engine.version, total: engine.size });
  const nextPage = async () => {
    const current = paged;
    if (!current?.more || current.fetching) return;
    current.fetching = true;
    try {
      const limit = current.query.limit ?? MAX_RESULT_ROWS;
      const { rows } = await fetch({ ...current.query, offset: engine.size }, { cancelKey: keys.page });
      if (current.runs !== runs) return;
      engine.upsert(rows);
      current.more = rows.length === limit && engine.size < MAX_RESULT_DEPTH;
      changed();
    } catch {
      // An aborted or failed page leaves the rows loaded so far; the next window asks again.
    } finally {
      current.fetching = false;
    }
  };
  return {
    async run(query) {
      const seq = ++runs;
      client.cancel(keys.page);
      client.cancel(keys.count);
      const { rows, ...result } = await fetch({ ...query, offset: 0 }, { cancelKey: keys.run });
      if (seq !== runs) throw { type: 'Aborted', code: 0, message: 'superseded', silent: true } satisfies ApiFailure;
      engine.clear();
      engine.load(rows);
      paged = { query, more: rows.length === (query.limit ?? MAX_RESULT_ROWS) && rows.length < MAX_RESULT_DEPTH, runs: seq, fetching: false };
      changed();
      return { ...result, loaded: rows.length };
    },
    async count(query) {
      return (await fetch({ ...query, offset: 0, countOnly: true }, { cancelKey: keys.count, silent: true })).total;
    },
    async cancel() {
      runs++;
      for (const key of Object.values(keys)) client.cancel(key);
    },
    async open() {
      return { rows: engine.size, cursor: null };
    },
    query: (query, view = list) => engine.query(query, view),
    window: async (handle, start, count) => {
      const answer = engine.window(handle, start, count);
      if (start + count >= engine.size - PAGE_AHEAD) void nextPage();
      return answer;
    },
    progress: async () => null,
    shown: async () => undefined,
  };
}

/**
 * A research page shows a refusal for the user's roles (a paid period ran out) as its locked state
 * (src/features/research/ResearchLocked.tsx), so the message bar stays quiet for it; other failures toast as usual.
 */
const quiet = { shownByCaller: ['Unauthorized'] } as const;

export function createResearchApi(client: HttpClient, events: EventBus): ResearchApi {
  const E = RESEARCH_ENDPOINTS;
  const exports = { hot: E.hotExport, fresh: E.newExport, cn: E.cnExport, potential: E.potentialExport, keywords: E.keywordExport } as const;
  let exporting: AbortController | null = null;
  return {
    hot: resultList(client, events, 'hot', (query: ProductQuery, options) => client.call(E.hotProducts, query, { ...quiet, ...options }), E.hotProducts.path),
    fresh: resultList(client, events, 'fresh', (query: NewProductQuery, options) => client.call(E.newProducts, query, { ...quiet, ...options }), E.newProducts.path),
    cn: resultList(client, events, 'cn', (query: ProductQuery, options) => client.call(E.cnProducts, query, { ...quiet, ...options }), E.cnProducts.path),
    potential: resultList(client, events, 'potential', (query: PotentialQuery, options) => client.call(E.potential, query, { ...quiet, ...options }), E.potential.path),
    categories: async () => (await client.call(E.categories, undefined, quiet)).tree,
    productDetail: (sku) => client.call(E.productDetail, { sku }, quiet),
    keywords: (query) => client.call(E.keywords, query, quiet),
    keywordDetail: (keyword) => client.call(E.keywordDetail, { keyword }, quiet),
    async cancelDetails() {
      for (const endpoint of [E.keywords, E.keywordDetail, E.productDetail]) client.cancel(endpoint.path);
    },
    ownQueries: () => client.call(E.ownQueries, undefined, { silent: true }),
    marketData: () => client.call(E.marketData, undefined, { silent: true }),
    importMarket: (products, keywords) => {
      const form = new FormData();
      form.append('file', products, products.name);
      form.append('file', keywords, keywords.name);
      return client.call(E.marketImport, form, { silent: true });
    },
    async exportList(list, query, format, columns, sheetName, onProgress) {
      exporting?.abort();
      const controller = new AbortController();
      exporting = controller;
      // The page's query without its paging: the export's pages are its own.
      const { limit: _limit, offset: _offset, countOnly: _countOnly, ...filters } = query as Record<string, unknown>;
      const endpoint = exports[list] as typeof E.hotExport;
      try {
        return await exportPages(
          (after) => client.call(endpoint, { ...filters, after } as never, { ...quiet, cancelKey: EXPORT_KEY, signal: controller.signal }),
          format,
          columns,
          sheetName,
          controller.signal,
          onProgress,
        );
      } finally {
        if (exporting === controller) exporting = null;
      }
    },
    async cancelExport() {
      exporting?.abort();
      client.cancel(EXPORT_KEY);
    },
  };
}
