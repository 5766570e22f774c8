import type { CallSettings, HttpMethod } from './endpoint';

/**
 * The spec's call settings (seller-tool §7, §9) of areas not built yet: products and listing, copy and history,
 * collection, research. Nothing calls these; they are kept so no setting of the spec is lost.
 *
 * When an area is built, each of its calls becomes an endpoint object in that area's contract file, taking its
 * method, path and settings from here and adding the access gate, summary and schemas:
 *
 *   copyProduct: defineEndpoint({ ...PLANNED_CALLS.copyProduct, summary: '…', access: 'copy', input: …, answer: … }),
 *
 * and its entry here is deleted. The marketplace lists are named per marketplace (`/ozonProduct/list`, …): the
 * spec's retry delays for them are MARKETPLACE_LIST_SETTINGS, spread into each such endpoint's settings.
 */
export type PlannedCall = { method: HttpMethod; path: string; settings: CallSettings };

export const PLANNED_CALLS = {
  // Products and listing
  alternateOne: { method: 'POST', path: '/AlternateOne', settings: { timeout: 200_000 } },
  historyAdd: { method: 'POST', path: '/history/add', settings: { silent: true } },
} as const satisfies Record<string, PlannedCall>;

/**
 * Retry delays of the per-marketplace lists (`/<marketplace>Product/list`, `…ProductPro/list`, `…Return/list`,
 * `…ReturnNew/list`: 5 s; `/<marketplace>SellerAnalyze`: 1 s).
 */
export const MARKETPLACE_LIST_SETTINGS = {
  productList: { retryDelay: 5_000 },
  productProList: { retryDelay: 5_000 },
  returnList: { retryDelay: 5_000 },
  returnNewList: { retryDelay: 5_000 },
  sellerAnalyze: { retryDelay: 1_000 },
} as const satisfies Record<string, CallSettings>;
