import {
  TEAM_ENDPOINTS as E,
  type AddDeptBody,
  type AddMemberBody,
  type AddPositionBody,
  type AddRoleBody,
  type Department,
  type DeptPage,
  type LogPage,
  type LogQuery,
  type Member,
  type MemberListQuery,
  type MemberPage,
  type OnlinePage,
  type OrgRole,
  type Position,
  type PositionPage,
  type RolePage,
  type RolePreview,
  type TeamOverview,
  type UpdateDeptBody,
  type UpdateMemberBody,
  type UpdatePositionBody,
  type UpdateRoleBody,
} from '../contract/team';
import type { HttpClient } from './http/client';

type Paged = { page: number; rows: number; orgId?: number; keyword?: string };

/** The organisation console (contract/team.ts): members, roles, departments, positions, the operation log, sessions. */
export type TeamApi = {
  overview(orgId?: number): Promise<TeamOverview>;
  members(query: MemberListQuery): Promise<MemberPage>;
  addMember(body: AddMemberBody): Promise<Member>;
  updateMember(body: UpdateMemberBody): Promise<Member>;
  deleteMembers(ids: number[]): Promise<{ count: number }>;
  roles(query: Paged): Promise<RolePage>;
  addRole(body: AddRoleBody): Promise<OrgRole>;
  updateRole(body: UpdateRoleBody): Promise<OrgRole>;
  deleteRole(id: number, moveTo?: number | null): Promise<{ count: number }>;
  rolePreview(id: number): Promise<RolePreview>;
  departments(query: Paged): Promise<DeptPage>;
  addDept(body: AddDeptBody): Promise<Department>;
  updateDept(body: UpdateDeptBody): Promise<Department>;
  deleteDept(id: number, moveTo?: number | null): Promise<{ count: number }>;
  positions(query: Paged): Promise<PositionPage>;
  addPosition(body: AddPositionBody): Promise<Position>;
  updatePosition(body: UpdatePositionBody): Promise<Position>;
  deletePositions(ids: number[]): Promise<{ count: number }>;
  log(query: LogQuery): Promise<LogPage>;
  logExport(query: LogQuery): Promise<Blob>;
  online(query: Paged): Promise<OnlinePage>;
  endSession(sessionId: number, orgId?: number): Promise<{ count: number }>;
};

export function createTeamApi(client: HttpClient): TeamApi {
  return {
    overview: (orgId) => client.call(E.overview, orgId === undefined ? {} : { orgId }),
    members: (query) => client.call(E.members, query),
    addMember: (body) => client.call(E.addMember, body),
    updateMember: (body) => client.call(E.updateMember, body),
    deleteMembers: (ids) => client.call(E.deleteMembers, { ids }),
    roles: (query) => client.call(E.roles, query),
    addRole: (body) => client.call(E.addRole, body),
    updateRole: (body) => client.call(E.updateRole, body),
    deleteRole: (id, moveTo) => client.call(E.deleteRole, moveTo === undefined ? { id } : { id, moveTo }),
    rolePreview: (id) => client.call(E.rolePreview, { id }),
    departments: (query) => client.call(E.departments, query),
    addDept: (body) => client.call(E.addDept, body),
    updateDept: (body) => client.call(E.updateDept, body),
    deleteDept: (id, moveTo) => client.call(E.deleteDept, moveTo === undefined ? { id } : { id, moveTo }),
    positions: (query) => client.call(E.positions, query),
    addPosition: (body) => client.call(E.addPosition, body),
    updatePosition: (body) => client.call(E.updatePosition, body),
    deletePositions: (ids) => client.call(E.deletePositions, { ids }),
    log: (query) => client.call(E.log, query),
    logExport: (query) => client.call(E.logExport, query),
    online: (query) => client.call(E.online, query),
    endSession: (sessionId, orgId) => client.call(E.endSession, orgId === undefined ? { sessionId } : { sessionId, orgId }),
  };
}
