import { and, asc, count, desc, eq, gt, gte, inArray, isNull, lte, ne, sql, type SQL } from 'drizzle-orm';
import { PERMISSION_ACTIONS, UNGRANTED_AREAS, type DataScope, type PermissionAction } from '../../../contract/access';
import { permissionOf } from '../../../contract/endpoint';
import { listEndpoints } from '../../../contract/endpoints';
import {
  TEAM_MESSAGES,
  type AddDeptBody,
  type AddMemberBody,
  type AddPositionBody,
  type AddRoleBody,
  type Department,
  type LogEntry,
  type LogQuery,
  type Member,
  type OnlineSession,
  type OrgRole,
  type Position,
  type RolePreview,
  type TeamOverview,
  type UpdateDeptBody,
  type UpdateMemberBody,
  type UpdatePositionBody,
  type UpdateRoleBody,
} from '../../../contract/team';
import { COMMON_ROLE } from '../../../contract/session';
import type { Db } from '../../db/database';
import { mpShops, operationLog, orgDepartments, orgMembers, orgPositions, orgRoles, sessions, users, type OrgRoleRow } from '../../db/schema';
import { ApiError } from '../../http/errors';
import { assignedRoles } from '../session/access';
import { limitInfo, PLAN_LIMITS } from '../session/limits';
import { hashPassword } from '../session/passwords';
import { enforcePassword, replacedPassword, subjectOf } from '../signin/passwordPolicy';
import { newPasswordStamp, type AuthUser } from '../session/service';
import { memberShops } from './scope';

/**
 * The organisation console (contract/team.ts). The owner manages their own organisation, the administrator any; a
 * member holding `team:staff` manages the organisation they work in, granting no more than they hold. Every form is
 * checked field by field before anything is written, and each change is one transaction.
 */
export type TeamDeps = { db: Db; now: () => Date };

/** The areas a role can grant, each with the actions its endpoints use (derived from the endpoint objects). */
export function permissionCatalogue(): { area: string; actions: PermissionAction[] }[] {
  const byArea = new Map<string, Set<PermissionAction>>();
  for (const { endpoint } of listEndpoints()) {
    const needed = permissionOf(endpoint);
    if (!needed) continue;
    const [area, action] = needed.split(':') as [string, PermissionAction];
    if ((UNGRANTED_AREAS as readonly string[]).includes(area)) continue;
    const set = byArea.get(area) ?? new Set<PermissionAction>();
    set.add(action);
    byArea.set(area, set);
  }
  return [...byArea].map(([area, actions]) => ({ area, actions: PERMISSION_ACTIONS.filter((action) => actions.has(action)) }));
}
const KNOWN_PERMISSIONS = new Set(permissionCatalogue().flatMap(({ area, actions }) => actions.map((action) => `${area}:${action}`)));

/** The organisation a call manages, and what its caller may grant in it. */
export type OrgContext = { orgId: number; grantable: string[] | null; shopScope: number[] | null; actor: AuthUser };

export async function orgContext(deps: TeamDeps, user: AuthUser, orgId: number | undefined): Promise<OrgContext> {
  if (user.isAdmin && !user.isMember) {
    const id = orgId ?? user.id;
    const [owner] = await deps.db.select({ id: users.id, isAp: users.isAp }).from(users).where(eq(users.id, id)).limit(1);
    const [asMember] = await deps.db.select({ id: orgMembers.userId }).from(orgMembers).where(eq(orgMembers.userId, id)).limit(1);
    if (!owner || asMember) throw new ApiError(404, TEAM_MESSAGES.notFound, 'orgId');
    return { orgId: id, grantable: null, shopScope: null, actor: user };
  }
  if (orgId !== undefined && orgId !== user.accountId) throw new ApiError(401, 'unauthorized');
  return { orgId: user.accountId, grantable: user.permissions, shopScope: user.shopScope, actor: user };
}

const ms = (value: Date | string | null) => (value === null ? null : new Date(value).getTime());

// ---------------------------------------------------------------- checks

async function orgShops(db: Db, orgId: number): Promise<{ id: number; name: string }[]> {
  return db.select({ id: mpShops.id, name: mpShops.name }).from(mpShops).where(eq(mpShops.userId, orgId)).orderBy(asc(mpShops.id));
}

async function checkShops(db: Db, ctx: OrgContext, ids: readonly number[] | null, field: string): Promise<void> {
  if (!ids || ids.length === 0) return;
  const held = new Set((await orgShops(db, ctx.orgId)).map((shop) => shop.id));
  if (ids.some((id) => !held.has(id))) throw new ApiError(400, TEAM_MESSAGES.shopOutside, field);
  if (ctx.shopScope && ids.some((id) => !ctx.shopScope!.includes(id))) throw new ApiError(400, TEAM_MESSAGES.shopNotHeld, field);
}

