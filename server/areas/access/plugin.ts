import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { eq, lt } from 'drizzle-orm';
import { POLICY_FIELD, policyDenied, policyRuleSchema, stepUpNeeded, STEP_UP_FIELD, type Strategy } from '../../../contract/accessPolicy';
import type { Db } from '../../db/database';
import { accessLog, accessPolicies } from '../../db/schema';
import { ApiError } from '../../http/errors';
import type { AuthUser } from '../session/service';
import { everySixHours, retentionDays } from '../team/retention';
import { compilePolicies, evaluate, NO_POLICIES, type CallFacts, type CompiledPolicies, type Subject, type Verdict } from './evaluate';

/**
 * Access policies in the access hook (server/plugins/auth.ts calls `checkPolicies` after the role and scope checks).
 * Each organisation's policies are compiled once and kept: a save on this instance drops its entry at once, and an
 * entry older than CACHE_TTL_MS is read again, so a save on another instance of the same database applies within it.
 */
const CACHE_TTL_MS = 3_000;
export const ACCESS_LOG_RETENTION_DAYS = 180;
export const ACCESS_LOG_RETENTION_SETTING = 'accessLog.retentionDays';

export type PolicyCache = {
  forOrg(orgId: number): Promise<CompiledPolicies>;
  invalidate(orgId: number): void;
};

declare module 'fastify' {
  interface FastifyInstance {
    accessPolicies: PolicyCache;
    /** Deletes the access log's entries older than the retention (a background purge runs it every 6 hours). */
    purgeAccessLog(): Promise<void>;
  }
}

export async function loadPolicies(db: Db, orgId: number): Promise<CompiledPolicies> {
  const rows = await db.select().from(accessPolicies).where(eq(accessPolicies.orgId, orgId));
  if (rows.length === 0) return NO_POLICIES;
  return compilePolicies(
    rows.map((row) => ({
      id: row.id,
      name: row.name,
      strategy: row.strategy as Strategy,
      priority: row.priority,
      status: row.status,
      dryRun: row.dryRun,
      rule: policyRuleSchema.parse(row.rule),
    })),
  );
}

/** Who the caller is to the policies: a member, or an API token (its role; its client's department). */
export function subjectOf(user: AuthUser): Subject | null {
  if (user.apiToken) return { memberId: null, deptId: user.member?.deptId ?? null, positionId: null, roleId: user.member?.roleId ?? null };
  if (!user.isMember || !user.member) return null;
  return { memberId: user.id, deptId: user.member.deptId, positionId: user.member.positionId, roleId: user.member.roleId };
}

export async function writeAccessLog(db: Db, user: AuthUser, call: CallFacts, decision: Verdict['decision'] | 'wouldDeny', policy: { id: number; name: string; strategy?: string } | null, at: Date): Promise<void> {
  await db.insert(accessLog).values({
    orgId: user.accountId,
    at,
    operatorId: user.apiToken ? null : user.id,
    operator: user.apiToken ? `API: ${user.apiToken.name}` : user.name,
    ip: call.ip,
    area: call.area,
    call: call.key,
    decision,
    policyId: policy?.id ?? null,
    policyName: policy?.name ?? '',
    strategy: policy?.strategy ?? '',
  });
}

/**
 * The policies' answer for one call: nothing for an owner (and the administrator), a 401 naming the policy for a
 * deny, a 401 with field `stepUp` when a one-time code is due; the "and log" strategies and dry runs write the log.
 */
export async function checkPolicies(app: FastifyInstance, request: FastifyRequest, user: AuthUser, area: string, key: string): Promise<void> {
  const subject = subjectOf(user);
  if (!subject) return;
  const compiled = await app.accessPolicies.forOrg(user.accountId);
  if (compiled.live.length === 0 && compiled.withDryRuns.length === 0) return;
  const now = app.now();
  const call: CallFacts = { area, key, ip: request.ip, nowMs: now.getTime(), stepUpAt: user.stepUpAt };
  const verdict = evaluate(compiled, subject, call);
  try {
    if (verdict.log) await writeAccessLog(app.db, user, call, verdict.decision, verdict.policy, now);
    if (verdict.wouldDeny) await writeAccessLog(app.db, user, call, 'wouldDeny', { ...verdict.wouldDeny, strategy: 'dryRun' }, now);
  } catch (error) {
    request.log.error({ err: error }, 'access log write failed');
  }
  if (verdict.decision === 'deny') throw new ApiError(401, policyDenied(verdict.policy!.name), POLICY_FIELD);
  if (verdict.decision === 'stepUp') throw new ApiError(401, stepUpNeeded(verdict.policy!.name, verdict.stepUpMinutes), STEP_UP_FIELD);
}

export const accessPolicyPlugin = fp(async function accessPolicyPlugin(app: FastifyInstance) {
  const cache = new Map<number, { at: number; compiled: Promise<CompiledPolicies> }>();
  app.decorate('accessPolicies', {
    forOrg(orgId) {
      const at = Date.now();
      const hit = cache.get(orgId);
      if (hit && at - hit.at < CACHE_TTL_MS) return hit.compiled;
      const compiled = loadPolicies(app.db, orgId);
      cache.set(orgId, { at, compiled });
      compiled.catch(() => cache.delete(orgId));
      return compiled;
    },
    invalidate(orgId) {
      cache.delete(orgId);
    },
  } satisfies PolicyCache);

  app.decorate('purgeAccessLog', everySixHours(app, 'access log', async () => {
    const days = await retentionDays(app, ACCESS_LOG_RETENTION_SETTING, ACCESS_LOG_RETENTION_DAYS);
    await app.db.delete(accessLog).where(lt(accessLog.at, new Date(app.now().getTime() - days * 86_400_000)));
  }));
});
