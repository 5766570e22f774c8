import { z } from 'zod';
import { defineEndpoint, routePaths } from './endpoint';
import { epochMsInput, rowId } from './fields';
import { lazySchema } from './lazySchema';
import { ADMIN_AREA_PATH } from './access';
import { pageQuerySchema } from './envelope';
import type { Localized } from './errors';
import { COMMON_ROLE, PASSWORD_PATTERN, ROLES, USERNAME_PATTERN } from './session';

/**
 * The administrator's user manager (seller-tool §2.1 "the obscurely named admin area", §7 "Administration"),
 * under `/api/${ADMIN_AREA_PATH}`. Every call is gated on the admin area: anyone else gets 401.
 * Times are epoch milliseconds; a validity time of null means the user never had that paid feature.
 */

const id = rowId();
const role = z.enum(ROLES);
/** Assigned roles, without repeats; the first one is the user's real role. */
const roles = z
  .array(role)
  .max(ROLES.length)
  .refine((list) => new Set(list).size === list.length);
const validTime = epochMsInput().nullable();
const introduction = z.string().trim().max(500);

export const validityTimesInputSchema = lazySchema(() => z.object({
  followValidTime: validTime.optional(),
  plugValidTime: validTime.optional(),
  searchWordValidTime: validTime.optional(),
  keyWordValidTime: validTime.optional(),
}));

/** Status filter: `active` has a current paid period (or is an administrator); `expired` had one and all have ended. */
export const USER_STATUSES = ['active', 'expired'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

// GET /api/ops-console/list
export const adminUserListQuerySchema = lazySchema(() => pageQuerySchema.extend({
  /** Part of the user name, any letter case. */
  search: z.string().trim().max(64).optional(),
  /** A role, or 'common' for users without any role. */
  role: z.enum([...ROLES, COMMON_ROLE] as const).optional(),
  status: z.enum(USER_STATUSES).optional(),
}));
export type AdminUserListQuery = z.input<typeof adminUserListQuerySchema>;

export const adminUserSchema = lazySchema(() => z.object({
  id: z.number().int(),
  name: z.string(),
  roles: z.array(role),
  followValidTime: z.number().nullable(),
  plugValidTime: z.number().nullable(),
  searchWordValidTime: z.number().nullable(),
  keyWordValidTime: z.number().nullable(),
  /** "1" for administrators, else the stored flag (default "0"), as login answers it. */
  right: z.string(),
  isAp: z.boolean(),
  relative_id: z.number().int().nullable(),
  introduction: z.string(),
  createdAt: z.number(),
  /** The start of the user's latest session, or null when the user never logged in. */
  lastLoginAt: z.number().nullable(),
}));
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminUserPageSchema = lazySchema(() => z.object({ list: z.array(adminUserSchema), total: z.number().int() }));
export type AdminUserPage = z.infer<typeof adminUserPageSchema>;

// POST /api/ops-console/add: answers the new user.
export const addUserBodySchema = lazySchema(() => validityTimesInputSchema.extend({
  username: z.string().trim().regex(USERNAME_PATTERN, 'usernamePolicy'),
  password: z.string().regex(PASSWORD_PATTERN, 'passwordPolicy'),
  roles: roles.default([]),
  introduction: introduction.default(''),
  isAp: z.boolean().default(false),
  relative_id: id.nullable().default(null),
}));
export type AddUserBody = z.input<typeof addUserBodySchema>;

// POST /api/ops-console/update: fields left out stay as they are; answers the updated user.
export const updateUserBodySchema = lazySchema(() => validityTimesInputSchema.extend({
  id,
  roles: roles.optional(),
  introduction: introduction.optional(),
  isAp: z.boolean().optional(),
  relative_id: id.nullable().optional(),
}));
export type UpdateUserBody = z.input<typeof updateUserBodySchema>;

// POST /api/ops-console/delete: ends the deleted users' sessions; answers how many were deleted.
export const deleteUsersBodySchema = lazySchema(() => z.object({ ids: z.array(id).min(1).max(500) }));
export type DeleteUsersBody = z.input<typeof deleteUsersBodySchema>;
export const deleteUsersDataSchema = lazySchema(() => z.object({ deleted: z.number().int() }));

// POST /api/ops-console/resetPassword: ends the user's sessions and changes its password token (its loginCheck answers 0).
export const resetPasswordBodySchema = lazySchema(() => z.object({
  id,
  newPassword: z.string().regex(PASSWORD_PATTERN, 'passwordPolicy'),
}));
export type ResetPasswordBody = z.input<typeof resetPasswordBodySchema>;

/** What the administration calls answer besides the catalogue's texts. */
export const ADMIN_MESSAGES = {
  userNotFound: { zh: '用户不存在', en: 'The user does not exist', pt: 'O usuário não existe' },
  relativeNotFound: { zh: '关联的主账号不存在', en: 'The linked main account does not exist', pt: 'A conta principal vinculada não existe' },
  relativeSelf: { zh: '不能关联到自己', en: 'A user cannot be linked to itself', pt: 'Um usuário não pode ser vinculado a ele mesmo' },
  lastAdmin: { zh: '不能移除最后一个管理员的管理员角色', en: 'The last administrator cannot lose the admin role', pt: 'O último administrador não pode perder o perfil de administrador' },
  deleteSelf: { zh: '不能删除当前登录的账号', en: 'You cannot delete the account you are logged in with', pt: 'Você não pode excluir a conta com que está conectado' },
  resetOwnPassword: { zh: '请在“修改密码”页面修改自己的密码', en: 'Change your own password on the “change password” page', pt: 'Altere a sua própria senha na página “Alterar senha”' },
} as const satisfies Record<string, Localized>;

export const resetPasswordDataSchema = lazySchema(() => z.null());

/** The user manager's calls, under `/${ADMIN_AREA_PATH}`; every one is gated on the admin area. */
export const ADMIN_USER_ENDPOINTS = {
  list: defineEndpoint({
    method: 'GET',
    path: `/${ADMIN_AREA_PATH}/list`,
    summary: 'One page of users, filtered by name, role and status.',
    access: 'admin',
    input: adminUserListQuerySchema,
    answer: adminUserPageSchema,
    settings: { cancellable: true },
  }),
  add: defineEndpoint({ method: 'POST', path: `/${ADMIN_AREA_PATH}/add`, summary: 'Creates a user.', access: 'admin', action: 'staff', input: addUserBodySchema, answer: adminUserSchema }),
  update: defineEndpoint({
    method: 'POST',
    path: `/${ADMIN_AREA_PATH}/update`,
    summary: "Changes a user's roles, validity periods and links; fields left out stay as they are.",
    access: 'admin',
    action: 'staff',
    input: updateUserBodySchema,
    answer: adminUserSchema,
  }),
  delete: defineEndpoint({
    method: 'POST',
    path: `/${ADMIN_AREA_PATH}/delete`,
    summary: 'Deletes users and ends their sessions.',
    access: 'admin',
    action: 'staff',
    input: deleteUsersBodySchema,
    answer: deleteUsersDataSchema,
  }),
  resetPassword: defineEndpoint({
    method: 'POST',
    path: `/${ADMIN_AREA_PATH}/resetPassword`,
    summary: "Sets a user's password and ends the user's sessions.",
    access: 'admin',
    action: 'staff',
    input: resetPasswordBodySchema,
    answer: resetPasswordDataSchema,
  }),
} as const;
export const ADMIN_USER_PATHS = routePaths(ADMIN_USER_ENDPOINTS);
