import { and, eq, gt, lt } from 'drizzle-orm';
import { DEFAULT_OTP_POLICY, SIGNIN_MESSAGES, LOGIN_TICKET_TTL_S, otpPolicySchema, type OtpPolicy, type SecondStep, type SignInMethod } from '../../../contract/signin';
import type { Db } from '../../db/database';
import { loginChallenges, orgMembers, orgSecurity, signInLog, userOtp, type UserOtpRow } from '../../db/schema';
import { ApiError } from '../../http/errors';
import type { ServiceDeps } from '../session/deps';
import { hashToken, newToken } from '../session/passwords';

/**
 * What the login asks after a right password (the session service calls this before it issues a session), and the
 * sign-in log. Kept apart from ./service.ts, which issues sessions through the session service.
 */

export async function otpRow(db: Db, userId: number): Promise<UserOtpRow | undefined> {
  const [row] = await db.select().from(userOtp).where(eq(userOtp.userId, userId)).limit(1);
  return row;
}

export async function orgPolicy(db: Db, orgId: number): Promise<{ policy: OtpPolicy; roleIds: number[] }> {
  const [row] = await db.select().from(orgSecurity).where(eq(orgSecurity.orgId, orgId)).limit(1);
  const parsed = otpPolicySchema.safeParse(row?.otpPolicy);
  return { policy: parsed.success ? parsed.data : DEFAULT_OTP_POLICY, roleIds: row?.otpRoleIds ?? [] };
}

/** Whether the organisation requires a one-time password of this person: marked one by one, or through their role. */
export async function otpRequired(db: Db, userId: number, otp: UserOtpRow | undefined): Promise<boolean> {
  if (otp?.required) return true;
  const [member] = await db.select({ orgId: orgMembers.orgId, roleId: orgMembers.roleId }).from(orgMembers).where(eq(orgMembers.userId, userId)).limit(1);
  if (!member || member.roleId === null) return false;
  const { roleIds } = await orgPolicy(db, member.orgId);
  return roleIds.includes(member.roleId);
}

export function isEnabled(otp: UserOtpRow | undefined): otp is UserOtpRow & { secretEnc: string } {
  return Boolean(otp?.secretEnc && otp.enabledAt);
}

/**
 * The second step a login with the right password still needs: a code for an enabled one-time password, a set-up
 * for a person required to have one (they cannot skip it), null otherwise. The ticket is kept hashed.
 */
export async function secondStepFor(deps: ServiceDeps, userId: number, ip: string): Promise<SecondStep | null> {
  const otp = await otpRow(deps.db, userId);
  const kind = isEnabled(otp) ? 'otp' : (await otpRequired(deps.db, userId, otp)) ? 'enrol' : null;
  if (!kind) return null;
  const now = deps.now();
  const ticket = newToken();
  await deps.db.delete(loginChallenges).where(lt(loginChallenges.expiresAt, now));
  await deps.db.insert(loginChallenges).values({ ticketHash: hashToken(ticket), userId, kind, ip, expiresAt: new Date(now.getTime() + LOGIN_TICKET_TTL_S * 1000) });
  return { secondStep: kind, ticket, otpType: kind === 'otp' ? (otp!.type as SecondStep['otpType']) : null };
}

/** The live challenge of a ticket, of the kind the call is for; 400 ticketExpired otherwise. */
export async function challengeOf(deps: ServiceDeps, ticket: string, kind: 'otp' | 'enrol') {
  const [row] = await deps.db
    .select()
    .from(loginChallenges)
    .where(and(eq(loginChallenges.ticketHash, hashToken(ticket)), gt(loginChallenges.expiresAt, deps.now())))
    .limit(1);
  if (!row || row.kind !== kind) throw new ApiError(400, SIGNIN_MESSAGES.ticketExpired, 'ticket');
  return row;
}

export type SignInEntry = {
  orgId: number;
  userId: number | null;
  username: string;
  event: 'login' | 'logout' | 'reset';
  method: SignInMethod;
  success: boolean;
  reason?: string;
  ip: string;
  browser: string;
};

/** One line of the sign-in log; a failed write is not the sign-in's failure. */
export async function logSignIn(deps: ServiceDeps, entry: SignInEntry): Promise<void> {
  try {
    await deps.db.insert(signInLog).values({ ...entry, reason: entry.reason ?? '', browser: entry.browser.slice(0, 300), at: deps.now() });
  } catch {
    // The log is a record, not a gate.
  }
}
