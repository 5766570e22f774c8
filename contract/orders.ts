import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { epochMsInput, looseRowId, queryEpochMs, queryInt, queryNumber, ROW_ID_MAX, rowId } from './fields';
import { lazySchema } from './lazySchema';
import { anyOf, defineListSchema, dict, dictInt, epochMs, int, money, range, text, type FiltersOf, type RowOf } from './listSchema';

/**
 * Orders as the browser's cache and list engine hold them (seller-tool routes /order-manager/order-list and
 * /order-manager/record-list). One row is one product line of an FBS posting (a posting with three products is
 * three rows) or one entered ("manual") order; the two lists are the same rows told apart by `source`.
 *
 * Times are epoch milliseconds; `null` where the marketplace has no value yet (a posting not yet shipped has no
 * delivering date). Marketplace ids that are int64 on Ozon's side (order_id, sku, warehouse_id) travel as strings so
 * no id loses digits in JSON.
 */

/** Ozon FBS posting statuses: one list, in a module without schemas (contract/fbsStatuses.ts). */
import { FBS_STATUSES } from './fbsStatuses';

import type { FbsStatus } from './fbsStatuses';

export { FBS_STATUSES };
export type { FbsStatus };

export const ORDER_SOURCES = ['ozon', 'manual'] as const;
export type OrderSource = (typeof ORDER_SOURCES)[number];

const epochMsSchema = z.number().finite();

export const orderRowSchema = lazySchema(() => z.object({
  /** Stable and unique across the user's shops; the server builds it (e.g. shop, posting number and sku). */
  id: z.string().min(1),
  shopId: z.number().int(),
  shopName: z.string(),
  postingNumber: z.string(),
  orderNumber: z.string(),
  orderId: z.string(),
  status: z.enum(FBS_STATUSES),
  /** Ozon's finer status (e.g. posting_created); '' when none. */
  substatus: z.string(),
  warehouseId: z.string(),
  warehouseName: z.string(),
  inProcessAt: epochMsSchema,
  shipmentDate: epochMsSchema.nullable(),
  deliveringDate: epochMsSchema.nullable(),
  /** '' until the posting has a tracking number. */
  trackingNumber: z.string(),
  sku: z.string(),
  offerId: z.string(),
  productName: z.string(),
  quantity: z.number().int().min(0),
  /** Price times quantity, in currency units (not kopecks or fen). */
  amount: z.number().finite(),
  /** ISO 4217 code as Ozon reports it (RUB, CNY, USD ...). */
  currency: z.string(),
  source: z.enum(ORDER_SOURCES),
  /** When the server last changed this row; the sync cursor moves in this order. */
  updatedAt: epochMsSchema,
  /** A tombstone: the row was removed (or the shop was deleted); caches drop it. */
  deleted: z.boolean(),
}));
export type OrderRow = z.infer<typeof orderRowSchema>;

/** Every column of a row but the tombstone flag: what lists filter, sort and show. */
export const ORDER_COLUMNS = [
  'id',
  'shopId',
  'shopName',
  'postingNumber',
  'orderNumber',
  'orderId',
  'status',
  'substatus',
  'warehouseId',
  'warehouseName',
  'inProcessAt',
  'shipmentDate',
  'deliveringDate',
  'trackingNumber',
  'sku',
  'offerId',
  'productName',
  'quantity',
  'amount',
  'currency',
  'source',
  'updatedAt',
] as const satisfies readonly (keyof OrderRow)[];
export type OrderColumn = (typeof ORDER_COLUMNS)[number];

/** The columns the list's search box looks in (case-insensitive substring). */
export const ORDER_SEARCH_COLUMNS = [
  'postingNumber',
  'orderNumber',
  'sku',
  'offerId',
  'productName',
  'trackingNumber',
] as const satisfies readonly OrderColumn[];

/**
 * Orders as a big list (contract/listSchema.ts): the columns in the frame's layout order (texts, dictionaries,
 * numbers; the order the browser's cached records were written in), the search box's columns and the filter bar's
 * filters.
 */
