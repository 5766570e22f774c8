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
 * Weekly running totals per shop and SKU: a SKU's figures summed over every day up to and including `week_end` (a
 * Sunday, the end of an ISO week), for each week end from its first day's week up to before its last day (also the
 * weeks it sold nothing in). A SKU's sums up to any day are the row of the last Sunday at or before it plus the
 * sales_daily rows of the days after that Sunday (at most six), so a period's SKUs are read as two runs of one week
 * end each (the user and week end index) plus a few days, instead of two index probes per SKU.
 * `days` counts the SKU's days with a sales_daily row (a period holds the SKU when its count grows).
 */
export const salesSkuWeekly = pgTable(
  'sales_sku_weekly',
  {
    userId: integer('user_id').notNull(),
    shopId: integer('shop_id').notNull(),
    sku: text('sku').notNull(),
    weekEnd: date('week_end', { mode: 'string' }).notNull(),
    days: integer('days').notNull().default(0),
    ...figures(18),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.shopId, table.sku, table.weekEnd] }),
    index('sales_sku_weekly_user_week_idx').on(table.userId, table.weekEnd),
  ],
);

/**
 * Each shop's SKU: the first and last day it has a rollup row (the SKUs a period can hold), its offer id and name on
 * the last one, and its sums of all time (`days`: its days with a row), so a period that ends on or after the last
 * day needs no weekly row for its end.
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
    days: integer('days').notNull().default(0),
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
