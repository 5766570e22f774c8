/**
 * The one table of Ozon Seller API endpoint versions we speak (reference: shared/reference/ozon-seller-api.md).
 * Ozon retires versions often (v3 posting lists off 2026-06/08, v1 warehouse list off 2026-03-20): when one goes,
 * change its line here; the client and the simulator both read their paths from this table.
 *
 * `perMinute` is the per-method limit the reference gives on top of the 50 requests/s per Client-Id.
 * `once`: a write Ozon carries out again each time it arrives (a ship, a cancel, a chat message, an import task): the
 * client never sends it again after an answer that may have been lost (a timeout, a cut connection, a 5xx, a garbled
 * body), and the caller settles what happened by reading the state back (`OzonError.outcomeUnknown`).
 */
import type { OzonRequests } from './request-types';

export type OzonEndpoint = { path: string; method: 'GET' | 'POST'; perMinute?: number; once?: true };

export const OZON_ENDPOINTS = {
  roles: { path: '/v1/roles', method: 'POST' },
  // (2026) v1 disabled 2026-03-20; v2 pages with cursor and needs limit ≤ 200.
  warehouseList: { path: '/v2/warehouse/list', method: 'POST' },
  // (2026) v3 lists retired; v4 pages with cursor, limit 1..100.
  postingFbsList: { path: '/v4/posting/fbs/list', method: 'POST' },
  postingFbsUnfulfilledList: { path: '/v4/posting/fbs/unfulfilled/list', method: 'POST' },
  postingFbsGet: { path: '/v3/posting/fbs/get', method: 'POST' },
  postingFbsShip: { path: '/v4/posting/fbs/ship', method: 'POST', once: true },
  postingFbsCancelReason: { path: '/v1/posting/fbs/cancel-reason', method: 'POST' },
  postingFbsCancel: { path: '/v2/posting/fbs/cancel', method: 'POST', once: true },
  trackingNumberSet: { path: '/v2/fbs/posting/tracking-number/set', method: 'POST' },
  packageLabel: { path: '/v2/posting/fbs/package-label', method: 'POST' },
  packageLabelCreate: { path: '/v2/posting/fbs/package-label/create', method: 'POST' },
  packageLabelGet: { path: '/v1/posting/fbs/package-label/get', method: 'POST' },
  productList: { path: '/v3/product/list', method: 'POST' },
  productInfoList: { path: '/v3/product/info/list', method: 'POST' },
  productInfoAttributes: { path: '/v4/product/info/attributes', method: 'POST' },
  productImport: { path: '/v3/product/import', method: 'POST', once: true },
  productImportInfo: { path: '/v1/product/import/info', method: 'POST' },
  productImportBySku: { path: '/v1/product/import-by-sku', method: 'POST', once: true },
  productArchive: { path: '/v1/product/archive', method: 'POST' },
  productUnarchive: { path: '/v1/product/unarchive', method: 'POST' },
  productsDelete: { path: '/v2/products/delete', method: 'POST' },
  productInfoPrices: { path: '/v5/product/info/prices', method: 'POST' },
  productImportPrices: { path: '/v1/product/import/prices', method: 'POST' },
  productsStocks: { path: '/v2/products/stocks', method: 'POST', perMinute: 80 },
  productInfoStocks: { path: '/v4/product/info/stocks', method: 'POST' },
  productPicturesImport: { path: '/v1/product/pictures/import', method: 'POST' },
  productInfoLimit: { path: '/v4/product/info/limit', method: 'POST' },
  categoryTree: { path: '/v1/description-category/tree', method: 'POST' },
  categoryAttribute: { path: '/v1/description-category/attribute', method: 'POST' },
  categoryAttributeValues: { path: '/v1/description-category/attribute/values', method: 'POST' },
  categoryAttributeValuesSearch: { path: '/v1/description-category/attribute/values/search', method: 'POST' },
  actions: { path: '/v1/actions', method: 'GET' },
  actionCandidates: { path: '/v1/actions/candidates', method: 'POST' },
  actionProducts: { path: '/v1/actions/products', method: 'POST' },
  actionProductsActivate: { path: '/v1/actions/products/activate', method: 'POST' },
  actionProductsDeactivate: { path: '/v1/actions/products/deactivate', method: 'POST' },
  discountTaskList: { path: '/v1/actions/discounts-task/list', method: 'POST' },
  discountTaskApprove: { path: '/v1/actions/discounts-task/approve', method: 'POST', once: true },
  discountTaskDecline: { path: '/v1/actions/discounts-task/decline', method: 'POST', once: true },
  returnsList: { path: '/v1/returns/list', method: 'POST' },
  // rFBS return requests. Decisions go through /v1/returns/rfbs/action/set with an action id the request's
  // /v2/returns/rfbs/get lists in `available_actions`: the official file marks /v2/returns/rfbs/verify, reject,
  // compensate, receive-return and return-money "to be switched off; switch to /v1/returns/rfbs/action/set".
  rfbsReturnsList: { path: '/v2/returns/rfbs/list', method: 'POST' },
  rfbsReturnGet: { path: '/v2/returns/rfbs/get', method: 'POST' },
  rfbsReturnActionSet: { path: '/v1/returns/rfbs/action/set', method: 'POST', once: true },
  chatList: { path: '/v3/chat/list', method: 'POST' },
  chatHistory: { path: '/v3/chat/history', method: 'POST' },
  chatSendMessage: { path: '/v1/chat/send/message', method: 'POST', once: true },
  chatSendFile: { path: '/v1/chat/send/file', method: 'POST', once: true },
  chatRead: { path: '/v2/chat/read', method: 'POST' },
  chatStart: { path: '/v1/chat/start', method: 'POST' },
  analyticsData: { path: '/v1/analytics/data', method: 'POST', perMinute: 1 },
  financeTransactionList: { path: '/v3/finance/transaction/list', method: 'POST' },
  // Search queries that led buyers to the seller's own SKUs (keyword research): per SKU, and per SKU and query.
  productQueries: { path: '/v1/analytics/product-queries', method: 'POST' },
  productQueriesDetails: { path: '/v1/analytics/product-queries/details', method: 'POST' },
} as const satisfies Record<string, OzonEndpoint>;

export type OzonEndpointName = keyof typeof OZON_ENDPOINTS;

type PathOf<N extends OzonEndpointName> = (typeof OZON_ENDPOINTS)[N]['path'];
/**
 * The request body Ozon defines for an endpoint, from the official schemas (`request-types.ts`, generated by
 * `npm run ozon:schemas`); `undefined` for a GET, which has none.
 */
export type OzonRequest<N extends OzonEndpointName> = PathOf<N> extends keyof OzonRequests ? OzonRequests[PathOf<N>] : undefined;

/** Ozon's overall limit per Client-Id, across all methods. */
export const OZON_REQUESTS_PER_SECOND = 50;

/**
 * Products per /v1/actions/candidates, /products page and per activate or deactivate call. Ozon documents a page
 * size (default 100) but no maximum; 1,000 is its usual list maximum, and callers batch by it.
 */
export const ACTION_PRODUCTS_PER_CALL = 1_000;
/** Discount tasks per list page and per approve or decline call (Ozon's seller portal pages them by 50). */
export const DISCOUNT_TASKS_PER_CALL = 50;