export const ORDER_LIST = defineListSchema({
  name: 'orders',
  columns: {
    id: text(),
    postingNumber: text(),
    orderNumber: text(),
    orderId: text(),
    trackingNumber: text(),
    shopId: dictInt(),
    shopName: dict(),
    status: dict<FbsStatus>(),
    substatus: dict(),
    warehouseId: dict(),
    warehouseName: dict(),
    currency: dict(),
    source: dict<OrderSource>(),
    sku: dict(),
    offerId: dict(),
    productName: dict(),
    inProcessAt: epochMs(),
    shipmentDate: epochMs({ nullable: true }),
    deliveringDate: epochMs({ nullable: true }),
    quantity: int(),
    amount: money(),
    updatedAt: epochMs(),
  },
  key: 'id',
  searchFields: ORDER_SEARCH_COLUMNS,
  filters: {
    shopIds: anyOf('shopId'),
    statuses: anyOf('status'),
    warehouseIds: anyOf('warehouseId'),
    sources: anyOf('source'),
    inProcessAt: range('inProcessAt'),
    shipmentDate: range('shipmentDate'),
    amount: range('amount'),
  },
  indexAhead: ['status', 'shopId', 'warehouseId'],
  sorts: ORDER_COLUMNS,
});
export type OrderList = typeof ORDER_LIST;
/** Every filter narrows (AND); a list filter matches any of its values; an empty list filters nothing. */
export type OrderFilters = FiltersOf<OrderList['columns'], OrderList['filters']>;

// The list's rows are the contract's rows: this fails to compile when the two disagree.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _listRowIsOrderRow: Same<RowOf<OrderList['columns']>, OrderRow> = true;

/**
 * GET /api/order/sync: rows changed since `cursor` (absent for a full sync), oldest change first, in chunks.
 * The cursor is opaque to the browser: it stores it and sends it back.
 */
export const ORDER_SYNC_MAX_LIMIT = 100_000;
export const orderSyncQuerySchema = lazySchema(() => z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(ORDER_SYNC_MAX_LIMIT).default(5_000),
  /**
   * 'binary' answers one frame of contract/orderChunk.ts (typed columns, dictionaries; content type
   * ORDER_FRAME_TYPE) instead of row objects: the browser cache's bulk path. Same rows, same cursor semantics.
   */
  format: z.enum(['rows', 'binary']).default('rows'),
  /**
   * The limit the browser asks with next (binary format): the server builds the next frame ahead at that size.
   * A sync whose first frame is small (rows on screen at once) says so; without it the next frame is built at `limit`.
   */
  next: z.coerce.number().int().min(1).max(ORDER_SYNC_MAX_LIMIT).optional(),
}));
export type OrderSyncQuery = z.input<typeof orderSyncQuerySchema>;

export const orderSyncChunkSchema = lazySchema(() => z.object({
  /** Changed and deleted rows (tombstones carry `deleted: true`), at most `limit`. */
  rows: z.array(orderRowSchema),
  /** Where the next call starts; store it only after the rows are safely cached. */
  cursor: z.string(),
  /** More changes wait beyond this chunk. */
  hasMore: z.boolean(),
}));
export type OrderSyncChunk = z.infer<typeof orderSyncChunkSchema>;

/** Push message on /api/ws when orders change on the server: the worker then syncs from its cursor. */
export const ordersChangedPushSchema = lazySchema(() => z.object({
  type: z.literal('orders.changed'),
  shopId: z.number().int().optional(),
}));
export type OrdersChangedPush = z.infer<typeof ordersChangedPushSchema>;

const csv = <T extends z.ZodType>(item: T) =>
  z.preprocess((value) => (typeof value === 'string' ? (value === '' ? [] : value.split(',')) : value), z.array(item));
/** Amount bounds in a query string: far beyond any order, short of what a numeric column overflows on. */
const amountBound = queryNumber(-1e12, 1e12).optional();

