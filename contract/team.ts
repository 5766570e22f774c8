import { z } from 'zod';
import { DATA_SCOPES, PERMISSION_ACTIONS } from './access';
import { defineEndpoint, routePaths } from './endpoint';
import { pageQuerySchema } from './envelope';
import type { Localized } from './errors';
import { queryEpochMs, queryInt, ROW_ID_MAX, rowId } from './fields';
import { lazySchema } from './lazySchema';
import { PASSWORD_PATTERN, USERNAME_PATTERN } from './session';

/**
 * A seller's organisation (the owner's account, its departments, positions, roles and members) and its operation
 * log: the console's calls and what they answer besides the catalogue's texts.
 */

export const TEAM_MESSAGES = {
  memberDisabled: { zh: '该账号已被停用，请联系主账号', en: 'This account is disabled; please contact the owner of your organisation', pt: 'Esta conta está desativada; fale com o titular da sua organização' },
  notFound: { zh: '记录不存在或不属于该组织', en: 'The record does not exist or belongs to another organisation', pt: 'O registro não existe ou pertence a outra organização' },
  grantExceeds: { zh: '不能授予超过自己所拥有的权限', en: 'You cannot grant more than you hold', pt: 'Você não pode conceder mais do que tem' },
  unknownPermission: { zh: '包含未知的权限', en: 'Contains an unknown permission', pt: 'Contém uma permissão desconhecida' },
  shopOutside: { zh: '包含不属于该组织的店铺', en: 'Contains a shop that does not belong to this organisation', pt: 'Contém uma loja que não pertence a esta organização' },
  shopNotHeld: { zh: '包含你无权查看的店铺', en: 'Contains a shop you may not see yourself', pt: 'Contém uma loja que você mesmo não pode ver' },
  deptHasChildren: { zh: '该部门下还有子部门，请先移走或删除', en: 'This department has sub-departments; move or delete them first', pt: 'Este departamento tem subdepartamentos; mova-os ou exclua-os antes' },
  deptHasMembers: { zh: '该部门下还有成员，请先为他们选择新部门', en: 'This department has members; choose their new department first', pt: 'Este departamento tem membros; escolha o novo departamento deles antes' },
  deptLoop: { zh: '上级部门不能是自身或其下级部门', en: 'A department cannot sit under itself or one of its sub-departments', pt: 'Um departamento não pode ficar sob si mesmo nem sob um subdepartamento seu' },
  roleInUse: { zh: '该角色仍有成员使用，请选择他们的新角色', en: 'Members still have this role; choose their new role', pt: 'Membros ainda têm este perfil; escolha o novo perfil deles' },
  roleNameTaken: { zh: '该角色名称已存在', en: 'A role of this name already exists', pt: 'Já existe um perfil com este nome' },
  ownerNotMember: { zh: '主账号不能作为成员修改或删除', en: 'The owner account cannot be changed or removed as a member', pt: 'A conta titular não pode ser alterada nem removida como membro' },
  orgRequired: { zh: '请选择要管理的组织', en: 'Choose the organisation to manage', pt: 'Escolha a organização a gerenciar' },
  selfChange: { zh: '不能修改自己的角色、店铺或状态', en: 'You cannot change your own role, shops or status', pt: 'Você não pode alterar o seu próprio perfil, lojas ou status' },
} as const satisfies Record<string, Localized>;

const id = rowId();
const orgId = rowId().optional();
/** An id in a query string. */
const queryId = () => queryInt(1, ROW_ID_MAX);
const name = z.string().trim().min(1, 'required').max(60);
const shortText = z.string().trim().max(200);
const shopIds = z.array(rowId()).max(500);
const epochMs = z.number();

/** Every list of the console: the spec's paged answer (page default 1, rows default 20), for one organisation. */
const orgPageQuery = () => pageQuerySchema.extend({
  /** The administrator picks the organisation (an owner's user id); anyone else manages their own. */
  orgId: queryId().optional(),
  keyword: z.string().trim().max(60).optional(),
});

