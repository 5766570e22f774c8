import { boolean, index, integer, jsonb, pgTable, primaryKey, real, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { bytea, timestamptz } from '../columns';
import { users } from './core';

/** Watermark templates (contract/watermark.ts), per owner: a picture or a line of text and where it goes. */
export const watermarkTemplates = pgTable(
  'watermark_templates',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    kind: text('kind').notNull(),
    text: text('text').notNull().default(''),
    color: text('color').notNull().default('#ffffff'),
    position: text('position').notNull(),
    opacity: real('opacity').notNull(),
    scale: real('scale').notNull(),
    margin: real('margin').notNull(),
    tile: boolean('tile').notNull().default(false),
    picture: bytea('picture'),
    pictureType: text('picture_type'),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (table) => [index('watermark_templates_user_idx').on(table.userId, table.updatedAt)],
);

/**
 * A watermark (or restore) job over a shop's products. It keeps its own copy of the template (`mark`, `picture`), so
 * deleting the template later changes nothing of a job that runs or ran. `state` is running until every picture is
 * settled and every card sent; a server that stops mid-job takes it up again where it stood (server/areas/edit/watermarkJobs.ts).
 */
export const watermarkJobs = pgTable(
  'watermark_jobs',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    shopId: integer('shop_id').notNull(),
    shopName: text('shop_name').notNull().default(''),
    kind: text('kind').notNull(),
    templateName: text('template_name').notNull().default(''),
    mark: jsonb('mark').notNull(),
    picture: bytea('picture'),
    send: boolean('send').notNull(),
    state: text('state').notNull(),
    /** Where Ozon fetches the made pictures: this server's address as the seller reached it. */
    publicBase: text('public_base').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    finishedAt: timestamptz('finished_at'),
  },
  (table) => [index('watermark_jobs_user_idx').on(table.userId, table.createdAt), index('watermark_jobs_state_idx').on(table.state)],
);

/** One picture of one product in a job: its original (kept, for restoring) and the made picture once done. */
export const watermarkItems = pgTable(
  'watermark_items',
  {
    id: serial('id').primaryKey(),
    jobId: integer('job_id')
      .notNull()
      .references(() => watermarkJobs.id, { onDelete: 'cascade' }),
    productId: text('product_id').notNull(),
    idx: integer('idx').notNull(),
    sourceUrl: text('source_url').notNull(),
    state: text('state').notNull().default('pending'),
    message: jsonb('message'),
    imageId: integer('image_id'),
    outputUrl: text('output_url'),
  },
  (table) => [uniqueIndex('watermark_items_job_product_idx').on(table.jobId, table.productId, table.idx), index('watermark_items_state_idx').on(table.jobId, table.state)],
);

/** One product of a job: its card on Ozon, sent once its pictures are settled, with Ozon's answer. */
export const watermarkProducts = pgTable(
  'watermark_products',
  {
    jobId: integer('job_id')
      .notNull()
      .references(() => watermarkJobs.id, { onDelete: 'cascade' }),
    productId: text('product_id').notNull(),
    position: integer('position').notNull(),
    offerId: text('offer_id').notNull().default(''),
    name: text('name').notNull().default(''),
    send: text('send').notNull().default('pending'),
    message: jsonb('message'),
    ozon: jsonb('ozon').notNull().default([]),
  },
  (table) => [primaryKey({ columns: [table.jobId, table.productId] })],
);