/**
 * GET /api/order/list: one page of the user's orders, filtered on the server (the page's first paint before the
 * worker's cache is filled, and callers without a cache). Ranges are inclusive; times are epoch ms.
 */
export const orderListQuerySchema = lazySchema(() => z.object({
  page: queryInt(1, 1_000_000).default(1),
  rows: queryInt(1, 500).default(20),
  shopIds: csv(looseRowId()).optional(),
  statuses: csv(z.enum(FBS_STATUSES)).optional(),
  warehouseIds: csv(z.string().max(40)).optional(),
  source: z.enum(ORDER_SOURCES).optional(),
  inProcessFrom: queryEpochMs().optional(),
  inProcessTo: queryEpochMs().optional(),
  shipmentFrom: queryEpochMs().optional(),
  shipmentTo: queryEpochMs().optional(),
  amountFrom: amountBound,
  amountTo: amountBound,
  search: z.string().trim().max(100).optional(),
  sort: z.enum(['inProcessAt', 'shipmentDate', 'amount', 'updatedAt']).default('inProcessAt'),
  direction: z.enum(['asc', 'desc']).default('desc'),
}));
export type OrderListQuery = z.input<typeof orderListQuerySchema>;
export const orderListPageSchema = lazySchema(() => z.object({ list: z.array(orderRowSchema), total: z.number().int() }));
export type OrderListPage = z.infer<typeof orderListPageSchema>;

export const orderIdQuerySchema = lazySchema(() => z.object({ id: z.string().min(1).max(200) }));

/** An entered ("manual") order: what the record list's form asks for. */
export const manualOrderFieldsSchema = lazySchema(() => z.object({
  /** 0: not tied to one of the user's shops. */
  shopId: z.number().int().min(0).max(ROW_ID_MAX).default(0),
  postingNumber: z.string().trim().max(60).default(''),
  orderNumber: z.string().trim().min(1).max(60),
  status: z.enum(FBS_STATUSES).default('awaiting_packaging'),
  warehouseName: z.string().trim().max(100).default(''),
  inProcessAt: epochMsInput(),
  trackingNumber: z.string().trim().max(60).default(''),
  sku: z.string().trim().max(40).default(''),
  offerId: z.string().trim().max(100).default(''),
  productName: z.string().trim().min(1).max(500),
  quantity: z.number().int().min(1).max(100_000),
  amount: z.number().finite().min(0).max(100_000_000),
  currency: z.string().trim().regex(/^[A-Z]{3}$/, 'invalid').default('CNY'),
}));
export const addOrderBodySchema = manualOrderFieldsSchema;
export type AddOrderBody = z.input<typeof addOrderBodySchema>;
export const updateOrderBodySchema = lazySchema(() => manualOrderFieldsSchema.partial().extend({ id: z.string().min(1).max(200) }));
export type UpdateOrderBody = z.input<typeof updateOrderBodySchema>;
export const orderIdsBodySchema = lazySchema(() => z.object({ ids: z.array(z.string().min(1).max(200)).min(1).max(1_000) }));
export type OrderIdsBody = z.input<typeof orderIdsBodySchema>;

/** POST /api/order/pictures: the main picture of each (shop, offer) of the rows on screen, from the synced cards. */
export const ORDER_PICTURES_MAX = 200;
export const orderPicturesBodySchema = lazySchema(() => z.object({
  items: z.array(z.object({ shopId: z.number().int().min(0), offerId: z.string().max(200) })).min(1).max(ORDER_PICTURES_MAX),
}));
export type OrderPicturesBody = z.input<typeof orderPicturesBodySchema>;
/** Only the offers that have a picture; the others are left out. */
export const orderPicturesAnswerSchema = lazySchema(() => z.array(z.object({ shopId: z.number().int(), offerId: z.string(), url: z.string() })));
export type OrderPictures = z.infer<typeof orderPicturesAnswerSchema>;

