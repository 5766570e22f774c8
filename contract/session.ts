import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { lazySchema } from './lazySchema';

/**
 * Session and account calls (seller-tool §7 "Session and account", §3 session user, §4 states).
 * Times of validity periods are epoch milliseconds, or null when the user never had that feature.
 */

// The roles live with the access rules (no schemas there: the browser's start-up needs them without zod).
export { COMMON_ROLE, ROLES, type Role, type RoleOrCommon } from './access';

/** Why a sign-in must change its password first: it expired, or the policy in force no longer accepts it. */
export const PASSWORD_CHANGES = ['expired', 'policy'] as const;
export type PasswordChangeReason = (typeof PASSWORD_CHANGES)[number];

export const USERNAME_PATTERN = /^[\w.\-\u4e00-\u9fa5]{3,32}$/;
/** 8-64 characters with at least one letter and one digit. */
export const PASSWORD_PATTERN = /^(?=.*[A-Za-z])(?=.*\d).{8,64}$/;

const username = z.string().trim().regex(USERNAME_PATTERN, 'usernamePolicy');
const password = z.string().regex(PASSWORD_PATTERN, 'passwordPolicy');
const captchaCode = z.string().trim().max(16).default('');
const captchaUuid = z.string().trim().max(64).default('');

// GET /api/captchaImage
export const captchaImageSchema = lazySchema(() => z.object({
  uuid: z.string(),
  /** data:image/svg+xml;base64,... */
  img: z.string(),
}));
export type CaptchaImage = z.infer<typeof captchaImageSchema>;
export const CAPTCHA_TTL_MS = 5 * 60 * 1000;

// POST /api/user/register
export const registerBodySchema = lazySchema(() => z.object({ username, password, code: captchaCode, uuid: captchaUuid }));
export type RegisterBody = z.input<typeof registerBodySchema>;
export const registerDataSchema = lazySchema(() => z.object({ id: z.number().int(), name: z.string() }));
export type RegisterData = z.infer<typeof registerDataSchema>;

// POST /api/login
export const loginBodySchema = lazySchema(() => z.object({
  username: z.string().trim().min(1).max(64),
  password: z.string().min(1).max(128),
  code: captchaCode,
  uuid: captchaUuid,
}));
export type LoginBody = z.input<typeof loginBodySchema>;
export const loginDataSchema = lazySchema(() => z.object({
  token: z.string(),
  id: z.number().int(),
  name: z.string(),
  /** "1" for administrators, "0" otherwise (spec default "0"). */
  right: z.string(),
  /** The latest end of the user's paid validity periods, or null. */
  validTime: z.number().nullable(),
  /** True for a staff account attached to another seller's account. */
  isAp: z.boolean(),
  /** The seller account a staff account is attached to, or null. */
  relative_id: z.number().int().nullable(),
  /** The password token: it changes when the password does, so /loginCheck answers 0 for every older session. */
  auto: z.string(),
  /**
   * The password has expired, or the password policy no longer accepts it: the session may only change it (every other
   * call is refused until then). Null or absent: nothing to do.
   */
  passwordChange: z.enum(PASSWORD_CHANGES).nullable().optional(),
}));
export type LoginData = z.infer<typeof loginDataSchema>;

export const OTP_TYPES = ['totp', 'hotp'] as const;
export type OtpType = (typeof OTP_TYPES)[number];
// The second step of POST /api/login: the password was right, and the account needs a one-time code.
export const secondStepSchema = lazySchema(() => z.object({
  /** otp: ask for the code (or a recovery code); enrol: the account must set up a one-time password first. */
  secondStep: z.enum(['otp', 'enrol']),
  /** Sent with the code; good for LOGIN_TICKET_TTL_S, once. */
  ticket: z.string(),
  /** The kind of one-time password asked for (otp), null for a set-up. */
  otpType: z.enum(OTP_TYPES).nullable(),
}));
export type SecondStep = z.infer<typeof secondStepSchema>;
export const loginAnswerSchema = lazySchema(() => z.union([loginDataSchema, secondStepSchema]));
export type LoginAnswer = z.infer<typeof loginAnswerSchema>;


// GET /api/getInfo
export const validityTimesSchema = lazySchema(() => z.object({
  followValidTime: z.number().nullable(),
  plugValidTime: z.number().nullable(),
  searchWordValidTime: z.number().nullable(),
  keyWordValidTime: z.number().nullable(),
}));
export type ValidityTimes = z.infer<typeof validityTimesSchema>;

