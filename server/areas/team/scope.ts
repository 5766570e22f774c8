import { and, eq, inArray } from 'drizzle-orm';
import type { DataScope } from '../../../contract/access';
import { mpShops, orgDepartments, orgMembers, orgRoles, users, type OrgMemberRow, type OrgRoleRow, type UserRow } from '../../db/schema';
import type { Db } from '../../db/database';

/**
 * Who a signed-in person acts for, and how far (issue "Teams"): an owner (any account that is not a member) acts for
 * itself with every permission and every shop; a member acts for its owner's account with its role's permissions and
 * shop scope. Read from the database on every call, so a role or shop taken away applies to the next call.
 */
export type AccountScope = {
  /** The account whose data the person works on: the owner for a member, the person otherwise. */
  account: UserRow;
  member: OrgMemberRow | null;
  role: OrgRoleRow | null;
  /** Granted `area:action` permissions; null: everything. */
  permissions: string[] | null;
  /** The shops of the account the person may see; null: every one. */
  shopScope: number[] | null;
  /** Entered orders, designs and uploads: only the person's own. */
  ownRecords: boolean;
};

/** A member whose organisation is gone, or who is disabled: no access at all (the caller answers 402). */
export class MemberInactive extends Error {}

export async function accountScope(db: Db, user: UserRow): Promise<AccountScope> {
  if (!user.isAp || user.relativeId === null) return { account: user, member: null, role: null, permissions: null, shopScope: null, ownRecords: false };
  const [found] = await db
    .select({ member: orgMembers, role: orgRoles, owner: users })
    .from(orgMembers)
    .innerJoin(users, eq(users.id, orgMembers.orgId))
    .leftJoin(orgRoles, and(eq(orgRoles.id, orgMembers.roleId), eq(orgRoles.orgId, orgMembers.orgId)))
    .where(and(eq(orgMembers.userId, user.id), eq(orgMembers.orgId, user.relativeId)))
    .limit(1);
  // Linked by the administrator (ops console) without joining an organisation: an account of its own, as before.
  if (!found) return { account: user, member: null, role: null, permissions: null, shopScope: null, ownRecords: false };
  if (found.member.status !== 'enabled') throw new MemberInactive();
  const { member, role, owner } = found;
  return {
    account: owner,
    member,
    role,
    permissions: role ? [...role.permissions] : [],
    shopScope: await memberShops(db, owner.id, member, role),
    ownRecords: role?.ownRecords ?? false,
  };
}

/** The shops a role's data scope reaches for one member, narrowed by the member's own list; null: every shop. */
export async function memberShops(db: Db, orgId: number, member: Pick<OrgMemberRow, 'deptId' | 'shopIds'>, role: Pick<OrgRoleRow, 'dataScope' | 'shopIds' | 'applySubDept'> | null): Promise<number[] | null> {
  const scope = (role?.dataScope ?? 'shops') as DataScope;
  let reach: number[] | null;
  if (!role) reach = [];
  else if (scope === 'all') reach = null;
  else if (scope === 'shops') reach = [...role.shopIds];
  else reach = member.deptId === null ? [] : await departmentShops(db, orgId, member.deptId, scope === 'deptAndBelow' || role.applySubDept);
  if (member.shopIds !== null) reach = reach === null ? [...member.shopIds] : reach.filter((id) => member.shopIds!.includes(id));
  if (reach === null) return null;
  if (reach.length === 0) return [];
  // Only shops the organisation still holds: a deleted or foreign id reaches nothing.
  const rows = await db
    .select({ id: mpShops.id })
    .from(mpShops)
    .where(and(eq(mpShops.userId, orgId), inArray(mpShops.id, [...new Set(reach)])));
  return rows.map((row) => row.id).sort((a, b) => a - b);
}

/** The shops of a department, and of every department below it when `below` (an organisation's tree is small). */
async function departmentShops(db: Db, orgId: number, deptId: number, below: boolean): Promise<number[]> {
  const depts = await db.select({ id: orgDepartments.id, parentId: orgDepartments.parentId, shopIds: orgDepartments.shopIds }).from(orgDepartments).where(eq(orgDepartments.orgId, orgId));
  const reached = new Set<number>([deptId]);
  if (below) {
    for (let grew = true; grew; ) {
      grew = false;
      for (const dept of depts) {
        if (dept.parentId !== null && reached.has(dept.parentId) && !reached.has(dept.id)) {
          reached.add(dept.id);
          grew = true;
        }
      }
    }
  }
  return depts.filter((dept) => reached.has(dept.id)).flatMap((dept) => dept.shopIds);
}
