import { date, index, integer, numeric, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

const money = (name: string) => numeric(name, { precision: 16, scale: 2, mode: 'number' }).notNull().default(0);

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
