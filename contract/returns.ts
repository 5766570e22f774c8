import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { looseRowId, queryEpochMs, queryInt } from './fields';
import { lazySchema } from './lazySchema';
import { anyOf, defineListSchema, dict, dictInt, epochMs, int, money, range, text, type FiltersOf, type RowOf } from './listSchema';
import { MARKETPLACE_LIST_SETTINGS } from './plannedCalls';

/**
 * Returns of every shop as the browser's cache and list engine hold them (seller-tool routes /return/return-list and
 * /return/return-list-new): one row per return, projected from the synced Ozon returns (mp_records, entity 'returns')
 * by server/areas/returns/projection.ts. FBS and FBO returns come from /v1/returns/list; rFBS return requests from
 * /v2/returns/rfbs/*, with the decisions their state allows (`actions`).
 *
 * Times are epoch ms; Ozon's int64 ids (return id, sku) travel as strings.
 */

export const RETURN_SCHEMES = ['FBS', 'FBO', 'rFBS'] as const;
export type ReturnScheme = (typeof RETURN_SCHEMES)[number];

/** The seller's decisions on an rFBS return request (Ozon's /v2/returns/rfbs/verify, reject, compensate ...). */
export const RFBS_ACTIONS = ['verify', 'reject', 'compensate', 'receive', 'returnMoney'] as const;
export type RfbsAction = (typeof RFBS_ACTIONS)[number];

const epochMsSchema = z.number().finite();

export const returnRowSchema = lazySchema(() => z.object({
  /** `<shopId>:<Ozon's id>` (rFBS: `<shopId>:rfbs:<return_id>`): stable and unique across the user's shops. */
  id: z.string().min(1),
  /** Ozon's return id (rFBS: the request's return_id). */
  returnId: z.string(),
  shopId: z.number().int(),
  shopName: z.string(),
  scheme: z.enum(RETURN_SCHEMES),
  /** Ozon's return type (Cancellation, FullReturn, PartialReturn, ClientReturn); rFBS requests: 'ClientReturn'. */
  type: z.string(),
  /** Ozon's status: the visual status's system name (FBS/FBO) or the request's state (rFBS). */
  status: z.string(),
  /** Ozon's own name of the status (Russian). */
  statusName: z.string(),
  /** The buyer's reason as Ozon words it (Russian). */
  reason: z.string(),
  postingNumber: z.string(),
  orderNumber: z.string(),
  sku: z.string(),
  offerId: z.string(),
  productName: z.string(),
  quantity: z.number().int().min(0),
  /** The returned products' price, in currency units. */
  amount: z.number().finite(),
  currency: z.string(),
  /** rFBS: the decisions the state allows, comma-separated in RFBS_ACTIONS order ('' when none). */
  actions: z.string(),
  /** When the buyer returned it (FBS/FBO) or made the request (rFBS). */
  returnedAt: epochMsSchema,
  /** When its status last changed. */
  changedAt: epochMsSchema,
  updatedAt: epochMsSchema,
  deleted: z.boolean(),
}));
export type ReturnRow = z.infer<typeof returnRowSchema>;

export const RETURN_SEARCH_COLUMNS = ['postingNumber', 'returnId', 'orderNumber', 'sku', 'offerId', 'productName'] as const;