/** POST /api/order/picking-list: what to take off the shelves for the selected rows, one line per product. */
export const PICKING_FORMATS = ['pdf', 'xlsx'] as const;
export type PickingFormat = (typeof PICKING_FORMATS)[number];
export const pickingListBodySchema = lazySchema(() => z.object({
  ids: z.array(z.string().min(1).max(200)).min(1).max(10_000),
  format: z.enum(PICKING_FORMATS),
}));
export type PickingListBody = z.input<typeof pickingListBodySchema>;

/** The picking list's texts (the server writes the file in the caller's language). */
export const PICKING_TEXTS = {
  title: { zh: '拣货单', en: 'Picking list', pt: 'Lista de separação' },
  summary: {
    zh: '{{postings}} 个货件 · {{products}} 种商品 · 共 {{quantity}} 件',
    en: '{{postings}} postings · {{products}} products · {{quantity}} items',
    pt: '{{postings}} envios · {{products}} produtos · {{quantity}} itens',
  },
  picture: { zh: '图片', en: 'Picture', pt: 'Imagem' },
  sku: { zh: 'SKU', en: 'SKU', pt: 'SKU' },
  offerId: { zh: '货号', en: 'Offer ID', pt: 'Código do vendedor' },
  name: { zh: '商品名称', en: 'Product', pt: 'Produto' },
  quantity: { zh: '数量', en: 'Quantity', pt: 'Quantidade' },
  postings: { zh: '货件数', en: 'Postings', pt: 'Envios' },
  shops: { zh: '店铺', en: 'Shops', pt: 'Lojas' },
} as const;

/** One posting's failure in a batch call; the others went through. `message` is in the caller's language. */
export const batchFailureSchema = lazySchema(() => z.object({ postingNumber: z.string(), message: z.string() }));
export const batchResultSchema = lazySchema(() => z.object({ done: z.number().int(), failures: z.array(batchFailureSchema) }));
export type BatchResult = z.infer<typeof batchResultSchema>;

/**
 * Ozon's posting statuses in which a seller may still cancel (before it leaves the seller: Ozon refuses later ones).
 * Postings in these statuses offer the cancel action.
 */
export const CANCELLABLE_STATUSES: readonly FbsStatus[] = ['awaiting_registration', 'acceptance_in_progress', 'awaiting_approve', 'awaiting_packaging', 'awaiting_deliver'];
/** Ozon's "other (seller's fault)" reason: the only one that needs the seller's own words (cancel_reason_message). */
export const CANCEL_REASON_OTHER = 402;
/** One of Ozon's cancel reasons; `title` is Ozon's own text (the page names the known ones in the user's language). */
export const cancelReasonSchema = lazySchema(() => z.object({ id: z.number().int(), title: z.string() }));
export type CancelReason = z.infer<typeof cancelReasonSchema>;
/** The reasons Ozon offers for each selected posting (their order as Ozon gives them). */
export const cancelReasonsAnswerSchema = lazySchema(() => z.array(z.object({ shopId: z.number().int(), postingNumber: z.string(), reasons: z.array(cancelReasonSchema) })));
export type CancelReasonsAnswer = z.infer<typeof cancelReasonsAnswerSchema>;
export const cancelOrdersBodySchema = lazySchema(() => z.object({
  ids: orderIdsBodySchema.shape.ids,
  reasonId: z.number().int().positive(),
  /** The seller's words to Ozon; required for reason 402 (CANCEL_REASON_OTHER). */
  message: z.string().trim().max(500).optional(),
}));
export type CancelOrdersBody = z.input<typeof cancelOrdersBodySchema>;

/**
 * What Ozon says of one posting beyond the synced rows, for its drawer: the buyer and delivery address (Ozon gives
 * them only for postings the seller delivers, rFBS), where it goes, and per product Ozon's commission and what the
 * seller is paid. `null` parts: Ozon did not give them (an FBS posting's buyer, an entered order's everything).
 */