export const rightInfoSchema = lazySchema(() => z.object({
  /** Assigned roles whose validity period is current (admin always): what routes and calls are gated on. */
  activeRoles: z.array(z.string()),
  /** Assigned roles whose paid period has ended. */
  expiredRoles: z.array(z.string()),
  isAdmin: z.boolean(),
}));
export type RightInfo = z.infer<typeof rightInfoSchema>;

export const userInfoSchema = lazySchema(() => z.object({
  /** Assigned roles, or ['common'] for a user with none. The first one is the real role. */
  roles: z.array(z.string()).min(1),
  /** The role permissions that route filtering uses: the active roles, or ['common'] when none is active. */
  rolePermissions: z.array(z.string()).min(1),
  /**
   * A member's granted `area:action` permissions (contract/access.ts), by which the menus and buttons are shown; null
   * for an owner or the administrator (everything their roles reach). The server checks every call all the same.
   */
  permissions: z.array(z.string()).nullable(),
  user: validityTimesSchema.extend({
    id: z.number().int(),
    name: z.string(),
    avatar: z.string(),
    introduction: z.string(),
    rightInfo: rightInfoSchema,
  }),
  /** The password must be changed before anything else (see loginDataSchema); null or absent: it need not. */
  passwordChange: z.enum(PASSWORD_CHANGES).nullable().optional(),
  /** Why it must, or the warning that it expires in a few days, in the caller's language; null: nothing to say. */
  passwordNotice: z.string().nullable().optional(),
}));
export type UserInfo = z.infer<typeof userInfoSchema>;

// POST /api/refreshToken (X-User-Id header plus the refresh cookie)
export const refreshDataSchema = lazySchema(() => z.object({ token: z.string() }));
export type RefreshData = z.infer<typeof refreshDataSchema>;

// POST /api/loginCheck
export const loginCheckBodySchema = lazySchema(() => z.object({ username: z.string().trim().min(1).max(64), auto: z.string().min(1).max(256) }));
export type LoginCheckBody = z.input<typeof loginCheckBodySchema>;
/** 1: the session is valid; 0: the password has changed (or the user is gone): log out. */
export const loginCheckDataSchema = lazySchema(() => z.union([z.literal(0), z.literal(1)]));
export type LoginCheckData = z.infer<typeof loginCheckDataSchema>;

// POST /api/user/checkPsw
export const checkPswBodySchema = lazySchema(() => z.object({ password: z.string().min(1).max(128) }));
export type CheckPswBody = z.input<typeof checkPswBodySchema>;
/** true when the password is the user's current one. */
export const checkPswDataSchema = lazySchema(() => z.boolean());

// POST /api/user/changePsw
export const changePswBodySchema = lazySchema(() => z.object({ oldPassword: z.string().min(1).max(128), newPassword: password }));
export type ChangePswBody = z.input<typeof changePswBodySchema>;
/** The new password token for this session; every other session of the user is ended. */
export const changePswDataSchema = lazySchema(() => z.object({ auto: z.string() }));
export type ChangePswData = z.infer<typeof changePswDataSchema>;

// POST /api/logout: ends this session (the refresh cookie is cleared).
export const logoutDataSchema = lazySchema(() => z.null());

// GET /api/noticeCheck
export const noticeSchema = lazySchema(() => z.object({
  text: z.string(),
  /** yyyy-mm-dd hh:mm:ss of the notice; the banner's dismissal is remembered per this value. */
  updateTime: z.string(),
}));
export type Notice = z.infer<typeof noticeSchema>;
/** A notice's updateTime (China Standard Time, UTC+8 all year) as a moment, to show in the reader's own time zone. */
export function noticeTimeMs(updateTime: string): number {
  return Date.parse(`${updateTime.slice(0, 19).replace(' ', 'T')}+08:00`);
}
/** null when no notice has been published. */
export const noticeCheckDataSchema = lazySchema(() => noticeSchema.nullable());

// GET /api/limitInfo: the account's quotas and what it has used of them.
export const quotaSchema = lazySchema(() => z.object({ used: z.number().int(), limit: z.number().int() }));
export const limitInfoSchema = lazySchema(() => z.object({
  plan: z.string(),
  /** Members of the organisation (the owner not counted); a member's answer is the organisation's. */
  members: quotaSchema,
  stores: quotaSchema,
  dailyCopies: quotaSchema,
  collections: quotaSchema,
}));
export type LimitInfo = z.infer<typeof limitInfoSchema>;

// GET /api/getBrand: the deployment's branding that the shell shows.
export const brandSchema = lazySchema(() => z.object({
  name: z.string(),
  nameEn: z.string(),
  /** Page-title suffix: "<route title> - <siteTitle>". */
  siteTitle: z.string(),
  logo: z.string(),
  docsUrl: z.string(),
  pluginUrl: z.string(),
}));
export type Brand = z.infer<typeof brandSchema>;

