import { z } from 'zod';
import { defineEndpoint, routePaths } from './endpoint';
import { pageQuerySchema } from './envelope';
import { message, type Lang, type Localized, type MessageKey } from './errors';
import { queryInt, ROW_ID_MAX, rowId } from './fields';
import { lazySchema } from './lazySchema';
import { PASSWORD_PATTERN } from './session';

/**
 * Password policies: what a password must contain and must not contain, how long it stays good, and how many of the
 * last ones it may not repeat. An organisation keeps its own; the administrator sets the whole app's, which applies
 * where an organisation has none switched on. The rule evaluator below is the one the server enforces with and the
 * register and change-password pages check with as the user types.
 */

/** The floor every password meets whatever the policy (contract/session.ts PASSWORD_PATTERN): 8 to 64, letters and digits. */
export const PASSWORD_FLOOR = { minLength: 8, maxLength: 64 } as const;

export const passwordRulesSchema = lazySchema(() => z.object({
  /** At least this many characters (8 to 64). */
  minLength: z.number().int().min(PASSWORD_FLOOR.minLength, 'policyMinLength').max(PASSWORD_FLOOR.maxLength, 'policyMinLength'),
  upper: z.boolean(),
  lower: z.boolean(),
  special: z.boolean(),
  notUsername: z.boolean(),
  notEmail: z.boolean(),
  notPhone: z.boolean(),
  /** Not one of the common passwords shipped with the app (@zxcvbn-ts/language-common, ~49,000). */
  notCommon: z.boolean(),
  /** Days a password stays good; 0: for ever. */
  validDays: z.number().int().min(0, 'policyValidDays').max(3650, 'policyValidDays'),
  /** Days before the end of validDays that the user is warned at sign-in. */
  warnDays: z.number().int().min(0, 'policyWarnDays').max(365, 'policyWarnDays'),
  /** Not one of the last N passwords (the current one included); 0: no history. */
  history: z.number().int().min(0, 'policyHistory').max(24, 'policyHistory'),
}).refine((rules) => rules.validDays === 0 || rules.warnDays < rules.validDays, { message: 'policyWarnDays', path: ['warnDays'] }));
export type PasswordRules = z.infer<typeof passwordRulesSchema>;

/** What applies when no policy is switched on: the floor alone. */
export const NO_POLICY: PasswordRules = {
  minLength: PASSWORD_FLOOR.minLength,
  upper: false,
  lower: false,
  special: false,
  notUsername: false,
  notEmail: false,
  notPhone: false,
  notCommon: false,
  validDays: 0,
  warnDays: 0,
  history: 0,
};

/** Several policies switched on apply together: the strictest of each rule. */
export function mergeRules(list: readonly PasswordRules[]): PasswordRules {
  if (list.length === 0) return NO_POLICY;
  const positive = list.map((rules) => rules.validDays).filter((days) => days > 0);
  const validDays = positive.length > 0 ? Math.min(...positive) : 0;
  return {
    minLength: Math.max(...list.map((rules) => rules.minLength)),
    upper: list.some((rules) => rules.upper),
    lower: list.some((rules) => rules.lower),
    special: list.some((rules) => rules.special),
    notUsername: list.some((rules) => rules.notUsername),
    notEmail: list.some((rules) => rules.notEmail),
    notPhone: list.some((rules) => rules.notPhone),
    notCommon: list.some((rules) => rules.notCommon),
    validDays,
    warnDays: validDays === 0 ? 0 : Math.min(validDays - 1, Math.max(...list.map((rules) => rules.warnDays))),
    history: Math.max(...list.map((rules) => rules.history)),
  };
}

export const PASSWORD_RULES = ['length', 'letter', 'digit', 'upper', 'lower', 'special', 'notUsername', 'notEmail', 'notPhone', 'notCommon'] as const;
export type PasswordRule = (typeof PASSWORD_RULES)[number];
/** The server also refuses one of the last passwords; only it holds their hashes. */
export type PasswordRuleOrHistory = PasswordRule | 'history';

const RULE_KEYS: Record<PasswordRuleOrHistory, MessageKey> = {
  length: 'pswRuleLength',
  letter: 'pswRuleLetter',
  digit: 'pswRuleDigit',
  upper: 'pswRuleUpper',
  lower: 'pswRuleLower',
  special: 'pswRuleSpecial',
  notUsername: 'pswRuleNotUsername',
  notEmail: 'pswRuleNotEmail',
  notPhone: 'pswRuleNotPhone',
  notCommon: 'pswRuleNotCommon',
  history: 'pswRuleHistory',
};

