import { bigint, boolean, index, integer, jsonb, numeric, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import type { Localized } from '../../../contract/errors';
import { mpShops, users } from './core';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * The price guard of a shop (contract/promotions.ts PriceGuard): off until the seller turns it on; its floor is an
 * absolute minimum price or a margin over each offer's cost price (cost_prices).
 */
export const priceGuards = pgTable('price_guards', {
  shopId: integer('shop_id')
    .primaryKey()
    .references(() => mpShops.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(false),
  mode: text('mode').notNull().default('absolute'),
  minPrice: numeric('min_price', { precision: 12, scale: 2 }).notNull().default('0'),
  marginPercent: numeric('margin_percent', { precision: 7, scale: 2 }).notNull().default('0'),
  lastRunAt: timestamptz('last_run_at'),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});

/** Actions the seller switched the guard off for (a row per action; none: every action is guarded). */
export const priceGuardOffActions = pgTable(
  'price_guard_off_actions',
  {
    shopId: integer('shop_id')
      .notNull()
      .references(() => mpShops.id, { onDelete: 'cascade' }),
    actionId: bigint('action_id', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.shopId, table.actionId] })],
);

/** What the guard removed from an action (or failed to), and why: the floor, the rule and the price it found. */
export const priceGuardLog = pgTable(
  'price_guard_log',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    shopId: integer('shop_id')
      .notNull()
      .references(() => mpShops.id, { onDelete: 'cascade' }),
    actionId: bigint('action_id', { mode: 'number' }).notNull(),
    actionTitle: text('action_title').notNull(),
    productId: bigint('product_id', { mode: 'number' }).notNull(),
    offerId: text('offer_id').notNull(),
    name: text('name').notNull(),
    addMode: text('add_mode').notNull(),
    actionPrice: numeric('action_price', { precision: 12, scale: 2 }).notNull(),
    floor: numeric('floor', { precision: 12, scale: 2 }).notNull(),
    mode: text('mode').notNull(),
    cost: numeric('cost', { precision: 12, scale: 2 }),
    outcome: text('outcome').notNull(),
    error: jsonb('error').$type<Localized>(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [index('price_guard_log_user_idx').on(table.userId, table.createdAt), index('price_guard_log_product_idx').on(table.shopId, table.actionId, table.productId)],
);
