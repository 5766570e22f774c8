import { boolean, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import type { TrackEvent } from '../../../contract/tracking';
import { timestamptz } from '../columns';
import { users } from './core';

/** Prefixes an administrator added or re-routed (contract/tracking.ts; the built-in rows live in code). */
export const trackingPrefixes = pgTable('tracking_prefixes', {
  prefix: text('prefix').primaryKey(),
  carrier: text('carrier').notNull(),
  createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
});

/**
 * What an outside carrier last said about a number, in one language (carriers word their events per language).
 * A number is public, not a seller's: one row serves every user. `found` false: the carrier did not know it then.
 */
export const trackingCache = pgTable(
  'tracking_cache',
  {
    carrier: text('carrier').notNull(),
    number: text('number').notNull(),
    lang: text('lang').notNull(),
    found: boolean('found').notNull(),
    status: text('status'),
    events: jsonb('events').$type<TrackEvent[]>().notNull(),
    fetchedAt: timestamptz('fetched_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.carrier, table.number, table.lang] })],
);
