import { and, count, desc, eq, gte, ilike, inArray, lte, or, type SQL } from 'drizzle-orm';
import { hasPermission } from '../../../contract/access';
import {
  ACCESS_MESSAGES,
  areaResource,
  callResource,
  endpointKey,
  PUSH_RESOURCE,
  type AccessLogEntry,
  type AccessLogQuery,
  type Decision,
  type Explanation,
  type ExplainQuery,
  type Policy,
  type PolicyListQuery,
  type PolicyRule,
  type SavePolicyBody,
  type Strategy,
  policyRuleSchema,
} from '../../../contract/accessPolicy';
import { AREA_ROLES } from '../../../contract/access';
import { permissionOf } from '../../../contract/endpoint';
import { listEndpoints } from '../../../contract/endpoints';
import type { Db } from '../../db/database';
import { accessLog, accessPolicies, orgDepartments, orgMembers, orgPositions, orgRoles, users, type AccessPolicyRow } from '../../db/schema';
import { ApiError } from '../../http/errors';
import { TEAM_MESSAGES } from '../../../contract/team';
import type { OrgContext } from '../team/service';
import { evaluate, type Trace } from './evaluate';
import { loadPolicies } from './plugin';

export type AccessDeps = { db: Db; now: () => Date; invalidate: (orgId: number) => void };
type Paging = { page: number; rows: number };

/** Every resource a policy may name: the areas, each endpoint by `METHOD /path`, and the push socket. */
export function knownResources(): { areas: string[]; calls: { key: string; area: string; summary: string }[] } {
  const calls = listEndpoints()
    .filter(({ endpoint }) => endpoint.access !== 'public')
    .map(({ endpoint }) => ({ key: endpointKey(endpoint), area: endpoint.access, summary: endpoint.summary }));
  calls.push({ key: PUSH_RESOURCE, area: 'open', summary: 'The push WebSocket' });
  return { areas: Object.keys(AREA_ROLES), calls };
}
const KNOWN = (() => {
  const { areas, calls } = knownResources();
  return new Set([...areas.map(areaResource), ...calls.map((call) => callResource(call.key))]);
})();
const CALL_AREA = new Map(knownResources().calls.map((call) => [call.key, call.area]));

// ---------------------------------------------------------------- names

type Names = { depts: Map<number, string>; positions: Map<number, string>; members: Map<number, string>; roles: Map<number, string> };

async function orgNames(db: Db, orgId: number): Promise<Names> {
  const [depts, positions, members, roles] = await Promise.all([
    db.select({ id: orgDepartments.id, name: orgDepartments.name }).from(orgDepartments).where(eq(orgDepartments.orgId, orgId)),
    db.select({ id: orgPositions.id, name: orgPositions.name }).from(orgPositions).where(eq(orgPositions.orgId, orgId)),
    db.select({ id: orgMembers.userId, name: users.username }).from(orgMembers).innerJoin(users, eq(users.id, orgMembers.userId)).where(eq(orgMembers.orgId, orgId)),
    db.select({ id: orgRoles.id, name: orgRoles.name }).from(orgRoles).where(eq(orgRoles.orgId, orgId)),
  ]);
  const map = (rows: { id: number; name: string }[]) => new Map(rows.map((row) => [row.id, row.name]));
  return { depts: map(depts), positions: map(positions), members: map(members), roles: map(roles) };
}

function toPolicy(row: AccessPolicyRow, names: Names): Policy {
  const rule = policyRuleSchema.parse(row.rule);
  const list = (ids: number[], map: Map<number, string>) => ids.map((id) => map.get(id) ?? `#${id}`).join(', ');
  return {
    id: row.id,
    orgId: row.orgId,
    name: row.name,
    founder: row.founder,
    strategy: row.strategy as Strategy,
    priority: row.priority,
    status: row.status,
    dryRun: row.dryRun,
    rule,
    dept: list(rule.deptIds, names.depts),
    userGroup: list(rule.positionIds, names.positions),
    user: list(rule.memberIds, names.members),
    role: list(rule.roleIds, names.roles),
    accessResources: rule.resources,
    enableTimePeriod: rule.time !== null,
    createTime: row.createdAt.getTime(),
    updateTime: row.updatedAt.getTime(),
  };
}

// ---------------------------------------------------------------- policies

