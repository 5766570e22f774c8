import { and, count, desc, eq, inArray, isNull, max, sql, type SQL } from 'drizzle-orm';
import { ADMIN_MESSAGES, type AdminUser, type AdminUserPage, type UserStatus } from '../../../contract/admin';
import { COMMON_ROLE, type Role, type RoleOrCommon } from '../../../contract/session';
import type { Db } from '../../db/database';
import { sessions, users, type UserRow } from '../../db/schema';
import { ApiError } from '../../http/errors';
import { assignedRoles, validityTimes } from '../session/access';
import type { ServiceDeps } from '../session/deps';
import { hashPassword } from '../session/passwords';
import { enforcePassword, policyOrgOf, replacedPassword, subjectOf } from '../signin/passwordPolicy';
import { newPasswordStamp, type AuthUser } from '../session/service';

type ValidityInput = {
  followValidTime?: number | null | undefined;
  plugValidTime?: number | null | undefined;
  searchWordValidTime?: number | null | undefined;
  keyWordValidTime?: number | null | undefined;
};

export type ListUsersInput = { page: number; rows: number; search?: string | undefined; role?: RoleOrCommon | undefined; status?: UserStatus | undefined };
export type AddUserInput = ValidityInput & {
  username: string;
  password: string;
  roles: Role[];
  introduction: string;
  isAp: boolean;
  relative_id: number | null;
};
export type UpdateUserInput = ValidityInput & {
  id: number;
  roles?: Role[] | undefined;
  introduction?: string | undefined;
  isAp?: boolean | undefined;
  relative_id?: number | null | undefined;
};

const VALIDITY_KEYS = ['followValidTime', 'plugValidTime', 'searchWordValidTime', 'keyWordValidTime'] as const;

/** The columns a validity input sets: absent keys stay as they are, null clears. */
function validityColumns(input: ValidityInput): Partial<Pick<UserRow, (typeof VALIDITY_KEYS)[number]>> {
  const columns: Partial<Pick<UserRow, (typeof VALIDITY_KEYS)[number]>> = {};
  for (const key of VALIDITY_KEYS) {
    const value = input[key];
    if (value !== undefined) columns[key] = value === null ? null : new Date(value);
  }
  return columns;
}

function toAdminUser(row: UserRow, lastLoginAt: Date | string | null): AdminUser {
  const roles = assignedRoles(row);
  return {
    id: row.id,
    name: row.username,
    roles,
    ...validityTimes(row),
    right: roles.includes('admin') ? '1' : row.right,
    isAp: row.isAp,
    relative_id: row.relativeId,
    introduction: row.introduction,
    createdAt: row.createdAt.getTime(),
    // An aggregate over a subquery comes back as text on some drivers.
    lastLoginAt: lastLoginAt === null ? null : new Date(lastLoginAt).getTime(),
  };
}

function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

const isAdminRow = sql`'admin' = any(${users.roles})`;

/** LIKE pattern for a literal substring: %, _ and the escape character itself match only themselves. */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function statusCondition(status: UserStatus, now: Date): SQL {
  // greatest() skips nulls and is null only when the user never had any paid period.
  const latest = sql`greatest(${sql.join(
    VALIDITY_KEYS.map((key) => sql`${users[key]}`),
    sql`, `,
  )})`;
  const current = sql`coalesce(${latest} > ${now}, false)`;
  // Administrators need no paid period, so they always count as active.
  if (status === 'active') return sql`(${isAdminRow} or ${current})`;
  return sql`(not ${isAdminRow} and ${latest} is not null and not ${current})`;
}

function roleCondition(role: RoleOrCommon): SQL {
  if (role === COMMON_ROLE) return sql`cardinality(${users.roles}) = 0`;
  return sql`${role} = any(${users.roles})`;
}

export async function listUsers(deps: ServiceDeps, query: ListUsersInput): Promise<AdminUserPage> {
  const conditions: SQL[] = [];
  if (query.search) conditions.push(sql`lower(${users.username}) like ${containsPattern(query.search)} escape '\\'`);
  if (query.role) conditions.push(roleCondition(query.role));
  if (query.status) conditions.push(statusCondition(query.status, deps.now()));
  const where = conditions.length > 0 ? and(...conditions) : undefined;

  const lastLogins = deps.db
    .select({ userId: sessions.userId, at: max(sessions.createdAt).as('last_login_at') })
    .from(sessions)
    .groupBy(sessions.userId)
    .as('last_logins');
  const [rows, [total]] = await Promise.all([
    deps.db
      .select({ user: users, lastLoginAt: lastLogins.at })
      .from(users)
      .leftJoin(lastLogins, eq(lastLogins.userId, users.id))
      .where(where)
      .orderBy(desc(users.id))
      .limit(query.rows)
      .offset((query.page - 1) * query.rows),
    deps.db.select({ n: count() }).from(users).where(where),
  ]);
  return { list: rows.map((row) => toAdminUser(row.user, row.lastLoginAt)), total: total?.n ?? 0 };
}

async function userById(db: Db, id: number): Promise<AdminUser> {
  const [row] = await db
    .select({ user: users, lastLoginAt: max(sessions.createdAt) })
    .from(users)
    .leftJoin(sessions, eq(sessions.userId, users.id))
    .where(eq(users.id, id))
    .groupBy(users.id);
  if (!row) throw new ApiError(404, ADMIN_MESSAGES.userNotFound, 'id');
  return toAdminUser(row.user, row.lastLoginAt);
}

