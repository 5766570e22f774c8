import { date, index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { timestamptz } from '../columns';
import { users } from './core';

/**
 * Russian Post's postcode database (PIndx), one row per office, replaced whole by each import
 * (server/areas/postcodes/importer.ts). `search` is the lower-cased region, area, city, settlement and name: what the
 * text search matches words against.
 */
export const postcodes = pgTable(
  'postcodes',
  {
    index: text('index').primaryKey(),
    name: text('name').notNull(),
    type: text('type').notNull(),
    parent: text('parent').notNull(),
    region: text('region').notNull(),
    autonomous: text('autonomous').notNull(),
    area: text('area').notNull(),
    city: text('city').notNull(),
    settlement: text('settlement').notNull(),
    changed: date('changed'),
    previousIndex: text('previous_index').notNull(),
    search: text('search').notNull(),
  },
  (table) => [index('postcodes_previous_idx').on(table.previousIndex)],
);

/** Each completed import: what was loaded, when and by whom (null: the command line). */
export const postcodeImports = pgTable('postcode_imports', {
  id: serial('id').primaryKey(),
  file: text('file').notNull(),
  rows: integer('rows').notNull(),
  newestChange: date('newest_change'),
  importedBy: integer('imported_by').references(() => users.id, { onDelete: 'set null' }),
  importedAt: timestamptz('imported_at').notNull().defaultNow(),
});