function checkPermissions(ctx: OrgContext, permissions: readonly string[]): void {
  if (permissions.some((permission) => !KNOWN_PERMISSIONS.has(permission))) throw new ApiError(400, TEAM_MESSAGES.unknownPermission, 'permissions');
  if (ctx.grantable && permissions.some((permission) => !ctx.grantable!.includes(permission))) throw new ApiError(400, TEAM_MESSAGES.grantExceeds, 'permissions');
}

/** A scoped caller grants only scopes within their own shops. */
function checkScope(ctx: OrgContext, dataScope: DataScope): void {
  if (ctx.shopScope && dataScope !== 'shops') throw new ApiError(400, TEAM_MESSAGES.grantExceeds, 'dataScope');
}

async function roleOf(db: Db, orgId: number, id: number, field: string): Promise<OrgRoleRow> {
  const [row] = await db.select().from(orgRoles).where(and(eq(orgRoles.id, id), eq(orgRoles.orgId, orgId))).limit(1);
  if (!row) throw new ApiError(400, TEAM_MESSAGES.notFound, field);
  return row;
}

async function checkRoleGrant(db: Db, ctx: OrgContext, roleId: number | null | undefined): Promise<void> {
  if (roleId === null || roleId === undefined) return;
  const role = await roleOf(db, ctx.orgId, roleId, 'roleId');
  if (ctx.grantable && role.permissions.some((permission) => !ctx.grantable!.includes(permission))) throw new ApiError(400, TEAM_MESSAGES.grantExceeds, 'roleId');
  if (ctx.shopScope && (role.dataScope !== 'shops' || role.shopIds.some((id) => !ctx.shopScope!.includes(id)))) throw new ApiError(400, TEAM_MESSAGES.grantExceeds, 'roleId');
}

async function checkDept(db: Db, orgId: number, id: number | null | undefined, field = 'deptId'): Promise<void> {
  if (id === null || id === undefined) return;
  const [row] = await db.select({ id: orgDepartments.id }).from(orgDepartments).where(and(eq(orgDepartments.id, id), eq(orgDepartments.orgId, orgId))).limit(1);
  if (!row) throw new ApiError(400, TEAM_MESSAGES.notFound, field);
}

async function checkPosition(db: Db, orgId: number, id: number | null | undefined): Promise<void> {
  if (id === null || id === undefined) return;
  const [row] = await db.select({ id: orgPositions.id }).from(orgPositions).where(and(eq(orgPositions.id, id), eq(orgPositions.orgId, orgId))).limit(1);
  if (!row) throw new ApiError(400, TEAM_MESSAGES.notFound, 'positionId');
}

// ---------------------------------------------------------------- overview

export async function overview(deps: TeamDeps, ctx: OrgContext): Promise<TeamOverview> {
  const [owner] = await deps.db.select().from(users).where(eq(users.id, ctx.orgId)).limit(1);
  if (!owner) throw new ApiError(404, TEAM_MESSAGES.notFound, 'orgId');
  const plan = assignedRoles(owner)[0] ?? COMMON_ROLE;
  const shops = await orgShops(deps.db, ctx.orgId);
  const limits = limitInfo(plan, { members: await memberCount(deps.db, ctx.orgId), stores: shops.length, dailyCopies: 0, collections: 0 });
  const organisations = ctx.grantable === null && ctx.actor.isAdmin && !ctx.actor.isMember
    ? await deps.db
        .select({ id: users.id, name: users.username })
        .from(users)
        .where(sql`not exists (select 1 from org_members m where m.user_id = ${users.id})`)
        .orderBy(asc(users.id))
        .limit(500)
    : [];
  return {
    orgId: ctx.orgId,
    orgName: owner.username,
    shops: ctx.shopScope ? shops.filter((shop) => ctx.shopScope!.includes(shop.id)) : shops,
    catalogue: permissionCatalogue(),
    grantable: ctx.grantable,
    plan,
    members: limits.members,
    stores: limits.stores,
    dailyCopies: limits.dailyCopies,
    collections: limits.collections,
    organisations,
  };
}

// ---------------------------------------------------------------- members

type Paging = { page: number; rows: number };

const memberSelect = {
  member: orgMembers,
  name: users.username,
  role: orgRoles,
  position: orgPositions.name,
  department: orgDepartments.name,
  lastSeenAt: sql<Date | string | null>`(select max(s.last_seen_at) from sessions s where s.user_id = ${orgMembers.userId} and s.ended_at is null)`,
};

