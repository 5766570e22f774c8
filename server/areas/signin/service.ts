import { and, count, desc, eq, ilike, inArray, isNull, or, type SQL } from 'drizzle-orm';
import {
  OTP_FAILURE_LIMIT,
  OTP_LOCK_MS,
  SENT_CODE_TTL_S,
  SIGNIN_MESSAGES,
  otpPolicySchema,
  type EnrolLoginData,
  type OrgOtpMember,
  type OrgOtpSettings,
  type OtpEnrolment,
  type OtpPolicy,
  type OtpStatus,
  type SaveOrgOtpBody,
  type SignIn,
  type SignInMethod,
  type SignInPage,
} from '../../../contract/signin';
import { loginChallenges, orgMembers, orgRoles, orgSecurity, otpRecoveryCodes, signInLog, userOtp, users, type UserOtpRow } from '../../db/schema';
import { ApiError } from '../../http/errors';
import { decryptSecret, encryptSecret } from '../../marketplace/crypto';
import type { ServiceDeps } from '../session/deps';
import { verifyPassword } from '../session/passwords';
import { BRAND, findUser, issueSession, signInCaller, type AuthUser, type LoginResult, type SignInOrigin } from '../session/service';
import type { OrgContext } from '../team/service';
import { checkCode, newRecoveryCodes, newSecret, otpUri, recoveryCodeHash } from './otp';
import { challengeOf, isEnabled, logSignIn, orgPolicy, otpRequired, otpRow } from './secondStep';

/** The parameters a credential was set up with. */
function policyOf(row: UserOtpRow): OtpPolicy {
  return { type: row.type as OtpPolicy['type'], algorithm: row.algorithm as OtpPolicy['algorithm'], digits: row.digits, period: row.period, window: row.window };
}

async function accountOf(deps: ServiceDeps, userId: number): Promise<number> {
  const [member] = await deps.db.select({ orgId: orgMembers.orgId }).from(orgMembers).where(eq(orgMembers.userId, userId)).limit(1);
  return member?.orgId ?? userId;
}

// ---------------------------------------------------------------- set-up

/** A new pending secret under the organisation's policy; the credential in force (if any) stays until confirmed. */
async function startEnrolment(deps: ServiceDeps, userId: number, username: string): Promise<OtpEnrolment> {
  const { policy } = await orgPolicy(deps.db, await accountOf(deps, userId));
  const secret = newSecret(policy);
  const pending = { pendingSecretEnc: encryptSecret(deps.config.secretKey, secret), pendingPolicy: policy };
  await deps.db.insert(userOtp).values({ userId, ...pending }).onConflictDoUpdate({ target: userOtp.userId, set: pending });
  return { uri: otpUri(policy, secret, username, BRAND.nameEn), secret, type: policy.type, algorithm: policy.algorithm, digits: policy.digits, period: policy.period };
}

async function refuseWhileLocked(deps: ServiceDeps, row: UserOtpRow | undefined): Promise<void> {
  if (row?.lockedUntil && row.lockedUntil.getTime() > deps.now().getTime()) throw new ApiError(429, SIGNIN_MESSAGES.otpLocked, 'code');
}

/** A wrong code: the fifth in a row locks the second step for OTP_LOCK_MS. */
async function countFailure(deps: ServiceDeps, row: UserOtpRow): Promise<void> {
  const failures = row.failures + 1;
  const locked = failures >= OTP_FAILURE_LIMIT;
  await deps.db
    .update(userOtp)
    .set(locked ? { failures: 0, lockedUntil: new Date(deps.now().getTime() + OTP_LOCK_MS) } : { failures })
    .where(eq(userOtp.userId, row.userId));
}

