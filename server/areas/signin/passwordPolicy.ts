import { and, count, desc, eq, ilike, inArray, isNull, or, type SQL } from 'drizzle-orm';
import { isCommonPassword } from '../../../contract/commonPasswords';
import { message, type Lang } from '../../../contract/errors';
import {
  brokenRule,
  daysLeft,
  mergeRules,
  PASSWORD_POLICY_MESSAGES,
  passwordRulesSchema,
  ruleTextAll,
  type PasswordPolicy,
  type PasswordPolicyPage,
  type PasswordRuleOrHistory,
  type PasswordRules,
  type PasswordRulesAnswer,
  type PasswordSubject,
  type SavePasswordPolicyBody,
} from '../../../contract/passwordPolicy';
import type { Db } from '../../db/database';
import { passwordHistory, passwordPolicies, users, type UserRow } from '../../db/schema';
import { ApiError } from '../../http/errors';
import { verifyPassword } from '../session/passwords';

/**
 * Password policies in force (contract/passwordPolicy.ts): which apply to a person, the refusal of a password that
 * breaks one (with the rule's name), the previous passwords' hashes, and what a sign-in finds of an old password.
 */

/** How many previous hashes are kept per person: the most a policy's history may ask for. */
const HISTORY_KEPT = 24;
const DAY_MS = 86_400_000;

type Deps = { db: Db; now: () => Date };
/** Whose policies govern a password: an organisation (the owner's users.id), or null for the whole app's alone. */
export type PolicyOrg = number | null;

/** The organisation a person's password is governed by: the owner's for a member, their own otherwise. */
export function policyOrgOf(user: Pick<UserRow, 'id' | 'isAp' | 'relativeId'>): number {
  return user.isAp && user.relativeId ? user.relativeId : user.id;
}

export function subjectOf(user: Pick<UserRow, 'username' | 'email' | 'phone'>): PasswordSubject {
  return { username: user.username, email: user.email, phone: user.phone };
}

