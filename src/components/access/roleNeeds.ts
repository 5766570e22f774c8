import { ROLE_PERIOD, type Role } from '@contract/access';
import type { ValidityTimes } from '@contract/session';

/**
 * Where a signed-in person stands with one of the roles that open a page or module: holding it (within its paid
 * period), holding it with the period over (or never set), or not holding it. What the no-permission page and the
 * home page's module cards say follows from this.
 */
export type RoleNeed = {
  role: Role;
  /** The paid period that keeps the role active; null for admin. */
  period: keyof ValidityTimes | null;
  state: 'active' | 'expired' | 'missing';
  /** When the period ends or ended; null when none is set. */
  until: number | null;
};

/** `roleTime` null: periods are not checked (an administrator viewing the tool as a role holds it fully). */
export type RoleHolder = { roles: readonly string[]; roleTime: ValidityTimes | null };

export function roleNeeds(roles: readonly Role[], holder: RoleHolder, now: number = Date.now()): RoleNeed[] {
  return roles.map((role) => {
    const period = role === 'admin' ? null : ROLE_PERIOD[role];
    const until = period && holder.roleTime ? holder.roleTime[period] : null;
    if (!holder.roles.includes(role)) return { role, period, state: 'missing', until };
    const active = period === null || holder.roleTime === null || (until !== null && until > now);
    return { role, period, state: active ? 'active' : 'expired', until };
  });
}