/** Confirms the pending set-up with its first code: it is in force from now, with ten new recovery codes. */
async function confirmEnrolment(deps: ServiceDeps, userId: number, code: string): Promise<string[]> {
  const row = await otpRow(deps.db, userId);
  await refuseWhileLocked(deps, row);
  const parsed = otpPolicySchema.safeParse(row?.pendingPolicy);
  if (!row?.pendingSecretEnc || !parsed.success) throw new ApiError(400, SIGNIN_MESSAGES.otpNotPending, 'code');
  const policy = parsed.data;
  const secret = decryptSecret(deps.config.secretKey, row.pendingSecretEnc);
  const match = checkCode(policy, secret, { counter: 0, lastStep: -1 }, code, deps.now().getTime());
  if (!match) {
    await countFailure(deps, row);
    throw new ApiError(400, SIGNIN_MESSAGES.otpWrong, 'code');
  }
  const [done] = await deps.db
    .update(userOtp)
    .set({
      secretEnc: row.pendingSecretEnc,
      ...policy,
      counter: match.counter,
      lastStep: match.lastStep,
      enabledAt: deps.now(),
      pendingSecretEnc: null,
      pendingPolicy: null,
      failures: 0,
      lockedUntil: null,
    })
    .where(and(eq(userOtp.userId, userId), eq(userOtp.pendingSecretEnc, row.pendingSecretEnc)))
    .returning({ userId: userOtp.userId });
  if (!done) throw new ApiError(400, SIGNIN_MESSAGES.otpNotPending, 'code');
  return replaceRecoveryCodes(deps, userId);
}

async function replaceRecoveryCodes(deps: ServiceDeps, userId: number): Promise<string[]> {
  const codes = newRecoveryCodes();
  await deps.db.transaction(async (tx) => {
    await tx.delete(otpRecoveryCodes).where(eq(otpRecoveryCodes.userId, userId));
    await tx.insert(otpRecoveryCodes).values(codes.map((code) => ({ userId, codeHash: recoveryCodeHash(deps.config.secretKey, code) })));
  });
  return codes;
}

// ---------------------------------------------------------------- checking a code

/**
 * Checks a one-time code (or a recovery code) of an enabled credential and uses it up: the step or counter it matched
 * is stored only if no other request stored it first, so a code works once even when sent twice at the same moment.
 */
export async function useCode(deps: ServiceDeps, userId: number, code: string, recovery: boolean): Promise<void> {
  const row = await otpRow(deps.db, userId);
  if (!isEnabled(row)) throw new ApiError(400, SIGNIN_MESSAGES.otpNotEnabled, 'code');
  await refuseWhileLocked(deps, row);
  if (recovery) {
    const [used] = await deps.db
      .update(otpRecoveryCodes)
      .set({ usedAt: deps.now() })
      .where(and(eq(otpRecoveryCodes.userId, userId), eq(otpRecoveryCodes.codeHash, recoveryCodeHash(deps.config.secretKey, code)), isNull(otpRecoveryCodes.usedAt)))
      .returning({ id: otpRecoveryCodes.id });
    if (!used) {
      await countFailure(deps, row);
      throw new ApiError(400, SIGNIN_MESSAGES.recoveryWrong, 'code');
    }
  } else {
    const secret = decryptSecret(deps.config.secretKey, row.secretEnc);
    const match = checkCode(policyOf(row), secret, row, code, deps.now().getTime());
    const [stored] = match
      ? await deps.db
          .update(userOtp)
          .set({ counter: match.counter, lastStep: match.lastStep })
          .where(and(eq(userOtp.userId, userId), eq(userOtp.counter, row.counter), eq(userOtp.lastStep, row.lastStep)))
          .returning({ userId: userOtp.userId })
      : [];
    if (!stored) {
      await countFailure(deps, row);
      throw new ApiError(400, SIGNIN_MESSAGES.otpWrong, 'code');
    }
  }
  if (row.failures > 0) await deps.db.update(userOtp).set({ failures: 0 }).where(eq(userOtp.userId, userId));
}

// ---------------------------------------------------------------- the login's second step

