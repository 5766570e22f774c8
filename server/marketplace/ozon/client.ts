import type { z } from 'zod';
import {
  actionActivateResponseSchema,
  actionProductsResponseSchema,
  actionsResponseSchema,
  discountTaskListResponseSchema,
  discountTaskResultResponseSchema,
  analyticsResponseSchema,
  boolResultSchema,
  cancelReasonResponseSchema,
  attributeValuesResponseSchema,
  attributeValuesSearchResponseSchema,
  categoryAttributeResponseSchema,
  categoryTreeResponseSchema,
  chatHistoryResponseSchema,
  chatListResponseSchema,
  chatReadResponseSchema,
  chatSendResponseSchema,
  chatStartResponseSchema,
  financeTransactionListResponseSchema,
  productQueriesDetailsResponseSchema,
  productQueriesResponseSchema,
  importBySkuResponseSchema,
  importInfoResponseSchema,
  itemResultsResponseSchema,
  labelCreateResponseSchema,
  labelGetResponseSchema,
  picturesImportResponseSchema,
  postingGetResponseSchema,
  postingListResponseSchema,
  productAttributesResponseSchema,
  productInfoListResponseSchema,
  productLimitResponseSchema,
  productListResponseSchema,
  productPricesResponseSchema,
  productStocksResponseSchema,
  productsDeleteResponseSchema,
  returnsListResponseSchema,
  rfbsReturnGetResponseSchema,
  rfbsReturnsListResponseSchema,
  emptyResponseSchema,
  rolesResponseSchema,
  shipResponseSchema,
  taskResponseSchema,
  trackingSetResponseSchema,
  warehouseListResponseSchema,
  type OzonItemResult,
} from './schemas';
import { classifyOzonError, describeItemError, OzonError, RETRYABLE_KINDS, UNSURE_KINDS, type OzonItemFailure } from './errors';
import { sharedOzonLimiter, type OzonRateLimiter, type RequestLane } from './limiter';
import { OZON_ENDPOINTS, type OzonEndpoint, type OzonEndpointName, type OzonRequest } from './versions';

export const OZON_PRODUCTION_URL = 'https://api-seller.ozon.ru';

export type RetryPolicy = {
  /** Attempts after the first one, for 429, 'Circle is open', 5xx, timeouts and network failures. */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
};

export type OzonClientOptions = {
  baseUrl: string;
  clientId: string;
  apiKey: string;
  fetch?: typeof fetch;
  limiter?: OzonRateLimiter;
  /** Background work (sync, pollers, scheduled jobs) yields the shop's rate budget to what a person is waiting for. */
  lane?: RequestLane;
  /** Per-request timeout; a request that takes longer is an 'ozon接口请求超时'. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Jitter source; tests pass a fixed one. */
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Called before each retry (for logs and sync progress). */
  onRetry?: (info: { path: string; attempt: number; delayMs: number; error: OzonError }) => void;
};