export const MEMBER_STATUSES = ['enabled', 'disabled'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

// GET /api/permission/user/list
export const memberListQuerySchema = lazySchema(() => orgPageQuery().extend({ deptId: queryId().optional(), status: z.enum(MEMBER_STATUSES).optional() }));
export type MemberListQuery = z.input<typeof memberListQuerySchema>;

export const memberSchema = lazySchema(() => z.object({
  id: z.number().int(),
  /** The login name. */
  name: z.string(),
  nickName: z.string(),
  orgId: z.number().int(),
  roleId: z.number().int().nullable(),
  /** The role's name (the spec's `role`). */
  role: z.string(),
  positionId: z.number().int().nullable(),
  position: z.string(),
  deptId: z.number().int().nullable(),
  department: z.string(),
  /** The member's own shops (null: the role's scope as it is). */
  shopIds: z.array(z.number().int()).nullable(),
  /** What the member sees, as of now: the shops' ids (null: every shop of the organisation). */
  strategy: z.array(z.number().int()).nullable(),
  status: z.enum(MEMBER_STATUSES),
  createTime: epochMs,
  /** The latest activity of any of the member's sessions, or null. */
  lastSeenAt: epochMs.nullable(),
}));
export type Member = z.infer<typeof memberSchema>;
export const memberPageSchema = lazySchema(() => z.object({ list: z.array(memberSchema), total: z.number().int() }));
export type MemberPage = z.infer<typeof memberPageSchema>;

const memberFields = {
  nickName: z.string().trim().max(60),
  deptId: rowId().nullable(),
  positionId: rowId().nullable(),
  roleId: rowId().nullable(),
  shopIds: shopIds.nullable(),
  status: z.enum(MEMBER_STATUSES),
};
// POST /api/permission/user/add
export const addMemberBodySchema = lazySchema(() => z.object({
  orgId,
  username: z.string().trim().regex(USERNAME_PATTERN, 'usernamePolicy'),
  password: z.string().regex(PASSWORD_PATTERN, 'passwordPolicy'),
  nickName: memberFields.nickName.default(''),
  deptId: memberFields.deptId.default(null),
  positionId: memberFields.positionId.default(null),
  roleId: memberFields.roleId.default(null),
  shopIds: memberFields.shopIds.default(null),
  status: memberFields.status.default('enabled'),
  /** Where the invitation goes (the login address and name, through the organisation's mail service); none: no mail. */
  email: z.string().trim().max(200).regex(/^[^\s@<>]+@[^\s@<>]+$/, 'email').optional(),
}));
export type AddMemberBody = z.input<typeof addMemberBodySchema>;
// POST /api/permission/user/update: fields left out stay as they are.
export const updateMemberBodySchema = lazySchema(() => z.object({
  id,
  password: z.string().regex(PASSWORD_PATTERN, 'passwordPolicy').optional(),
  nickName: memberFields.nickName.optional(),
  deptId: memberFields.deptId.optional(),
  positionId: memberFields.positionId.optional(),
  roleId: memberFields.roleId.optional(),
  shopIds: memberFields.shopIds.optional(),
  status: memberFields.status.optional(),
}));
export type UpdateMemberBody = z.input<typeof updateMemberBodySchema>;
export const idsBodySchema = lazySchema(() => z.object({ ids: z.array(id).min(1).max(500) }));
export const countSchema = lazySchema(() => z.object({ count: z.number().int() }));

// GET /api/permission/role/list
export const roleListQuerySchema = lazySchema(() => orgPageQuery());
export const orgRoleSchema = lazySchema(() => z.object({
  id: z.number().int(),
  orgId: z.number().int(),
  name: z.string(),
  userNum: z.number().int(),
  creator: z.string(),
  note: z.string(),
  source: z.string(),
  applySubDept: z.boolean(),
  permissions: z.array(z.string()),
  dataScope: z.enum(DATA_SCOPES),
  shopIds: z.array(z.number().int()),
  ownRecords: z.boolean(),
  createTime: epochMs,
}));
export type OrgRole = z.infer<typeof orgRoleSchema>;
export const rolePageSchema = lazySchema(() => z.object({ list: z.array(orgRoleSchema), total: z.number().int() }));
export type RolePage = z.infer<typeof rolePageSchema>;
const roleFields = {
  name,
  note: shortText,
  applySubDept: z.boolean(),
  permissions: z.array(z.string().max(60)).max(400),
  dataScope: z.enum(DATA_SCOPES),
  shopIds,
  ownRecords: z.boolean(),
};
export const addRoleBodySchema = lazySchema(() => z.object({
  orgId,
  name: roleFields.name,
  note: roleFields.note.default(''),
  applySubDept: roleFields.applySubDept.default(false),
  permissions: roleFields.permissions.default([]),
  dataScope: roleFields.dataScope.default('all'),
  shopIds: roleFields.shopIds.default([]),
  ownRecords: roleFields.ownRecords.default(false),
}));
export type AddRoleBody = z.input<typeof addRoleBodySchema>;
export const updateRoleBodySchema = lazySchema(() => z.object({ id, ...Object.fromEntries(Object.entries(roleFields).map(([key, schema]) => [key, schema.optional()])) } as {
  id: typeof id;
  name: z.ZodOptional<typeof roleFields.name>;
  note: z.ZodOptional<typeof roleFields.note>;
  applySubDept: z.ZodOptional<typeof roleFields.applySubDept>;
  permissions: z.ZodOptional<typeof roleFields.permissions>;
  dataScope: z.ZodOptional<typeof roleFields.dataScope>;
  shopIds: z.ZodOptional<typeof roleFields.shopIds>;
  ownRecords: z.ZodOptional<typeof roleFields.ownRecords>;
}));
export type UpdateRoleBody = z.input<typeof updateRoleBodySchema>;
/** A role in use goes only with the role its members move to (null: no role, nothing but the open calls). */
export const deleteRoleBodySchema = lazySchema(() => z.object({ id, moveTo: rowId().nullable().optional() }));
export const rolePreviewQuerySchema = lazySchema(() => z.object({ id: queryId() }));
export const rolePreviewSchema = lazySchema(() => z.object({
  /** The shops the role reaches (before a member's own list narrows it); for department scopes, per department. */
  shops: z.array(z.object({ id: z.number().int(), name: z.string() })),
  /** Whether that is every shop of the organisation, later ones included. */
  allShops: z.boolean(),
  /** The areas the role opens, each with its granted actions. */
  areas: z.array(z.object({ area: z.string(), actions: z.array(z.enum(PERMISSION_ACTIONS)) })),
}));
export type RolePreview = z.infer<typeof rolePreviewSchema>;

// GET /api/permission/dept/list: the whole tree, flat (parentId), in order.
export const deptListQuerySchema = lazySchema(() => orgPageQuery());
export const departmentSchema = lazySchema(() => z.object({
  id: z.number().int(),
  orgId: z.number().int(),
  parentId: z.number().int().nullable(),
  name: z.string(),
  sort: z.number().int(),
  leader: z.string(),
  shopIds: z.array(z.number().int()),
  memberCount: z.number().int(),
  createTime: epochMs,
}));
export type Department = z.infer<typeof departmentSchema>;
export const deptPageSchema = lazySchema(() => z.object({ list: z.array(departmentSchema), total: z.number().int() }));
export type DeptPage = z.infer<typeof deptPageSchema>;
const deptFields = { parentId: rowId().nullable(), name, sort: z.number().int().min(0).max(9999), leader: z.string().trim().max(60), shopIds };
export const addDeptBodySchema = lazySchema(() => z.object({
  orgId,
  parentId: deptFields.parentId.default(null),
  name: deptFields.name,
  sort: deptFields.sort.default(0),
  leader: deptFields.leader.default(''),
  shopIds: deptFields.shopIds.default([]),
}));
export type AddDeptBody = z.input<typeof addDeptBodySchema>;
export const updateDeptBodySchema = lazySchema(() => z.object({
  id,
  parentId: deptFields.parentId.optional(),
  name: deptFields.name.optional(),
  sort: deptFields.sort.optional(),
  leader: deptFields.leader.optional(),
  shopIds: deptFields.shopIds.optional(),
}));
export type UpdateDeptBody = z.input<typeof updateDeptBodySchema>;
/** A department with members goes only with the department they move to. */
export const deleteDeptBodySchema = lazySchema(() => z.object({ id, moveTo: rowId().nullable().optional() }));

// GET /api/permission/position/list
export const positionListQuerySchema = lazySchema(() => orgPageQuery());
export const positionSchema = lazySchema(() => z.object({
  id: z.number().int(),
  orgId: z.number().int(),
  position_name: z.string(),
  position_type: z.string(),
  deptId: z.number().int().nullable(),
  department: z.string(),
  director: z.string(),
  number: z.number().int(),
  date: z.string().nullable(),
}));
export type Position = z.infer<typeof positionSchema>;
export const positionPageSchema = lazySchema(() => z.object({ list: z.array(positionSchema), total: z.number().int() }));
export type PositionPage = z.infer<typeof positionPageSchema>;
const positionFields = {
  position_name: name,
  position_type: z.string().trim().max(60),
  deptId: rowId().nullable(),
  director: z.string().trim().max(60),
  number: z.number().int().min(0).max(100_000),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'invalid').nullable(),
};
export const addPositionBodySchema = lazySchema(() => z.object({
  orgId,
  position_name: positionFields.position_name,
  position_type: positionFields.position_type.default(''),
  deptId: positionFields.deptId.default(null),
  director: positionFields.director.default(''),
  number: positionFields.number.default(1),
  date: positionFields.date.default(null),
}));
export type AddPositionBody = z.input<typeof addPositionBodySchema>;
export const updatePositionBodySchema = lazySchema(() => z.object({
  id,
  position_name: positionFields.position_name.optional(),
  position_type: positionFields.position_type.optional(),
  deptId: positionFields.deptId.optional(),
  director: positionFields.director.optional(),
  number: positionFields.number.optional(),
  date: positionFields.date.optional(),
}));
export type UpdatePositionBody = z.input<typeof updatePositionBodySchema>;