export const RETURN_LIST = defineListSchema({
  name: 'returns',
  columns: {
    id: text(),
    returnId: text(),
    postingNumber: text(),
    orderNumber: text(),
    shopId: dictInt(),
    shopName: dict(),
    scheme: dict<ReturnScheme>(),
    type: dict(),
    status: dict(),
    statusName: dict(),
    reason: dict(),
    sku: dict(),
    offerId: dict(),
    productName: dict(),
    currency: dict(),
    actions: dict(),
    quantity: int(),
    amount: money(),
    returnedAt: epochMs(),
    changedAt: epochMs(),
    updatedAt: epochMs(),
  },
  key: 'id',
  searchFields: RETURN_SEARCH_COLUMNS,
  filters: {
    shopIds: anyOf('shopId'),
    schemes: anyOf('scheme'),
    statuses: anyOf('status'),
    reasons: anyOf('reason'),
    returnedAt: range('returnedAt'),
  },
  indexAhead: ['scheme', 'status', 'shopId'],
  sorts: ['returnedAt', 'changedAt', 'amount', 'quantity', 'status', 'reason', 'shopName', 'productName', 'postingNumber', 'updatedAt'],
});
export type ReturnList = typeof RETURN_LIST;
export type ReturnFilters = FiltersOf<ReturnList['columns'], ReturnList['filters']>;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _listRowIsReturnRow: Same<RowOf<ReturnList['columns']>, ReturnRow> = true;

/** The content type of the returns sync's binary frames (contract/listFrame.ts over RETURN_LIST). */
export const RETURN_FRAME_TYPE = 'application/vnd.seller-tool.returns';
export const RETURN_SYNC_MAX_LIMIT = 100_000;

export const returnSyncQuerySchema = lazySchema(() => z.object({
  cursor: z.string().max(200).optional(),
  limit: queryInt(1, RETURN_SYNC_MAX_LIMIT).default(5_000),
  format: z.enum(['binary']).default('binary'),
  next: queryInt(1, RETURN_SYNC_MAX_LIMIT).optional(),
}));

/** Push on /api/ws when the user's returns changed on the server: the worker syncs its cache from its cursor. */
export const returnsChangedPushSchema = lazySchema(() => z.object({
  type: z.literal('returns.changed'),
  shopId: z.number().int().optional(),
}));

const csv = <T extends z.ZodType>(item: T) =>
  z.preprocess((value) => (typeof value === 'string' ? (value === '' ? [] : value.split(',')) : value), z.array(item));

/**
 * GET /api/ozonReturn/list (FBS and FBO) and /api/ozonReturnNew/list (every scheme, rFBS included): a page of the
 * user's returns filtered on the server, newest first. The order drawer asks for one posting's returns with it.
 */
export const returnListQuerySchema = lazySchema(() => z.object({
  page: queryInt(1, 1_000_000).default(1),
  rows: queryInt(1, 500).default(20),
  shopIds: csv(looseRowId()).optional(),
  schemes: csv(z.enum(RETURN_SCHEMES)).optional(),
  statuses: csv(z.string().max(80)).optional(),
  reasons: csv(z.string().max(200)).optional(),
  /** Exactly this posting's returns. */
  postingNumber: z.string().trim().max(60).optional(),
  returnedFrom: queryEpochMs().optional(),
  returnedTo: queryEpochMs().optional(),
  search: z.string().trim().max(100).optional(),
}));
export type ReturnListQuery = z.input<typeof returnListQuerySchema>;
export const returnListPageSchema = lazySchema(() => z.object({ list: z.array(returnRowSchema), total: z.number().int() }));
export type ReturnListPage = z.infer<typeof returnListPageSchema>;

export const returnIdQuerySchema = lazySchema(() => z.object({ id: z.string().min(1).max(200) }));

const moneySchema = z.object({ amount: z.number().finite(), currency: z.string() });

