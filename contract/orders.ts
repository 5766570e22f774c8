import { z } from 'zod';

/**
 * Orders as the browser's cache and list engine hold them (seller-tool routes /order-manager/order-list and
 * /order-manager/record-list). One row is one product line of an FBS posting (a posting with three products is
 * three rows) or one entered ("manual") order; the two lists are the same rows told apart by `source`.
 *
 * Times are epoch milliseconds; `null` where the marketplace has no value yet (a posting not yet shipped has no
 * delivering date). Marketplace ids that are int64 on Ozon's side (order_id, sku, warehouse_id) travel as strings so
 * no id loses digits in JSON.
 */

/** Ozon FBS posting statuses (reference/ozon-seller-api.md, `/v4/posting/fbs/list`). */
export const FBS_STATUSES = [
  'awaiting_registration',
  'acceptance_in_progress',
  'awaiting_approve',
  'awaiting_packaging',
  'awaiting_deliver',
  'arbitration',
  'client_arbitration',
  'delivering',
  'driver_pickup',
  'delivered',
  'cancelled',
  'not_accepted',
  'sent_by_seller',
] as const;
export type FbsStatus = (typeof FBS_STATUSES)[number];

export const ORDER_SOURCES = ['ozon', 'manual'] as const;
export type OrderSource = (typeof ORDER_SOURCES)[number];

const epochMs = z.number().finite();

export const orderRowSchema = z.object({
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
  inProcessAt: epochMs,
  shipmentDate: epochMs.nullable(),
  deliveringDate: epochMs.nullable(),
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
  updatedAt: epochMs,
  /** A tombstone: the row was removed (or the shop was deleted); caches drop it. */
  deleted: z.boolean(),
});
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
 * GET /api/order/sync: rows changed since `cursor` (absent for a full sync), oldest change first, in chunks.
 * The cursor is opaque to the browser: it stores it and sends it back.
 */
export const ORDER_SYNC_MAX_LIMIT = 10_000;
export const orderSyncQuerySchema = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(ORDER_SYNC_MAX_LIMIT).default(5_000),
});
export type OrderSyncQuery = z.input<typeof orderSyncQuerySchema>;

export const orderSyncChunkSchema = z.object({
  /** Changed and deleted rows (tombstones carry `deleted: true`), at most `limit`. */
  rows: z.array(orderRowSchema),
  /** Where the next call starts; store it only after the rows are safely cached. */
  cursor: z.string(),
  /** More changes wait beyond this chunk. */
  hasMore: z.boolean(),
});
export type OrderSyncChunk = z.infer<typeof orderSyncChunkSchema>;

/** Push message on /api/ws when orders change on the server: the worker then syncs from its cursor. */
export const ordersChangedPushSchema = z.object({
  type: z.literal('orders.changed'),
  shopId: z.number().int().optional(),
});
export type OrdersChangedPush = z.infer<typeof ordersChangedPushSchema>;
