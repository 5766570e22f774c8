import {
  ADMIN_USER_PATHS,
  adminUserPageSchema,
  adminUserSchema,
  deleteUsersDataSchema,
  type AddUserBody,
  type AdminUser,
  type AdminUserPage,
  type ResetPasswordBody,
  type UpdateUserBody,
} from '../contract/admin';
import {
  currentFeatureUpdateDataSchema,
  deletedDataSchema,
  featureUpdatePageSchema,
  featureUpdateSchema,
  FEATURE_UPDATE_PATHS,
  NOTICE_PATHS,
  noticePageSchema,
  noticeRowSchema,
  type AddFeatureUpdateBody,
  type AddNoticeBody,
  type CurrentFeatureUpdate,
  type FeatureUpdate,
  type FeatureUpdatePage,
  type NoticePage,
  type NoticeRow,
  type UpdateFeatureUpdateBody,
  type UpdateNoticeBody,
} from '../contract/notice';
import type { HttpClient } from './http/client';

/** Query strings as the worker sends them (the contract's input types are looser: the server coerces). */
export type PageParams = { page: number; rows: number };
export type AdminUserQuery = PageParams & { search?: string; role?: string; status?: 'active' | 'expired' };

/** The contract's paths carry the /api base; the client adds it itself. */
const under = (path: string) => path.replace(/^\/api/, '');

/** The administrator's user manager (seller-tool §7 "Administration"); admin-only on the server. */
export type AdminApi = {
  listUsers(query: AdminUserQuery): Promise<AdminUserPage>;
  addUser(body: AddUserBody): Promise<AdminUser>;
  updateUser(body: UpdateUserBody): Promise<AdminUser>;
  deleteUsers(ids: number[]): Promise<{ deleted: number }>;
  resetPassword(body: ResetPasswordBody): Promise<unknown>;
};

/** The notice manager, and the feature-update announcement every user's dialog reads (§2.4). */
export type NoticeApi = {
  list(query: PageParams): Promise<NoticePage>;
  add(body: AddNoticeBody): Promise<NoticeRow>;
  update(body: UpdateNoticeBody): Promise<NoticeRow>;
  delete(ids: number[]): Promise<{ deleted: number }>;
  currentFeatureUpdate(): Promise<CurrentFeatureUpdate | null>;
  /** The administrator's feature-update announcements (admin-only on the server), newest start first. */
  listFeatureUpdates(query: PageParams): Promise<FeatureUpdatePage>;
  addFeatureUpdate(body: AddFeatureUpdateBody): Promise<FeatureUpdate>;
  updateFeatureUpdate(body: UpdateFeatureUpdateBody): Promise<FeatureUpdate>;
  deleteFeatureUpdates(ids: number[]): Promise<{ deleted: number }>;
};

export function createAdminApi(client: HttpClient): AdminApi {
  return {
    listUsers: (query) =>
      client.request(under(ADMIN_USER_PATHS.list), { method: 'GET', params: { ...query }, cancelKey: 'admin.listUsers', schema: adminUserPageSchema }),
    addUser: (body) => client.request(under(ADMIN_USER_PATHS.add), { method: 'POST', body, schema: adminUserSchema }),
    updateUser: (body) => client.request(under(ADMIN_USER_PATHS.update), { method: 'POST', body, schema: adminUserSchema }),
    deleteUsers: (ids) => client.request(under(ADMIN_USER_PATHS.delete), { method: 'POST', body: { ids }, schema: deleteUsersDataSchema }),
    resetPassword: (body) => client.request(under(ADMIN_USER_PATHS.resetPassword), { method: 'POST', body }),
  };
}

export function createNoticeApi(client: HttpClient): NoticeApi {
  return {
    list: (query) => client.request(under(NOTICE_PATHS.list), { method: 'GET', params: { ...query }, cancelKey: 'notice.list', schema: noticePageSchema }),
    add: (body) => client.request(under(NOTICE_PATHS.add), { method: 'POST', body, schema: noticeRowSchema }),
    update: (body) => client.request(under(NOTICE_PATHS.update), { method: 'POST', body, schema: noticeRowSchema }),
    delete: (ids) => client.request(under(NOTICE_PATHS.delete), { method: 'POST', body: { ids }, schema: deletedDataSchema }),
    currentFeatureUpdate: () =>
      client.request(under(FEATURE_UPDATE_PATHS.current), { method: 'GET', silent: true, schema: currentFeatureUpdateDataSchema }),
    listFeatureUpdates: (query) =>
      client.request(under(FEATURE_UPDATE_PATHS.list), {
        method: 'GET',
        params: { ...query },
        cancelKey: 'featureUpdate.list',
        schema: featureUpdatePageSchema,
      }),
    addFeatureUpdate: (body) => client.request(under(FEATURE_UPDATE_PATHS.add), { method: 'POST', body, schema: featureUpdateSchema }),
    updateFeatureUpdate: (body) => client.request(under(FEATURE_UPDATE_PATHS.update), { method: 'POST', body, schema: featureUpdateSchema }),
    deleteFeatureUpdates: (ids) =>
      client.request(under(FEATURE_UPDATE_PATHS.delete), { method: 'POST', body: { ids }, schema: deletedDataSchema }),
  };
}
