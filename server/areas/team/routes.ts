import type { FastifyInstance } from 'fastify';
import { writeXlsx } from '../../../contract/xlsx';
import { TEAM_ENDPOINTS as E } from '../../../contract/team';
import { route } from '../../http/route';
import { sendInvitation } from '../signin/services';
import * as team from './service';

/**
 * The organisation console (contract/team.ts). Every change that can narrow what a member sees re-reads the scope
 * of the organisation's open pages (push.rescope), and ended sessions close their sockets.
 */
export async function teamRoutes(app: FastifyInstance) {
  const deps: team.TeamDeps = { db: app.db, now: () => app.now() };
  const ctx = (user: Parameters<typeof team.orgContext>[1], orgId: number | undefined) => team.orgContext(deps, user, orgId);

  route(app, E.overview, async ({ user, input }) => team.overview(deps, await ctx(user, input.orgId)));

  route(app, E.members, async ({ user, input }) => team.listMembers(deps, await ctx(user, input.orgId), input));
  route(app, E.addMember, async ({ user, input, request }) => {
    const org = await ctx(user, input.orgId);
    const member = await team.addMember(deps, org, input);
    request.operationChange = { record: `id=${member.id} name=${member.name}`, before: null, after: member };
    if (input.email) {
      const loginUrl = `${request.protocol}://${request.host}/login`;
      void sendInvitation(app, org.orgId, member.name, input.email, loginUrl).catch((error: unknown) => request.log.warn({ err: error, member: member.id }, 'invitation mail not sent'));
    }
    return member;
  });
  route(app, E.updateMember, async ({ user, input, request }) => {
    const org = await ctx(user, undefined);
    const { before, after, endedSessionIds } = await team.updateMember(deps, org, input);
    request.operationChange = { record: `id=${after.id} name=${after.name}`, before, after };
    app.push.closeSessions(endedSessionIds);
    app.push.rescope(org.orgId);
    return after;
  });
  route(app, E.deleteMembers, async ({ user, input, request }) => {
    const org = await ctx(user, undefined);
    const { before, endedSessionIds } = await team.deleteMembers(deps, org, input.ids);
    request.operationChange = { record: `ids=${input.ids.join(',')}`, before, after: null };
    app.push.closeSessions(endedSessionIds);
    return { count: before.length };
  });

  route(app, E.roles, async ({ user, input }) => team.listRoles(deps, await ctx(user, input.orgId), input));
  route(app, E.addRole, async ({ user, input, request }) => {
    const { orgId, ...body } = input;
    const role = await team.addRole(deps, await ctx(user, orgId), body);
    request.operationChange = { record: `id=${role.id} name=${role.name}`, before: null, after: role };
    return role;
  });
  route(app, E.updateRole, async ({ user, input, request }) => {
    const org = await ctx(user, undefined);
    const { before, after } = await team.updateRole(deps, org, input);
    request.operationChange = { record: `id=${after.id} name=${after.name}`, before, after };
    app.push.rescope(org.orgId);
    return after;
  });
  route(app, E.deleteRole, async ({ user, input, request }) => {
    const org = await ctx(user, undefined);
    const { before, moved } = await team.deleteRole(deps, org, input.id, input.moveTo);
    request.operationChange = { record: `id=${before.id} name=${before.name} moveTo=${input.moveTo ?? ''}`, before, after: null };
    app.push.rescope(org.orgId);
    return { count: moved };
  });
  route(app, E.rolePreview, async ({ user, input }) => team.rolePreview(deps, await ctx(user, undefined), input.id));

  route(app, E.departments, async ({ user, input }) => team.listDepartments(deps, await ctx(user, input.orgId), input));
  route(app, E.addDept, async ({ user, input, request }) => {
    const { orgId, ...body } = input;
    const dept = await team.addDepartment(deps, await ctx(user, orgId), body);
    request.operationChange = { record: `id=${dept.id} name=${dept.name}`, before: null, after: dept };
    return dept;
  });
  route(app, E.updateDept, async ({ user, input, request }) => {
    const org = await ctx(user, undefined);
    const { before, after } = await team.updateDepartment(deps, org, input);
    request.operationChange = { record: `id=${after.id} name=${after.name}`, before, after };
    app.push.rescope(org.orgId);
    return after;
  });
  route(app, E.deleteDept, async ({ user, input, request }) => {
    const org = await ctx(user, undefined);
    const { before, moved } = await team.deleteDepartment(deps, org, input.id, input.moveTo);
    request.operationChange = { record: `id=${before.id} name=${before.name}`, before, after: null };
    app.push.rescope(org.orgId);
    return { count: moved };
  });

  route(app, E.positions, async ({ user, input }) => team.listPositions(deps, await ctx(user, input.orgId), input));
  route(app, E.addPosition, async ({ user, input, request }) => {
    const { orgId, ...body } = input;
    const position = await team.addPosition(deps, await ctx(user, orgId), body);
    request.operationChange = { record: `id=${position.id} name=${position.position_name}`, before: null, after: position };
    return position;
  });
  route(app, E.updatePosition, async ({ user, input, request }) => {
    const { before, after } = await team.updatePosition(deps, await ctx(user, undefined), input);
    request.operationChange = { record: `id=${after.id} name=${after.position_name}`, before, after };
    return after;
  });
  route(app, E.deletePositions, async ({ user, input, request }) => {
    const { before } = await team.deletePositions(deps, await ctx(user, undefined), input.ids);
    request.operationChange = { record: `ids=${input.ids.join(',')}`, before, after: null };
    return { count: before.length };
  });

  route(app, E.log, async ({ user, input }) => team.listLog(deps, await ctx(user, input.orgId), input));
  route(app, E.logExport, async ({ user, input, reply }) => {
    const entries = await team.logForExport(deps, await ctx(user, input.orgId), input);
    const header = ['time', 'member', 'address', 'module', 'action', 'record', 'shops', 'before', 'after'];
    const rows = entries.map((entry) => [
      new Date(entry.at),
      entry.actorName,
      entry.ip,
      entry.module,
      entry.action,
      entry.record,
      entry.shopIds.join(','),
      entry.before === null ? '' : JSON.stringify(entry.before),
      entry.after === null ? '' : JSON.stringify(entry.after),
    ]);
    const bytes = writeXlsx('operation log', header, rows, [20, 14, 16, 12, 10, 40, 12, 50, 50]);
    return reply
      .header('content-type', E.logExport.raw.contentType)
      .header('content-disposition', 'attachment; filename="operation-log.xlsx"')
      .send(Buffer.from(bytes));
  });

  route(app, E.online, async ({ user, input }) => team.onlineSessions(deps, await ctx(user, input.orgId), input));
  route(app, E.endSession, async ({ user, input, request }) => {
    const count = await team.endSession(deps, await ctx(user, input.orgId), input.sessionId);
    request.operationChange = { record: `sessionId=${input.sessionId}` };
    app.push.closeSessions([input.sessionId]);
    return { count };
  });
}