/** The rule's name as the user reads it ("at least 12 characters"). */
export function ruleText(rule: PasswordRuleOrHistory, rules: PasswordRules, lang: Lang): string {
  const n = rule === 'length' ? String(rules.minLength) : rule === 'history' ? String(rules.history) : '';
  return message(RULE_KEYS[rule], lang, { n, max: String(PASSWORD_FLOOR.maxLength) });
}
export function ruleTextAll(rule: PasswordRuleOrHistory, rules: PasswordRules): Localized {
  return { zh: ruleText(rule, rules, 'zh'), en: ruleText(rule, rules, 'en'), pt: ruleText(rule, rules, 'pt') };
}

/** Who the password is for: what it must not contain. Empty values are not checked. */
export type PasswordSubject = { username?: string | null; email?: string | null; phone?: string | null };

/** Whether a password is one of the common ones; the list is large, so it is loaded apart (contract/commonPasswords.ts). */
export type CommonCheck = (password: string) => boolean;

export type RuleResult = { rule: PasswordRule; ok: boolean };

const SPECIAL = /[^A-Za-z0-9]/;
const folded = (value: string) => value.normalize('NFKC').toLowerCase();

function contains(password: string, value: string | null | undefined, minimum = 3): boolean {
  const needle = value ? folded(value.trim()) : '';
  return needle.length >= minimum && folded(password).includes(needle);
}

/** The phone number's digits (a country code or dashes aside), at least 6 of them to count. */
function containsPhone(password: string, phone: string | null | undefined): boolean {
  const digits = (phone ?? '').replace(/\D/g, '');
  if (digits.length < 6) return false;
  const plain = password.replace(/\D/g, '');
  // The national number: the last 11 digits are a Chinese mobile number without +86.
  return plain.includes(digits) || (digits.length > 11 && plain.includes(digits.slice(-11)));
}

/**
 * Every rule in force for this password, met or not, in the order the pages list them. `isCommon` is left out where
 * the common list is not loaded yet: that rule then reads as met, and the server checks it all the same.
 */
export function checkRules(rules: PasswordRules, password: string, subject: PasswordSubject = {}, isCommon?: CommonCheck): RuleResult[] {
  const results: RuleResult[] = [
    { rule: 'length', ok: password.length >= rules.minLength && password.length <= PASSWORD_FLOOR.maxLength },
    { rule: 'letter', ok: /[A-Za-z]/.test(password) },
    { rule: 'digit', ok: /\d/.test(password) },
  ];
  if (rules.upper) results.push({ rule: 'upper', ok: /[A-Z]/.test(password) });
  if (rules.lower) results.push({ rule: 'lower', ok: /[a-z]/.test(password) });
  if (rules.special) results.push({ rule: 'special', ok: SPECIAL.test(password) });
  if (rules.notUsername) results.push({ rule: 'notUsername', ok: !contains(password, subject.username) });
  if (rules.notEmail) {
    const email = subject.email ?? '';
    // The address and its part before the @ ("li.wei" of li.wei@example.com).
    results.push({ rule: 'notEmail', ok: !contains(password, email) && !contains(password, email.split('@')[0], 4) });
  }
  if (rules.notPhone) results.push({ rule: 'notPhone', ok: !containsPhone(password, subject.phone) });
  if (rules.notCommon) results.push({ rule: 'notCommon', ok: !(isCommon?.(password) ?? false) });
  return results;
}

/** The first rule the password breaks, or null. */
export function brokenRule(rules: PasswordRules, password: string, subject: PasswordSubject = {}, isCommon?: CommonCheck): PasswordRule | null {
  return checkRules(rules, password, subject, isCommon).find((result) => !result.ok)?.rule ?? null;
}

/** The floor and the policy agree: a password the floor refuses breaks length, letter or digit. */
export const meetsFloor = (password: string) => PASSWORD_PATTERN.test(password);

/** Whole days from `now` until `expiresAt`, rounded up (0 once it has passed). */
export function daysLeft(expiresAt: number, now: number): number {
  return Math.max(0, Math.ceil((expiresAt - now) / 86_400_000));
}

// ---------------------------------------------------------------- the rules in force for a page

/** The rules in force for a password being chosen, and who it is for (the pages check "must not contain" with it). */
export const passwordRulesAnswerSchema = lazySchema(() => z.object({
  rules: passwordRulesSchema,
  subject: z.object({ username: z.string().nullable(), email: z.string().nullable(), phone: z.string().nullable() }),
}));
export type PasswordRulesAnswer = z.infer<typeof passwordRulesAnswerSchema>;

// ---------------------------------------------------------------- the console

export const POLICY_SCOPES = ['org', 'app'] as const;
export type PolicyScope = (typeof POLICY_SCOPES)[number];

