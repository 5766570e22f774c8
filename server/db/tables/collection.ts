import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, numeric, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamptz } from '../columns';
import type { ZhEnText } from '../../../contract/errors';
import { mpShops, users } from './core';

type Variant = { key: string; name: string; props: Record<string, string>; price: string; image: string | null; stock: number | null; selected: boolean };
type OzonAttribute = { id: number; complexId: number; values: { dictionaryValueId?: number; value: string }[] };
type StoredError = { code: string; attributeId: number | null; attributeName: string | null } & ZhEnText;

/**
 * A product a seller collected from an Ozon or 1688 page, with their edits and Ozon mapping. One row per source
 * product and user: collecting it again refreshes what the page shows and keeps the seller's edits.
 */
export const collectionItems = pgTable(
  'collection_items',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    site: text('site').notNull(),
    sourceId: text('source_id').notNull(),
    url: text('url').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    images: jsonb('images').$type<string[]>().notNull(),
    price: numeric('price').notNull(),
    currency: text('currency').notNull(),
    variants: jsonb('variants').$type<Variant[]>().notNull(),
    attributes: jsonb('attributes').$type<{ name: string; value: string }[]>().notNull(),
    categoryId: bigint('category_id', { mode: 'number' }),
    typeId: bigint('type_id', { mode: 'number' }),
    ozonAttributes: jsonb('ozon_attributes').$type<OzonAttribute[]>().notNull().default(sql`'[]'::jsonb`),
    dimensions: jsonb('dimensions').$type<{ depth: number; width: number; height: number; weight: number }>(),
    /** 'plugin' or 'link'. */
    via: text('via').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (table) => [uniqueIndex('collection_items_source_idx').on(table.userId, table.site, table.sourceId), index('collection_items_user_idx').on(table.userId, table.id)],
);

/**
 * One variant of a collected product uploaded into one shop, and where Ozon's import of it stands: importing →
 * moderating → listed, or failed with Ozon's reasons (both languages kept), as a copy record.
 */
export const collectionUploads = pgTable(
  'collection_uploads',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    itemId: integer('item_id').references(() => collectionItems.id, { onDelete: 'set null' }),
    shopId: integer('shop_id')
      .notNull()
      .references(() => mpShops.id, { onDelete: 'cascade' }),
    site: text('site').notNull(),
    offerId: text('offer_id').notNull(),
    name: text('name').notNull(),
    variant: text('variant').notNull().default(''),
    image: text('image'),
    price: numeric('price').notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    taskId: bigint('task_id', { mode: 'number' }),
    productId: bigint('product_id', { mode: 'number' }),
    errors: jsonb('errors').$type<StoredError[]>().notNull().default(sql`'[]'::jsonb`),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
    checkedAt: timestamptz('checked_at'),
  },
  (table) => [
    index('collection_uploads_user_idx').on(table.userId, table.id),
    index('collection_uploads_item_idx').on(table.itemId),
    index('collection_uploads_unsettled_idx').on(table.status).where(sql`status in ('importing', 'moderating')`),
  ],
);