export const postingDetailSchema = lazySchema(() => z.object({
  postingNumber: z.string(),
  buyer: z.object({ name: z.string(), phone: z.string() }).nullable(),
  address: z.object({ text: z.string(), city: z.string(), region: z.string(), zipCode: z.string(), country: z.string(), comment: z.string() }).nullable(),
  /** Region and city the posting goes to (Ozon's analytics data), for FBS postings whose address Ozon keeps. */
  destination: z.object({ region: z.string(), city: z.string() }).nullable(),
  deliveryMethod: z.string(),
  products: z.array(z.object({
    sku: z.string(),
    quantity: z.number().int(),
    price: z.number().finite(),
    commission: z.number().finite().nullable(),
    commissionPercent: z.number().finite().nullable(),
    payout: z.number().finite().nullable(),
    currency: z.string(),
  })),
  cancellation: z.object({ reasonId: z.number().int().nullable(), reason: z.string() }).nullable(),
}));
export type PostingDetail = z.infer<typeof postingDetailSchema>;

export const trackNumbersBodySchema = lazySchema(() => z.object({
  items: z
    .array(z.object({ id: z.string().min(1).max(200), trackingNumber: z.string().trim().min(1).max(60) }))
    .min(1)
    .max(1_000),
}));
export type TrackNumbersBody = z.input<typeof trackNumbersBodySchema>;
export const updateTrackBodySchema = lazySchema(() => z.object({ id: z.string().min(1).max(200), trackingNumber: z.string().trim().max(60) }));
/** Hands an order to China Post's EUB (ePacket) line: its tracking number is the EUB one. */
export const setEubOrderBodySchema = lazySchema(() => z.object({ ids: orderIdsBodySchema.shape.ids, trackingNumber: z.string().trim().min(1).max(60).optional() }));

export const unfulfilledListBodySchema = lazySchema(() => z.object({
  storeId: rowId().optional(),
  page: z.number().int().min(1).max(1_000_000).default(1),
  rows: z.number().int().min(1).max(500).default(50),
}));
export const unfulfilledListV3BodySchema = lazySchema(() => z.object({
  storeId: rowId(),
  limit: z.number().int().min(1).max(1_000).default(100),
  cursor: z.string().max(2_000).optional(),
}));

/** Label tasks started by /updatePdf: Ozon builds big label sets asynchronously. */
export const labelTasksSchema = lazySchema(() => z.object({ tasks: z.array(z.object({ storeId: z.number().int(), taskId: z.number().int() })) }));

export const warehouseListBodySchema = lazySchema(() => z.object({ storeId: rowId().optional() }));
/** A shop's warehouse; `shopName` so a picker over several shops groups them under their shop. */
export const warehouseSchema = lazySchema(() => z.object({ storeId: z.number().int(), shopName: z.string(), warehouseId: z.string(), name: z.string(), status: z.string() }));
export type Warehouse = z.infer<typeof warehouseSchema>;

export const updateStockBodySchema = lazySchema(() => z.object({
  items: z
    .array(z.object({ storeId: rowId(), offerId: z.string().min(1).max(100), warehouseId: z.string().min(1).max(40), stock: z.number().int().min(0).max(1_000_000) }))
    .min(1)
    .max(100),
}));
export type UpdateStockBody = z.input<typeof updateStockBodySchema>;
export const stockResultSchema = lazySchema(() => z.object({ done: z.number().int(), failures: z.array(z.object({ offerId: z.string(), message: z.string() })) }));
export type StockResult = z.infer<typeof stockResultSchema>;

/** The content type of the order sync's binary frames (contract/orderChunk.ts re-exports it with the format). */
export const ORDER_FRAME_TYPE = 'application/vnd.seller-tool.orders';

/** How many rows a call changed (e.g. manual orders deleted). */
export const changedCountSchema = lazySchema(() => z.number().int());

