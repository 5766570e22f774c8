import type { LimitInfo, COMMON_ROLE, Role } from '../../../contract/session';

type Limits = { members: number; stores: number; dailyCopies: number; collections: number };

/**
 * Quotas per plan, -1 meaning unlimited. The plan is the user's real role (the first assigned role, 'common'
 * without one). `stores`: shops the account may connect; `dailyCopies`: products copied per calendar day (server
 * time); `collections`: items kept in the collection list; `members`: staff logins of the organisation (the owner
 * not counted), enforced when a member is added. `used` is 0 until the shops, copy and collection areas
 * have their tables; those areas then count their own rows and enforce `limit` on add.
 */
export const PLAN_LIMITS: Record<Role | typeof COMMON_ROLE, Limits> = {
  common: { members: 3, stores: 1, dailyCopies: 20, collections: 200 },
  search: { members: 10, stores: 1, dailyCopies: 20, collections: 200 },
  keyword: { members: 10, stores: 1, dailyCopies: 20, collections: 200 },
  follow: { members: 30, stores: 20, dailyCopies: 500, collections: 10000 },
  admin: { members: -1, stores: -1, dailyCopies: -1, collections: -1 },
};

export type UsedCounts = Limits;

export function limitInfo(plan: Role | typeof COMMON_ROLE, used: UsedCounts = { members: 0, stores: 0, dailyCopies: 0, collections: 0 }): LimitInfo {
  const limits = PLAN_LIMITS[plan];
  return {
    plan,
    members: { used: used.members, limit: limits.members },
    stores: { used: used.stores, limit: limits.stores },
    dailyCopies: { used: used.dailyCopies, limit: limits.dailyCopies },
    collections: { used: used.collections, limit: limits.collections },
  };
}