/** One policy as the spec's table shows it (name, pswContain, pswNotContain, pswValidPeriod, creator, createTime, status). */
export const passwordPolicySchema = lazySchema(() => z.object({
  id: z.number().int(),
  /** org: the organisation's own; app: the whole app's, which the administrator sets. */
  scope: z.enum(POLICY_SCOPES),
  name: z.string(),
  rules: passwordRulesSchema,
  /** What it must contain: length, upper, lower, special (letters and digits always). */
  pswContain: z.array(z.string()),
  /** What it must not contain: notUsername, notEmail, notPhone, notCommon. */
  pswNotContain: z.array(z.string()),
  /** Days a password stays good; 0: for ever. */
  pswValidPeriod: z.number().int(),
  creator: z.string(),
  createTime: z.number(),
  /** 1: in force. */
  status: z.union([z.literal(0), z.literal(1)]),
  /** The caller may change or delete it. */
  editable: z.boolean(),
}));
export type PasswordPolicy = z.infer<typeof passwordPolicySchema>;
export const passwordPolicyPageSchema = lazySchema(() => z.object({ list: z.array(passwordPolicySchema), total: z.number().int() }));
export type PasswordPolicyPage = z.infer<typeof passwordPolicyPageSchema>;

const queryId = () => queryInt(1, ROW_ID_MAX);
// GET /api/password_policy/list: the spec's paged list (page 1, rows 10 by default), the organisation's and the app's.
export const passwordPolicyQuerySchema = lazySchema(() => pageQuerySchema.extend({
  rows: queryInt(1, 1000).default(10),
  orgId: queryId().optional(),
  keyword: z.string().trim().max(60).optional(),
}));
export type PasswordPolicyQuery = z.input<typeof passwordPolicyQuerySchema>;

const policyFields = {
  name: z.string().trim().min(1, 'required').max(60),
  rules: passwordRulesSchema,
  status: z.union([z.literal(0), z.literal(1)]),
};
export const savePasswordPolicyBodySchema = lazySchema(() => z.object({
  /** Absent: a new policy. */
  id: rowId().optional(),
  orgId: rowId().optional(),
  /** 'app' only for the administrator. */
  scope: z.enum(POLICY_SCOPES).default('org'),
  ...policyFields,
}));
export type SavePasswordPolicyBody = z.input<typeof savePasswordPolicyBodySchema>;
export const deletePasswordPoliciesBodySchema = lazySchema(() => z.object({ ids: z.array(rowId()).min(1).max(500) }));
export const policyCountSchema = lazySchema(() => z.object({ count: z.number().int() }));

export const PASSWORD_POLICY_MESSAGES = {
  appScopeAdmin: { zh: '只有管理员可以设置全站的密码策略', en: "Only the administrator sets the whole app's password policy", pt: 'Só o administrador define a política de senha de todo o app' },
  policyNotFound: { zh: '密码策略不存在或不属于该组织', en: 'The password policy does not exist or belongs to another organisation', pt: 'A política de senha não existe ou pertence a outra organização' },
} as const satisfies Record<string, Localized>;

export const PASSWORD_POLICY_ENDPOINTS = {
  rulesForRegister: defineEndpoint({
    method: 'GET',
    path: '/password_policy/register',
    summary: 'The password rules a new account is held to (the whole app’s policy), for the register page.',
    access: 'public',
    answer: passwordRulesAnswerSchema,
  }),
  ownRules: defineEndpoint({
    method: 'GET',
    path: '/user/password_policy',
    summary: "The password rules the signed-in person's next password is held to, and what it must not contain.",
    access: 'open',
    answer: passwordRulesAnswerSchema,
  }),
  list: defineEndpoint({
    method: 'GET',
    path: '/password_policy/list',
    summary: "The spec's password policy list: the organisation's policies and the whole app's.",
    access: 'team',
    action: 'staff',
    input: passwordPolicyQuerySchema,
    answer: passwordPolicyPageSchema,
  }),
  save: defineEndpoint({
    method: 'POST',
    path: '/password_policy/save',
    summary: 'Adds or changes a password policy (the whole app’s: the administrator only).',
    access: 'team',
    action: 'staff',
    input: savePasswordPolicyBodySchema,
    answer: passwordPolicySchema,
  }),
  delete: defineEndpoint({
    method: 'POST',
    path: '/password_policy/delete',
    summary: 'Deletes password policies.',
    access: 'team',
    action: 'staff',
    input: deletePasswordPoliciesBodySchema,
    answer: policyCountSchema,
  }),
} as const;
export const PASSWORD_POLICY_PATHS = routePaths(PASSWORD_POLICY_ENDPOINTS);