async function checkRelative(db: Db, relativeId: number | null | undefined, selfId: number | null): Promise<void> {
  if (relativeId === null || relativeId === undefined) return;
  if (relativeId === selfId) throw new ApiError(400, ADMIN_MESSAGES.relativeSelf, 'relative_id');
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, relativeId)).limit(1);
  if (!row) throw new ApiError(400, ADMIN_MESSAGES.relativeNotFound, 'relative_id');
}

export async function addUser(deps: ServiceDeps, input: AddUserInput): Promise<AdminUser> {
  const [taken] = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.username})`, input.username.toLowerCase()))
    .limit(1);
  if (taken) throw new ApiError(507, 'duplicateUser', 'username');
  await checkRelative(deps.db, input.relative_id, null);
  // A staff account is held to the policy of the account it is attached to; anyone else to the whole app's.
  await enforcePassword(deps.db, { orgId: input.isAp && input.relative_id ? input.relative_id : null, subject: { username: input.username } }, input.password, 'password');
  try {
    const [row] = await deps.db
      .insert(users)
      .values({
        username: input.username,
        passwordHash: await hashPassword(input.password),
        passwordStamp: newPasswordStamp(),
        roles: input.roles,
        introduction: input.introduction,
        isAp: input.isAp,
        relativeId: input.relative_id,
        createdAt: deps.now(),
        passwordChangedAt: deps.now(),
        ...validityColumns(input),
      })
      .returning();
    if (!row) throw new Error('insert returned no row');
    return toAdminUser(row, null);
  } catch (error) {
    // Two adds racing for one name: the unique index decides.
    if (isUniqueViolation(error)) throw new ApiError(507, 'duplicateUser', 'username');
    throw error;
  }
}

export async function updateUser(deps: ServiceDeps, input: UpdateUserInput): Promise<AdminUser> {
  await deps.db.transaction(async (tx) => {
    // Lock the administrators first so that two updates cannot each remove admin from one of the last two.
    const admins = await tx.select({ id: users.id }).from(users).where(isAdminRow).for('update');
    const [row] = await tx.select().from(users).where(eq(users.id, input.id)).for('update');
    if (!row) throw new ApiError(404, ADMIN_MESSAGES.userNotFound, 'id');
    if (input.roles && !input.roles.includes('admin') && row.roles.includes('admin') && admins.every((admin) => admin.id === row.id)) {
      throw new ApiError(400, ADMIN_MESSAGES.lastAdmin, 'roles');
    }
    await checkRelative(tx as unknown as Db, input.relative_id, row.id);
    const changes = {
      ...validityColumns(input),
      ...(input.roles !== undefined ? { roles: input.roles } : {}),
      ...(input.introduction !== undefined ? { introduction: input.introduction } : {}),
      ...(input.isAp !== undefined ? { isAp: input.isAp } : {}),
      ...(input.relative_id !== undefined ? { relativeId: input.relative_id } : {}),
    };
    if (Object.keys(changes).length > 0) await tx.update(users).set(changes).where(eq(users.id, row.id));
  });
  return userById(deps.db, input.id);
}

/** Deletes all of `ids` or none; answers the ended sessions so their sockets can be closed. */
export async function deleteUsers(deps: ServiceDeps, caller: AuthUser, ids: readonly number[]): Promise<{ deleted: number; endedSessionIds: number[] }> {
  const unique = [...new Set(ids)];
  if (unique.includes(caller.id)) throw new ApiError(400, ADMIN_MESSAGES.deleteSelf, 'ids');
  return deps.db.transaction(async (tx) => {
    const found = await tx.select({ id: users.id }).from(users).where(inArray(users.id, unique)).for('update');
    if (found.length !== unique.length) throw new ApiError(404, ADMIN_MESSAGES.userNotFound, 'ids');
    const ended = await tx
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(inArray(sessions.userId, unique), isNull(sessions.endedAt)));
    // Sessions go with their user (on delete cascade), so the deleted users' tokens stop working at once.
    await tx.delete(users).where(inArray(users.id, unique));
    return { deleted: unique.length, endedSessionIds: ended.map((row) => row.id) };
  });
}

/** A new password and password token for another user; every session of that user ends. */
export async function resetPassword(deps: ServiceDeps, caller: AuthUser, id: number, newPassword: string): Promise<{ endedSessionIds: number[] }> {
  if (id === caller.id) throw new ApiError(400, ADMIN_MESSAGES.resetOwnPassword, 'id');
  const [row] = await deps.db.select().from(users).where(eq(users.id, id)).limit(1);
  if (!row) throw new ApiError(404, ADMIN_MESSAGES.userNotFound, 'id');
  await enforcePassword(deps.db, { orgId: policyOrgOf(row), subject: subjectOf(row), user: row }, newPassword, 'newPassword');
  const passwordHash = await hashPassword(newPassword);
  return deps.db.transaction(async (tx) => {
    const changed = await replacedPassword(tx, row, deps.now());
    const updated = await tx
      .update(users)
      .set({ passwordHash, passwordStamp: newPasswordStamp(), ...changed })
      .where(eq(users.id, id))
      .returning({ id: users.id });
    if (updated.length === 0) throw new ApiError(404, ADMIN_MESSAGES.userNotFound, 'id');
    const ended = await tx
      .update(sessions)
      .set({ endedAt: deps.now() })
      .where(and(eq(sessions.userId, id), isNull(sessions.endedAt)))
      .returning({ id: sessions.id });
    return { endedSessionIds: ended.map((row) => row.id) };
  });
}
