import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, isNull, ne, or, sql } from 'drizzle-orm';
import { COMMON_ROLE, type Brand, type ChangePswData, type LimitInfo, type LoginData, type Notice, type RegisterData, type Role, type UserInfo } from '../../../contract/session';
import { message } from '../../../contract/errors';
import type { SecondStep, SignInMethod } from '../../../contract/signin';
import { TEAM_MESSAGES } from '../../../contract/team';
import { notices, orgMembers, sessions, users, type SessionRow, type UserRow } from '../../db/schema';
import { ApiError } from '../../http/errors';
import { checkAtSignIn, enforcePassword, policyOrgOf, replacedPassword, subjectOf } from '../signin/passwordPolicy';
import { logSignIn, secondStepFor } from '../signin/secondStep';
import { accountScope, MemberInactive, type AccountScope } from '../team/scope';
import { activeRoles, assignedRoles, latestValidTime, rolePermissions, validityTimes } from './access';
import { consumeCaptcha } from './captcha';
import type { ServiceDeps } from './deps';
import { limitInfo, PLAN_LIMITS } from './limits';
import { checkLoginLimit, clearLoginFailures, recordLoginFailure } from './loginLimit';
import { dummyPasswordHash, hashPassword, hashToken, newToken, verifyPassword } from './passwords';

/** The logged-in caller, as `request.user`. */
export type AuthUser = {
  /** The person: their session, password, chat identity and own records. */
  id: number;
  /**
   * Whose data the person works on: the owner's account for a member of an organisation, the person otherwise.
   * Rows owned by a seller (shops, orders, products ...) are read and written under this id.
   */
  accountId: number;
  /** A member of another account's organisation (users.is_ap). */
  isMember: boolean;
  /** The member's granted `area:action` permissions (contract/access.ts); null: everything (owners, the administrator). */
  permissions: string[] | null;
  /** The shops of the account the person may see; null: every shop of the account. */
  shopScope: number[] | null;
  /** Entered orders, designs and uploads: only the person's own. */
  ownRecords: boolean;
  name: string;
  /** Assigned roles. */
  roles: Role[];
  /** Assigned roles whose validity is current (admin always): what calls are gated on. */
  activeRoles: Role[];
  /** `activeRoles`, or ['common'] when none: the argument of contract/access.ts `isPermitted`. */
  rolePermissions: string[];
  isAdmin: boolean;
  sessionId: number;
  /** A member's department, position and organisation role (what access policies name); null for an owner. */
  member: { deptId: number | null; positionId: number | null; roleId: number | null } | null;
  /** When the session last took a one-time code (login or step-up), epoch ms; null: never. */
  stepUpAt: number | null;
  /** Set when the caller is an API token (server/areas/access/tokens.ts): its id and name, for the logs. */
  apiToken: { id: number; name: string } | null;
  row: UserRow;
  /** The account's row (the owner's for a member): the roles and paid periods the person works within. */
  account: UserRow;
};

/** lastSeen is a hint for administrators, not an audit log: write it at most once a minute per session. */
const LAST_SEEN_RESOLUTION_MS = 60_000;

export const BRAND: Brand = {
  name: '跨境卖家后台',
  nameEn: 'Seller Back Office',
  siteTitle: '跨境卖家后台',
  logo: '/logo.svg',
  docsUrl: '/docs',
  pluginUrl: '/plugin/download',
};

export function newPasswordStamp(): string {
  return randomBytes(24).toString('base64url');
}