function parsedRules(value: unknown): PasswordRules | null {
  const parsed = passwordRulesSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** The organisation's policies switched on, or the whole app's when it has none; several apply together. */
export async function rulesFor(db: Db, orgId: PolicyOrg): Promise<PasswordRules> {
  const rows = await db
    .select({ orgId: passwordPolicies.orgId, rules: passwordPolicies.rules })
    .from(passwordPolicies)
    .where(and(eq(passwordPolicies.status, 1), orgId === null ? isNull(passwordPolicies.orgId) : or(eq(passwordPolicies.orgId, orgId), isNull(passwordPolicies.orgId))));
  const own = rows.filter((row) => row.orgId !== null);
  return mergeRules((own.length > 0 ? own : rows).map((row) => parsedRules(row.rules)).filter((rules) => rules !== null));
}

function refuse(rule: PasswordRuleOrHistory, rules: PasswordRules, field: string): never {
  throw new ApiError(400, { key: 'passwordRefused', params: { rule: ruleTextAll(rule, rules) } }, field);
}

/**
 * Refuses a new password that breaks the policy in force, naming the rule (`field` carries it to the form). With the
 * person's row, also one of their last `history` passwords (the current one included).
 */
export async function enforcePassword(
  db: Db,
  target: { orgId: PolicyOrg; subject: PasswordSubject; user?: Pick<UserRow, 'id' | 'passwordHash'> },
  password: string,
  field: string,
): Promise<void> {
  const rules = await rulesFor(db, target.orgId);
  const broken = brokenRule(rules, password, target.subject, isCommonPassword);
  if (broken) refuse(broken, rules, field);
  if (rules.history === 0 || !target.user) return;
  const previous = await db
    .select({ hash: passwordHistory.passwordHash })
    .from(passwordHistory)
    .where(eq(passwordHistory.userId, target.user.id))
    .orderBy(desc(passwordHistory.createdAt), desc(passwordHistory.id))
    .limit(rules.history - 1);
  for (const hash of [target.user.passwordHash, ...previous.map((row) => row.hash)]) {
    if (await verifyPassword(password, hash)) refuse('history', rules, field);
  }
}

/**
 * What a new password's update sets besides the hash, after keeping the replaced hash in the history (at most
 * HISTORY_KEPT per person). Run inside the update's transaction.
 */
export async function replacedPassword(tx: Pick<Db, 'insert' | 'select' | 'delete'>, user: Pick<UserRow, 'id' | 'passwordHash'>, now: Date): Promise<{ passwordChangedAt: Date; passwordChange: null }> {
  await tx.insert(passwordHistory).values({ userId: user.id, passwordHash: user.passwordHash, createdAt: now });
  const kept = await tx
    .select({ id: passwordHistory.id })
    .from(passwordHistory)
    .where(eq(passwordHistory.userId, user.id))
    .orderBy(desc(passwordHistory.createdAt), desc(passwordHistory.id))
    .offset(HISTORY_KEPT);
  if (kept.length > 0) await tx.delete(passwordHistory).where(inArray(passwordHistory.id, kept.map((row) => row.id)));
  return { passwordChangedAt: now, passwordChange: null };
}

/** When the password stops being good under these rules, or null (no validity period). */
function expiresAt(user: Pick<UserRow, 'passwordChangedAt' | 'createdAt'>, rules: PasswordRules): number | null {
  if (rules.validDays === 0) return null;
  return (user.passwordChangedAt ?? user.createdAt).getTime() + rules.validDays * DAY_MS;
}

export type PasswordChange = 'expired' | 'policy';

/**
 * At a sign-in with the right password: whether it has expired or the policy in force no longer accepts it. The
 * answer is kept on the person (users.password_change), and until the password is changed every call but the change
 * is refused (plugins/auth.ts).
 */
export async function checkAtSignIn(deps: Deps, user: UserRow, password: string): Promise<PasswordChange | null> {
  const rules = await rulesFor(deps.db, policyOrgOf(user));
  const end = expiresAt(user, rules);
  const state: PasswordChange | null =
    end !== null && end <= deps.now().getTime() ? 'expired' : brokenRule(rules, password, subjectOf(user), isCommonPassword) ? 'policy' : null;
  if (state !== user.passwordChange) await deps.db.update(users).set({ passwordChange: state }).where(eq(users.id, user.id));
  return state;
}

/** What getInfo says of the password: a change it needs first, or the warning of its coming end. */
export async function passwordNotice(deps: Deps, user: UserRow, lang: Lang): Promise<{ passwordChange: PasswordChange | null; passwordNotice: string | null }> {
  const change = user.passwordChange === 'expired' || user.passwordChange === 'policy' ? user.passwordChange : null;
  if (change) return { passwordChange: change, passwordNotice: message(change === 'expired' ? 'passwordExpired' : 'passwordNotAccepted', lang) };
  const rules = await rulesFor(deps.db, policyOrgOf(user));
  const end = expiresAt(user, rules);
  if (end === null || rules.warnDays === 0) return { passwordChange: null, passwordNotice: null };
  const left = daysLeft(end, deps.now().getTime());
  return { passwordChange: null, passwordNotice: left <= rules.warnDays ? message('passwordExpiresSoon', lang, { n: String(left) }) : null };
}

export async function ownRules(db: Db, user: UserRow): Promise<PasswordRulesAnswer> {
  const subject = subjectOf(user);
  return { rules: await rulesFor(db, policyOrgOf(user)), subject: { username: subject.username ?? null, email: subject.email ?? null, phone: subject.phone ?? null } };
}

export async function registerRules(db: Db): Promise<PasswordRulesAnswer> {
  return { rules: await rulesFor(db, null), subject: { username: null, email: null, phone: null } };
}

// ---------------------------------------------------------------- the console

/** The organisation managed, and whether the caller is the administrator (who also keeps the whole app's). */
export type PolicyContext = { orgId: number; admin: boolean; actorName: string };

type PolicyRow = typeof passwordPolicies.$inferSelect;

const CONTAIN: readonly (keyof PasswordRules)[] = ['upper', 'lower', 'special'];
const NOT_CONTAIN: readonly (keyof PasswordRules)[] = ['notUsername', 'notEmail', 'notPhone', 'notCommon'];

function policyOf(row: PolicyRow, ctx: PolicyContext): PasswordPolicy | null {
  const rules = parsedRules(row.rules);
  if (!rules) return null;
  const scope = row.orgId === null ? 'app' : 'org';
  return {
    id: row.id,
    scope,
    name: row.name,
    rules,
    pswContain: [`length>=${rules.minLength}`, 'letter', 'digit', ...CONTAIN.filter((key) => rules[key])],
    pswNotContain: NOT_CONTAIN.filter((key) => rules[key]),
    pswValidPeriod: rules.validDays,
    creator: row.creator,
    createTime: row.createdAt.getTime(),
    status: row.status === 1 ? 1 : 0,
    editable: scope === 'org' || ctx.admin,
  };
}

/** The rows the caller may see: the organisation's and the whole app's. */
const visible = (ctx: PolicyContext): SQL => or(eq(passwordPolicies.orgId, ctx.orgId), isNull(passwordPolicies.orgId))!;
/** The rows the caller may change: the organisation's, and the whole app's for the administrator. */
const changeable = (ctx: PolicyContext): SQL => (ctx.admin ? visible(ctx) : eq(passwordPolicies.orgId, ctx.orgId));

export async function listPolicies(db: Db, ctx: PolicyContext, query: { page: number; rows: number; keyword?: string }): Promise<PasswordPolicyPage> {
  const where = and(visible(ctx), query.keyword ? ilike(passwordPolicies.name, `%${query.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined);
  const [total] = await db.select({ n: count() }).from(passwordPolicies).where(where);
  const rows = await db
    .select()
    .from(passwordPolicies)
    .where(where)
    .orderBy(passwordPolicies.id)
    .limit(query.rows)
    .offset((query.page - 1) * query.rows);
  return { list: rows.map((row) => policyOf(row, ctx)).filter((row) => row !== null), total: total?.n ?? 0 };
}

export async function savePolicy(deps: Deps, ctx: PolicyContext, body: Omit<SavePasswordPolicyBody, 'orgId'> & { scope: 'org' | 'app'; status: 0 | 1 }): Promise<{ before: PasswordPolicy | null; after: PasswordPolicy }> {
  if (body.scope === 'app' && !ctx.admin) throw new ApiError(401, PASSWORD_POLICY_MESSAGES.appScopeAdmin, 'scope');
  const values = { name: body.name, rules: body.rules, status: body.status };
  let before: PasswordPolicy | null = null;
  let row: PolicyRow | undefined;
  if (body.id !== undefined) {
    const [old] = await deps.db.select().from(passwordPolicies).where(and(eq(passwordPolicies.id, body.id), changeable(ctx))).limit(1);
    if (!old) throw new ApiError(400, PASSWORD_POLICY_MESSAGES.policyNotFound, 'id');
    before = policyOf(old, ctx);
    [row] = await deps.db.update(passwordPolicies).set(values).where(eq(passwordPolicies.id, body.id)).returning();
  } else {
    [row] = await deps.db
      .insert(passwordPolicies)
      .values({ ...values, orgId: body.scope === 'app' ? null : ctx.orgId, creator: ctx.actorName, createdAt: deps.now() })
      .returning();
  }
  return { before, after: policyOf(row!, ctx)! };
}

export async function deletePolicies(db: Db, ctx: PolicyContext, ids: readonly number[]): Promise<{ count: number }> {
  const unique = [...new Set(ids)];
  return db.transaction(async (tx) => {
    const deleted = await tx.delete(passwordPolicies).where(and(inArray(passwordPolicies.id, unique), changeable(ctx))).returning({ id: passwordPolicies.id });
    if (deleted.length !== unique.length) throw new ApiError(400, PASSWORD_POLICY_MESSAGES.policyNotFound, 'ids');
    return { count: deleted.length };
  });
}