async function finishLogin(deps: ServiceDeps, challengeId: number, userId: number, origin: SignInOrigin, method: SignInMethod): Promise<LoginResult> {
  const [taken] = await deps.db.delete(loginChallenges).where(eq(loginChallenges.id, challengeId)).returning({ id: loginChallenges.id });
  if (!taken) throw new ApiError(400, SIGNIN_MESSAGES.ticketExpired, 'ticket');
  const user = await findUser(deps, userId);
  if (!user) throw new ApiError(400, SIGNIN_MESSAGES.ticketExpired, 'ticket');
  return issueSession(deps, user, await signInCaller(deps, user), origin, method);
}

/** A sign-in refused at the second step goes to the log with its reason. */
async function logged<T>(deps: ServiceDeps, userId: number, method: SignInMethod, origin: SignInOrigin, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ApiError) {
      const user = await findUser(deps, userId);
      if (user) await logSignIn(deps, { orgId: await accountOf(deps, userId), userId, username: user.username, event: 'login', method, success: false, reason: error.localized('en'), ...origin });
    }
    throw error;
  }
}

export async function loginWithCode(deps: ServiceDeps, body: { ticket: string; code: string; recovery: boolean }, origin: SignInOrigin): Promise<LoginResult> {
  const challenge = await challengeOf(deps, body.ticket, 'otp');
  const method = body.recovery ? 'recovery' : 'otp';
  return logged(deps, challenge.userId, method, origin, async () => {
    await useCode(deps, challenge.userId, body.code, body.recovery);
    return finishLogin(deps, challenge.id, challenge.userId, origin, method);
  });
}

export async function loginEnrolment(deps: ServiceDeps, ticket: string): Promise<OtpEnrolment> {
  const challenge = await challengeOf(deps, ticket, 'enrol');
  const user = await findUser(deps, challenge.userId);
  if (!user) throw new ApiError(400, SIGNIN_MESSAGES.ticketExpired, 'ticket');
  return startEnrolment(deps, user.id, user.username);
}

export async function loginEnrolConfirm(deps: ServiceDeps, body: { ticket: string; code: string }, origin: SignInOrigin): Promise<{ data: EnrolLoginData; refreshToken: string }> {
  const challenge = await challengeOf(deps, body.ticket, 'enrol');
  return logged(deps, challenge.userId, 'enrol', origin, async () => {
    const recoveryCodes = await confirmEnrolment(deps, challenge.userId, body.code);
    const { data, refreshToken } = await finishLogin(deps, challenge.id, challenge.userId, origin, 'enrol');
    return { data: { ...data, recoveryCodes }, refreshToken };
  });
}

// ---------------------------------------------------------------- self-service

export async function otpStatus(deps: ServiceDeps, user: AuthUser): Promise<OtpStatus> {
  const row = await otpRow(deps.db, user.id);
  const enabled = isEnabled(row);
  const [left] = await deps.db
    .select({ n: count() })
    .from(otpRecoveryCodes)
    .where(and(eq(otpRecoveryCodes.userId, user.id), isNull(otpRecoveryCodes.usedAt)));
  return {
    enabled,
    required: await otpRequired(deps.db, user.id, row),
    type: enabled ? policyOf(row).type : null,
    algorithm: enabled ? policyOf(row).algorithm : null,
    digits: enabled ? row.digits : null,
    enabledAt: enabled ? row.enabledAt!.getTime() : null,
    recoveryCodesLeft: enabled ? (left?.n ?? 0) : 0,
  };
}

export const setupOtp = (deps: ServiceDeps, user: AuthUser) => startEnrolment(deps, user.id, user.name);
export const confirmOtp = async (deps: ServiceDeps, user: AuthUser, code: string) => ({ recoveryCodes: await confirmEnrolment(deps, user.id, code) });

export async function regenerateRecoveryCodes(deps: ServiceDeps, user: AuthUser, code: string): Promise<{ recoveryCodes: string[] }> {
  await useCode(deps, user.id, code, false);
  return { recoveryCodes: await replaceRecoveryCodes(deps, user.id) };
}

