import { z } from 'zod';
import { defineEndpoint, routePaths } from './endpoint';
import { pageQuerySchema } from './envelope';
import type { Localized } from './errors';
import { queryInt, ROW_ID_MAX, rowId } from './fields';
import { lazySchema } from './lazySchema';
import { loginDataSchema, OTP_TYPES } from './session';

export { loginAnswerSchema, OTP_TYPES, secondStepSchema, type LoginAnswer, type OtpType, type SecondStep } from './session';

/**
 * Sign-in security: one-time passwords as the second step of a login (TOTP, RFC 6238, and counting HOTP, RFC 4226),
 * their recovery codes, which members must use them, and the sign-in log.
 */

export const SIGNIN_MESSAGES = {
  otpWrong: { zh: '动态口令错误或已使用', en: 'The one-time code is wrong or was already used', pt: 'O código de uso único está errado ou já foi usado' },
  recoveryWrong: { zh: '恢复码错误或已使用', en: 'The recovery code is wrong or was already used', pt: 'O código de recuperação está errado ou já foi usado' },
  otpLocked: {
    zh: '动态口令错误次数过多，请10分钟后再试',
    en: 'Too many wrong one-time codes; try again in 10 minutes',
    pt: 'Códigos de uso único errados demais; tente de novo em 10 minutos',
  },
  ticketExpired: { zh: '登录已超时，请重新输入用户名和密码', en: 'The sign-in has timed out; enter your user name and password again', pt: 'O acesso expirou; informe usuário e senha de novo' },
  otpNotPending: { zh: '请先开始绑定动态口令', en: 'Start the one-time password set-up first', pt: 'Comece antes a configuração da senha de uso único' },
  otpNotEnabled: { zh: '尚未启用动态口令', en: 'One-time passwords are not turned on', pt: 'As senhas de uso único não estão ativadas' },
  otpRequired: {
    zh: '组织要求你使用动态口令，不能关闭',
    en: 'Your organisation requires a one-time password; it cannot be turned off',
    pt: 'Sua organização exige a senha de uso único; ela não pode ser desativada',
  },
  wrongPassword: { zh: '密码错误', en: 'Wrong password', pt: 'Senha incorreta' },
  memberNotFound: { zh: '该成员不存在或不属于该组织', en: 'The member does not exist or belongs to another organisation', pt: 'O membro não existe ou pertence a outra organização' },
} as const satisfies Record<string, Localized>;

export const OTP_ALGORITHMS = ['SHA1', 'SHA256', 'SHA512'] as const;
export type OtpAlgorithm = (typeof OTP_ALGORITHMS)[number];
/** 5 wrong codes lock the second step of the account for 10 minutes. */
export const OTP_FAILURE_LIMIT = 5;
export const OTP_LOCK_MS = 10 * 60 * 1000;
/** How long the password step of a login stays good for its second step. */
export const LOGIN_TICKET_TTL_S = 300;
export const RECOVERY_CODE_COUNT = 10;
/** The spec's ttl of a dynamic password sent by e-mail or SMS. */
export const SENT_CODE_TTL_S = 600;

/** The organisation's one-time password policy: what a new enrolment uses. */
export const otpPolicySchema = lazySchema(() => z.object({
  type: z.enum(OTP_TYPES),
  algorithm: z.enum(OTP_ALGORITHMS),
  digits: z.number().int().min(6).max(8),
  /** TOTP time step in seconds. */
  period: z.number().int().min(15).max(300),
  /** Look-ahead window: TOTP steps either side of now, HOTP counters ahead of the last one used. */
  window: z.number().int().min(0).max(10),
}));
export type OtpPolicy = z.infer<typeof otpPolicySchema>;
export const DEFAULT_OTP_POLICY: OtpPolicy = { type: 'totp', algorithm: 'SHA1', digits: 6, period: 30, window: 1 };

const ticket = z.string().trim().min(1).max(128);
const code = z.string().trim().min(1, 'required').max(32);

export const loginOtpBodySchema = lazySchema(() => z.object({ ticket, code, recovery: z.boolean().default(false) }));
export type LoginOtpBody = z.input<typeof loginOtpBodySchema>;
export const ticketBodySchema = lazySchema(() => z.object({ ticket }));

/** A one-time password being set up: the QR code's URI and the same secret in text (base32). */
export const otpEnrolmentSchema = lazySchema(() => z.object({
  uri: z.string(),
  secret: z.string(),
  type: z.enum(OTP_TYPES),
  algorithm: z.enum(OTP_ALGORITHMS),
  digits: z.number().int(),
  period: z.number().int(),
}));
export type OtpEnrolment = z.infer<typeof otpEnrolmentSchema>;
export const recoveryCodesSchema = lazySchema(() => z.object({ recoveryCodes: z.array(z.string()) }));
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;
export const enrolLoginBodySchema = lazySchema(() => z.object({ ticket, code }));
export type EnrolLoginBody = z.input<typeof enrolLoginBodySchema>;
export const enrolLoginDataSchema = lazySchema(() => loginDataSchema.extend({ recoveryCodes: z.array(z.string()) }));
export type EnrolLoginData = z.infer<typeof enrolLoginDataSchema>;

