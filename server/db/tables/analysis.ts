import { date, index, integer, numeric, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

const money = (name: string, precision = 16) => numeric(name, { precision, scale: 2, mode: 'number' }).notNull().default(0);

/**
 * Sales analysis rollups (issue 30): one row per user, shop, China-time day, SKU and warehouse, kept by sync
 * (server/areas/analysis/rollups.ts) from the orders projection, the synced returns and Ozon's finance transactions,
 * so a period query reads a few rows per day instead of scanning raw orders.
 * - orders: order lines placed that day (any status); units / revenue: those not cancelled; cancellations: the
 *   cancelled lines;
 * - returns / return_amount: units handed back (not cancellations), on the day of the return;
 * - commission, fees (delivery, return delivery, services), payout: Ozon's finance transactions of the day's postings,
 *   shared among a posting's lines by their amount. Commission and fees are costs (positive numbers).
 */
export const salesDaily = pgTable(
  'sales_daily',
  {
    userId: integer('user_id').notNull(),
    shopId: integer('shop_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    sku: text('sku').notNull(),
    warehouseId: text('warehouse_id').notNull(),
    offerId: text('offer_id').notNull().default(''),
    productName: text('product_name').notNull().default(''),
    warehouseName: text('warehouse_name').notNull().default(''),
    orders: integer('orders').notNull().default(0),
    units: integer('units').notNull().default(0),
    revenue: money('revenue'),
    cancellations: integer('cancellations').notNull().default(0),
    returns: integer('returns').notNull().default(0),
    returnAmount: money('return_amount'),
    commission: money('commission'),
    fees: money('fees'),
    payout: money('payout'),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.shopId, table.day, table.sku, table.warehouseId] }),
    index('sales_daily_user_day_idx').on(table.userId, table.day),
  ],
);

/** The figures every pre-aggregation of sales_daily carries (its sums over the rows it stands for). */
const figures = (precision: number) => ({
  orders: integer('orders').notNull().default(0),
  units: integer('units').notNull().default(0),
  revenue: money('revenue', precision),
  cancellations: integer('cancellations').notNull().default(0),
  returns: integer('returns').notNull().default(0),
  returnAmount: money('return_amount', precision),
  commission: money('commission', precision),
  fees: money('fees', precision),
  payout: money('payout', precision),
});

/**
 * A shop's day per warehouse: sales_daily summed over SKUs, plus the cost of the units at the seller's cost prices
 * (roubles). A period's totals, series and shop and warehouse breakdowns read these (a day is a few rows, not one
 * per SKU). `cost_rub` follows the cost prices: sync computes it for the days it refreshes, and the analysis
 * recomputes a user's whole column when the cost prices changed since (`sales_cost_state`).
 */
export const salesDailyTotals = pgTable(
  'sales_daily_totals',
  {
    userId: integer('user_id').notNull(),
    shopId: integer('shop_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    warehouseId: text('warehouse_id').notNull(),
    warehouseName: text('warehouse_name').notNull().default(''),
    ...figures(16),
    costRub: money('cost_rub', 18),
  },
  (table) => [primaryKey({ columns: [table.userId, table.shopId, table.day, table.warehouseId] }), index('sales_daily_totals_user_day_idx').on(table.userId, table.day)],
);

/**
 * Running totals per shop and SKU: for each day a SKU has a sales_daily row, its figures summed over every day up to
 * and including that one. A period's figures of a SKU are the row at or before the period's last day less the row
 * before its first day: two index probes per SKU, whatever the period's length.
 */
export const salesSkuRunning = pgTable(
  'sales_sku_running',
  {
    userId: integer('user_id').notNull(),
    shopId: integer('shop_id').notNull(),
    sku: text('sku').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    offerId: text('offer_id').notNull().default(''),
    productName: text('product_name').notNull().default(''),
    ...figures(18),
  },
  (table) => [primaryKey({ columns: [table.userId, table.shopId, table.sku, table.day] })],
);

/**
 * Each shop's SKU: the first and last day it has a rollup row (the SKUs a period can hold) and its running totals on
 * the last one (its sums of all time), so a period that ends on or after that day needs no probe for its end.
 */
export const salesSkuSpan = pgTable(
  'sales_sku_span',
  {
    userId: integer('user_id').notNull(),
    shopId: integer('shop_id').notNull(),
    sku: text('sku').notNull(),
    firstDay: date('first_day', { mode: 'string' }).notNull(),
    lastDay: date('last_day', { mode: 'string' }).notNull(),
    offerId: text('offer_id').notNull().default(''),
    productName: text('product_name').notNull().default(''),
    ...figures(18),
  },
  (table) => [primaryKey({ columns: [table.userId, table.shopId, table.sku] })],
);

/**
 * Per user: which cost prices `sales_daily_totals.cost_rub` was computed with (a fingerprint of cost_prices), and a
 * version bumped whenever the user's rollups change, so an analysis may reuse a period's SKUs computed at the same one.
 */
export const salesRollupState = pgTable('sales_rollup_state', {
  userId: integer('user_id').primaryKey(),
  costFingerprint: text('cost_fingerprint').notNull().default(''),
  version: integer('version').notNull().default(0),
});