async function clearOtp(deps: ServiceDeps, userId: number): Promise<number> {
  const cleared = await deps.db
    .update(userOtp)
    .set({ secretEnc: null, enabledAt: null, pendingSecretEnc: null, pendingPolicy: null, failures: 0, lockedUntil: null, counter: 0, lastStep: -1 })
    .where(eq(userOtp.userId, userId))
    .returning({ userId: userOtp.userId });
  await deps.db.delete(otpRecoveryCodes).where(eq(otpRecoveryCodes.userId, userId));
  return cleared.length;
}

export async function disableOtp(deps: ServiceDeps, user: AuthUser, password: string): Promise<null> {
  const row = await otpRow(deps.db, user.id);
  if (!isEnabled(row)) throw new ApiError(400, SIGNIN_MESSAGES.otpNotEnabled);
  if (await otpRequired(deps.db, user.id, row)) throw new ApiError(400, SIGNIN_MESSAGES.otpRequired);
  if (!(await verifyPassword(password, user.row.passwordHash))) throw new ApiError(400, SIGNIN_MESSAGES.wrongPassword, 'password');
  await clearOtp(deps, user.id);
  return null;
}

// ---------------------------------------------------------------- the organisation

async function orgMembersWithOtp(deps: ServiceDeps, orgId: number, roleIds: number[], only?: number): Promise<OrgOtpMember[]> {
  const rows = await deps.db
    .select({
      id: users.id,
      name: users.username,
      nickName: orgMembers.nickName,
      roleId: orgMembers.roleId,
      role: orgRoles.name,
      required: userOtp.required,
      secretEnc: userOtp.secretEnc,
      enabledAt: userOtp.enabledAt,
    })
    .from(orgMembers)
    .innerJoin(users, eq(users.id, orgMembers.userId))
    .leftJoin(orgRoles, eq(orgRoles.id, orgMembers.roleId))
    .leftJoin(userOtp, eq(userOtp.userId, orgMembers.userId))
    .where(only === undefined ? eq(orgMembers.orgId, orgId) : and(eq(orgMembers.orgId, orgId), eq(orgMembers.userId, only)))
    .orderBy(users.id);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    nickName: row.nickName,
    role: row.role ?? '',
    required: row.required ?? false,
    requiredByRole: row.roleId !== null && roleIds.includes(row.roleId),
    enabled: Boolean(row.secretEnc && row.enabledAt),
  }));
}

export async function orgOtpSettings(deps: ServiceDeps, ctx: OrgContext): Promise<OrgOtpSettings> {
  const { policy, roleIds } = await orgPolicy(deps.db, ctx.orgId);
  const roles = await deps.db.select({ id: orgRoles.id, name: orgRoles.name }).from(orgRoles).where(eq(orgRoles.orgId, ctx.orgId)).orderBy(orgRoles.id);
  return { policy, requiredRoleIds: roleIds, roles, members: await orgMembersWithOtp(deps, ctx.orgId, roleIds) };
}

export async function saveOrgOtp(deps: ServiceDeps, ctx: OrgContext, body: Omit<SaveOrgOtpBody, 'orgId'>): Promise<OrgOtpSettings> {
  const roleIds = [...new Set(body.requiredRoleIds)];
  if (roleIds.length > 0) {
    const held = await deps.db.select({ id: orgRoles.id }).from(orgRoles).where(and(eq(orgRoles.orgId, ctx.orgId), inArray(orgRoles.id, roleIds)));
    if (held.length !== roleIds.length) throw new ApiError(400, SIGNIN_MESSAGES.memberNotFound, 'requiredRoleIds');
  }
  const values = { otpPolicy: body.policy, otpRoleIds: roleIds };
  await deps.db.insert(orgSecurity).values({ orgId: ctx.orgId, ...values }).onConflictDoUpdate({ target: orgSecurity.orgId, set: values });
  return orgOtpSettings(deps, ctx);
}

async function memberOf(deps: ServiceDeps, ctx: OrgContext, id: number): Promise<void> {
  const [row] = await deps.db.select({ id: orgMembers.userId }).from(orgMembers).where(and(eq(orgMembers.userId, id), eq(orgMembers.orgId, ctx.orgId))).limit(1);
  if (!row) throw new ApiError(400, SIGNIN_MESSAGES.memberNotFound, 'id');
}