/** Ozon's unfulfilled list as Ozon answers it (v4 shape), passed through; only what the page relies on is named. */
export const marketplacePostingListSchema = lazySchema(() => z.looseObject({
  postings: z.array(z.looseObject({ posting_number: z.string() })),
  cursor: z.string(),
  has_next: z.boolean(),
  count: z.number().int().optional(),
}));

/**
 * The order and shipping calls (seller-tool §7 "Orders and shipping"), gated on the 'orders' area; /syncOrderList
 * lives with the shops. Every change pushes 'orders.changed' to the user.
 */
export const ORDER_ENDPOINTS = {
  list: defineEndpoint({
    method: 'GET',
    path: '/order/list',
    summary: "One page of the user's orders, filtered and sorted on the server (first paint before the cache is filled).",
    access: 'orders',
    input: orderListQuerySchema,
    answer: orderListPageSchema,
    settings: { cancellable: true, retryDelay: 1_500 },
  }),
  get: defineEndpoint({
    method: 'GET',
    path: '/order/get',
    summary: 'One order row by id.',
    access: 'orders',
    input: orderIdQuerySchema,
    answer: orderRowSchema,
    settings: { timeout: 6_000 },
  }),
  add: defineEndpoint({ method: 'POST', path: '/order/add', summary: 'Enters a manual order.', access: 'orders', action: 'edit', input: addOrderBodySchema, answer: orderRowSchema }),
  update: defineEndpoint({
    method: 'POST',
    path: '/order/update',
    summary: 'Changes an entered order; fields left out stay as they are.',
    access: 'orders',
    action: 'edit',
    input: updateOrderBodySchema,
    answer: orderRowSchema,
  }),
  delete: defineEndpoint({
    method: 'POST',
    path: '/order/delete',
    summary: 'Deletes entered orders (marketplace orders are kept); answers how many were deleted.',
    access: 'orders',
    action: 'delete',
    input: orderIdsBodySchema,
    answer: changedCountSchema,
  }),
  sync: defineEndpoint({
    method: 'GET',
    path: '/order/sync',
    summary: "Rows changed since a cursor, oldest change first, for the browser's cache: row objects, or one binary frame.",
    access: 'orders',
    input: orderSyncQuerySchema,
    answer: orderSyncChunkSchema,
    raw: { contentType: ORDER_FRAME_TYPE, description: 'format=binary: one frame of contract/orderChunk.ts (typed columns and dictionaries).' },
    // The worker reads the binary frame as a Blob, which its cache stores as it is (workers/orders/frameBytes.ts).
    settings: { responseType: 'blob', timeout: 120_000, silent: true },
  }),
  unfulfilledList: defineEndpoint({
    method: 'POST',
    path: '/posting/fbs/unfulfilled/list',
    summary: 'Unfulfilled postings of one shop or all, from the synced orders.',
    access: 'orders',
    action: 'view',
    input: unfulfilledListBodySchema,
    answer: orderListPageSchema,
  }),
  unfulfilledListV3: defineEndpoint({
    method: 'POST',
    path: '/v3/posting/fbs/unfulfilled/list',
    summary: "Ozon's own unfulfilled list of one shop, live from the marketplace.",
    access: 'orders',
    action: 'view',
    input: unfulfilledListV3BodySchema,
    answer: marketplacePostingListSchema,
  }),
  ship: defineEndpoint({
    method: 'POST',
    path: '/shipOrder',
    summary: 'Ships postings (Ozon: ship as they are); answers how many went through and each failure.',
    access: 'orders',
    action: 'ship',
    input: orderIdsBodySchema,
    answer: batchResultSchema,
  }),
  posting: defineEndpoint({
    method: 'GET',
    path: '/order/posting',
    summary: "Ozon's details of the row's posting: buyer and address (rFBS), destination, commission and payout per product.",
    access: 'orders',
    input: orderIdQuerySchema,
    answer: postingDetailSchema,
    settings: { timeout: 15_000, cancellable: true, silent: true },
  }),
  cancelReasons: defineEndpoint({
    method: 'POST',
    path: '/order/cancelReasons',
    summary: "Ozon's cancel reasons for the selected rows' postings (cancellable Ozon postings only).",
    access: 'orders',
    action: 'view',
    input: orderIdsBodySchema,
    answer: cancelReasonsAnswerSchema,
    settings: { timeout: 30_000 },
  }),
  cancel: defineEndpoint({
    method: 'POST',
    path: '/order/cancel',
    summary: 'Cancels the selected rows\' postings on Ozon with one reason; answers how many went through and each failure.',
    access: 'orders',
    action: 'ship',
    input: cancelOrdersBodySchema,
    answer: batchResultSchema,
  }),
  addTrackNumber: defineEndpoint({
    method: 'POST',
    path: '/addTrackNumber',
    summary: 'Sets tracking numbers on postings and tells Ozon.',
    access: 'orders',
    action: 'ship',
    input: trackNumbersBodySchema,
    answer: batchResultSchema,
  }),
  updateTrack: defineEndpoint({
    method: 'POST',
    path: '/updateTrack',
    summary: "Corrects one order's tracking number in our records only (Ozon is not told).",
    access: 'orders',
    action: 'ship',
    input: updateTrackBodySchema,
    answer: batchResultSchema,
  }),
  setEubOrder: defineEndpoint({
    method: 'POST',
    path: '/setEubOrder',
    summary: "Hands orders to China Post's EUB line (substatus 'eub'), with the EUB tracking number when given.",
    access: 'orders',
    action: 'ship',
    input: setEubOrderBodySchema,
    answer: batchResultSchema,
  }),
  updatePdf: defineEndpoint({
    method: 'POST',
    path: '/updatePdf',
    summary: 'Starts Ozon label tasks for big label sets (Ozon builds them asynchronously).',
    access: 'orders',
    action: 'ship',
    input: orderIdsBodySchema,
    answer: labelTasksSchema,
  }),
  labelPdf: defineEndpoint({
    method: 'POST',
    path: '/ets/pdf',
    summary: 'The shipping labels of up to 1,000 orders as one PDF.',
    access: 'orders',
    action: 'ship',
    input: orderIdsBodySchema,
    raw: { contentType: 'application/pdf', description: 'The labels, merged into one PDF (attachment labels.pdf).' },
    // The spec's 4 s is for one label; the server fetches a set in calls of 20 and merges them into one PDF.
    settings: { responseType: 'blob', timeout: 60_000 },
  }),
  pictures: defineEndpoint({
    method: 'POST',
    path: '/order/pictures',
    summary: "The main picture of each listed product (by shop and offer id), as the shop's synced cards have it.",
    access: 'orders',
    action: 'view',
    input: orderPicturesBodySchema,
    answer: orderPicturesAnswerSchema,
    settings: { silent: true },
  }),
  pickingList: defineEndpoint({
    method: 'POST',
    path: '/order/picking-list',
    summary: 'The picking list of up to 10,000 order rows: each product (SKU, offer id, name, picture) with the quantity summed, as PDF or Excel.',
    access: 'orders',
    action: 'view',
    input: pickingListBodySchema,
    raw: {
      contentType: 'application/pdf',
      description: 'picking-list.pdf (application/pdf) or picking-list.xlsx (application/vnd.openxmlformats-officedocument.spreadsheetml.sheet), as asked.',
    },
    settings: { responseType: 'blob', timeout: 60_000 },
  }),
  warehouseList: defineEndpoint({
    method: 'POST',
    path: '/warehouse/list',
    summary: "The warehouses of one shop or of all the user's shops.",
    access: 'orders',
    action: 'view',
    input: warehouseListBodySchema,
    answer: lazySchema(() => z.array(warehouseSchema)),
  }),
  updateStock: defineEndpoint({
    method: 'POST',
    path: '/updateStock',
    summary: 'Sets stock levels per shop, offer and warehouse (up to 100 at once).',
    access: 'orders',
    action: 'price',
    input: updateStockBodySchema,
    answer: stockResultSchema,
  }),
} as const;
