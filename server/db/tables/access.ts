import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamptz } from '../columns';
import { users } from './core';

/**
 * Access policies, the access log, and the API clients with their tokens (server/areas/access, contract/access-policy.ts).
 * A policy's conditions live in `rule` (contract/accessPolicy.ts `policyRuleSchema`), read and compiled per organisation.
 */
export const accessPolicies = pgTable(
  'access_policies',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    founder: text('founder').notNull().default(''),
    /** allow, allowLog, deny, denyLog (contract/accessPolicy.ts STRATEGIES). */
    strategy: text('strategy').notNull(),
    /** 1 (highest) to 4. */
    priority: integer('priority').notNull().default(4),
    /** 1 in force, 0 off. */
    status: integer('status').notNull().default(1),
    /** Decides nothing; logs what it would have denied. */
    dryRun: boolean('dry_run').notNull().default(false),
    rule: jsonb('rule').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (table) => [index('access_policies_org_idx').on(table.orgId), uniqueIndex('access_policies_name_idx').on(table.orgId, table.name)],
);

export const accessLog = pgTable(
  'access_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orgId: integer('org_id').notNull(),
    at: timestamptz('at').notNull(),
    operatorId: integer('operator_id'),
    operator: text('operator').notNull(),
    ip: text('ip').notNull(),
    /** The endpoint's area. */
    area: text('area').notNull(),
    /** `METHOD /path` of the endpoint (or `WS /ws`). */
    call: text('call').notNull(),
    /** allow, deny, stepUp, wouldDeny (a dry-run policy). */
    decision: text('decision').notNull(),
    policyId: integer('policy_id'),
    policyName: text('policy_name').notNull().default(''),
    strategy: text('strategy').notNull().default(''),
  },
  (table) => [index('access_log_org_at_idx').on(table.orgId, table.at), index('access_log_at_idx').on(table.at)],
);

/** An API client an owner creates for scripts and ERP links (the spec's licensable system). */
export const apiClients = pgTable(
  'api_clients',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type').notNull().default('script'),
    sourceType: text('source_type').notNull().default('internal'),
    deptId: integer('dept_id'),
    /** The addresses its tokens may call from (single, wildcard, CIDR); empty: any. */
    allowedAddresses: text('allowed_addresses').array().notNull().default(sql`'{}'::text[]`),
    status: integer('status').notNull().default(1),
    creator: text('creator').notNull().default(''),
    note: text('note').notNull().default(''),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [index('api_clients_org_idx').on(table.orgId)],
);

export const apiTokens = pgTable(
  'api_tokens',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => apiClients.id, { onDelete: 'cascade' }),
    orgId: integer('org_id').notNull(),
    name: text('name').notNull(),
    /** sha-256 of the token; the token itself is shown once. */
    tokenHash: text('token_hash').notNull(),
    /** The first characters, to tell tokens apart in the list. */
    prefix: text('prefix').notNull(),
    roleId: integer('role_id').notNull(),
    /** Narrows the role's shops; null: the role's scope as it is. */
    shopIds: integer('shop_ids').array(),
    expiresAt: timestamptz('expires_at').notNull(),
    revokedAt: timestamptz('revoked_at'),
    lastUsedAt: timestamptz('last_used_at'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [uniqueIndex('api_tokens_hash_idx').on(table.tokenHash), index('api_tokens_client_idx').on(table.clientId)],
);

export type AccessPolicyRow = typeof accessPolicies.$inferSelect;
export type ApiClientRow = typeof apiClients.$inferSelect;
export type ApiTokenRow = typeof apiTokens.$inferSelect;