export async function markMember(deps: ServiceDeps, ctx: OrgContext, id: number, required: boolean): Promise<OrgOtpMember> {
  await memberOf(deps, ctx, id);
  await deps.db.insert(userOtp).values({ userId: id, required }).onConflictDoUpdate({ target: userOtp.userId, set: { required } });
  const { roleIds } = await orgPolicy(deps.db, ctx.orgId);
  const [member] = await orgMembersWithOtp(deps, ctx.orgId, roleIds, id);
  return member!;
}

/** An owner's or administrator's reset of a member's one-time password (the operation log records the call). */
export async function resetMember(deps: ServiceDeps, ctx: OrgContext, id: number): Promise<{ count: number }> {
  await memberOf(deps, ctx, id);
  return { count: await clearOtp(deps, id) };
}

export async function dynamicPasswords(deps: ServiceDeps, ctx: OrgContext, query: { page: number; rows: number }) {
  const { policy } = await orgPolicy(deps.db, ctx.orgId);
  const row = {
    id: ctx.orgId,
    type: policy.type === 'totp' ? ('timing' as const) : ('counting' as const),
    algorithm: policy.algorithm,
    digits: policy.digits,
    ttl: SENT_CODE_TTL_S,
    period: policy.period,
    window: policy.window,
    status: 1 as const,
  };
  return { list: query.page === 1 ? [row] : [], total: 1 };
}

// ---------------------------------------------------------------- the sign-in log

function signInOf(row: typeof signInLog.$inferSelect): SignIn {
  return {
    id: row.id,
    userId: row.userId,
    username: row.username,
    at: row.at.getTime(),
    event: row.event as SignIn['event'],
    method: row.method as SignIn['method'],
    success: row.success,
    reason: row.reason,
    ip: row.ip,
    browser: row.browser,
  };
}

async function signInPage(deps: ServiceDeps, where: SQL | undefined, page: number, rows: number): Promise<SignInPage> {
  const [total] = await deps.db.select({ n: count() }).from(signInLog).where(where);
  const list = await deps.db
    .select()
    .from(signInLog)
    .where(where)
    .orderBy(desc(signInLog.at), desc(signInLog.id))
    .limit(rows)
    .offset((page - 1) * rows);
  return { list: list.map(signInOf), total: total?.n ?? 0 };
}

export function orgSignInWhere(ctx: OrgContext, query: { keyword?: string; success?: 'true' | 'false' }): SQL | undefined {
  const parts: (SQL | undefined)[] = [eq(signInLog.orgId, ctx.orgId)];
  if (query.keyword) {
    const like = `%${query.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    parts.push(or(ilike(signInLog.username, like), ilike(signInLog.ip, like), ilike(signInLog.browser, like)));
  }
  if (query.success) parts.push(eq(signInLog.success, query.success === 'true'));
  return and(...parts);
}

export const orgSignIns = (deps: ServiceDeps, ctx: OrgContext, query: { page: number; rows: number; keyword?: string; success?: 'true' | 'false' }) =>
  signInPage(deps, orgSignInWhere(ctx, query), query.page, query.rows);

/** The rows an export holds at most (the access log's export keeps to the same). */
export const SIGN_IN_EXPORT_MAX = 50_000;

/** The organisation's sign-in log for an export: the list's filters, newest first. */
export async function orgSignInsForExport(deps: ServiceDeps, ctx: OrgContext, query: { keyword?: string; success?: 'true' | 'false' }): Promise<SignIn[]> {
  const rows = await deps.db.select().from(signInLog).where(orgSignInWhere(ctx, query)).orderBy(desc(signInLog.at), desc(signInLog.id)).limit(SIGN_IN_EXPORT_MAX);
  return rows.map(signInOf);
}

export const ownSignIns = (deps: ServiceDeps, user: AuthUser, query: { page: number; rows: number }) =>
  signInPage(deps, eq(signInLog.userId, user.id), query.page, query.rows);

