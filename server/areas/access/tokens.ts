import { and, count, eq, ilike, inArray, isNull } from 'drizzle-orm';
import { inRanges, parseAddress, parseAddressPattern, type AddressRange } from '../../../contract/accessPolicy';
import {
  API_CLIENT_MESSAGES,
  API_TOKEN_PREFIX,
  type ApiClient,
  type ApiClientListQuery,
  type ApiToken,
  type IssuedToken,
  type IssueTokenBody,
  type SaveApiClientBody,
} from '../../../contract/apiClients';
import { TEAM_MESSAGES } from '../../../contract/team';
import type { Db } from '../../db/database';
import { apiClients, apiTokens, mpShops, orgDepartments, orgRoles, users, type ApiClientRow, type ApiTokenRow } from '../../db/schema';
import { ApiError } from '../../http/errors';
import type { ServiceDeps } from '../session/deps';
import { hashToken, newToken } from '../session/passwords';
import { toAuthUser, type AuthUser } from '../session/service';
import { memberShops } from '../team/scope';
import type { OrgContext } from '../team/service';

/** lastUsedAt is a hint in the list, not a log: written at most once a minute per token. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The caller behind an API token: the organisation's owner account as seen through the token's role (its permissions,
 * its data scope narrowed by the token's shops, the client's department), so every check a member meets applies:
 * the role's calls only, its shops only, the access policies (by role and department). Read on every call: a revoked
 * token, a switched-off client or a changed role apply to the next call.
 */
export async function authenticateApiToken(deps: ServiceDeps, token: string, ip: string): Promise<AuthUser> {
  const now = deps.now();
  const [found] = await deps.db
    .select({ token: apiTokens, client: apiClients, owner: users, role: orgRoles })
    .from(apiTokens)
    .innerJoin(apiClients, eq(apiClients.id, apiTokens.clientId))
    .innerJoin(users, eq(users.id, apiClients.orgId))
    .innerJoin(orgRoles, and(eq(orgRoles.id, apiTokens.roleId), eq(orgRoles.orgId, apiClients.orgId)))
    .where(and(eq(apiTokens.tokenHash, hashToken(token)), isNull(apiTokens.revokedAt)))
    .limit(1);
  if (!found || found.token.expiresAt.getTime() <= now.getTime()) throw new ApiError(401, API_CLIENT_MESSAGES.tokenUnknown);
  if (found.client.status !== 1) throw new ApiError(401, API_CLIENT_MESSAGES.clientOff);
  const allowed = found.client.allowedAddresses.map(parseAddressPattern).filter((range): range is AddressRange => range !== null);
  if (allowed.length > 0 && !inRanges(parseAddress(ip), allowed)) throw new ApiError(401, API_CLIENT_MESSAGES.tokenAddress);
  if (!found.token.lastUsedAt || now.getTime() - found.token.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await deps.db.update(apiTokens).set({ lastUsedAt: now }).where(eq(apiTokens.id, found.token.id));
  }
  const { owner, role, client } = found;
  const base = await toAuthUser(deps, owner, 0, now);
  const shopScope = await memberShops(deps.db, owner.id, { deptId: client.deptId, shopIds: found.token.shopIds }, role);
  return {
    ...base,
    isMember: true,
    isAdmin: false,
    permissions: [...role.permissions],
    shopScope,
    ownRecords: role.ownRecords,
    name: `api:${found.token.name}`,
    member: { deptId: client.deptId, positionId: null, roleId: role.id },
    apiToken: { id: found.token.id, name: found.token.name },
  };
}

// ---------------------------------------------------------------- the console

async function deptNames(db: Db, orgId: number): Promise<Map<number, string>> {
  const rows = await db.select({ id: orgDepartments.id, name: orgDepartments.name }).from(orgDepartments).where(eq(orgDepartments.orgId, orgId));
  return new Map(rows.map((row) => [row.id, row.name]));
}

