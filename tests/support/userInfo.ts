import type { UserInfo } from '../../contract/session';

/** A user's info as GET /api/getInfo gives it: one role, active, no validity dates. */
export function userInfoOf(id: number, role: string): UserInfo {
  return {
    roles: [role],
    rolePermissions: [role],
    permissions: null,
    user: {
      id,
      name: 'seller',
      avatar: '',
      introduction: '',
      followValidTime: null,
      plugValidTime: null,
      searchWordValidTime: null,
      keyWordValidTime: null,
      rightInfo: { activeRoles: [role], expiredRoles: [], isAdmin: false },
    },
  };
}
