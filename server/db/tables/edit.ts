import { index, uniqueIndex, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { bytea } from '../columns';
import { users } from './core';

/** The poster designer's designs (contract/edit.ts): fabric.js canvas JSON per owner. */
export const editDesigns = pgTable(
  'edit_designs',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    json: text('json').notNull(),
    thumbnail: text('thumbnail').notNull().default(''),
    /** The person who made it (users.id: the owner or a member), for a role that keeps a member to their own; null: made before it was kept. */
    createdBy: integer('created_by'),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [index('edit_designs_user_idx').on(table.userId, table.updatedAt)],
);

/**
 * Edited images a seller stored (/edit/upload) to put on a product. The bytes live in the database so every
 * instance behind a load balancer serves them.
 */
export const editImages = pgTable(
  'edit_images',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    contentType: text('content_type').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    size: integer('size').notNull(),
    bytes: bytea('bytes').notNull(),
    /** 'upload' (the seller stored it), 'watermark' (a watermark job made it) or 'product' (uploaded for products' cards by the product list's image action); only 'upload' is in the seller's image list. */
    origin: text('origin').notNull().default('upload'),
    /** The unguessable name of its public address (/api/edit/picture/:token), given once it goes to Ozon. */
    publicToken: text('public_token'),
    /** A watermark job's picture: the original it was made from (a later job starts from this, never from its own output). */
    sourceUrl: text('source_url'),
    /** The person who uploaded it (users.id: the owner or a member), for a role that keeps a member to their own; null: uploaded before it was kept. */
    createdBy: integer('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [index('edit_images_user_idx').on(table.userId, table.createdAt), uniqueIndex('edit_images_token_idx').on(table.publicToken)],
);