export const otpStatusSchema = lazySchema(() => z.object({
  enabled: z.boolean(),
  /** The organisation requires it of this person (marked, or by their role). */
  required: z.boolean(),
  type: z.enum(OTP_TYPES).nullable(),
  algorithm: z.enum(OTP_ALGORITHMS).nullable(),
  digits: z.number().int().nullable(),
  enabledAt: z.number().nullable(),
  recoveryCodesLeft: z.number().int(),
}));
export type OtpStatus = z.infer<typeof otpStatusSchema>;
export const codeBodySchema = lazySchema(() => z.object({ code }));
export const passwordBodySchema = lazySchema(() => z.object({ password: z.string().min(1).max(128) }));
export const nullSchema = lazySchema(() => z.null());

// The organisation's settings (console)
const queryId = () => queryInt(1, ROW_ID_MAX);
export const orgQuerySchema = lazySchema(() => z.object({ orgId: queryId().optional() }));
export const orgOtpMemberSchema = lazySchema(() => z.object({
  id: z.number().int(),
  name: z.string(),
  nickName: z.string(),
  role: z.string(),
  /** Marked one by one. */
  required: z.boolean(),
  /** Required through the member's role. */
  requiredByRole: z.boolean(),
  enabled: z.boolean(),
}));
export type OrgOtpMember = z.infer<typeof orgOtpMemberSchema>;
export const orgOtpSettingsSchema = lazySchema(() => z.object({
  policy: otpPolicySchema,
  requiredRoleIds: z.array(z.number().int()),
  roles: z.array(z.object({ id: z.number().int(), name: z.string() })),
  members: z.array(orgOtpMemberSchema),
}));
export type OrgOtpSettings = z.infer<typeof orgOtpSettingsSchema>;
export const saveOrgOtpBodySchema = lazySchema(() => z.object({ orgId: rowId().optional(), policy: otpPolicySchema, requiredRoleIds: z.array(rowId()).max(500) }));
export type SaveOrgOtpBody = z.input<typeof saveOrgOtpBodySchema>;
export const markMemberBodySchema = lazySchema(() => z.object({ id: rowId(), required: z.boolean() }));
export const memberIdBodySchema = lazySchema(() => z.object({ id: rowId() }));
export const countSchema = lazySchema(() => z.object({ count: z.number().int() }));

// GET /api/dynamic_pwd/list: the spec's paged list of dynamic password settings (page 1, rows 10 by default).
export const dynamicPwdQuerySchema = lazySchema(() => pageQuerySchema.extend({ rows: queryInt(1, 1000).default(10), orgId: queryId().optional() }));
export const dynamicPwdRowSchema = lazySchema(() => z.object({
  id: z.number().int(),
  /** timing (TOTP) or counting (HOTP). */
  type: z.enum(['timing', 'counting']),
  algorithm: z.enum(OTP_ALGORITHMS),
  digits: z.number().int(),
  /** Seconds a code sent by e-mail or SMS stays good. */
  ttl: z.number().int(),
  period: z.number().int(),
  window: z.number().int(),
  /** 1: in force. */
  status: z.union([z.literal(0), z.literal(1)]),
}));
export const dynamicPwdPageSchema = lazySchema(() => z.object({ list: z.array(dynamicPwdRowSchema), total: z.number().int() }));

// The sign-in log
/** `reset`: a forgotten password replaced with a code sent by e-mail or SMS. */
export const SIGN_IN_EVENTS = ['login', 'logout', 'reset'] as const;
/** How the person proved who they are; a sign-out is `session`. */
export const SIGN_IN_METHODS = ['password', 'otp', 'recovery', 'enrol', 'session', 'email', 'sms'] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];
export const signInSchema = lazySchema(() => z.object({
  id: z.number().int(),
  userId: z.number().int().nullable(),
  username: z.string(),
  at: z.number(),
  event: z.enum(SIGN_IN_EVENTS),
  method: z.enum(SIGN_IN_METHODS),
  success: z.boolean(),
  /** Why it failed (a catalogue text in English), or ''. */
  reason: z.string(),
  ip: z.string(),
  browser: z.string(),
}));
export type SignIn = z.infer<typeof signInSchema>;
export const signInPageSchema = lazySchema(() => z.object({ list: z.array(signInSchema), total: z.number().int() }));
export type SignInPage = z.infer<typeof signInPageSchema>;
export const signInQuerySchema = lazySchema(() => pageQuerySchema.extend({
  orgId: queryId().optional(),
  keyword: z.string().trim().max(60).optional(),
  success: z.enum(['true', 'false']).optional(),
}));
export type SignInQuery = z.input<typeof signInQuerySchema>;
export const ownSignInQuerySchema = lazySchema(() => pageQuerySchema.extend({ rows: queryInt(1, 100).default(10) }));