function toClient(row: ApiClientRow, depts: Map<number, string>, tokens: number): ApiClient {
  return {
    id: row.id,
    orgId: row.orgId,
    name: row.name,
    type: row.type as ApiClient['type'],
    sourceType: row.sourceType as ApiClient['sourceType'],
    deptId: row.deptId,
    deptName: row.deptId === null ? '' : (depts.get(row.deptId) ?? ''),
    mainConfig: row.allowedAddresses,
    status: row.status,
    creator: row.creator,
    note: row.note,
    tokens,
    createTime: row.createdAt.getTime(),
  };
}

async function liveTokenCounts(db: Db, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ clientId: apiTokens.clientId, n: count() }).from(apiTokens).where(and(inArray(apiTokens.clientId, ids), isNull(apiTokens.revokedAt))).groupBy(apiTokens.clientId);
  return new Map(rows.map((row) => [row.clientId, Number(row.n)]));
}

export async function listClients(db: Db, ctx: OrgContext, query: ApiClientListQuery & { page: number; rows: number }, _now: Date): Promise<{ list: ApiClient[]; total: number }> {
  const conditions = [eq(apiClients.orgId, ctx.orgId)];
  if (query.name) conditions.push(ilike(apiClients.name, `%${query.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
  if (query.source_type) conditions.push(eq(apiClients.sourceType, query.source_type));
  if (query.status !== undefined) conditions.push(eq(apiClients.status, Number(query.status)));
  const depts = await deptNames(db, ctx.orgId);
  let rows = await db.select().from(apiClients).where(and(...conditions)).orderBy(apiClients.id);
  if (query.deptName) rows = rows.filter((row) => row.deptId !== null && (depts.get(row.deptId) ?? '').includes(query.deptName!));
  const page = rows.slice((query.page - 1) * query.rows, query.page * query.rows);
  const counts = await liveTokenCounts(db, page.map((row) => row.id));
  return { list: page.map((row) => toClient(row, depts, counts.get(row.id) ?? 0)), total: rows.length };
}

async function clientRow(db: Db, ctx: OrgContext, id: number): Promise<ApiClientRow> {
  const [row] = await db.select().from(apiClients).where(and(eq(apiClients.id, id), eq(apiClients.orgId, ctx.orgId))).limit(1);
  if (!row) throw new ApiError(404, API_CLIENT_MESSAGES.notFound, 'id');
  return row;
}

export async function findClient(db: Db, ctx: OrgContext, id: number, _now: Date): Promise<ApiClient> {
  const row = await clientRow(db, ctx, id);
  return toClient(row, await deptNames(db, ctx.orgId), (await liveTokenCounts(db, [row.id])).get(row.id) ?? 0);
}

export async function saveClient(db: Db, ctx: OrgContext, body: SaveApiClientBody, now: Date): Promise<{ before: ApiClient | null; after: ApiClient }> {
  const depts = await deptNames(db, ctx.orgId);
  if (body.deptId != null && !depts.has(body.deptId)) throw new ApiError(400, TEAM_MESSAGES.notFound, 'deptId');
  const [clash] = await db.select({ id: apiClients.id }).from(apiClients).where(and(eq(apiClients.orgId, ctx.orgId), eq(apiClients.name, body.name))).limit(1);
  if (clash && clash.id !== body.id) throw new ApiError(400, API_CLIENT_MESSAGES.nameTaken, 'name');
  const values = {
    name: body.name,
    type: body.type ?? 'script',
    sourceType: body.sourceType ?? 'internal',
    deptId: body.deptId ?? null,
    allowedAddresses: body.mainConfig ?? [],
    status: body.status ?? 1,
    note: body.note ?? '',
  };
  let before: ApiClient | null = null;
  let row: ApiClientRow | undefined;
  if (body.id !== undefined) {
    before = await findClient(db, ctx, body.id, now);
    [row] = await db.update(apiClients).set(values).where(eq(apiClients.id, body.id)).returning();
  } else {
    [row] = await db.insert(apiClients).values({ ...values, orgId: ctx.orgId, creator: ctx.actor.name, createdAt: now }).returning();
  }
  return { before, after: toClient(row!, depts, (await liveTokenCounts(db, [row!.id])).get(row!.id) ?? 0) };
}

export async function deleteClient(db: Db, ctx: OrgContext, id: number): Promise<{ count: number }> {
  await clientRow(db, ctx, id);
  const gone = await db.delete(apiClients).where(eq(apiClients.id, id)).returning({ id: apiClients.id });
  return { count: gone.length };
}

async function roleNames(db: Db, orgId: number): Promise<Map<number, string>> {
  const rows = await db.select({ id: orgRoles.id, name: orgRoles.name }).from(orgRoles).where(eq(orgRoles.orgId, orgId));
  return new Map(rows.map((row) => [row.id, row.name]));
}

function toToken(row: ApiTokenRow, roles: Map<number, string>): ApiToken {
  return {
    id: row.id,
    clientId: row.clientId,
    name: row.name,
    prefix: row.prefix,
    roleId: row.roleId,
    role: roles.get(row.roleId) ?? `#${row.roleId}`,
    shopIds: row.shopIds,
    expiresAt: row.expiresAt.getTime(),
    revokedAt: row.revokedAt?.getTime() ?? null,
    lastUsedAt: row.lastUsedAt?.getTime() ?? null,
    createTime: row.createdAt.getTime(),
  };
}

export async function listTokens(db: Db, ctx: OrgContext, clientId: number): Promise<ApiToken[]> {
  await clientRow(db, ctx, clientId);
  const rows = await db.select().from(apiTokens).where(eq(apiTokens.clientId, clientId)).orderBy(apiTokens.id);
  const roles = await roleNames(db, ctx.orgId);
  return rows.map((row) => toToken(row, roles));
}

/** A new token: a role of the organisation the caller may grant, shops of the organisation (and of the caller's scope). */
export async function issueToken(db: Db, ctx: OrgContext, body: IssueTokenBody, now: Date): Promise<IssuedToken> {
  const client = await clientRow(db, ctx, body.clientId);
  const [role] = await db.select().from(orgRoles).where(and(eq(orgRoles.id, body.roleId), eq(orgRoles.orgId, ctx.orgId))).limit(1);
  if (!role) throw new ApiError(400, TEAM_MESSAGES.notFound, 'roleId');
  if (ctx.grantable && role.permissions.some((permission) => !ctx.grantable!.includes(permission))) throw new ApiError(400, TEAM_MESSAGES.grantExceeds, 'roleId');
  const shopIds = body.shopIds ?? null;
  if (shopIds && shopIds.length > 0) {
    const held = new Set((await db.select({ id: mpShops.id }).from(mpShops).where(eq(mpShops.userId, ctx.orgId))).map((shop) => shop.id));
    if (shopIds.some((id) => !held.has(id))) throw new ApiError(400, TEAM_MESSAGES.shopOutside, 'shopIds');
    if (ctx.shopScope && shopIds.some((id) => !ctx.shopScope!.includes(id))) throw new ApiError(400, TEAM_MESSAGES.shopNotHeld, 'shopIds');
  } else if (ctx.shopScope) throw new ApiError(400, TEAM_MESSAGES.shopNotHeld, 'shopIds');
  const token = `${API_TOKEN_PREFIX}${newToken()}`;
  const [row] = await db
    .insert(apiTokens)
    .values({
      clientId: client.id,
      orgId: ctx.orgId,
      name: body.name,
      tokenHash: hashToken(token),
      prefix: token.slice(0, API_TOKEN_PREFIX.length + 6),
      roleId: role.id,
      shopIds,
      expiresAt: new Date(now.getTime() + (body.days ?? 90) * 86_400_000),
      createdAt: now,
    })
    .returning();
  return { ...toToken(row!, new Map([[role.id, role.name]])), token };
}

export async function revokeToken(db: Db, ctx: OrgContext, id: number, now: Date): Promise<ApiToken> {
  const [row] = await db
    .update(apiTokens)
    .set({ revokedAt: now })
    .where(and(eq(apiTokens.id, id), eq(apiTokens.orgId, ctx.orgId)))
    .returning();
  if (!row) throw new ApiError(404, API_CLIENT_MESSAGES.notFound, 'id');
  return toToken(row, await roleNames(db, ctx.orgId));
}
