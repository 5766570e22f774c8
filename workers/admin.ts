import {
  ADMIN_USER_ENDPOINTS,
  type AddUserBody,
  type AdminUserListQuery,
  type AdminUser,
  type AdminUserPage,
  type ResetPasswordBody,
  type UpdateUserBody,
} from '../contract/admin';
import {
  FEATURE_UPDATE_ENDPOINTS,
  NOTICE_ENDPOINTS,
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
  const E = ADMIN_USER_ENDPOINTS;
  return {
    // The role filter is whatever the page's select holds; the server refuses one it does not know.
    listUsers: (query) => client.call(E.list, query as AdminUserListQuery),
    addUser: (body) => client.call(E.add, body),
    updateUser: (body) => client.call(E.update, body),
    deleteUsers: (ids) => client.call(E.delete, { ids }),
    resetPassword: (body) => client.call(E.resetPassword, body),
  };
}

export function createNoticeApi(client: HttpClient): NoticeApi {
  const N = NOTICE_ENDPOINTS;
  const F = FEATURE_UPDATE_ENDPOINTS;
  return {
    list: (query) => client.call(N.list, query),
    add: (body) => client.call(N.add, body),
    update: (body) => client.call(N.update, body),
    delete: (ids) => client.call(N.delete, { ids }),
    currentFeatureUpdate: () => client.call(F.current),
    listFeatureUpdates: (query) => client.call(F.list, query),
    addFeatureUpdate: (body) => client.call(F.add, body),
    updateFeatureUpdate: (body) => client.call(F.update, body),
    deleteFeatureUpdates: (ids) => client.call(F.delete, { ids }),
  };
}
