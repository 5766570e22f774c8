import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamptz } from '../columns';
import { users } from './core';

/**
 * A person's own preferences (contract/preferences.ts), one row per person once they change one: what amounts are
 * shown in ('original', 'CNY' or 'RUB'). No row: the defaults.
 */
export const userPreferences = pgTable('user_preferences', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  displayCurrency: text('display_currency').notNull().default('original'),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});
