import { index, integer, numeric, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './core';

/**
 * Cost prices per seller and offer id (contract/costs.ts): what the price guard's margin floor and sales analysis's
 * profit are computed from. Roubles, two decimals.
 */
export const costPrices = pgTable(
  'cost_prices',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    offerId: text('offer_id').notNull(),
    cost: numeric('cost', { precision: 12, scale: 2 }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.offerId] }), index('cost_prices_updated_idx').on(table.userId, table.updatedAt)],
);
