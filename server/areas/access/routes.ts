import type { FastifyInstance } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { ACCESS_ENDPOINTS as E } from '../../../contract/accessPolicy';
import { API_CLIENT_ENDPOINTS as C } from '../../../contract/apiClients';
import { writeXlsx } from '../../../contract/xlsx';
import { sessions } from '../../db/schema';
import { route } from '../../http/route';
import { useCode } from '../signin/service';
import { listRoles, orgContext, type TeamDeps } from '../team/service';
import * as access from './service';
import * as tokens from './tokens';

/** Access policies, the access log and "explain and try" (contract/accessPolicy.ts), and the person's step-up. */
export async function accessRoutes(app: FastifyInstance) {
  const team: TeamDeps = { db: app.db, now: () => app.now() };
  const deps: access.AccessDeps = { db: app.db, now: () => app.now(), invalidate: (orgId) => app.accessPolicies.invalidate(orgId) };
  const ctx = (user: Parameters<typeof orgContext>[1], orgId: number | undefined) => orgContext(team, user, orgId);

  route(app, E.policies, async ({ user, input }) => access.listPolicies(deps, await ctx(user, input.orgId), input));
  route(app, E.roleManagementPage, async ({ user, input }) => listRoles(team, await ctx(user, input.orgId), { page: input.page, rows: input.rows, keyword: input.name }));
  route(app, E.roleManagementStrategy, async ({ user, input }) => access.listPolicies(deps, await ctx(user, input.orgId), { page: input.page, rows: input.rows, keyword: input.name }));
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

  // Applications (the spec's licensable systems) and their API tokens.
  const now = () => app.now();
  route(app, C.list, async ({ user, input }) => tokens.listClients(app.db, await ctx(user, input.orgId), input, now()));
  route(app, C.find, async ({ user, input }) => tokens.findClient(app.db, await ctx(user, undefined), input.id, now()));
  route(app, C.save, async ({ user, input, request }) => {
    const { before, after } = await tokens.saveClient(app.db, await ctx(user, undefined), input, now());
    request.operationChange = { record: `id=${after.id} name=${after.name}`, before, after };
    return after;
  });
  route(app, C.remove, async ({ user, input }) => tokens.deleteClient(app.db, await ctx(user, undefined), input.id));
  route(app, C.tokens, async ({ user, input }) => tokens.listTokens(app.db, await ctx(user, undefined), input.clientId));
  route(app, C.issue, async ({ user, input, request, reply }) => {
    const issued = await tokens.issueToken(app.db, await ctx(user, undefined), input, now());
    const { token: _shownOnce, ...kept } = issued;
    request.operationChange = { record: `id=${issued.id} name=${issued.name} clientId=${issued.clientId}`, before: null, after: kept };
    reply.header('cache-control', 'no-store');
    return issued;
  });
  route(app, C.revoke, async ({ user, input, request }) => {
    const revoked = await tokens.revokeToken(app.db, await ctx(user, undefined), input.id, now());
    request.operationChange = { record: `id=${revoked.id} name=${revoked.name}`, after: revoked };
    return revoked;
  });

  route(app, E.stepUp, async ({ user, input }) => {
    await useCode(app, user.id, input.code, false);
    const now = app.now();
    await app.db.update(sessions).set({ stepUpAt: now }).where(and(eq(sessions.id, user.sessionId), eq(sessions.userId, user.id)));
    return { stepUpAt: now.getTime() };
  });
}