function matchesFilters(policy: Policy, query: PolicyListQuery): boolean {
  const { rule } = policy;
  if (query.keyword && !policy.name.toLowerCase().includes(query.keyword.toLowerCase())) return false;
  if (query.dept !== undefined && !rule.deptIds.includes(Number(query.dept))) return false;
  if (query.userGroup !== undefined && !rule.positionIds.includes(Number(query.userGroup))) return false;
  if (query.user !== undefined && !rule.memberIds.includes(Number(query.user))) return false;
  if (query.accessResources) {
    const wanted = query.accessResources;
    const hit = rule.resources.some((resource) => resource === wanted || resource === areaResource(wanted) || (resource.startsWith('call:') && CALL_AREA.get(resource.slice(5)) === wanted));
    if (!hit) return false;
  }
  if (query.enableTimePeriod !== undefined && (rule.time !== null) !== (query.enableTimePeriod === 'true')) return false;
  if (query.priority !== undefined && policy.priority !== Number(query.priority)) return false;
  if (query.status !== undefined && policy.status !== Number(query.status)) return false;
  if (query.multiFactor !== undefined && (rule.multiFactor !== null) !== (query.multiFactor === 'true')) return false;
  if (query.strategy !== undefined && policy.strategy !== query.strategy) return false;
  return true;
}

/** The spec's `/access-manager/list`: an organisation's policies are few (hundreds), filtered after one read. */
export async function listPolicies(deps: AccessDeps, ctx: OrgContext, query: PolicyListQuery & Paging): Promise<{ list: Policy[]; total: number }> {
  const [rows, names] = await Promise.all([
    deps.db.select().from(accessPolicies).where(eq(accessPolicies.orgId, ctx.orgId)).orderBy(accessPolicies.priority, accessPolicies.id),
    orgNames(deps.db, ctx.orgId),
  ]);
  const all = rows.map((row) => toPolicy(row, names)).filter((policy) => matchesFilters(policy, query));
  return { list: all.slice((query.page - 1) * query.rows, query.page * query.rows), total: all.length };
}

function checkRule(rule: PolicyRule, names: Names): void {
  const outside = (ids: number[], map: Map<number, string>) => ids.some((id) => !map.has(id));
  if (outside(rule.deptIds, names.depts)) throw new ApiError(400, TEAM_MESSAGES.notFound, 'rule.deptIds');
  if (outside(rule.positionIds, names.positions)) throw new ApiError(400, TEAM_MESSAGES.notFound, 'rule.positionIds');
  if (outside(rule.memberIds, names.members)) throw new ApiError(400, ACCESS_MESSAGES.notMember, 'rule.memberIds');
  if (outside(rule.roleIds, names.roles)) throw new ApiError(400, TEAM_MESSAGES.notFound, 'rule.roleIds');
  if (rule.resources.some((resource) => !KNOWN.has(resource))) throw new ApiError(400, ACCESS_MESSAGES.unknownResource, 'rule.resources');
}

export async function savePolicy(deps: AccessDeps, ctx: OrgContext, body: Omit<SavePolicyBody, 'orgId'> & { rule: PolicyRule }): Promise<{ before: Policy | null; after: Policy }> {
  const names = await orgNames(deps.db, ctx.orgId);
  checkRule(body.rule, names);
  const [clash] = await deps.db
    .select({ id: accessPolicies.id })
    .from(accessPolicies)
    .where(and(eq(accessPolicies.orgId, ctx.orgId), eq(accessPolicies.name, body.name)))
    .limit(1);
  if (clash && clash.id !== body.id) throw new ApiError(400, ACCESS_MESSAGES.nameTaken, 'name');
  const now = deps.now();
  const values = { name: body.name, strategy: body.strategy, priority: body.priority ?? 4, status: body.status ?? 1, dryRun: body.dryRun ?? false, rule: body.rule, updatedAt: now };
  let before: Policy | null = null;
  let row: AccessPolicyRow | undefined;
  if (body.id !== undefined) {
    const [old] = await deps.db.select().from(accessPolicies).where(and(eq(accessPolicies.id, body.id), eq(accessPolicies.orgId, ctx.orgId))).limit(1);
    if (!old) throw new ApiError(404, ACCESS_MESSAGES.notFound, 'id');
    before = toPolicy(old, names);
    [row] = await deps.db.update(accessPolicies).set(values).where(eq(accessPolicies.id, body.id)).returning();
  } else {
    [row] = await deps.db.insert(accessPolicies).values({ ...values, orgId: ctx.orgId, founder: ctx.actor.name, createdAt: now }).returning();
  }
  deps.invalidate(ctx.orgId);
  return { before, after: toPolicy(row!, names) };
}

export async function deletePolicies(deps: AccessDeps, ctx: OrgContext, ids: number[]): Promise<{ count: number }> {
  const gone = await deps.db.delete(accessPolicies).where(and(eq(accessPolicies.orgId, ctx.orgId), inArray(accessPolicies.id, ids))).returning({ id: accessPolicies.id });
  deps.invalidate(ctx.orgId);
  return { count: gone.length };
}

// ---------------------------------------------------------------- the access log

