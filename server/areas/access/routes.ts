import type { FastifyInstance } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { ACCESS_ENDPOINTS as E } from '../../../contract/accessPolicy';
import { writeXlsx } from '../../../contract/xlsx';
import { sessions } from '../../db/schema';
import { route } from '../../http/route';
import { useCode } from '../signin/service';
import { orgContext, type TeamDeps } from '../team/service';
import * as access from './service';

/** Access policies, the access log and "explain and try" (contract/accessPolicy.ts), and the person's step-up. */
export async function accessRoutes(app: FastifyInstance) {
  const team: TeamDeps = { db: app.db, now: () => app.now() };
  const deps: access.AccessDeps = { db: app.db, now: () => app.now(), invalidate: (orgId) => app.accessPolicies.invalidate(orgId) };
  const ctx = (user: Parameters<typeof orgContext>[1], orgId: number | undefined) => orgContext(team, user, orgId);

  route(app, E.policies, async ({ user, input }) => access.listPolicies(deps, await ctx(user, input.orgId), input));
  route(app, E.savePolicy, async ({ user, input, request }) => {
    const { orgId, ...body } = input;
    const { before, after } = await access.savePolicy(deps, await ctx(user, orgId), body);
    request.operationChange = { record: `id=${after.id} name=${after.name}`, before, after };
    return after;
  });
  route(app, E.deletePolicies, async ({ user, input, request }) => {
    const result = await access.deletePolicies(deps, await ctx(user, undefined), input.ids);
    request.operationChange = { record: `ids=${input.ids.join(',')}` };
    return result;
  });
  route(app, E.log, async ({ user, input }) => access.listAccessLog(deps, await ctx(user, input.orgId), input));
  route(app, E.logExport, async ({ user, input, reply }) => {
    const entries = await access.accessLogForExport(deps, await ctx(user, input.orgId), input);
    const header = ['operationTime', 'operator', 'ip', 'operationType', 'decision', 'policy', 'strategy'];
    const rows = entries.map((entry) => [new Date(entry.operationTime), entry.operator, entry.ip, entry.operationType, entry.decision, entry.policyName, entry.strategy]);
    const bytes = writeXlsx('access log', header, rows, [20, 16, 16, 40, 10, 24, 10]);
    return reply
      .header('content-type', E.logExport.raw.contentType)
      .header('content-disposition', 'attachment; filename="access-log.xlsx"')
      .send(Buffer.from(bytes));
  });
  route(app, E.explain, async ({ user, input }) => access.explain(deps, await ctx(user, input.orgId), input));

  route(app, E.stepUp, async ({ user, input }) => {
    await useCode(app, user.id, input.code, false);
    const now = app.now();
    await app.db.update(sessions).set({ stepUpAt: now }).where(and(eq(sessions.id, user.sessionId), eq(sessions.userId, user.id)));
    return { stepUpAt: now.getTime() };
  });
}
