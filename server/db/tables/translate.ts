import { integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { timestamptz } from '../columns';

/**
 * Every translation the provider gave (server/areas/translate), so a text translated once is answered from here:
 * keyed by the provider, the language pair and the SHA-256 of the text (hex), so the key stays small whatever the
 * text's length, and a switch from the simulator to Yandex does not serve the simulator's guesses.
 */
export const translations = pgTable(
  'translations',
  {
    provider: text('provider').notNull(),
    source: text('source').notNull(),
    target: text('target').notNull(),
    hash: text('hash').notNull(),
    translation: text('translation').notNull(),
    /** The source text's length: what the provider billed for it. */
    chars: integer('chars').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.provider, table.source, table.target, table.hash] })],
);
