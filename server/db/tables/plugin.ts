import { index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamptz } from '../columns';
import { users } from './core';

/**
 * The browser plugin's tokens (contract/plugin.ts): long-lived, revocable, each opening only the plugin's calls.
 * Only the SHA-256 of a token is kept (tokens are 32 random bytes, so a fast hash is enough); `hint` is its first
 * characters for the user to tell them apart. A token works while its user's password stamp is the one it was issued
 * under: a password change or reset ends it, as it ends the user's other sessions.
 */
export const pluginTokens = pgTable(
  'plugin_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    label: text('label').notNull(),
    hint: text('hint').notNull(),
    passwordStamp: text('password_stamp').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    expiresAt: timestamptz('expires_at').notNull(),
    lastUsedAt: timestamptz('last_used_at'),
    revokedAt: timestamptz('revoked_at'),
  },
  (table) => [uniqueIndex('plugin_tokens_hash_idx').on(table.tokenHash), index('plugin_tokens_user_idx').on(table.userId, table.id)],
);
export type PluginTokenRow = typeof pluginTokens.$inferSelect;