export async function findUserByName(deps: ServiceDeps, username: string): Promise<UserRow | undefined> {
  const [row] = await deps.db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.username})`, username.toLowerCase()))
    .limit(1);
  return row;
}

export async function findUser(deps: ServiceDeps, id: number): Promise<UserRow | undefined> {
  const [row] = await deps.db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

export async function register(deps: ServiceDeps, body: { username: string; password: string; code: string; uuid: string }): Promise<RegisterData> {
  await consumeCaptcha(deps, body.uuid, body.code);
  if (await findUserByName(deps, body.username)) throw new ApiError(507, 'duplicateUser', 'username');
  // A new account belongs to no organisation yet: the whole app's policy.
  await enforcePassword(deps.db, { orgId: null, subject: { username: body.username } }, body.password, 'password');
  try {
    const now = deps.now();
    const [row] = await deps.db
      .insert(users)
      .values({ username: body.username, passwordHash: await hashPassword(body.password), passwordStamp: newPasswordStamp(), createdAt: now, passwordChangedAt: now })
      .returning({ id: users.id, name: users.username });
    if (!row) throw new Error('insert returned no row');
    return row;
  } catch (error) {
    // Two registrations racing for one name: the unique index decides.
    if (isUniqueViolation(error)) throw new ApiError(507, 'duplicateUser', 'username');
    throw error;
  }
}

export type LoginResult = { data: LoginData; refreshToken: string };
/** A right password answers a session, or the second step the account still needs (no session, no cookie yet). */
export type PasswordStepResult = LoginResult | { data: SecondStep; refreshToken: null };
/** Where a sign-in comes from, for the limits and the sign-in log. */
export type SignInOrigin = { ip: string; browser: string };

export async function login(
  deps: ServiceDeps,
  body: { username: string; password: string; code: string; uuid: string },
  origin: SignInOrigin,
): Promise<PasswordStepResult> {
  const { ip } = origin;
  const key = body.username.toLowerCase();
  const user = await findUserByName(deps, body.username);
  const entry = { orgId: user ? (user.isAp && user.relativeId ? user.relativeId : user.id) : 0, userId: user?.id ?? null, username: body.username, event: 'login', method: 'password', ...origin } as const;
  try {
    await checkLoginLimit(deps, key, ip, user?.id ?? null);
    await consumeCaptcha(deps, body.uuid, body.code);
  } catch (error) {
    if (error instanceof ApiError) await logSignIn(deps, { ...entry, success: false, reason: error.localized('en') });
    throw error;
  }
  // An unknown name costs the same hashing as a wrong password, so the answer's timing does not tell which it was.
  const verified = await verifyPassword(body.password, user?.passwordHash ?? (await dummyPasswordHash()));
  if (!user || !verified) {
    await recordLoginFailure(deps, key, ip);
    await logSignIn(deps, { ...entry, success: false, reason: message('wrongCredentials', 'en') });
    throw new ApiError(400, 'wrongCredentials');
  }
  await clearLoginFailures(deps, key, ip);
  const caller = await signInCaller(deps, user);
  // An expired password, or one the policy no longer accepts, must be changed before the session does anything else.
  user.passwordChange = await checkAtSignIn(deps, user, body.password);
  const step = await secondStepFor(deps, user.id, ip);
  if (step) return { data: step, refreshToken: null };
  return issueSession(deps, user, caller, origin, 'password');
}

/** The person about to be signed in; a disabled member is refused with the reason. */
export async function signInCaller(deps: ServiceDeps, user: UserRow): Promise<AuthUser> {
  return toAuthUser(deps, user, 0, deps.now()).catch((error: unknown) => {
    if (error instanceof ApiError && error.code === 402) throw new ApiError(400, TEAM_MESSAGES.memberDisabled);
    throw error;
  });
}

/** A new session for a person whose every step of the login is done, written to the sign-in log. */
export async function issueSession(deps: ServiceDeps, user: UserRow, caller: AuthUser, origin: SignInOrigin, method: SignInMethod): Promise<LoginResult> {
  const now = deps.now();
  const token = newToken();
  const refreshToken = newToken();
  await deps.db.insert(sessions).values({
    userId: user.id,
    accessTokenHash: hashToken(token),
    accessExpiresAt: new Date(now.getTime() + deps.config.accessTokenTtlS * 1000),
    refreshTokenHash: hashToken(refreshToken),
    refreshExpiresAt: new Date(now.getTime() + deps.config.refreshTokenTtlS * 1000),
    createdAt: now,
    lastSeenAt: now,
    ip: origin.ip,
    // A login that took a one-time code counts as one for access policies' multi-factor (contract/accessPolicy.ts).
    stepUpAt: method === 'otp' || method === 'enrol' ? now : null,
  });
  await logSignIn(deps, { orgId: caller.accountId, userId: user.id, username: user.username, event: 'login', method, success: true, ...origin });
  const roles = caller.roles;
  return {
    refreshToken,
    data: {
      token,
      id: user.id,
      name: user.username,
      right: roles.includes('admin') ? '1' : user.right,
      validTime: latestValidTime(caller.account),
      isAp: user.isAp,
      relative_id: user.relativeId,
      auto: user.passwordStamp,
      passwordChange: user.passwordChange === 'expired' || user.passwordChange === 'policy' ? user.passwordChange : null,
    },
  };
}

/**
 * The caller as the routes see it. A member works within the owner's roles and paid periods (never the
 * administrator's role) and with the permissions and shops of their organisation role, all read now: a change applies
 * to the next call. A disabled member, or one whose organisation is gone, answers 402 (sessions ended).
 */
export async function toAuthUser(deps: Pick<ServiceDeps, 'db'>, user: UserRow, sessionId: number, now: Date): Promise<AuthUser> {
  let scope: AccountScope;
  try {
    scope = await accountScope(deps.db, user);
  } catch (error) {
    if (error instanceof MemberInactive) throw new ApiError(402, 'tokenExpired');
    throw error;
  }
  const member = scope.account.id !== user.id;
  const account = member ? { ...scope.account, roles: scope.account.roles.filter((role) => role !== 'admin') } : user;
  const active = activeRoles(account, now);
  const roles = assignedRoles(account);
  return {
    id: user.id,
    accountId: scope.account.id,
    isMember: member,
    permissions: scope.permissions,
    shopScope: scope.shopScope,
    ownRecords: scope.ownRecords,
    name: user.username,
    roles,
    activeRoles: active,
    rolePermissions: rolePermissions(active),
    isAdmin: roles.includes('admin'),
    sessionId,
    member: scope.member ? { deptId: scope.member.deptId, positionId: scope.member.positionId, roleId: scope.member.roleId } : null,
    stepUpAt: null,
    apiToken: null,
    row: user,
    account,
  };
}

/** Who a person works for and which shops they see, now (the push hub's re-read); null when they may not go on. */
export async function personScope(deps: ServiceDeps, userId: number): Promise<{ accountId: number; shopScope: number[] | null } | null> {
  const user = await findUser(deps, userId);
  if (!user) return null;
  try {
    const caller = await toAuthUser(deps, user, 0, deps.now());
    return { accountId: caller.accountId, shopScope: caller.shopScope };
  } catch (error) {
    if (error instanceof ApiError && error.code === 402) return null;
    throw error;
  }
}

/**
 * The caller behind an access token. Unknown, ended or expired tokens, and a user id that is not the token's,
 * all answer 402: the client then tries one refresh, and logs out when that fails too.
 */
export async function authenticate(deps: ServiceDeps, token: string | undefined, userId: string | undefined): Promise<AuthUser> {
  if (!token || !userId) throw new ApiError(402, 'tokenExpired');
  const now = deps.now();
  const [session] = await deps.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.accessTokenHash, hashToken(token)), isNull(sessions.endedAt)))
    .limit(1);
  if (!session || session.accessExpiresAt.getTime() <= now.getTime() || String(session.userId) !== userId.trim()) {
    throw new ApiError(402, 'tokenExpired');
  }
  return sessionUser(deps, session);
}

/** The user of a live session (noting that it was seen); 402 when the user is gone. */
export async function sessionUser(deps: ServiceDeps, session: SessionRow): Promise<AuthUser> {
  const now = deps.now();
  const user = await findUser(deps, session.userId);
  if (!user) throw new ApiError(402, 'tokenExpired');
  if (now.getTime() - session.lastSeenAt.getTime() > LAST_SEEN_RESOLUTION_MS) {
    await deps.db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, session.id));
  }
  const caller = await toAuthUser(deps, user, session.id, now);
  return session.stepUpAt ? { ...caller, stepUpAt: session.stepUpAt.getTime() } : caller;
}

/**
 * How long after a rotation the refresh credential it replaced still counts: two tabs of one browser that met a 402
 * together both send the same cookie, and the one that loses the race must not end the session. Within it the late
 * refresh gets an access token and leaves the cookie alone (the browser keeps the one the first refresh set).
 */
export const REFRESH_REUSE_GRACE_MS = 30_000;

export type RefreshResult =
  /** `refreshToken`: the session's new refresh credential, for the cookie (null: keep the cookie the browser has). */
  | { kind: 'refreshed'; token: string; refreshToken: string | null; refreshMaxAgeS: number }
  /** A replaced refresh credential came back after the grace: the session is ended; close its sockets. */
  | { kind: 'reused'; sessionId: number };

/**
 * A new access token for the session of the refresh cookie, and a new refresh credential in place of the one used
 * (rotation: each refresh credential works once). The one a rotation replaced, presented again after
 * REFRESH_REUSE_GRACE_MS, ends the session: either the user or someone holding a stolen copy used it first, and the
 * server cannot tell which, so both lose the session and the user logs in again. One replaced credential is kept per
 * session: older ones are unknown (401) and carry nothing. 401 when the session cannot be continued.
 */
export async function refreshAccessToken(deps: ServiceDeps, userId: string | undefined, refreshToken: string | undefined): Promise<RefreshResult> {
  if (!refreshToken || !userId) throw new ApiError(401, 'unauthorized');
  const now = deps.now();
  const presented = hashToken(refreshToken);
  const find = async () => {
    const [row] = await deps.db
      .select()
      .from(sessions)
      .where(and(or(eq(sessions.refreshTokenHash, presented), eq(sessions.previousRefreshTokenHash, presented)), isNull(sessions.endedAt)))
      .limit(1);
    if (!row || row.refreshExpiresAt.getTime() <= now.getTime() || String(row.userId) !== userId.trim()) throw new ApiError(401, 'unauthorized');
    return row;
  };
  let session = await find();
  const token = newToken();
  const access = { accessTokenHash: hashToken(token), accessExpiresAt: new Date(now.getTime() + deps.config.accessTokenTtlS * 1000), lastSeenAt: now };
  const refreshMaxAgeS = Math.max(1, Math.floor((session.refreshExpiresAt.getTime() - now.getTime()) / 1000));
  if (session.refreshTokenHash === presented) {
    const next = newToken();
    // Only if no other refresh rotated it meanwhile (another tab, another instance): one of them wins.
    const [rotated] = await deps.db
      .update(sessions)
      .set({ ...access, refreshTokenHash: hashToken(next), previousRefreshTokenHash: presented, refreshRotatedAt: now })
      .where(and(eq(sessions.id, session.id), eq(sessions.refreshTokenHash, presented), isNull(sessions.endedAt)))
      .returning({ id: sessions.id });
    if (rotated) return { kind: 'refreshed', token, refreshToken: next, refreshMaxAgeS };
    session = await find();
  }
  const rotatedAt = session.refreshRotatedAt?.getTime() ?? Number.NEGATIVE_INFINITY;
  if (now.getTime() - rotatedAt <= REFRESH_REUSE_GRACE_MS) {
    await deps.db.update(sessions).set(access).where(and(eq(sessions.id, session.id), isNull(sessions.endedAt)));
    return { kind: 'refreshed', token, refreshToken: null, refreshMaxAgeS };
  }
  await logout(deps, session.id);
  return { kind: 'reused', sessionId: session.id };
}

export async function logout(deps: ServiceDeps, sessionId: number): Promise<void> {
  await deps.db.update(sessions).set({ endedAt: deps.now() }).where(eq(sessions.id, sessionId));
}

export function userInfo(user: AuthUser): UserInfo {
  const expired = user.roles.filter((role) => !user.activeRoles.includes(role));
  return {
    roles: user.roles.length > 0 ? user.roles : [COMMON_ROLE],
    rolePermissions: user.rolePermissions,
    permissions: user.permissions,
    user: {
      ...validityTimes(user.account),
      id: user.id,
      name: user.name,
      avatar: user.row.avatar,
      introduction: user.row.introduction,
      rightInfo: { activeRoles: user.activeRoles, expiredRoles: expired, isAdmin: user.isAdmin },
    },
  };
}

/** 1 while `auto` is the user's current password token; 0 once the password changed or the user is gone. */
export async function loginCheck(deps: ServiceDeps, username: string, auto: string): Promise<0 | 1> {
  const user = await findUserByName(deps, username);
  return user && user.passwordStamp === auto ? 1 : 0;
}

/**
 * Whether `password` is the signed-in user's. A wrong one counts as a login failure of the account from `ip`, under
 * the same limits (loginLimit.ts): a stolen session cannot guess the password without end.
 */
export async function checkPassword(deps: ServiceDeps, userId: number, password: string, ip: string): Promise<boolean> {
  const user = await findUser(deps, userId);
  if (!user) return false;
  const key = user.username.toLowerCase();
  await checkLoginLimit(deps, key, ip, user.id);
  const verified = await verifyPassword(password, user.passwordHash);
  if (!verified) await recordLoginFailure(deps, key, ip);
  return verified;
}

/** Changes the password, ends every other session of the user and answers this session's new password token. */
export async function changePassword(
  deps: ServiceDeps,
  user: AuthUser,
  oldPassword: string,
  newPassword: string,
): Promise<ChangePswData & { endedSessionIds: number[] }> {
  const row = await findUser(deps, user.id);
  if (!row || !(await verifyPassword(oldPassword, row.passwordHash))) throw new ApiError(400, 'wrongOldPassword', 'oldPassword');
  if (oldPassword === newPassword) throw new ApiError(400, 'samePassword', 'newPassword');
  await enforcePassword(deps.db, { orgId: policyOrgOf(row), subject: subjectOf(row), user: row }, newPassword, 'newPassword');
  const auto = newPasswordStamp();
  const passwordHash = await hashPassword(newPassword);
  const ended = await deps.db.transaction(async (tx) => {
    const changed = await replacedPassword(tx, row, deps.now());
    await tx.update(users).set({ passwordHash, passwordStamp: auto, ...changed }).where(eq(users.id, user.id));
    return tx
      .update(sessions)
      .set({ endedAt: deps.now() })
      .where(and(eq(sessions.userId, user.id), ne(sessions.id, user.sessionId), isNull(sessions.endedAt)))
      .returning({ id: sessions.id });
  });
  return { auto, endedSessionIds: ended.map((row) => row.id) };
}

/** Notices are dated in China Standard Time (UTC+8, no daylight saving), the sellers' clock. */
export function formatNoticeTime(time: Date): string {
  return new Date(time.getTime() + 8 * 3600 * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

export async function newestNotice(deps: ServiceDeps): Promise<Notice | null> {
  const [row] = await deps.db.select().from(notices).orderBy(desc(notices.updateTime), desc(notices.id)).limit(1);
  return row ? { text: row.text, updateTime: formatNoticeTime(row.updateTime) } : null;
}

/** The account's quotas; the members quota is the organisation's (the owner's plan), as the team console enforces it. */
export async function userLimitInfo(deps: ServiceDeps, user: AuthUser): Promise<LimitInfo> {
  const info = limitInfo(user.roles[0] ?? COMMON_ROLE);
  const [members] = await deps.db.select({ n: count() }).from(orgMembers).where(eq(orgMembers.orgId, user.accountId));
  return { ...info, members: { used: Number(members?.n ?? 0), limit: PLAN_LIMITS[assignedRoles(user.account)[0] ?? COMMON_ROLE].members } };
}