export const ACCESS_LOG_EXPORT_MAX_ROWS = 50_000;

function logWhere(ctx: OrgContext, query: AccessLogQuery): SQL | undefined {
  const conditions: (SQL | undefined)[] = [eq(accessLog.orgId, ctx.orgId)];
  if (query.id !== undefined) conditions.push(eq(accessLog.policyId, Number(query.id)));
  if (query.decision) conditions.push(eq(accessLog.decision, query.decision));
  if (query.operatorId !== undefined) conditions.push(eq(accessLog.operatorId, Number(query.operatorId)));
  if (query.from !== undefined) conditions.push(gte(accessLog.at, new Date(Number(query.from))));
  if (query.to !== undefined) conditions.push(lte(accessLog.at, new Date(Number(query.to))));
  if (query.keyword) {
    const like = `%${query.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(or(ilike(accessLog.operator, like), ilike(accessLog.ip, like), ilike(accessLog.call, like), ilike(accessLog.area, like), ilike(accessLog.policyName, like)));
  }
  return and(...conditions);
}

function toEntry(row: typeof accessLog.$inferSelect): AccessLogEntry {
  return {
    id: row.id,
    operationTime: row.at.getTime(),
    operator: row.operator,
    operatorId: row.operatorId,
    ip: row.ip,
    operationType: `${row.area} · ${row.call}`,
    area: row.area,
    call: row.call,
    decision: row.decision as Decision,
    policyId: row.policyId,
    policyName: row.policyName,
    strategy: row.strategy,
  };
}

export async function listAccessLog(deps: AccessDeps, ctx: OrgContext, query: AccessLogQuery & Paging): Promise<{ list: AccessLogEntry[]; total: number }> {
  const where = logWhere(ctx, query);
  const [total] = await deps.db.select({ n: count() }).from(accessLog).where(where);
  const rows = await deps.db.select().from(accessLog).where(where).orderBy(desc(accessLog.at), desc(accessLog.id)).limit(query.rows).offset((query.page - 1) * query.rows);
  return { list: rows.map(toEntry), total: Number(total?.n ?? 0) };
}

export async function accessLogForExport(deps: AccessDeps, ctx: OrgContext, query: AccessLogQuery): Promise<AccessLogEntry[]> {
  const rows = await deps.db.select().from(accessLog).where(logWhere(ctx, query)).orderBy(desc(accessLog.at), desc(accessLog.id)).limit(ACCESS_LOG_EXPORT_MAX_ROWS);
  return rows.map(toEntry);
}

// ---------------------------------------------------------------- explain and try

/**
 * What the access hook would answer a member's call from an address at a time: the member's role first (as the
 * hook checks it), then `evaluate` over the organisation's compiled policies, the same function the hook runs.
 */
export async function explain(deps: AccessDeps, ctx: OrgContext, query: ExplainQuery): Promise<Explanation> {
  const memberId = Number(query.memberId);
  const [member] = await deps.db
    .select({ member: orgMembers, permissions: orgRoles.permissions })
    .from(orgMembers)
    .leftJoin(orgRoles, eq(orgRoles.id, orgMembers.roleId))
    .where(and(eq(orgMembers.userId, memberId), eq(orgMembers.orgId, ctx.orgId)))
    .limit(1);
  if (!member) throw new ApiError(400, ACCESS_MESSAGES.notMember, 'memberId');
  const area = CALL_AREA.get(query.call);
  if (area === undefined) throw new ApiError(400, ACCESS_MESSAGES.unknownResource, 'call');
  const endpoint = listEndpoints().find((entry) => endpointKey(entry.endpoint) === query.call)?.endpoint;
  const needed = endpoint ? permissionOf(endpoint) : null;
  const roleRefuses = needed === undefined || !hasPermission(member.permissions ?? [], needed ?? null);
  const compiled = await loadPolicies(deps.db, ctx.orgId);
  const at = Number(query.at);
  const trace: Trace = { matched: [], skipped: [] };
  const verdict = evaluate(
    compiled,
    { memberId, deptId: member.member.deptId, positionId: member.member.positionId, roleId: member.member.roleId },
    { area, key: query.call, ip: query.ip, nowMs: at, stepUpAt: query.codeMinutesAgo === undefined ? null : at - Number(query.codeMinutesAgo) * 60_000 },
    trace,
  );
  return {
    decision: verdict.decision,
    policyId: verdict.policy?.id ?? null,
    policyName: verdict.policy?.name ?? '',
    logged: verdict.log,
    wouldDeny: verdict.wouldDeny,
    roleRefuses,
    matched: trace.matched.map((entry) => ({ ...entry, decides: entry.id === verdict.policy?.id })),
    skipped: trace.skipped,
  };
}