const DEFAULT_RETRY: RetryPolicy = { retries: 4, baseDelayMs: 500, maxDelayMs: 15_000 };
/** A malformed answer is retried once (it may be a truncated body), never more: a changed schema will not heal. */
const MALFORMED_RETRIES = 1;

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// Requests: only the fields we send; Ozon accepts more.
export type PostingWith = { analytics_data?: boolean; barcodes?: boolean; financial_data?: boolean; legal_info?: boolean; translit?: boolean };
export type PostingListRequest = {
  filter: {
    since: string;
    to: string;
    statuses?: string[];
    warehouse_ids?: number[];
    order_id?: number;
    last_changed_status_date?: { from: string; to: string };
  };
  limit: number;
  cursor?: string;
  sort_dir?: 'ASC' | 'DESC';
  with?: PostingWith;
};
export type UnfulfilledListRequest = {
  filter: {
    cutoff_from?: string;
    cutoff_to?: string;
    delivering_date_from?: string;
    delivering_date_to?: string;
    statuses?: string[];
    warehouse_ids?: number[];
  };
  limit: number;
  cursor?: string;
  sort_dir?: 'ASC' | 'DESC';
  with?: PostingWith;
};
export type ShipRequest = {
  posting_number: string;
  packages: { products: { product_id: number; quantity: number }[] }[];
  with?: { additional_data?: boolean };
};
/** The product visibilities every product list (v3 list, v4 attributes, v5 prices, v4 stocks) takes. */
export type Visibility = NonNullable<NonNullable<OzonRequest<'productList'>['filter']>['visibility']>;
export type ProductFilter = { offer_id?: string[]; product_id?: (number | string)[]; sku?: (number | string)[]; visibility?: Visibility };
export type ProductImportItem = {
  offer_id: string;
  name: string;
  description_category_id: number;
  type_id: number;
  attributes: { id: number; complex_id?: number; values: { dictionary_value_id?: number; value: string }[] }[];
  price: string;
  old_price?: string;
  currency_code?: string;
  vat?: string;
  images?: string[];
  primary_image?: string;
  barcode?: string;
  depth?: number;
  width?: number;
  height?: number;
  dimension_unit?: 'mm' | 'cm' | 'in';
  weight?: number;
  weight_unit?: 'g' | 'kg' | 'lb';
};
export type PriceUpdate = {
  offer_id?: string;
  product_id?: number;
  price?: string;
  old_price?: string;
  min_price?: string;
  currency_code?: string;
};
/** The official schema requires product_id; offer_id goes with it (the answer names both). */
export type StockUpdate = { offer_id: string; product_id: number; stock: number; warehouse_id: number };
/** Ozon's per-call limits: tracking numbers for at most 20 postings, stocks for at most 100 items. */
export const TRACKING_NUMBERS_PER_CALL = 20;
export const STOCKS_PER_CALL = 100;
/** Ozon's limits on the product-queries calls: 1,000 SKUs a call, 15 queries a SKU, 100 queries a page. */
export const PRODUCT_QUERIES_SKUS_PER_CALL = 1_000;
export const PRODUCT_QUERIES_PER_SKU = 15;
export const PRODUCT_QUERIES_PAGE_SIZE = 100;
/** Ozon's discount task statuses (v1DiscountTaskStatus). */
export type DiscountTaskStatus = 'NEW' | 'SEEN' | 'APPROVED' | 'PARTLY_APPROVED' | 'DECLINED' | 'AUTO_DECLINED' | 'DECLINED_BY_USER' | 'COUPON' | 'PURCHASED';
export type CategoryLanguage = 'DEFAULT' | 'RU' | 'EN' | 'TR' | 'ZH_HANS';
export type AnalyticsRequest = {
  date_from: string;
  date_to: string;
  dimension: string[];
  metrics: string[];
  filters?: { key: string; op: string; value: string }[];
  sort?: { key: string; order: 'ASC' | 'DESC' }[];
  limit: number;
  offset?: number;
};
export type FinanceTransactionRequest = {
  filter: { date: { from: string; to: string }; operation_type?: string[]; posting_number?: string; transaction_type?: string };
  page: number;
  page_size: number;
};
export type ReturnsListRequest = {
  filter?: {
    logistic_return_date?: { time_from: string; time_to: string };
    visual_status_change_moment?: { time_from: string; time_to: string };
    posting_numbers?: string[];
    offer_id?: string;
    return_schema?: 'FBS' | 'FBO';
  };
  limit: number;
  last_id?: number;
};

/** /v1/returns/rfbs/action/set's body. */
export type RfbsReturnActionSetRequest = {
  return_id: number;
  id: number;
  comment?: string;
  rejection_reason_id?: number;
  compensation_amount?: number;
  return_for_back_way?: number;
};

export type RfbsReturnsListRequest = {
  filter?: { offer_id?: string; posting_number?: string; group_state?: string[]; created_at?: { from?: string; to?: string } };
  limit: number;
  last_id?: number;
};

/** A batch item's verdict with seller-facing texts for each of its errors. */
export type ItemOutcome = OzonItemResult & { failures: OzonItemFailure[] };

