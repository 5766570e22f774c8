import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamptz } from '../columns';
import { users } from './core';

/**
 * A person's one-time password (server/areas/signin): the secret encrypted with SECRET_KEY, its parameters as set up,
 * and what stops a code being used twice (the last TOTP step, the next HOTP counter). `pending*` is a set-up not yet
 * confirmed with a first code. `failures`/`lockedUntil`: wrong codes at the second step of a login.
 */
export const userOtp = pgTable('user_otp', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The organisation marked this member as required to use one. */
  required: boolean('required').notNull().default(false),
  secretEnc: text('secret_enc'),
  type: text('type').notNull().default('totp'),
  algorithm: text('algorithm').notNull().default('SHA1'),
  digits: integer('digits').notNull().default(6),
  period: integer('period').notNull().default(30),
  window: integer('window').notNull().default(1),
  /** HOTP: the counter the next code is checked from. */
  counter: bigint('counter', { mode: 'number' }).notNull().default(0),
  /** TOTP: the time step of the last accepted code; a code of that step or an earlier one is refused. */
  lastStep: bigint('last_step', { mode: 'number' }).notNull().default(-1),
  enabledAt: timestamptz('enabled_at'),
  pendingSecretEnc: text('pending_secret_enc'),
  /** The policy the pending set-up was made under. */
  pendingPolicy: jsonb('pending_policy'),
  failures: integer('failures').notNull().default(0),
  lockedUntil: timestamptz('locked_until'),
});

/** Ten per person, shown once; only their hash is kept, and each works once. */
export const otpRecoveryCodes = pgTable(
  'otp_recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamptz('used_at'),
  },
  (table) => [index('otp_recovery_codes_user_idx').on(table.userId)],
);

/** A login whose password was right, waiting for its second step (a hash of the ticket the client holds). */
export const loginChallenges = pgTable(
  'login_challenges',
  {
    id: serial('id').primaryKey(),
    ticketHash: text('ticket_hash').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 'otp' | 'enrol'. */
    kind: text('kind').notNull(),
    ip: text('ip').notNull().default(''),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (table) => [uniqueIndex('login_challenges_ticket_idx').on(table.ticketHash), index('login_challenges_expires_idx').on(table.expiresAt)],
);

/** An organisation's sign-in settings (org_id: the owner's users.id). */
export const orgSecurity = pgTable('org_security', {
  orgId: integer('org_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** contract/signin.ts OtpPolicy. */
  otpPolicy: jsonb('otp_policy'),
  /** Members of these roles must use a one-time password. */
  otpRoleIds: integer('otp_role_ids').array().notNull().default(sql`'{}'::int[]`),
});

/** Every sign-in and sign-out, success or failure. */
export const signInLog = pgTable(
  'sign_in_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The account the person works for (0 when the name is unknown). */
    orgId: integer('org_id').notNull(),
    userId: integer('user_id'),
    username: text('username').notNull(),
    at: timestamptz('at').notNull(),
    /** 'login' | 'logout'. */
    event: text('event').notNull(),
    /** contract/signin.ts SIGN_IN_METHODS. */
    method: text('method').notNull(),
    success: boolean('success').notNull(),
    reason: text('reason').notNull().default(''),
    ip: text('ip').notNull().default(''),
    browser: text('browser').notNull().default(''),
  },
  (table) => [index('sign_in_log_org_at_idx').on(table.orgId, table.at), index('sign_in_log_user_at_idx').on(table.userId, table.at), index('sign_in_log_at_idx').on(table.at)],
);

export type UserOtpRow = typeof userOtp.$inferSelect;

/** Password policies (contract/passwordPolicy.ts): an organisation's (org_id: the owner's users.id), or the whole app's (null). */
export const passwordPolicies = pgTable(
  'password_policies',
  {
    id: serial('id').primaryKey(),
    orgId: integer('org_id').references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** contract/passwordPolicy.ts PasswordRules. */
    rules: jsonb('rules').notNull(),
    /** 1: in force. */
    status: integer('status').notNull().default(1),
    creator: text('creator').notNull().default(''),
    createdAt: timestamptz('created_at').notNull(),
  },
  (table) => [index('password_policies_org_idx').on(table.orgId)],
);

/** The hashes of a person's previous passwords, for a policy's "not one of the last N". */
export const passwordHistory = pgTable(
  'password_history',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    passwordHash: text('password_hash').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (table) => [index('password_history_user_idx').on(table.userId, table.createdAt)],
);

/**
 * An organisation's mail service (server/integrations/mail): where its messages (codes, password resets, invitations,
 * shop keys about to expire) are sent from. The password is encrypted with SECRET_KEY. POP and IMAP describe the
 * mailbox for the people who read it; the app itself only sends (SMTP).
 */
export const mailSettings = pgTable('mail_settings', {
  orgId: integer('org_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  smtpHost: text('smtp_host').notNull(),
  smtpPort: integer('smtp_port').notNull(),
  /** 'none' | 'starttls' | 'tls'. */
  smtpSecurity: text('smtp_security').notNull().default('starttls'),
  popHost: text('pop_host').notNull().default(''),
  popPort: integer('pop_port').notNull().default(995),
  imapHost: text('imap_host').notNull().default(''),
  imapPort: integer('imap_port').notNull().default(993),
  username: text('username').notNull().default(''),
  passwordEnc: text('password_enc'),
  fromAddress: text('from_address').notNull(),
  /** 1: the organisation's messages go through it; 0: through the app's configured service. */
  status: integer('status').notNull().default(1),
  updatedAt: timestamptz('updated_at').notNull(),
});

/** An organisation's SMS account (server/integrations/sms): provider, AccessKey, signature, template; secret encrypted. */
export const smsSettings = pgTable('sms_settings', {
  orgId: integer('org_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  provider: text('provider').notNull().default('aliyun'),
  appKey: text('app_key').notNull(),
  appSecretEnc: text('app_secret_enc'),
  signName: text('sign_name').notNull(),
  template: text('template').notNull(),
  status: integer('status').notNull().default(1),
  updatedAt: timestamptz('updated_at').notNull(),
});

/** The app's captcha (one row, id 1): what the login and register pages are served next. */
export const captchaSettings = pgTable('captcha_settings', {
  id: integer('id').primaryKey(),
  /** 'text' | 'math'. */
  type: text('type').notNull().default('text'),
  /** 1 to 10: length, noise and distortion. */
  complexity: integer('complexity').notNull().default(3),
  appKey: text('app_key').notNull().default(''),
  status: integer('status').notNull().default(1),
  updatedAt: timestamptz('updated_at').notNull(),
});

/**
 * A code sent by e-mail or SMS (a forgotten password): only its hash is kept, good for 600 s, a few tries, once.
 * The rows also count the sends per account, per destination and per address for the rate limits.
 */
export const sentCodes = pgTable(
  'sent_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 'reset'. */
    purpose: text('purpose').notNull(),
    /** 'email' | 'sms'. */
    channel: text('channel').notNull(),
    destination: text('destination').notNull(),
    ip: text('ip').notNull().default(''),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamptz('created_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    usedAt: timestamptz('used_at'),
  },
  (table) => [index('sent_codes_user_idx').on(table.userId, table.createdAt), index('sent_codes_ip_idx').on(table.ip, table.createdAt), index('sent_codes_dest_idx').on(table.destination, table.createdAt)],
);