async function memberRows(db: Db, where: SQL | undefined, paging?: Paging) {
  const query = db
    .select(memberSelect)
    .from(orgMembers)
    .innerJoin(users, eq(users.id, orgMembers.userId))
    .leftJoin(orgRoles, eq(orgRoles.id, orgMembers.roleId))
    .leftJoin(orgPositions, eq(orgPositions.id, orgMembers.positionId))
    .leftJoin(orgDepartments, eq(orgDepartments.id, orgMembers.deptId))
    .where(where)
    .orderBy(asc(orgMembers.userId));
  const rows = paging ? await query.limit(paging.rows).offset((paging.page - 1) * paging.rows) : await query;
  return Promise.all(
    rows.map(async (row): Promise<Member> => ({
      id: row.member.userId,
      name: row.name,
      nickName: row.member.nickName,
      orgId: row.member.orgId,
      roleId: row.member.roleId,
      role: row.role?.name ?? '',
      positionId: row.member.positionId,
      position: row.position ?? '',
      deptId: row.member.deptId,
      department: row.department ?? '',
      shopIds: row.member.shopIds,
      strategy: await memberShops(db, row.member.orgId, row.member, row.role),
      status: row.member.status === 'disabled' ? 'disabled' : 'enabled',
      createTime: row.member.createdAt.getTime(),
      lastSeenAt: ms(row.lastSeenAt),
    })),
  );
}

async function memberOf(db: Db, orgId: number, id: number): Promise<Member> {
  const [row] = await memberRows(db, and(eq(orgMembers.userId, id), eq(orgMembers.orgId, orgId)));
  if (!row) throw new ApiError(404, TEAM_MESSAGES.notFound, 'id');
  return row;
}

