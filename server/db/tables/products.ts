import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, numeric, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { PRODUCT_COPY } from '../../areas/products/frame';
import { packedRowSql } from '../../lists/copyFrame';
import { bytea } from '../columns';
import { users } from './core';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const money = (name: string) => numeric(name, { precision: 14, scale: 2, mode: 'number' }).notNull().default(0);

/**
 * Products as the lists show them (contract/products.ts ProductRow): one row per Ozon card of the user's shops,
 * projected from mp_records (entity 'products') by server/areas/products/projection.ts. Rows are never removed:
 * `deleted` is a tombstone the browser's sync carries to its cache; `updated_at` moves only when a row's data
 * changes, and (user_id, updated_at, id) is the sync cursor's order. `stocks` holds FBS stock per warehouse as the
 * app last set it (Ozon's card gives only the total).
 */
export const products = pgTable(
  'products',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    shopId: integer('shop_id').notNull(),
    shopName: text('shop_name').notNull().default(''),
    productId: text('product_id').notNull(),
    offerId: text('offer_id').notNull().default(''),
    sku: text('sku').notNull().default(''),
    name: text('name').notNull().default(''),
    barcode: text('barcode').notNull().default(''),
    image: text('image').notNull().default(''),
    status: text('status').notNull(),
    moderation: text('moderation').notNull().default(''),
    visibility: text('visibility').notNull(),
    currency: text('currency').notNull().default('CNY'),
    price: money('price'),
    oldPrice: money('old_price'),
    minPrice: money('min_price'),
    fbsStock: integer('fbs_stock').notNull().default(0),
    fboStock: integer('fbo_stock').notNull().default(0),
    errorCount: integer('error_count').notNull().default(0),
    units30d: integer('units_30d').notNull().default(0),
    revenue30d: money('revenue_30d'),
    createdAt: timestamptz('created_at').notNull(),
    changedAt: timestamptz('changed_at').notNull(),
    stocks: jsonb('stocks').notNull().default({}),
    deleted: boolean('deleted').notNull().default(false),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
    /** The row's list columns as the sync's binary copy sends them, kept by Postgres (server/lists/copyFrame.ts). */
    syncRow: bytea('sync_row').generatedAlwaysAs(sql.raw(packedRowSql(PRODUCT_COPY))),
  },
  (table) => [
    index('products_sync_idx').on(table.userId, table.updatedAt, table.id),
    index('products_shop_offer_idx').on(table.shopId, table.offerId),
  ],
);

/**
 * What the app sent to Ozon for a product (a price or one warehouse's stock), before sending: Ozon's per-product
 * rates (10 price changes an hour, one stock change per warehouse every 30 s) are counted from here, and a batch
 * resent after a crash (same `batch_id`) skips what already went through.
 */
export const productSends = pgTable(
  'product_sends',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productRowId: text('product_row_id').notNull(),
    kind: text('kind').notNull(),
    warehouseId: text('warehouse_id').notNull().default(''),
    batchId: text('batch_id'),
    payload: jsonb('payload').notNull(),
    /** 'sent' until Ozon answered; then 'ok' or 'failed' with Ozon's message. */
    outcome: text('outcome').notNull().default('sent'),
    message: text('message').notNull().default(''),
    sentAt: timestamptz('sent_at').notNull().defaultNow(),
  },
  (table) => [
    index('product_sends_rate_idx').on(table.productRowId, table.kind, table.warehouseId, table.sentAt),
    index('product_sends_batch_idx').on(table.userId, table.batchId),
  ],
);
