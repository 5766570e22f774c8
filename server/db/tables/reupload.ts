import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { mpShops, users } from './core';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Delist and re-upload (/product/oz-reupload-product): one row per product of a re-upload batch and the step it has
 * reached (server/areas/products/reupload.ts). The old card's full content (`card`) is stored before anything on
 * Ozon changes, so a batch interrupted at any step resumes from its rows without losing or doubling a card.
 */
export const reuploadItems = pgTable(
  'reupload_items',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    shopId: integer('shop_id')
      .notNull()
      .references(() => mpShops.id, { onDelete: 'cascade' }),
    /** Chosen by the browser: a batch sent again after a crash or a reload resumes its rows. */
    batchId: text('batch_id').notNull(),
    /** The old card's row id in `products` (`<shopId>:<productId>`). */
    rowId: text('row_id').notNull(),
    oldProductId: text('old_product_id').notNull(),
    oldOfferId: text('old_offer_id').notNull(),
    newOfferId: text('new_offer_id').notNull(),
    newProductId: text('new_product_id'),
    name: text('name').notNull(),
    image: text('image').notNull().default(''),
    /** reading → archiving → deleting → importing → moderating → restoring → done, or failed (see `failedStep`). */
    step: text('step').notNull(),
    /** The step a failed item stopped at: a retry resumes there. */
    failedStep: text('failed_step'),
    /** What became of the old card: kept (not yet touched), archived, or deleted (Ozon deletes only cards without an SKU). */
    oldCard: text('old_card').notNull().default('kept'),
    /** The old card as read from Ozon (the import item, prices and stocks), stored before it is archived. */
    card: jsonb('card'),
    taskId: bigint('task_id', { mode: 'number' }),
    /** Ozon's reasons (both languages kept), or the last transient failure while the step is retried. */
    errors: jsonb('errors').$type<{ code: string; attribute: string; zh: string; en: string }[]>().notNull().default(sql`'[]'::jsonb`),
    /** Consecutive transient failures at the current step. */
    attempts: integer('attempts').notNull().default(0),
    /** An instance working on the row holds it until then, so two never send the same step. */
    leaseUntil: timestamptz('lease_until'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('reupload_items_batch_row_idx').on(table.userId, table.batchId, table.rowId),
    index('reupload_items_user_idx').on(table.userId, table.id),
    index('reupload_items_unsettled_idx').on(table.userId).where(sql`step not in ('done', 'failed')`),
  ],
);
