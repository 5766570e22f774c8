import { sql } from 'drizzle-orm';
import { bigserial, boolean, date, index, integer, jsonb, pgTable, serial, text, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { timestamptz } from '../columns';
import { users } from './core';

/**
 * A seller's organisation (server/areas/team): the owner is the seller's own account (`org_id` is its users.id); a
 * member is a users row with is_ap = true and relative_id = the owner, plus its org_members row.
 */
export const orgDepartments = pgTable(
  'org_departments',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    parentId: integer('parent_id').references((): AnyPgColumn => orgDepartments.id),
    name: text('name').notNull(),
    sort: integer('sort').notNull().default(0),
    leader: text('leader').notNull().default(''),
    /** The department's shops: what a role scoped to "the member's department" sees. */
    shopIds: integer('shop_ids').array().notNull().default(sql`'{}'::int[]`),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [index('org_departments_org_idx').on(table.orgId, table.parentId)],
);

export const orgPositions = pgTable(
  'org_positions',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type').notNull().default(''),
    deptId: integer('dept_id').references(() => orgDepartments.id, { onDelete: 'set null' }),
    director: text('director').notNull().default(''),
    number: integer('number').notNull().default(1),
    date: date('date', { mode: 'string' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [index('org_positions_org_idx').on(table.orgId)],
);

export const orgRoles = pgTable(
  'org_roles',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    note: text('note').notNull().default(''),
    source: text('source').notNull().default('custom'),
    creator: text('creator').notNull().default(''),
    applySubDept: boolean('apply_sub_dept').notNull().default(false),
    /** Granted `area:action` permissions (contract/access.ts). */
    permissions: text('permissions').array().notNull().default(sql`'{}'::text[]`),
    /** contract/access.ts DATA_SCOPES. */
    dataScope: text('data_scope').notNull().default('all'),
    shopIds: integer('shop_ids').array().notNull().default(sql`'{}'::int[]`),
    /** Entered orders, designs and uploads: only the member's own. */
    ownRecords: boolean('own_records').notNull().default(false),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [uniqueIndex('org_roles_org_name_idx').on(table.orgId, sql`lower(${table.name})`)],
);

export const orgMembers = pgTable(
  'org_members',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    orgId: integer('org_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    nickName: text('nick_name').notNull().default(''),
    deptId: integer('dept_id').references(() => orgDepartments.id),
    positionId: integer('position_id').references(() => orgPositions.id, { onDelete: 'set null' }),
    roleId: integer('role_id').references(() => orgRoles.id),
    /** The member's own shops, narrowing the role's scope; null: the role's scope as it is. */
    shopIds: integer('shop_ids').array(),
    /** 'enabled' | 'disabled'. */
    status: text('status').notNull().default('enabled'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [index('org_members_org_idx').on(table.orgId), index('org_members_role_idx').on(table.roleId), index('org_members_dept_idx').on(table.deptId)],
);

/** Every write of an organisation: who, when, from where, what, and the fields before and after when known. */
export const operationLog = pgTable(
  'operation_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orgId: integer('org_id').notNull(),
    actorId: integer('actor_id').notNull(),
    actorName: text('actor_name').notNull(),
    at: timestamptz('at').notNull().defaultNow(),
    ip: text('ip').notNull().default(''),
    module: text('module').notNull(),
    action: text('action').notNull(),
    /** The call (`POST /api/shipOrder`) and the record it names, if any. */
    record: text('record').notNull().default(''),
    shopIds: integer('shop_ids').array().notNull().default(sql`'{}'::int[]`),
    status: integer('status').notNull().default(200),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (table) => [
    index('operation_log_org_at_idx').on(table.orgId, table.at),
    index('operation_log_actor_idx').on(table.orgId, table.actorId, table.at),
    index('operation_log_module_idx').on(table.orgId, table.module, table.action, table.at),
    index('operation_log_shops_idx').using('gin', table.shopIds),
    index('operation_log_at_idx').on(table.at),
  ],
);

export type OrgMemberRow = typeof orgMembers.$inferSelect;
export type OrgRoleRow = typeof orgRoles.$inferSelect;
export type OrgDepartmentRow = typeof orgDepartments.$inferSelect;
export type OrgPositionRow = typeof orgPositions.$inferSelect;