export type PackageLabel = { fileName: string; contentType: string; bytes: Uint8Array };

export type OzonClient = ReturnType<typeof createOzonClient>;

export function createOzonClient(options: OzonClientOptions) {
  const doFetch = options.fetch ?? fetch;
  const limiter = options.limiter ?? sharedOzonLimiter;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? realSleep;
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const headers = { 'Client-Id': options.clientId, 'Api-Key': options.apiKey, 'Content-Type': 'application/json' };

  /** One HTTP exchange; any failure comes out as an OzonError. */
  async function exchange(name: OzonEndpointName, body: unknown): Promise<Response> {
    const endpoint = OZON_ENDPOINTS[name];
    await limiter.acquire(options.clientId, endpoint, options.lane ?? 'interactive');
    let response: Response;
    try {
      response = await doFetch(baseUrl + endpoint.path, {
        method: endpoint.method,
        headers,
        body: endpoint.method === 'GET' ? undefined : JSON.stringify(body ?? {}),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw new OzonError(timedOut ? 'timeout' : 'network', { path: endpoint.path, ozonMessage: String(error) });
    }
    if (response.ok) return response;
    let text = '';
    try {
      text = await response.text();
    } catch {
      // The body is only for the message; the status alone still classifies.
    }
    let message = text;
    try {
      const parsed = JSON.parse(text) as { message?: unknown };
      if (typeof parsed.message === 'string') message = parsed.message;
    } catch {
      // Not JSON (a proxy's HTML page): keep the raw text.
    }
    throw new OzonError(classifyOzonError(response.status, message), {
      status: response.status,
      path: endpoint.path,
      ozonMessage: message.slice(0, 500),
    });
  }

  async function withRetries<T>(name: OzonEndpointName, attemptOnce: () => Promise<T>): Promise<T> {
    const endpoint: OzonEndpoint = OZON_ENDPOINTS[name];
    const path = endpoint.path;
    let malformedSeen = 0;
    for (let attempt = 0; ; attempt++) {
      try {
        return await attemptOnce();
      } catch (error) {
        if (!(error instanceof OzonError)) throw error;
        // Ozon may have carried it out: sending it again could ship, cancel or send twice. The caller reads back.
        if (endpoint.once && UNSURE_KINDS.has(error.kind)) {
          throw new OzonError(error.kind, { status: error.status, path, ozonMessage: error.ozonMessage, outcomeUnknown: true });
        }
        const retryable =
          RETRYABLE_KINDS.has(error.kind) || (error.kind === 'malformed' && malformedSeen++ < MALFORMED_RETRIES);
        if (!retryable || attempt >= policy.retries) throw error;
        // Exponential backoff with full jitter over the upper half, so many shops retrying do not stampede together.
        const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
        const delayMs = Math.round(ceiling / 2 + (random() * ceiling) / 2);
        options.onRetry?.({ path, attempt: attempt + 1, delayMs, error });
        await sleep(delayMs);
      }
    }
  }

  /** One call; its body has the type Ozon's official schema gives it, so a field Ozon does not define fails typecheck. */
  async function call<N extends OzonEndpointName, S extends z.ZodType>(name: N, body: OzonRequest<N>, schema: S): Promise<z.output<S>> {
    const path = OZON_ENDPOINTS[name].path;
    return withRetries(name, async () => {
      const response = await exchange(name, body);
      let json: unknown;
      try {
        json = await response.json();
      } catch (error) {
        const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
        throw new OzonError(timedOut ? 'timeout' : 'malformed', { status: response.status, path, ozonMessage: String(error) });
      }
      const parsed = schema.safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new OzonError('malformed', {
          status: response.status,
          path,
          ozonMessage: issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid answer',
        });
      }
      return parsed.data;
    });
  }

  const outcomes = (result: OzonItemResult[]): ItemOutcome[] =>
    result.map((item) => ({ ...item, failures: item.errors.map(describeItemError) }));

  return {
    clientId: options.clientId,

    /** Key check. `expiresAt` is null when Ozon does not say (answers before 2026). */
    async roles() {
      const r = await call('roles', {}, rolesResponseSchema);
      return { roles: r.roles, expiresAt: r.expires_at ?? null };
    },

    warehouseList: (req: { limit: number; cursor?: string; warehouse_ids?: number[] }) =>
      call('warehouseList', req, warehouseListResponseSchema),

    postingFbsList: (req: PostingListRequest) => call('postingFbsList', req, postingListResponseSchema),
    postingFbsUnfulfilledList: (req: UnfulfilledListRequest) =>
      call('postingFbsUnfulfilledList', req, postingListResponseSchema),
    postingFbsGet: async (postingNumber: string, withData?: PostingWith) =>
      (await call('postingFbsGet', { posting_number: postingNumber, with: withData }, postingGetResponseSchema)).result,
    postingFbsShip: (req: ShipRequest) => call('postingFbsShip', req, shipResponseSchema),
    postingFbsCancelReasons: async (postingNumbers: string[]) =>
      (await call('postingFbsCancelReason', { related_posting_numbers: postingNumbers }, cancelReasonResponseSchema)).result,
    postingFbsCancel: async (req: { posting_number: string; cancel_reason_id: number; cancel_reason_message?: string }) =>
      (await call('postingFbsCancel', req, boolResultSchema)).result,
    /** At most TRACKING_NUMBERS_PER_CALL postings: Ozon refuses a longer list whole, so callers send batches. */
    setTrackingNumbers: async (items: { posting_number: string; tracking_number: string }[]) =>
      (await call('trackingNumberSet', { tracking_numbers: items }, trackingSetResponseSchema)).result,

    /** Synchronous label PDF (≤ 20 postings; Ozon wants 45–60 s after ship, else 'The next postings aren't ready'). */
    async packageLabel(postingNumbers: string[]): Promise<PackageLabel> {
      const path = OZON_ENDPOINTS.packageLabel.path;
      return withRetries('packageLabel', async () => {
        const response = await exchange('packageLabel', { posting_number: postingNumbers });
        const contentType = response.headers.get('content-type') ?? '';
        try {
          if (contentType.includes('application/json')) {
            // The swagger's example wraps the file: {content_type, file_name, file_content (base64)}.
            const json = (await response.json()) as { content_type?: string; file_name?: string; file_content?: string };
            if (typeof json.file_content !== 'string') throw new Error('file_content missing');
            return {
              fileName: json.file_name ?? 'labels.pdf',
              contentType: json.content_type ?? 'application/pdf',
              bytes: new Uint8Array(Buffer.from(json.file_content, 'base64')),
            };
          }
          const bytes = new Uint8Array(await response.arrayBuffer());
          if (!(bytes[0] === 0x25 && bytes[1] === 0x50 && bytes[2] === 0x44 && bytes[3] === 0x46)) throw new Error('not a PDF');
          return { fileName: 'labels.pdf', contentType: 'application/pdf', bytes };
        } catch (error) {
          if (error instanceof OzonError) throw error;
          throw new OzonError('malformed', { status: response.status, path, ozonMessage: String(error) });
        }
      });
    },
    packageLabelCreate: async (postingNumbers: string[]) =>
      (await call('packageLabelCreate', { posting_number: postingNumbers }, labelCreateResponseSchema)).result.tasks,
    packageLabelGet: async (taskId: number) =>
      (await call('packageLabelGet', { task_id: taskId }, labelGetResponseSchema)).result,

    productList: async (req: { filter?: ProductFilter; last_id?: string; limit: number }) =>
      (await call('productList', { filter: { visibility: 'ALL', ...req.filter }, last_id: req.last_id ?? '', limit: req.limit }, productListResponseSchema)).result,
    productInfoList: async (req: { offer_id?: string[]; product_id?: (number | string)[]; sku?: (number | string)[] }) =>
      (await call('productInfoList', req, productInfoListResponseSchema)).items,
    productInfoAttributes: (req: { filter: ProductFilter; last_id?: string; limit: number; sort_dir?: 'ASC' | 'DESC' }) =>
      call('productInfoAttributes', { ...req, filter: { visibility: 'ALL', ...req.filter } }, productAttributesResponseSchema),
    productImport: async (items: ProductImportItem[]) =>
      (await call('productImport', { items }, taskResponseSchema)).result.task_id,
    productImportInfo: async (taskId: number) =>
      (await call('productImportInfo', { task_id: taskId }, importInfoResponseSchema)).result,
    productImportBySku: async (items: { sku: number; offer_id?: string; name?: string; price?: string; old_price?: string; currency_code?: string; vat?: string }[]) =>
      (await call('productImportBySku', { items }, importBySkuResponseSchema)).result,
    productArchive: async (productIds: number[]) =>
      (await call('productArchive', { product_id: productIds }, boolResultSchema)).result,
    productUnarchive: async (productIds: number[]) =>
      (await call('productUnarchive', { product_id: productIds }, boolResultSchema)).result,
    /** Deletes archived products without an SKU; each offer gets its own verdict. */
    productsDelete: async (offerIds: string[]) =>
      (await call('productsDelete', { products: offerIds.map((offer_id) => ({ offer_id })) }, productsDeleteResponseSchema)).status,
    productInfoPrices: (req: { filter: ProductFilter; cursor?: string; limit: number }) =>
      call('productInfoPrices', { ...req, filter: { visibility: 'ALL', ...req.filter } }, productPricesResponseSchema),
    /** Price updates answer 200 with `updated:false` and `errors[]` per item: every item's verdict is returned. */
    productImportPrices: async (prices: PriceUpdate[]) =>
      outcomes((await call('productImportPrices', { prices }, itemResultsResponseSchema)).result),
    /** At most STOCKS_PER_CALL items. */
    productsStocks: async (stocks: StockUpdate[]) =>
      outcomes((await call('productsStocks', { stocks }, itemResultsResponseSchema)).result),
    productInfoStocks: (req: { filter: ProductFilter; cursor?: string; limit: number }) =>
      call('productInfoStocks', { ...req, filter: { visibility: 'ALL', ...req.filter } }, productStocksResponseSchema),
    productPicturesImport: async (req: { product_id: number; images: string[]; color_image?: string }) =>
      (await call('productPicturesImport', req, picturesImportResponseSchema)).result.pictures,
    productInfoLimit: () => call('productInfoLimit', {}, productLimitResponseSchema),

    categoryTree: async (language: CategoryLanguage = 'ZH_HANS') =>
      (await call('categoryTree', { language }, categoryTreeResponseSchema)).result,
    categoryAttributes: async (req: { description_category_id: number; type_id: number; language?: CategoryLanguage }) =>
      (await call('categoryAttribute', { language: 'ZH_HANS', ...req }, categoryAttributeResponseSchema)).result,
    /** One page of an attribute's dictionary (at most 2,000 values), continued from `last_value_id`. */
    categoryAttributeValues: (req: { description_category_id: number; type_id: number; attribute_id: number; last_value_id?: number; limit: number; language?: CategoryLanguage }) =>
      call('categoryAttributeValues', { language: 'ZH_HANS', ...req }, attributeValuesResponseSchema),
    /** Dictionary values containing `value` (at most 100). */
    categoryAttributeValuesSearch: async (req: { description_category_id: number; type_id: number; attribute_id: number; value: string; limit: number }) =>
      (await call('categoryAttributeValuesSearch', req, attributeValuesSearchResponseSchema)).result,

    actions: async () => (await call('actions', undefined, actionsResponseSchema)).result,
    actionCandidates: async (req: { action_id: number; limit?: number; last_id?: string | number }) =>
      (await call('actionCandidates', req, actionProductsResponseSchema)).result,
    actionProducts: async (req: { action_id: number; limit?: number; last_id?: string | number }) =>
      (await call('actionProducts', req, actionProductsResponseSchema)).result,
    actionProductsActivate: async (req: { action_id: number; products: { product_id: number; action_price: number; stock?: number }[] }) =>
      (await call('actionProductsActivate', req, actionActivateResponseSchema)).result,
    actionProductsDeactivate: async (req: { action_id: number; product_ids: number[] }) =>
      (await call('actionProductsDeactivate', req, actionActivateResponseSchema)).result,

    /** Page from 1; at most DISCOUNT_TASKS_PER_CALL a page. */
    discountTaskList: async (req: { status: DiscountTaskStatus; page?: number; limit: number }) =>
      (await call('discountTaskList', req, discountTaskListResponseSchema)).result,
    /** At most DISCOUNT_TASKS_PER_CALL tasks; each refused one is in `fail_details`. */
    discountTaskApprove: async (tasks: { id: number; approved_price: number; seller_comment?: string; approved_quantity_min: number; approved_quantity_max: number }[]) =>
      (await call('discountTaskApprove', { tasks }, discountTaskResultResponseSchema)).result,
    discountTaskDecline: async (tasks: { id: number; seller_comment?: string }[]) =>
      (await call('discountTaskDecline', { tasks }, discountTaskResultResponseSchema)).result,

    returnsList: (req: ReturnsListRequest) => call('returnsList', req, returnsListResponseSchema),
    rfbsReturnsList: async (req: RfbsReturnsListRequest) => (await call('rfbsReturnsList', req, rfbsReturnsListResponseSchema)).returns,
    rfbsReturnGet: async (returnId: number) => (await call('rfbsReturnGet', { return_id: returnId }, rfbsReturnGetResponseSchema)).returns,
    /**
     * One decision on a request: `id` is an action of the request's `available_actions`. A rejection (-1, -10) takes
     * `rejection_reason_id` and `comment`; a partial compensation (1020) `compensation_amount`.
     */
    rfbsReturnActionSet: async (req: RfbsReturnActionSetRequest) => {
      await call('rfbsReturnActionSet', req, emptyResponseSchema);
    },

    chatList: (req: { filter?: { chat_status?: 'All' | 'Opened' | 'Closed'; unread_only?: boolean }; limit: number; cursor?: string }) =>
      call('chatList', req, chatListResponseSchema),
    chatHistory: (req: { chat_id: string; direction?: 'Forward' | 'Backward'; from_message_id?: string; limit?: number }) =>
      call('chatHistory', req, chatHistoryResponseSchema),
    chatSendMessage: async (chatId: string, text: string) =>
      (await call('chatSendMessage', { chat_id: chatId, text }, chatSendResponseSchema)).result,
    /** The file goes inline as base64 (reference "Buyer chat"). */
    chatSendFile: async (chatId: string, name: string, base64Content: string) =>
      (await call('chatSendFile', { chat_id: chatId, name, base64_content: base64Content }, chatSendResponseSchema)).result,
    chatRead: async (chatId: string, fromMessageId?: string) =>
      (await call('chatRead', { chat_id: chatId, from_message_id: fromMessageId }, chatReadResponseSchema)).unread_count,
    chatStart: async (postingNumber: string) =>
      (await call('chatStart', { posting_number: postingNumber }, chatStartResponseSchema)).result.chat_id,

    analyticsData: async (req: AnalyticsRequest) => (await call('analyticsData', req, analyticsResponseSchema)).result,
    financeTransactionList: async (req: FinanceTransactionRequest) =>
      (await call('financeTransactionList', req, financeTransactionListResponseSchema)).result,
    /** The search queries behind the given SKUs (at most PRODUCT_QUERIES_SKUS_PER_CALL), one row per SKU; pages from 0. */
    productQueries: (req: OzonRequest<'productQueries'>) => call('productQueries', req, productQueriesResponseSchema),
    /** The same per SKU and query, at most PRODUCT_QUERIES_PER_SKU queries a SKU and PRODUCT_QUERIES_PAGE_SIZE a page. */
    productQueriesDetails: (req: OzonRequest<'productQueriesDetails'>) => call('productQueriesDetails', req, productQueriesDetailsResponseSchema),
  };
}