export async function listMembers(deps: TeamDeps, ctx: OrgContext, query: Paging & { keyword?: string | undefined; deptId?: number | undefined; status?: string | undefined }) {
  const conditions: SQL[] = [eq(orgMembers.orgId, ctx.orgId)];
  if (query.keyword) {
    const needle = `%${query.keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(sql`(lower(${users.username}) like ${needle} or lower(${orgMembers.nickName}) like ${needle})`);
  }
  if (query.deptId !== undefined) conditions.push(eq(orgMembers.deptId, query.deptId));
  if (query.status) conditions.push(eq(orgMembers.status, query.status));
  const where = and(...conditions);
  const [total] = await deps.db.select({ n: count() }).from(orgMembers).innerJoin(users, eq(users.id, orgMembers.userId)).where(where);
  return { list: await memberRows(deps.db, where, query), total: Number(total?.n ?? 0) };
}

function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

async function memberCount(db: Db, orgId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(orgMembers).where(eq(orgMembers.orgId, orgId));
  return Number(row?.n ?? 0);
}

/** Refuses a new member when the organisation already has the plan's number (-1: unlimited). */
async function checkMemberRoom(db: Db, orgId: number, limit: number): Promise<void> {
  if (limit >= 0 && (await memberCount(db, orgId)) >= limit) throw new ApiError(400, { key: 'memberLimit', params: { max: String(limit) } }, 'username');
}

export async function addMember(deps: TeamDeps, ctx: OrgContext, body: AddMemberBody & { nickName: string; status: 'enabled' | 'disabled' }): Promise<Member> {
  const { db } = deps;
  const [taken] = await db.select({ id: users.id }).from(users).where(eq(sql`lower(${users.username})`, body.username.toLowerCase())).limit(1);
  if (taken) throw new ApiError(400, 'duplicateUser', 'username');
  await checkDept(db, ctx.orgId, body.deptId);
  await checkPosition(db, ctx.orgId, body.positionId);
  await checkRoleGrant(db, ctx, body.roleId);
  await checkShops(db, ctx, body.shopIds ?? null, 'shopIds');
  if (ctx.shopScope && (body.shopIds ?? null) === null) throw new ApiError(400, TEAM_MESSAGES.shopNotHeld, 'shopIds');
  const [owner] = await db.select().from(users).where(eq(users.id, ctx.orgId)).limit(1);
  const limit = PLAN_LIMITS[(owner && assignedRoles(owner)[0]) ?? COMMON_ROLE].members;
  await checkMemberRoom(db, ctx.orgId, limit);
  await enforcePassword(db, { orgId: ctx.orgId, subject: { username: body.username } }, body.password, 'password');
  const passwordHash = await hashPassword(body.password);
  try {
    const id = await db.transaction(async (tx) => {
      // Two adds at once: the owner's row is locked, so the second counts the first and is refused at the limit.
      await tx.select({ id: users.id }).from(users).where(eq(users.id, ctx.orgId)).for('update');
      await checkMemberRoom(tx, ctx.orgId, limit);
      const [user] = await tx
        .insert(users)
        .values({ username: body.username, passwordHash, passwordStamp: newPasswordStamp(), isAp: true, relativeId: ctx.orgId, passwordChangedAt: deps.now(), email: body.email || null })
        .returning({ id: users.id });
      await tx.insert(orgMembers).values({
        userId: user!.id,
        orgId: ctx.orgId,
        nickName: body.nickName,
        deptId: body.deptId ?? null,
        positionId: body.positionId ?? null,
        roleId: body.roleId ?? null,
        shopIds: body.shopIds ?? null,
        status: body.status,
        createdAt: deps.now(),
      });
      return user!.id;
    });
    return memberOf(db, ctx.orgId, id);
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError(400, 'duplicateUser', 'username');
    throw error;
  }
}

/** Answers the member as it was and as it is, and the sessions that ended (disabled, or a new password). */
export async function updateMember(deps: TeamDeps, ctx: OrgContext, body: UpdateMemberBody): Promise<{ before: Member; after: Member; endedSessionIds: number[] }> {
  const { db } = deps;
  const before = await memberOf(db, ctx.orgId, body.id);
  if (body.id === ctx.actor.id && (body.roleId !== undefined || body.shopIds !== undefined || body.status !== undefined)) throw new ApiError(400, TEAM_MESSAGES.selfChange, 'id');
  await checkDept(db, ctx.orgId, body.deptId);
  await checkPosition(db, ctx.orgId, body.positionId);
  if (body.roleId !== undefined) await checkRoleGrant(db, ctx, body.roleId);
  if (body.shopIds !== undefined) {
    await checkShops(db, ctx, body.shopIds, 'shopIds');
    if (ctx.shopScope && body.shopIds === null) throw new ApiError(400, TEAM_MESSAGES.shopNotHeld, 'shopIds');
  }
  let passwordHash: string | undefined;
  const [memberRow] = body.password === undefined ? [] : await db.select().from(users).where(eq(users.id, body.id)).limit(1);
  if (body.password !== undefined && memberRow) {
    // An owner's (or administrator's) reset of a member's password: the organisation's policy, the member's history.
    await enforcePassword(db, { orgId: ctx.orgId, subject: subjectOf(memberRow), user: memberRow }, body.password, 'password');
    passwordHash = await hashPassword(body.password);
  }
  const ended = await db.transaction(async (tx) => {
    const set: Partial<typeof orgMembers.$inferInsert> = {};
    for (const key of ['nickName', 'deptId', 'positionId', 'roleId', 'shopIds', 'status'] as const) {
      if (body[key] !== undefined) (set as Record<string, unknown>)[key] = body[key];
    }
    if (Object.keys(set).length > 0) await tx.update(orgMembers).set(set).where(and(eq(orgMembers.userId, body.id), eq(orgMembers.orgId, ctx.orgId)));
    if (passwordHash && memberRow) {
      const changed = await replacedPassword(tx, memberRow, deps.now());
      await tx.update(users).set({ passwordHash, passwordStamp: newPasswordStamp(), ...changed }).where(eq(users.id, body.id));
    }
    if (body.status !== 'disabled' && !passwordHash) return [];
    return tx
      .update(sessions)
      .set({ endedAt: deps.now() })
      .where(and(eq(sessions.userId, body.id), isNull(sessions.endedAt)))
      .returning({ id: sessions.id });
  });
  return { before, after: await memberOf(db, ctx.orgId, body.id), endedSessionIds: ended.map((row) => row.id) };
}

export async function deleteMembers(deps: TeamDeps, ctx: OrgContext, ids: readonly number[]): Promise<{ before: Member[]; endedSessionIds: number[] }> {
  const { db } = deps;
  if (ids.includes(ctx.orgId)) throw new ApiError(400, TEAM_MESSAGES.ownerNotMember, 'ids');
  if (ids.includes(ctx.actor.id)) throw new ApiError(400, TEAM_MESSAGES.selfChange, 'ids');
  const before = await memberRows(db, and(eq(orgMembers.orgId, ctx.orgId), inArray(orgMembers.userId, [...ids])));
  if (before.length !== new Set(ids).size) throw new ApiError(404, TEAM_MESSAGES.notFound, 'ids');
  const endedSessionIds = await db.transaction(async (tx) => {
    const ended = await tx.select({ id: sessions.id }).from(sessions).where(and(inArray(sessions.userId, [...ids]), isNull(sessions.endedAt)));
    await tx.delete(users).where(and(inArray(users.id, [...ids]), eq(users.relativeId, ctx.orgId), eq(users.isAp, true)));
    return ended.map((row) => row.id);
  });
  return { before, endedSessionIds };
}

// ---------------------------------------------------------------- roles

async function roleRows(db: Db, where: SQL, paging?: Paging): Promise<OrgRole[]> {
  const query = db
    .select({ role: orgRoles, userNum: sql<number>`(select count(*)::int from org_members m where m.role_id = ${orgRoles.id})` })
    .from(orgRoles)
    .where(where)
    .orderBy(asc(orgRoles.id));
  const rows = paging ? await query.limit(paging.rows).offset((paging.page - 1) * paging.rows) : await query;
  return rows.map(({ role, userNum }) => ({
    id: role.id,
    orgId: role.orgId,
    name: role.name,
    userNum: Number(userNum),
    creator: role.creator,
    note: role.note,
    source: role.source,
    applySubDept: role.applySubDept,
    permissions: role.permissions,
    dataScope: role.dataScope as DataScope,
    shopIds: role.shopIds,
    ownRecords: role.ownRecords,
    createTime: role.createdAt.getTime(),
  }));
}

async function orgRoleOf(db: Db, orgId: number, id: number): Promise<OrgRole> {
  const [row] = await roleRows(db, and(eq(orgRoles.id, id), eq(orgRoles.orgId, orgId))!);
  if (!row) throw new ApiError(404, TEAM_MESSAGES.notFound, 'id');
  return row;
}

export async function listRoles(deps: TeamDeps, ctx: OrgContext, query: Paging & { keyword?: string | undefined }) {
  const conditions: SQL[] = [eq(orgRoles.orgId, ctx.orgId)];
  if (query.keyword) conditions.push(sql`lower(${orgRoles.name}) like ${`%${query.keyword.toLowerCase()}%`}`);
  const where = and(...conditions)!;
  const [total] = await deps.db.select({ n: count() }).from(orgRoles).where(where);
  return { list: await roleRows(deps.db, where, query), total: Number(total?.n ?? 0) };
}

async function checkRoleName(db: Db, orgId: number, name: string, except: number | null): Promise<void> {
  const conditions = [eq(orgRoles.orgId, orgId), eq(sql`lower(${orgRoles.name})`, name.toLowerCase())];
  if (except !== null) conditions.push(ne(orgRoles.id, except));
  const [taken] = await db.select({ id: orgRoles.id }).from(orgRoles).where(and(...conditions)).limit(1);
  if (taken) throw new ApiError(400, TEAM_MESSAGES.roleNameTaken, 'name');
}

type RoleInput = Required<Omit<AddRoleBody, 'orgId'>>;

export async function addRole(deps: TeamDeps, ctx: OrgContext, body: RoleInput): Promise<OrgRole> {
  await checkRoleName(deps.db, ctx.orgId, body.name, null);
  checkPermissions(ctx, body.permissions);
  checkScope(ctx, body.dataScope);
  await checkShops(deps.db, ctx, body.shopIds, 'shopIds');
  try {
    const [row] = await deps.db
      .insert(orgRoles)
      .values({ ...body, orgId: ctx.orgId, creator: ctx.actor.name, source: 'custom', createdAt: deps.now() })
      .returning({ id: orgRoles.id });
    return orgRoleOf(deps.db, ctx.orgId, row!.id);
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError(400, TEAM_MESSAGES.roleNameTaken, 'name');
    throw error;
  }
}

export async function updateRole(deps: TeamDeps, ctx: OrgContext, body: UpdateRoleBody): Promise<{ before: OrgRole; after: OrgRole }> {
  const before = await orgRoleOf(deps.db, ctx.orgId, body.id);
  if (ctx.grantable && before.permissions.some((permission) => !ctx.grantable!.includes(permission))) throw new ApiError(400, TEAM_MESSAGES.grantExceeds, 'id');
  if (body.name !== undefined) await checkRoleName(deps.db, ctx.orgId, body.name, body.id);
  if (body.permissions !== undefined) checkPermissions(ctx, body.permissions);
  checkScope(ctx, body.dataScope ?? before.dataScope);
  if (body.shopIds !== undefined) await checkShops(deps.db, ctx, body.shopIds, 'shopIds');
  const { id, ...fields } = body;
  const set = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  if (Object.keys(set).length > 0) await deps.db.update(orgRoles).set(set).where(and(eq(orgRoles.id, id), eq(orgRoles.orgId, ctx.orgId)));
  return { before, after: await orgRoleOf(deps.db, ctx.orgId, id) };
}

export async function deleteRole(deps: TeamDeps, ctx: OrgContext, id: number, moveTo: number | null | undefined): Promise<{ before: OrgRole; moved: number }> {
  const before = await orgRoleOf(deps.db, ctx.orgId, id);
  if (before.userNum > 0 && moveTo === undefined) throw new ApiError(400, TEAM_MESSAGES.roleInUse, 'moveTo');
  if (moveTo === id) throw new ApiError(400, TEAM_MESSAGES.roleInUse, 'moveTo');
  if (moveTo !== undefined && moveTo !== null) await checkRoleGrant(deps.db, ctx, moveTo);
  const moved = await deps.db.transaction(async (tx) => {
    const rows = await tx.update(orgMembers).set({ roleId: moveTo ?? null }).where(eq(orgMembers.roleId, id)).returning({ id: orgMembers.userId });
    await tx.delete(orgRoles).where(and(eq(orgRoles.id, id), eq(orgRoles.orgId, ctx.orgId)));
    return rows.length;
  });
  return { before, moved };
}

export async function rolePreview(deps: TeamDeps, ctx: OrgContext, id: number): Promise<RolePreview> {
  const role = await roleOf(deps.db, ctx.orgId, id, 'id');
  const shops = await orgShops(deps.db, ctx.orgId);
  let reached: number[] | null;
  if (role.dataScope === 'all') reached = null;
  else if (role.dataScope === 'shops') reached = role.shopIds;
  else {
    // A department scope: the shops of every department the role's members are in (and below, for deptAndBelow).
    const members = await deps.db.select({ deptId: orgMembers.deptId }).from(orgMembers).where(eq(orgMembers.roleId, id));
    const ids = new Set<number>();
    for (const member of members) for (const shop of (await memberShops(deps.db, ctx.orgId, { deptId: member.deptId, shopIds: null }, role)) ?? []) ids.add(shop);
    reached = [...ids];
  }
  const byArea = new Map<string, PermissionAction[]>();
  for (const permission of role.permissions) {
    const [area, action] = permission.split(':') as [string, PermissionAction];
    byArea.set(area, [...(byArea.get(area) ?? []), action]);
  }
  return {
    shops: reached === null ? shops : shops.filter((shop) => reached!.includes(shop.id)),
    allShops: reached === null,
    areas: [...byArea].map(([area, actions]) => ({ area, actions: PERMISSION_ACTIONS.filter((action) => actions.includes(action)) })),
  };
}

// ---------------------------------------------------------------- departments

async function deptRows(db: Db, orgId: number): Promise<Department[]> {
  const rows = await db
    .select({ dept: orgDepartments, members: sql<number>`(select count(*)::int from org_members m where m.dept_id = ${orgDepartments.id})` })
    .from(orgDepartments)
    .where(eq(orgDepartments.orgId, orgId))
    .orderBy(asc(orgDepartments.sort), asc(orgDepartments.id));
  return rows.map(({ dept, members }) => ({
    id: dept.id,
    orgId: dept.orgId,
    parentId: dept.parentId,
    name: dept.name,
    sort: dept.sort,
    leader: dept.leader,
    shopIds: dept.shopIds,
    memberCount: Number(members),
    createTime: dept.createdAt.getTime(),
  }));
}

async function deptOf(db: Db, orgId: number, id: number): Promise<Department> {
  const row = (await deptRows(db, orgId)).find((dept) => dept.id === id);
  if (!row) throw new ApiError(404, TEAM_MESSAGES.notFound, 'id');
  return row;
}

export async function listDepartments(deps: TeamDeps, ctx: OrgContext, query: Paging & { keyword?: string | undefined }) {
  const all = await deptRows(deps.db, ctx.orgId);
  const matched = query.keyword ? all.filter((dept) => dept.name.toLowerCase().includes(query.keyword!.toLowerCase())) : all;
  return { list: matched.slice((query.page - 1) * query.rows, query.page * query.rows), total: matched.length };
}

export async function addDepartment(deps: TeamDeps, ctx: OrgContext, body: Required<Omit<AddDeptBody, 'orgId'>>): Promise<Department> {
  await checkDept(deps.db, ctx.orgId, body.parentId, 'parentId');
  await checkShops(deps.db, ctx, body.shopIds, 'shopIds');
  const [row] = await deps.db.insert(orgDepartments).values({ ...body, orgId: ctx.orgId, createdAt: deps.now() }).returning({ id: orgDepartments.id });
  return deptOf(deps.db, ctx.orgId, row!.id);
}

export async function updateDepartment(deps: TeamDeps, ctx: OrgContext, body: UpdateDeptBody): Promise<{ before: Department; after: Department }> {
  const all = await deptRows(deps.db, ctx.orgId);
  const before = all.find((dept) => dept.id === body.id);
  if (!before) throw new ApiError(404, TEAM_MESSAGES.notFound, 'id');
  if (body.parentId !== undefined && body.parentId !== null) {
    await checkDept(deps.db, ctx.orgId, body.parentId, 'parentId');
    // Not under itself, nor under one of its own sub-departments.
    for (let at: number | null = body.parentId; at !== null; at = all.find((dept) => dept.id === at)?.parentId ?? null) {
      if (at === body.id) throw new ApiError(400, TEAM_MESSAGES.deptLoop, 'parentId');
    }
  }
  if (body.shopIds !== undefined) await checkShops(deps.db, ctx, body.shopIds, 'shopIds');
  const { id, ...fields } = body;
  const set = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  if (Object.keys(set).length > 0) await deps.db.update(orgDepartments).set(set).where(and(eq(orgDepartments.id, id), eq(orgDepartments.orgId, ctx.orgId)));
  return { before, after: await deptOf(deps.db, ctx.orgId, id) };
}

export async function deleteDepartment(deps: TeamDeps, ctx: OrgContext, id: number, moveTo: number | null | undefined): Promise<{ before: Department; moved: number }> {
  const all = await deptRows(deps.db, ctx.orgId);
  const before = all.find((dept) => dept.id === id);
  if (!before) throw new ApiError(404, TEAM_MESSAGES.notFound, 'id');
  if (all.some((dept) => dept.parentId === id)) throw new ApiError(400, TEAM_MESSAGES.deptHasChildren, 'id');
  if (before.memberCount > 0 && moveTo === undefined) throw new ApiError(400, TEAM_MESSAGES.deptHasMembers, 'moveTo');
  if (moveTo === id) throw new ApiError(400, TEAM_MESSAGES.deptHasMembers, 'moveTo');
  await checkDept(deps.db, ctx.orgId, moveTo, 'moveTo');
  const moved = await deps.db.transaction(async (tx) => {
    const rows = await tx.update(orgMembers).set({ deptId: moveTo ?? null }).where(eq(orgMembers.deptId, id)).returning({ id: orgMembers.userId });
    await tx.update(orgPositions).set({ deptId: null }).where(eq(orgPositions.deptId, id));
    await tx.delete(orgDepartments).where(and(eq(orgDepartments.id, id), eq(orgDepartments.orgId, ctx.orgId)));
    return rows.length;
  });
  return { before, moved };
}

// ---------------------------------------------------------------- positions

async function positionRows(db: Db, where: SQL, paging?: Paging): Promise<Position[]> {
  const query = db
    .select({ position: orgPositions, department: orgDepartments.name })
    .from(orgPositions)
    .leftJoin(orgDepartments, eq(orgDepartments.id, orgPositions.deptId))
    .where(where)
    .orderBy(asc(orgPositions.id));
  const rows = paging ? await query.limit(paging.rows).offset((paging.page - 1) * paging.rows) : await query;
  return rows.map(({ position, department }) => ({
    id: position.id,
    orgId: position.orgId,
    position_name: position.name,
    position_type: position.type,
    deptId: position.deptId,
    department: department ?? '',
    director: position.director,
    number: position.number,
    date: position.date,
  }));
}

async function positionOf(db: Db, orgId: number, id: number): Promise<Position> {
  const [row] = await positionRows(db, and(eq(orgPositions.id, id), eq(orgPositions.orgId, orgId))!);
  if (!row) throw new ApiError(404, TEAM_MESSAGES.notFound, 'id');
  return row;
}

export async function listPositions(deps: TeamDeps, ctx: OrgContext, query: Paging & { keyword?: string | undefined }) {
  const conditions: SQL[] = [eq(orgPositions.orgId, ctx.orgId)];
  if (query.keyword) conditions.push(sql`lower(${orgPositions.name}) like ${`%${query.keyword.toLowerCase()}%`}`);
  const where = and(...conditions)!;
  const [total] = await deps.db.select({ n: count() }).from(orgPositions).where(where);
  return { list: await positionRows(deps.db, where, query), total: Number(total?.n ?? 0) };
}

const positionColumns = (body: Partial<Omit<AddPositionBody, 'orgId'>>) => {
  const set: Partial<typeof orgPositions.$inferInsert> = {};
  if (body.position_name !== undefined) set.name = body.position_name;
  if (body.position_type !== undefined) set.type = body.position_type;
  if (body.deptId !== undefined) set.deptId = body.deptId;
  if (body.director !== undefined) set.director = body.director;
  if (body.number !== undefined) set.number = body.number;
  if (body.date !== undefined) set.date = body.date;
  return set;
};

export async function addPosition(deps: TeamDeps, ctx: OrgContext, body: Required<Omit<AddPositionBody, 'orgId'>>): Promise<Position> {
  await checkDept(deps.db, ctx.orgId, body.deptId);
  const [row] = await deps.db
    .insert(orgPositions)
    .values({ name: body.position_name, ...positionColumns(body), orgId: ctx.orgId, createdAt: deps.now() })
    .returning({ id: orgPositions.id });
  return positionOf(deps.db, ctx.orgId, row!.id);
}

export async function updatePosition(deps: TeamDeps, ctx: OrgContext, body: UpdatePositionBody): Promise<{ before: Position; after: Position }> {
  const before = await positionOf(deps.db, ctx.orgId, body.id);
  await checkDept(deps.db, ctx.orgId, body.deptId);
  const set = positionColumns(body);
  if (Object.keys(set).length > 0) await deps.db.update(orgPositions).set(set).where(and(eq(orgPositions.id, body.id), eq(orgPositions.orgId, ctx.orgId)));
  return { before, after: await positionOf(deps.db, ctx.orgId, body.id) };
}

export async function deletePositions(deps: TeamDeps, ctx: OrgContext, ids: readonly number[]): Promise<{ before: Position[] }> {
  const before = await positionRows(deps.db, and(eq(orgPositions.orgId, ctx.orgId), inArray(orgPositions.id, [...ids]))!);
  if (before.length !== new Set(ids).size) throw new ApiError(404, TEAM_MESSAGES.notFound, 'ids');
  await deps.db.delete(orgPositions).where(and(eq(orgPositions.orgId, ctx.orgId), inArray(orgPositions.id, [...ids])));
  return { before };
}

// ---------------------------------------------------------------- operation log

export const LOG_EXPORT_MAX_ROWS = 50_000;

function logWhere(ctx: OrgContext, query: LogQuery): SQL {
  const conditions: SQL[] = [eq(operationLog.orgId, ctx.orgId)];
  if (query.actorId !== undefined) conditions.push(eq(operationLog.actorId, Number(query.actorId)));
  if (query.module) conditions.push(eq(operationLog.module, query.module));
  if (query.action) conditions.push(eq(operationLog.action, query.action));
  if (query.shopId !== undefined) conditions.push(sql`${operationLog.shopIds} @> array[${Number(query.shopId)}]::int[]`);
  if (query.from !== undefined) conditions.push(gte(operationLog.at, new Date(Number(query.from))));
  if (query.to !== undefined) conditions.push(lte(operationLog.at, new Date(Number(query.to))));
  if (query.keyword) conditions.push(sql`(lower(${operationLog.actorName}) like ${`%${query.keyword.toLowerCase()}%`} or lower(${operationLog.record}) like ${`%${query.keyword.toLowerCase()}%`})`);
  // A scoped member sees the entries of their shops, and those about no shop.
  if (ctx.shopScope) conditions.push(sql`(${operationLog.shopIds} = '{}'::int[] or ${operationLog.shopIds} && ${`{${ctx.shopScope.join(',')}}`}::int[])`);
  return and(...conditions)!;
}

const toLogEntry = (row: typeof operationLog.$inferSelect): LogEntry => ({
  id: row.id,
  orgId: row.orgId,
  actorId: row.actorId,
  actorName: row.actorName,
  at: row.at.getTime(),
  ip: row.ip,
  module: row.module,
  action: row.action,
  record: row.record,
  shopIds: row.shopIds,
  status: row.status,
  before: row.before ?? null,
  after: row.after ?? null,
});

export async function listLog(deps: TeamDeps, ctx: OrgContext, query: LogQuery & Paging) {
  const where = logWhere(ctx, query);
  const [total] = await deps.db.select({ n: count() }).from(operationLog).where(where);
  const rows = await deps.db
    .select()
    .from(operationLog)
    .where(where)
    .orderBy(desc(operationLog.at), desc(operationLog.id))
    .limit(query.rows)
    .offset((query.page - 1) * query.rows);
  return { list: rows.map(toLogEntry), total: Number(total?.n ?? 0) };
}

export async function logForExport(deps: TeamDeps, ctx: OrgContext, query: LogQuery): Promise<LogEntry[]> {
  const rows = await deps.db.select().from(operationLog).where(logWhere(ctx, query)).orderBy(desc(operationLog.at), desc(operationLog.id)).limit(LOG_EXPORT_MAX_ROWS);
  return rows.map(toLogEntry);
}

// ---------------------------------------------------------------- online sessions

export async function onlineSessions(deps: TeamDeps, ctx: OrgContext, query: Paging): Promise<{ list: OnlineSession[]; total: number }> {
  const now = deps.now();
  const where = and(
    isNull(sessions.endedAt),
    gt(sessions.refreshExpiresAt, now),
    sql`(${sessions.userId} = ${ctx.orgId} or ${sessions.userId} in (select m.user_id from org_members m where m.org_id = ${ctx.orgId}))`,
  );
  const [total] = await deps.db.select({ n: count() }).from(sessions).where(where);
  const rows = await deps.db
    .select({ session: sessions, name: users.username })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(where)
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.id))
    .limit(query.rows)
    .offset((query.page - 1) * query.rows);
  return {
    list: rows.map(({ session, name }) => ({
      sessionId: session.id,
      userId: session.userId,
      name,
      createdAt: session.createdAt.getTime(),
      lastSeenAt: session.lastSeenAt.getTime(),
      ip: session.ip,
    })),
    total: Number(total?.n ?? 0),
  };
}

export async function endSession(deps: TeamDeps, ctx: OrgContext, sessionId: number): Promise<number> {
  const [row] = await deps.db
    .update(sessions)
    .set({ endedAt: deps.now() })
    .where(
      and(
        eq(sessions.id, sessionId),
        isNull(sessions.endedAt),
        sql`(${sessions.userId} = ${ctx.orgId} or ${sessions.userId} in (select m.user_id from org_members m where m.org_id = ${ctx.orgId}))`,
      ),
    )
    .returning({ id: sessions.id });
  if (!row) throw new ApiError(404, TEAM_MESSAGES.notFound, 'sessionId');
  return 1;
}