// GET /version.json
export const versionFileSchema = lazySchema(() => z.object({ version: z.string(), isUpdate: z.boolean() }));
export type VersionFile = z.infer<typeof versionFileSchema>;

// GET /api/health: "ok" to anyone; the details to an administrator's session only. While the database is away the
// answer is HTTP 503, its envelope's data `{ status: 'degraded' }` (with the details for an administrator).
export const healthSchema = lazySchema(() => z.object({
  status: z.literal('ok'),
  database: z.enum(['pglite', 'postgres']).optional(),
  version: z.string().optional(),
  uptimeS: z.number().optional(),
}));
export type Health = z.infer<typeof healthSchema>;

/** GET /version.json's query: a timestamp that defeats every cache between the browser and the file. */
export const versionFileQuerySchema = lazySchema(() => z.object({ t: z.coerce.number().optional() }));

/** Session and account calls (seller-tool §7 "Session and account"), the release file and the health probe. */
export const SESSION_ENDPOINTS = {
  captchaImage: defineEndpoint({
    method: 'GET',
    path: '/captchaImage',
    summary: 'A new captcha: an SVG image and the uuid its answer is sent with.',
    access: 'public',
    answer: captchaImageSchema,
    settings: { timeout: 5_000 },
  }),
  register: defineEndpoint({
    method: 'POST',
    path: '/user/register',
    summary: 'Registers a new user (captcha required); the user starts with no role.',
    access: 'public',
    input: registerBodySchema,
    answer: registerDataSchema,
  }),
  login: defineEndpoint({
    method: 'POST',
    path: '/login',
    summary: 'Signs in: answers the access token and sets the httpOnly refresh cookie, or the second step (one-time code) the account needs.',
    access: 'public',
    input: loginBodySchema,
    answer: loginAnswerSchema,
  }),
  getInfo: defineEndpoint({ method: 'GET', path: '/getInfo', summary: "The signed-in user's roles and validity periods.", access: 'open', answer: userInfoSchema }),
  refreshToken: defineEndpoint({
    method: 'POST',
    path: '/refreshToken',
    summary: 'A new access token from the refresh cookie and the X-User-Id header (the client calls it itself on a 402).',
    access: 'public',
    answer: refreshDataSchema,
  }),
  logout: defineEndpoint({
    method: 'POST',
    path: '/logout',
    summary: 'Ends this session and clears the refresh cookie.',
    access: 'open',
    answer: logoutDataSchema,
    // Best effort: the user is leaving whatever the server says.
    settings: { silent: true, retries: 0 },
  }),
  loginCheck: defineEndpoint({
    method: 'POST',
    path: '/loginCheck',
    summary: "1 while the session's password token is current, 0 once the password has changed elsewhere.",
    access: 'public',
    input: loginCheckBodySchema,
    answer: loginCheckDataSchema,
    settings: { timeout: 30_000, cancellable: true, silent: true },
  }),
  checkPsw: defineEndpoint({
    method: 'POST',
    path: '/user/checkPsw',
    summary: "Whether a password is the user's current one.",
    access: 'open',
    // A read: the operation log leaves it out.
    action: 'view',
    input: checkPswBodySchema,
    answer: checkPswDataSchema,
  }),
  changePsw: defineEndpoint({
    method: 'POST',
    path: '/user/changePsw',
    summary: "Changes the user's password; every other session of the user ends.",
    access: 'open',
    input: changePswBodySchema,
    answer: changePswDataSchema,
  }),
  noticeCheck: defineEndpoint({
    method: 'GET',
    path: '/noticeCheck',
    summary: 'The newest published notice for the banner, or null.',
    access: 'open',
    answer: noticeCheckDataSchema,
    settings: { timeout: 30_000, silent: true },
  }),
  limitInfo: defineEndpoint({ method: 'GET', path: '/limitInfo', summary: "The account's quotas and their use.", access: 'open', answer: limitInfoSchema }),
  getBrand: defineEndpoint({ method: 'GET', path: '/getBrand', summary: "The deployment's branding.", access: 'open', answer: brandSchema }),
  versionFile: defineEndpoint({
    method: 'GET',
    path: '/version.json',
    summary: 'The release file the open pages poll to offer a reload (at the site root, no envelope).',
    access: 'public',
    site: true,
    input: versionFileQuerySchema,
    answer: versionFileSchema,
    settings: { silent: true },
  }),
  health: defineEndpoint({
    method: 'GET',
    path: '/health',
    summary: 'Health probe for load balancers: "ok" while the database answers, 503 "degraded" while it does not; details for administrators.',
    access: 'public',
    answer: healthSchema,
  }),
} as const;