/** One return as its drawer shows it: the row, and what Ozon told about it beyond the list's columns. */
export const returnDetailSchema = lazySchema(() => z.object({
  row: returnRowSchema,
  /** The order row id in the order list (FBS and rFBS postings the shop synced); null when the list has no such order. */
  orderRowId: z.string().nullable(),
  /** Price after Ozon's commission and the commission (FBS/FBO), as Ozon reports them. */
  priceWithoutCommission: moneySchema.nullable(),
  commission: moneySchema.nullable(),
  /** FBS/FBO: where the return is now and where it goes. */
  place: z.string(),
  targetPlace: z.string(),
  /** FBS/FBO: storage charged while it waits for the seller. */
  storage: z.object({ days: z.number().int(), sum: moneySchema, arrivedAt: epochMsSchema.nullable() }).nullable(),
  barcode: z.string(),
  opened: z.boolean().nullable(),
  /** rFBS: the buyer's words, photos, how the product comes back, and the seller's rejection comment. */
  buyerName: z.string(),
  comment: z.string(),
  photos: z.array(z.string()),
  returnMethod: z.string(),
  trackingNumber: z.string(),
  rejectionComment: z.string(),
  moneyReturnState: z.string(),
  isDefect: z.boolean().nullable(),
  /** rFBS: the reasons a rejection may give (Ozon's list for this request). */
  rejectionReasons: z.array(z.object({ id: z.number().int(), name: z.string(), hint: z.string(), commentRequired: z.boolean() })),
}));
export type ReturnDetail = z.infer<typeof returnDetailSchema>;

/** POST /api/return/rfbs/action: one decision on an rFBS request; the answer is the request as Ozon now has it. */
export const rfbsActionBodySchema = lazySchema(() => z.discriminatedUnion('action', [
  z.object({ id: z.string().min(1).max(200), action: z.literal('verify'), returnMethod: z.string().trim().max(200).optional() }),
  z.object({
    id: z.string().min(1).max(200),
    action: z.literal('reject'),
    reasonId: z.number().int().min(0).max(2_147_483_647),
    comment: z.string().trim().max(1_000).optional(),
  }),
  z.object({ id: z.string().min(1).max(200), action: z.literal('compensate'), amount: z.number().finite().positive().max(100_000_000) }),
  z.object({ id: z.string().min(1).max(200), action: z.literal('receive') }),
  z.object({ id: z.string().min(1).max(200), action: z.literal('returnMoney'), backWay: z.number().int().min(0).max(100_000_000).optional() }),
]));
export type RfbsActionBody = z.input<typeof rfbsActionBodySchema>;

export const RETURN_ENDPOINTS = {
  sync: defineEndpoint({
    method: 'GET',
    path: '/return/sync',
    summary: "Returns changed since a cursor, oldest change first, for the browser's cache: one binary frame.",
    access: 'returns',
    input: returnSyncQuerySchema,
    raw: { contentType: RETURN_FRAME_TYPE, description: 'One frame of contract/listFrame.ts over RETURN_LIST (typed columns and dictionaries).' },
    settings: { responseType: 'blob', timeout: 120_000, silent: true },
  }),
  list: defineEndpoint({
    method: 'GET',
    path: '/ozonReturn/list',
    summary: "A page of the user's FBS and FBO returns, filtered on the server, newest first.",
    access: 'returns',
    input: returnListQuerySchema,
    answer: returnListPageSchema,
    settings: { ...MARKETPLACE_LIST_SETTINGS.returnList, cancellable: true },
  }),
  listNew: defineEndpoint({
    method: 'GET',
    path: '/ozonReturnNew/list',
    summary: "A page of the user's returns of every scheme (rFBS requests included), filtered on the server, newest first.",
    access: 'returns',
    input: returnListQuerySchema,
    answer: returnListPageSchema,
    settings: { ...MARKETPLACE_LIST_SETTINGS.returnNewList, cancellable: true },
  }),
  get: defineEndpoint({
    method: 'GET',
    path: '/return/get',
    summary: 'One return with everything Ozon told about it (photos, amounts, places, rejection reasons).',
    access: 'returns',
    input: returnIdQuerySchema,
    answer: returnDetailSchema,
  }),
  rfbsAction: defineEndpoint({
    method: 'POST',
    path: '/return/rfbs/action',
    summary: "One decision on an rFBS return request on Ozon (verify, reject, compensate, receive, return money); answers the request as it now is.",
    access: 'returns',
    action: 'edit',
    input: rfbsActionBodySchema,
    answer: returnDetailSchema,
    settings: { timeout: 60_000 },
  }),
};
