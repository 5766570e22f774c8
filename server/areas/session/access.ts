import { ROLE_PERIOD } from '../../../contract/access';
import { ROLES, COMMON_ROLE, type Role, type ValidityTimes } from '../../../contract/session';
import type { UserRow } from '../../db/schema';

/** Which validity period keeps each paid role active; admin needs none (the browser says the same, from one table). */
const VALIDITY_OF_ROLE: Record<Exclude<Role, 'admin'>, keyof ValidityTimes> = ROLE_PERIOD;

export function assignedRoles(user: Pick<UserRow, 'roles'>): Role[] {
  return user.roles.filter((role): role is Role => (ROLES as readonly string[]).includes(role));
}

export function validityTimes(user: UserRow): ValidityTimes {
  return {
    followValidTime: user.followValidTime?.getTime() ?? null,
    plugValidTime: user.plugValidTime?.getTime() ?? null,
    searchWordValidTime: user.searchWordValidTime?.getTime() ?? null,
    keyWordValidTime: user.keyWordValidTime?.getTime() ?? null,
  };
}

/** Assigned roles whose paid period is current at `now`; admin is always active. */
export function activeRoles(user: UserRow, now: Date): Role[] {
  const times = validityTimes(user);
  return assignedRoles(user).filter((role) => {
    if (role === 'admin') return true;
    const until = times[VALIDITY_OF_ROLE[role]];
    return until !== null && until > now.getTime();
  });
}

/** What route filtering and call gating use: the active roles, or ['common'] when none is active. */
export function rolePermissions(active: readonly Role[]): string[] {
  return active.length > 0 ? [...active] : [COMMON_ROLE];
}

/** The latest end of the user's validity periods, or null when there is none. */
export function latestValidTime(user: UserRow): number | null {
  const times = Object.values(validityTimes(user)).filter((time): time is number => time !== null);
  return times.length > 0 ? Math.max(...times) : null;
}
