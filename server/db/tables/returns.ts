import { boolean, index, integer, numeric, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './core';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Returns as the lists show them (contract/returns.ts ReturnRow), one row per return of a synced shop, projected from
 * mp_records (entity 'returns') by server/areas/returns/projection.ts. Rows are never removed: `deleted` is a
 * tombstone the browser's incremental sync carries to its cache. `updated_at` moves only when a row's data changes;
 * (user_id, updated_at, id) is the sync cursor's order. `shop_id` has no foreign key: a deleted shop's rows stay as
 * tombstones for the caches that still hold them.
 */
export const returns = pgTable(
  'returns',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    shopId: integer('shop_id').notNull(),
    shopName: text('shop_name').notNull().default(''),
    /** The mp_records id it was projected from (Ozon's return id; rFBS: `rfbs:<return_id>`). */
    externalId: text('external_id').notNull(),
    returnId: text('return_id').notNull(),
    scheme: text('scheme').notNull(),
    type: text('type').notNull().default(''),
    status: text('status').notNull().default(''),
    statusName: text('status_name').notNull().default(''),
    reason: text('reason').notNull().default(''),
    postingNumber: text('posting_number').notNull().default(''),
    orderNumber: text('order_number').notNull().default(''),
    sku: text('sku').notNull().default(''),
    offerId: text('offer_id').notNull().default(''),
    productName: text('product_name').notNull().default(''),
    quantity: integer('quantity').notNull().default(1),
    amount: numeric('amount', { precision: 14, scale: 2, mode: 'number' }).notNull().default(0),
    currency: text('currency').notNull().default(''),
    actions: text('actions').notNull().default(''),
    returnedAt: timestamptz('returned_at').notNull(),
    changedAt: timestamptz('changed_at').notNull(),
    deleted: boolean('deleted').notNull().default(false),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (table) => [
    index('returns_sync_idx').on(table.userId, table.updatedAt, table.id),
    index('returns_user_returned_idx').on(table.userId, table.returnedAt),
    index('returns_shop_posting_idx').on(table.shopId, table.postingNumber),
  ],
);