// GET /api/permission/log/list, /permission/log/export
export const logQuerySchema = lazySchema(() => orgPageQuery().extend({
  actorId: queryId().optional(),
  module: z.string().max(40).optional(),
  action: z.enum(PERMISSION_ACTIONS).optional(),
  shopId: queryId().optional(),
  from: queryEpochMs().optional(),
  to: queryEpochMs().optional(),
}));
export type LogQuery = z.input<typeof logQuerySchema>;
export const logEntrySchema = lazySchema(() => z.object({
  id: z.number().int(),
  orgId: z.number().int(),
  actorId: z.number().int(),
  actorName: z.string(),
  at: epochMs,
  ip: z.string(),
  module: z.string(),
  action: z.string(),
  record: z.string(),
  shopIds: z.array(z.number().int()),
  status: z.number().int(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
}));
export type LogEntry = z.infer<typeof logEntrySchema>;
export const logPageSchema = lazySchema(() => z.object({ list: z.array(logEntrySchema), total: z.number().int() }));
export type LogPage = z.infer<typeof logPageSchema>;

// GET /api/permission/online/list
export const onlineQuerySchema = lazySchema(() => orgPageQuery());
export const onlineSessionSchema = lazySchema(() => z.object({
  sessionId: z.number().int(),
  userId: z.number().int(),
  name: z.string(),
  createdAt: epochMs,
  lastSeenAt: epochMs,
  ip: z.string(),
}));
export type OnlineSession = z.infer<typeof onlineSessionSchema>;
export const onlinePageSchema = lazySchema(() => z.object({ list: z.array(onlineSessionSchema), total: z.number().int() }));
export type OnlinePage = z.infer<typeof onlinePageSchema>;
export const endSessionBodySchema = lazySchema(() => z.object({ orgId, sessionId: id }));

// GET /api/permission/overview: what the console's forms offer and the plan's limits.
export const overviewQuerySchema = lazySchema(() => z.object({ orgId: queryId().optional() }));
export const teamOverviewSchema = lazySchema(() => z.object({
  orgId: z.number().int(),
  orgName: z.string(),
  shops: z.array(z.object({ id: z.number().int(), name: z.string() })),
  /** The areas a role can grant, each with the actions its calls use. */
  catalogue: z.array(z.object({ area: z.string(), actions: z.array(z.enum(PERMISSION_ACTIONS)) })),
  /** What the caller may grant (null: everything). */
  grantable: z.array(z.string()).nullable(),
  plan: z.string(),
  members: z.object({ used: z.number().int(), limit: z.number().int() }),
  stores: z.object({ used: z.number().int(), limit: z.number().int() }),
  dailyCopies: z.object({ used: z.number().int(), limit: z.number().int() }),
  collections: z.object({ used: z.number().int(), limit: z.number().int() }),
  /** The organisations the administrator may pick from (empty for anyone else). */
  organisations: z.array(z.object({ id: z.number().int(), name: z.string() })),
}));
export type TeamOverview = z.infer<typeof teamOverviewSchema>;

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The organisation console's calls: every one is the `team` area's `staff` permission (owners and the administrator hold it). */
export const TEAM_ENDPOINTS = {
  overview: defineEndpoint({ method: 'GET', path: '/permission/overview', summary: 'The organisation, its shops, the grantable permissions and the plan limits.', access: 'team', action: 'staff', input: overviewQuerySchema, answer: teamOverviewSchema }),
  members: defineEndpoint({ method: 'GET', path: '/permission/user/list', summary: 'A page of the organisation\'s members.', access: 'team', action: 'staff', input: memberListQuerySchema, answer: memberPageSchema }),
  addMember: defineEndpoint({ method: 'POST', path: '/permission/user/add', summary: 'Adds a member (a staff login of the organisation).', access: 'team', action: 'staff', input: addMemberBodySchema, answer: memberSchema }),
  updateMember: defineEndpoint({ method: 'POST', path: '/permission/user/update', summary: 'Changes a member; a disabled member is signed out everywhere.', access: 'team', action: 'staff', input: updateMemberBodySchema, answer: memberSchema }),
  deleteMembers: defineEndpoint({ method: 'POST', path: '/permission/user/delete', summary: 'Removes members and ends their sessions.', access: 'team', action: 'staff', input: idsBodySchema, answer: countSchema }),
  roles: defineEndpoint({ method: 'GET', path: '/permission/role/list', summary: 'A page of the organisation\'s roles.', access: 'team', action: 'staff', input: roleListQuerySchema, answer: rolePageSchema }),
  addRole: defineEndpoint({ method: 'POST', path: '/permission/role/add', summary: 'Adds a role.', access: 'team', action: 'staff', input: addRoleBodySchema, answer: orgRoleSchema }),
  updateRole: defineEndpoint({ method: 'POST', path: '/permission/role/update', summary: 'Changes a role; its members\' next calls and open pages follow.', access: 'team', action: 'staff', input: updateRoleBodySchema, answer: orgRoleSchema }),
  deleteRole: defineEndpoint({ method: 'POST', path: '/permission/role/delete', summary: 'Deletes a role, moving its members to `moveTo`.', access: 'team', action: 'staff', input: deleteRoleBodySchema, answer: countSchema }),
  rolePreview: defineEndpoint({ method: 'GET', path: '/permission/role/preview', summary: 'What a role sees: its shops and areas.', access: 'team', action: 'staff', input: rolePreviewQuerySchema, answer: rolePreviewSchema }),
  departments: defineEndpoint({ method: 'GET', path: '/permission/dept/list', summary: 'The organisation\'s departments (a tree, flat with parentId).', access: 'team', action: 'staff', input: deptListQuerySchema, answer: deptPageSchema }),
  addDept: defineEndpoint({ method: 'POST', path: '/permission/dept/add', summary: 'Adds a department.', access: 'team', action: 'staff', input: addDeptBodySchema, answer: departmentSchema }),
  updateDept: defineEndpoint({ method: 'POST', path: '/permission/dept/update', summary: 'Changes a department.', access: 'team', action: 'staff', input: updateDeptBodySchema, answer: departmentSchema }),
  deleteDept: defineEndpoint({ method: 'POST', path: '/permission/dept/delete', summary: 'Deletes a department without sub-departments, moving its members to `moveTo`.', access: 'team', action: 'staff', input: deleteDeptBodySchema, answer: countSchema }),
  positions: defineEndpoint({ method: 'GET', path: '/permission/position/list', summary: 'A page of the organisation\'s positions.', access: 'team', action: 'staff', input: positionListQuerySchema, answer: positionPageSchema }),
  addPosition: defineEndpoint({ method: 'POST', path: '/permission/position/add', summary: 'Adds a position.', access: 'team', action: 'staff', input: addPositionBodySchema, answer: positionSchema }),
  updatePosition: defineEndpoint({ method: 'POST', path: '/permission/position/update', summary: 'Changes a position.', access: 'team', action: 'staff', input: updatePositionBodySchema, answer: positionSchema }),
  deletePositions: defineEndpoint({ method: 'POST', path: '/permission/position/delete', summary: 'Deletes positions (their members keep no position).', access: 'team', action: 'staff', input: idsBodySchema, answer: countSchema }),
  log: defineEndpoint({ method: 'GET', path: '/permission/log/list', summary: 'A page of the organisation\'s operation log, newest first.', access: 'team', action: 'staff', input: logQuerySchema, answer: logPageSchema }),
  logExport: defineEndpoint({
    method: 'GET',
    path: '/permission/log/export',
    summary: 'The operation log as an Excel file (the same filters, at most 50,000 rows).',
    access: 'team',
    action: 'staff',
    input: logQuerySchema,
    raw: { contentType: XLSX, description: 'operation-log.xlsx' },
    settings: { responseType: 'blob', timeout: 60_000 },
  }),
  online: defineEndpoint({ method: 'GET', path: '/permission/online/list', summary: 'The organisation\'s open sessions with their last activity and address.', access: 'team', action: 'staff', input: onlineQuerySchema, answer: onlinePageSchema }),
  endSession: defineEndpoint({ method: 'POST', path: '/permission/online/end', summary: 'Ends one session of the organisation.', access: 'team', action: 'staff', input: endSessionBodySchema, answer: countSchema }),
} as const;

export const TEAM_PATHS = routePaths(TEAM_ENDPOINTS);
