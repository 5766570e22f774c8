import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamptz } from '../columns';
import { sessions } from './core';

/**
 * Tickets for opening the push WebSocket (server/areas/push): a page asks for one with its access token and opens
 * the socket with it, so no token travels in a URL that proxies log. Each works once and only briefly; kept hashed,
 * in the database because the socket may land on another instance than the one that issued it.
 */
export const pushTickets = pgTable(
  'push_tickets',
  {
    ticketHash: text('ticket_hash').primaryKey(),
    sessionId: integer('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (table) => [index('push_tickets_expires_idx').on(table.expiresAt)],
);