export const SIGNIN_ENDPOINTS = {
  loginOtp: defineEndpoint({
    method: 'POST',
    path: '/login/otp',
    summary: "The login's second step: the one-time code (or a recovery code) for the ticket the password step answered.",
    access: 'public',
    input: loginOtpBodySchema,
    answer: loginDataSchema,
  }),
  loginEnrol: defineEndpoint({
    method: 'POST',
    path: '/login/otp/enrol',
    summary: 'A required one-time password set up during the login: the secret and its QR URI for the ticket.',
    access: 'public',
    input: ticketBodySchema,
    answer: otpEnrolmentSchema,
  }),
  loginEnrolConfirm: defineEndpoint({
    method: 'POST',
    path: '/login/otp/enrol/confirm',
    summary: 'Confirms the set-up with a first code and signs in; answers the ten recovery codes once.',
    access: 'public',
    input: enrolLoginBodySchema,
    answer: enrolLoginDataSchema,
  }),
  otpStatus: defineEndpoint({ method: 'GET', path: '/user/otp', summary: "The signed-in person's one-time password.", access: 'open', answer: otpStatusSchema }),
  otpSetup: defineEndpoint({ method: 'POST', path: '/user/otp/setup', summary: 'Starts setting up a one-time password (a new secret, not in force until confirmed).', access: 'open', answer: otpEnrolmentSchema }),
  otpConfirm: defineEndpoint({ method: 'POST', path: '/user/otp/confirm', summary: 'Confirms the set-up with a first code; answers the ten recovery codes once.', access: 'open', input: codeBodySchema, answer: recoveryCodesSchema }),
  otpRecovery: defineEndpoint({ method: 'POST', path: '/user/otp/recovery', summary: 'New recovery codes for a current one-time code; the old ones stop working.', access: 'open', input: codeBodySchema, answer: recoveryCodesSchema }),
  otpDisable: defineEndpoint({ method: 'POST', path: '/user/otp/disable', summary: 'Turns the one-time password off (the password again); refused when the organisation requires it.', access: 'open', input: passwordBodySchema, answer: nullSchema }),
  ownSignIns: defineEndpoint({ method: 'GET', path: '/user/signins', summary: "The signed-in person's recent sign-ins, newest first.", access: 'open', input: ownSignInQuerySchema, answer: signInPageSchema }),
  orgOtp: defineEndpoint({ method: 'GET', path: '/security/otp', summary: "The organisation's one-time password policy and who must use it.", access: 'team', action: 'staff', input: orgQuerySchema, answer: orgOtpSettingsSchema }),
  saveOrgOtp: defineEndpoint({ method: 'POST', path: '/security/otp', summary: 'Saves the policy and the roles that must use one-time passwords.', access: 'team', action: 'staff', input: saveOrgOtpBodySchema, answer: orgOtpSettingsSchema }),
  markMember: defineEndpoint({ method: 'POST', path: '/security/otp/member', summary: 'Marks a member as required (or not) to use a one-time password.', access: 'team', action: 'staff', input: markMemberBodySchema, answer: orgOtpMemberSchema }),
  resetMember: defineEndpoint({ method: 'POST', path: '/security/otp/reset', summary: "Removes a member's one-time password and recovery codes (they set it up again at the next login when required).", access: 'team', action: 'staff', input: memberIdBodySchema, answer: countSchema }),
  dynamicPwdList: defineEndpoint({ method: 'GET', path: '/dynamic_pwd/list', summary: "The spec's dynamic password list: the organisation's policy in force.", access: 'team', action: 'staff', input: dynamicPwdQuerySchema, answer: dynamicPwdPageSchema }),
  signInLog: defineEndpoint({ method: 'GET', path: '/security/signin/list', summary: "A page of the organisation's sign-in log, newest first.", access: 'team', action: 'staff', input: signInQuerySchema, answer: signInPageSchema }),
  signInExport: defineEndpoint({
    method: 'GET',
    path: '/security/signin/export',
    summary: 'The sign-in log as an Excel file (the same filters, newest first, at most 50,000 rows).',
    access: 'team',
    action: 'staff',
    input: signInQuerySchema,
    raw: { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', description: 'signin-log.xlsx' },
    settings: { responseType: 'blob', timeout: 60_000 },
  }),
} as const;
export const SIGNIN_PATHS = routePaths(SIGNIN_ENDPOINTS);
