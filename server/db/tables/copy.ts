import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, numeric, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { mpShops, users } from './core';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A seller's pricing templates for copies: source price × rate × markup + shipping + fixed, rounded. */
export const copyPriceTemplates = pgTable(
  'copy_price_templates',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    currency: text('currency').notNull(),
    markup: numeric('markup').notNull(),
    shipping: numeric('shipping').notNull(),
    fixed: numeric('fixed').notNull(),
    rounding: text('rounding').notNull(),
    oldPriceFactor: numeric('old_price_factor'),
    isDefault: boolean('is_default').notNull().default(false),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (table) => [index('copy_price_templates_user_idx').on(table.userId)],
);

/**
 * One copy of one Ozon card into one shop, and where Ozon's import of it stands. `status` moves
 * importing → moderating → listed, or to failed with Ozon's reasons in `errors` (both languages kept).
 */
export const copyRecords = pgTable(
  'copy_records',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    shopId: integer('shop_id')
      .notNull()
      .references(() => mpShops.id, { onDelete: 'cascade' }),
    sku: bigint('sku', { mode: 'number' }).notNull(),
    name: text('name').notNull(),
    image: text('image'),
    offerId: text('offer_id').notNull(),
    price: numeric('price').notNull(),
    oldPrice: numeric('old_price'),
    currency: text('currency').notNull(),
    /** 'sku': Ozon's import-by-SKU; 'card': the card read and imported with the seller's changes. */
    mode: text('mode').notNull(),
    /** The seller's changes for a 'card' copy (name, images), kept for a retry. */
    changes: jsonb('changes').$type<{ name?: string; images?: string[] }>().notNull().default(sql`'{}'::jsonb`),
    status: text('status').notNull(),
    taskId: bigint('task_id', { mode: 'number' }),
    productId: bigint('product_id', { mode: 'number' }),
    errors: jsonb('errors').$type<{ code: string; attributeId: number | null; attributeName: string | null; zh: string; en: string }[]>().notNull().default(sql`'[]'::jsonb`),
    attempts: integer('attempts').notNull().default(1),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
    /** When Ozon was last asked about this copy. */
    checkedAt: timestamptz('checked_at'),
  },
  (table) => [
    index('copy_records_user_idx').on(table.userId, table.id),
    index('copy_records_unsettled_idx').on(table.status).where(sql`status in ('importing', 'moderating')`),
  ],
);
