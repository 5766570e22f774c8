import type { FiltersOf } from '../contract/listSchema';
import {
  MARKET_PRODUCT_LIST,
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
import type { EventBus } from './events';
import type { HttpClient } from './http/client';
import { ListEngine } from './lists/engine';
import type { ListOpenResult, ListChangedEvent, ListSyncProgressEvent } from './lists/area';
import type { ListQuery, ListQueryResult, ListWindow } from './lists/types';

/**
 * Market research in the worker. A research page's query goes to the server (filters, a sort, the first rows, in
 * the database); its answer is loaded into the one list engine (MARKET_PRODUCT_LIST), where the page re-sorts and
 * re-filters the loaded rows without asking again, through the same list calls as a cached list (open, query,
 * window). A newer query of a page aborts its older one (the server then cancels it in the database), as does
 * `cancel` when the page goes away.
 */

export type MarketProductQuery = ListQuery<FiltersOf<(typeof MARKET_PRODUCT_LIST)['columns'], (typeof MARKET_PRODUCT_LIST)['filters']>, string>;
export type ResearchListName = 'hot' | 'fresh' | 'cn' | 'potential';
export type ResearchEvents = { 'research.changed': ListChangedEvent & { list: ResearchListName } };
export type ResearchRun = Omit<ProductResult, 'rows'> & { loaded: number };

/** One research page's result list: a server query, then the list calls over what it loaded. */
export type ResearchResultApi<Query> = {
  run(query: Query): Promise<ResearchRun>;
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
};

function resultList<Query>(
  client: HttpClient,
  events: EventBus,
  list: ResearchListName,
  fetch: (query: Query) => Promise<ProductResult>,
  path: string,
): ResearchResultApi<Query> {
  const engine = new ListEngine<MarketProductRow, MarketProductQuery>(MARKET_PRODUCT_LIST);
  return {
    async run(query) {
      const { rows, ...result } = await fetch(query);
      engine.clear();
      engine.load(rows);
      events.emit('research.changed', { list, version: engine.version, total: engine.size });
      return { ...result, loaded: rows.length };
    },
    async cancel() {
      client.cancel(path);
    },
    async open() {
      return { rows: engine.size, cursor: null };
    },
    query: (query, view = list) => engine.query(query, view),
    window: async (handle, start, count) => engine.window(handle, start, count),
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
  return {
    hot: resultList(client, events, 'hot', (query: ProductQuery) => client.call(E.hotProducts, query, quiet), E.hotProducts.path),
    fresh: resultList(client, events, 'fresh', (query: NewProductQuery) => client.call(E.newProducts, query, quiet), E.newProducts.path),
    cn: resultList(client, events, 'cn', (query: ProductQuery) => client.call(E.cnProducts, query, quiet), E.cnProducts.path),
    potential: resultList(client, events, 'potential', (query: PotentialQuery) => client.call(E.potential, query, quiet), E.potential.path),
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
  };
}
