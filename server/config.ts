import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { PASSWORD_PATTERN } from '../contract/session';
import { DEFAULT_PASSWORD_HASH_COST } from './areas/session/passwords';
import { CBR_DEFAULT_URL } from './integrations/cbr/client';
import { POCHTA_DEFAULT_URL } from './integrations/pochta/client';
import { CAINIAO_DEFAULT_URL } from './integrations/tracking/cainiao';
import { RUSSIAN_POST_DEFAULT_URL } from './integrations/tracking/russianPost';
import { TRACK17_DEFAULT_URL } from './integrations/tracking/track17';
import { SMS_ALIYUN_URL } from './integrations/sms/aliyun';
import { YANDEX_TRANSLATE_DEFAULT_URL } from './integrations/translate/yandex';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export type Config = {
  port: number;
  host: string;
  /** Absolute path; holds the embedded database and the generated secret key. */
  dataDir: string;
  /** Unset: the embedded PGlite database in `<dataDir>/pglite`. */
  databaseUrl: string | null;
  /** A streaming replica of DATABASE_URL's database that market research reads from; null: research reads the main one. */
  databaseReadUrl: string | null;
  /** Base URL for shops that name none; unset: the embedded simulator when it runs, else Ozon's production API. */
  ozonApiUrl: string | null;
  /**
   * Whether the Ozon simulator is mounted at /sim/ozon. Outside production: on unless OZON_API_URL is set.
   * In production: only with OZON_SIMULATOR=on (its shops' keys are public, in the README).
   */
  ozonSimulator: boolean;
  /** The Bank of Russia's rate services; null: the embedded simulator (outside production, where the bank's own address is the default). */
  cbrApiUrl: string | null;
  /**
   * Parcel tracking services. A null address: the embedded simulator (outside production); in production the
   * service's own address, used when its credentials are set (Cainiao needs none).
   */
  tracking: {
    russianPost: { url: string | null; login: string | null; password: string | null };
    cainiao: { url: string | null };
    track17: { url: string | null; key: string | null };
  };
  /** Russian Post's post-office service (office addresses and hours); null url: the simulator outside production. */
  pochta: { url: string | null; token: string | null; userKey: string | null };
  /**
   * Yandex Cloud Translate (server/integrations/translate): Russian ↔ Chinese for chats, products and keywords. Null
   * url: the in-process simulator outside production; in production Yandex's own address, used when a key is set.
   */
  translate: { url: string | null; apiKey: string | null; folderId: string | null };
  /** 32 bytes; encrypts shops' API keys at rest. */
  secretKey: Buffer;
  demo: boolean;
  production: boolean;
  /** Automated tests only: every captcha's answer is this code. */
  captchaTestCode: string | null;
  /** log2 of scrypt's N for new password hashes (areas/session/passwords.ts). */
  passwordHashCost: number;
  accessTokenTtlS: number;
  refreshTokenTtlS: number;
  /** Creates the `admin` account at the first production start. */
  adminPassword: string | null;
  /** The `isUpdate` flag of /version.json: whether open pages should offer a reload for this release. */
  releaseIsUpdate: boolean;
  logLevel: LogLevel;
  /** Addresses or CIDR ranges of the reverse proxies whose X-Forwarded-For is believed; empty: none is. */
  trustProxy: string[];
  /** Hosts (`name` or `name:port`) a shop's base URL may name beside Ozon's API hosts, private addresses included. */
  ozonAllowedHosts: string[];
  /** Hosts (`name` or `name:port`) whose pictures in chat messages the server may fetch at private addresses too. */
  chatImageAllowedHosts: string[];
  /**
   * Where the link collector reads product pages: each site's address, or null. Unset outside production: the
   * embedded simulator's saved pages; unset in production: collecting that site by link is off (the plugin still works).
   */
  collectSites: { ozon: string | null; '1688': string | null };
  /** Serve the API reference (/api/docs) and its OpenAPI document to anyone: on by default outside production. */
  apiDocs: boolean;
  /** The flows page (/flows) for administrators: on by default outside production. */
  flowsPage: boolean;
  /**
   * The app's own mail service, used by an organisation without one of its own (server/integrations/mail). Null url:
   * the in-process SMTP simulator outside production, no mail in production.
   */
  mail: { url: string | null; from: string };
  /** SMTP_ALLOWED_HOSTS: hosts an organisation's mail settings may name although they are internal (`name`, `name:port`). */
  smtpAllowedHosts: string[];
  /**
   * The app's SMS account at Aliyun SMS (server/integrations/sms), used by an organisation without one of its own.
   * Null url: the in-process simulator outside production (dysmsapi.aliyuncs.com in production, with a key).
   */
  sms: { url: string | null; accessKeyId: string | null; accessKeySecret: string | null; signName: string; template: string };
  /** Strict-Transport-Security max-age, sent on answers to https requests (a trusted proxy's X-Forwarded-Proto); 0: none. */
  hstsMaxAgeS: number;
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const flag = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(['1', '0', 'true', 'false', 'on', 'off', 'yes', 'no'], { error: 'must be one of true/false, 1/0, on/off, yes/no' }))
  .transform((value) => ['1', 'true', 'on', 'yes'].includes(value));

/** A comma-separated list, each entry checked by `entry`. */
const list = (entry: z.ZodString) =>
  z
    .string()
    .transform((value) => value.split(',').map((part) => part.trim()).filter(Boolean))
    .pipe(z.array(entry));

const isAddressOrRange = (value: string) => {
  const [address = '', bits, ...rest] = value.split('/');
  if (rest.length > 0 || !isIP(address)) return false;
  if (bits === undefined) return true;
  const max = isIP(address) === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= max;
};
const HOST_PATTERN = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/i;

const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());

const envSchema = z.object({
  NODE_ENV: optional(z.string()),
  PORT: optional(z.coerce.number().int().min(0).max(65535)).default(8080),
  HOST: optional(z.string()).default('0.0.0.0'),
  DATA_DIR: optional(z.string()).default('./data'),
  DATABASE_URL: optional(z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' })),
  DATABASE_READ_URL: optional(z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' })),
  OZON_API_URL: optional(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })),
  OZON_SIMULATOR: optional(flag),
  CBR_API_URL: optional(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })),
  RUSSIAN_POST_TRACKING_URL: optional(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })),
  RUSSIAN_POST_LOGIN: optional(z.string().min(1)),
  RUSSIAN_POST_PASSWORD: optional(z.string().min(1)),
  CAINIAO_URL: optional(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })),
  TRACK17_API_URL: optional(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })),
  TRACK17_API_KEY: optional(z.string().min(1)),
  POCHTA_API_URL: optional(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })),
  POCHTA_TOKEN: optional(z.string().min(1)),
  POCHTA_USER_KEY: optional(z.string().min(1)),
  YANDEX_TRANSLATE_URL: optional(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })),
  YANDEX_TRANSLATE_API_KEY: optional(z.string().min(1)),
  YANDEX_TRANSLATE_FOLDER_ID: optional(z.string().regex(/^[a-z0-9]{20}$/, 'must be a Yandex Cloud folder id (20 lower-case letters and digits)')),
  SECRET_KEY: optional(z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex digits (32 bytes)')),
  DEMO: optional(flag),
  CAPTCHA_TEST_CODE: optional(z.string().regex(/^[0-9A-Za-z]{4,8}$/, 'must be 4 to 8 letters or digits')),
  // log2 of scrypt's N for new password hashes; below the default only outside production (the test suites' speed).
  PASSWORD_HASH_COST: optional(z.coerce.number().int().min(10).max(20)),
  ACCESS_TOKEN_TTL_S: optional(z.coerce.number().int().min(1)).default(7200),
  REFRESH_TOKEN_TTL_S: optional(z.coerce.number().int().min(1)).default(30 * 24 * 3600),
  ADMIN_PASSWORD: optional(z.string().regex(PASSWORD_PATTERN, 'must be 8 to 64 characters with letters and digits')),
  RELEASE_IS_UPDATE: optional(flag).default(true),
  API_DOCS: optional(flag),
  FLOWS_PAGE: optional(flag),
  LOG_LEVEL: optional(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])).default('info'),
  TRUST_PROXY: optional(list(z.string().refine(isAddressOrRange, 'must be IP addresses or CIDR ranges, comma-separated'))),
  COLLECT_OZON_URL: optional(z.url({ protocol: /^https$/, error: 'must be an https:// URL' })),
  COLLECT_1688_URL: optional(z.url({ protocol: /^https$/, error: 'must be an https:// URL' })),
  OZON_ALLOWED_HOSTS: optional(list(z.string().regex(HOST_PATTERN, 'must be host names or host:port, comma-separated'))),
  SMTP_ALLOWED_HOSTS: optional(list(z.string().regex(HOST_PATTERN, 'must be host names or host:port, comma-separated'))),
  SMTP_URL: optional(z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL (smtp://user:password@host:587)' })),
  MAIL_FROM: optional(z.string().regex(/^[^\s@<>]+@[^\s@<>]+$/, 'must be an e-mail address')),
  SMS_API_URL: optional(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })),
  SMS_ACCESS_KEY_ID: optional(z.string().min(1)),
  SMS_ACCESS_KEY_SECRET: optional(z.string().min(1)),
  SMS_SIGN_NAME: optional(z.string().min(1).max(40)),
  SMS_TEMPLATE: optional(z.string().regex(/^SMS_\d+$/, 'must be an Aliyun template code like SMS_123456789')),
  HSTS_MAX_AGE_S: optional(z.coerce.number().int().min(0).max(63_072_000)).default(0),
  CHAT_IMAGE_ALLOWED_HOSTS: optional(list(z.string().regex(HOST_PATTERN, 'must be host names or host:port, comma-separated'))),
});

/**
 * Reads and checks the environment once at start. Throws a ConfigError listing every bad value, so the operator
 * fixes them all in one go. Side effect: without SECRET_KEY (embedded PGlite only: with DATABASE_URL it is required),
 * creates DATA_DIR and keeps a generated key in DATA_DIR/secret.key, so shops' encrypted API keys survive restarts.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const values = parsed.data;
  const production = values.NODE_ENV === 'production';
  if (production && values.CAPTCHA_TEST_CODE) {
    throw new ConfigError('Invalid configuration:\n  CAPTCHA_TEST_CODE: is for automated tests only and must not be set when NODE_ENV=production');
  }
  if (values.DATABASE_URL && !values.SECRET_KEY) {
    // A key generated per instance breaks everything instances share: a captcha made on one fails on another, and
    // shops' API keys encrypted by one cannot be read by the others.
    throw new ConfigError(
      'Invalid configuration:\n  SECRET_KEY: must be set when DATABASE_URL is set, the same on every instance sharing the database ' +
        '(64 hex digits, e.g. from `openssl rand -hex 32`); keep it: shops\' API keys stored with it cannot be read without it',
    );
  }
  if (values.DATABASE_READ_URL && !values.DATABASE_URL) {
    throw new ConfigError('Invalid configuration:\n  DATABASE_READ_URL: names a replica of the PostgreSQL server in DATABASE_URL, which is not set');
  }
  if (production && values.DEMO) {
    throw new ConfigError('Invalid configuration:\n  DEMO: the demo accounts (admin/admin123 ...) must not be seeded when NODE_ENV=production; unset DEMO and set ADMIN_PASSWORD');
  }
  if (production && values.PASSWORD_HASH_COST !== undefined && values.PASSWORD_HASH_COST < DEFAULT_PASSWORD_HASH_COST) {
    throw new ConfigError(`Invalid configuration:\n  PASSWORD_HASH_COST: must be at least ${DEFAULT_PASSWORD_HASH_COST} when NODE_ENV=production (lower is for the test suites only)`);
  }
  if (values.REFRESH_TOKEN_TTL_S < values.ACCESS_TOKEN_TTL_S) {
    throw new ConfigError('Invalid configuration:\n  REFRESH_TOKEN_TTL_S: must not be shorter than ACCESS_TOKEN_TTL_S');
  }
  const dataDir = resolve(values.DATA_DIR);
  return {
    port: values.PORT,
    host: values.HOST,
    dataDir,
    databaseUrl: values.DATABASE_URL ?? null,
    databaseReadUrl: values.DATABASE_READ_URL ?? null,
    ozonApiUrl: values.OZON_API_URL ?? null,
    ozonSimulator: values.OZON_SIMULATOR ?? (!production && !values.OZON_API_URL),
    cbrApiUrl: values.CBR_API_URL ?? (production ? CBR_DEFAULT_URL : null),
    tracking: {
      russianPost: {
        url: values.RUSSIAN_POST_TRACKING_URL ?? (production ? RUSSIAN_POST_DEFAULT_URL : null),
        login: values.RUSSIAN_POST_LOGIN ?? null,
        password: values.RUSSIAN_POST_PASSWORD ?? null,
      },
      cainiao: { url: values.CAINIAO_URL ?? (production ? CAINIAO_DEFAULT_URL : null) },
      track17: { url: values.TRACK17_API_URL ?? (production ? TRACK17_DEFAULT_URL : null), key: values.TRACK17_API_KEY ?? null },
    },
    pochta: { url: values.POCHTA_API_URL ?? (production ? POCHTA_DEFAULT_URL : null), token: values.POCHTA_TOKEN ?? null, userKey: values.POCHTA_USER_KEY ?? null },
    translate: translateConfig(values, production),
    secretKey: values.SECRET_KEY ? Buffer.from(values.SECRET_KEY, 'hex') : keptSecretKey(dataDir),
    demo: values.DEMO ?? !production,
    production,
    captchaTestCode: values.CAPTCHA_TEST_CODE ?? null,
    passwordHashCost: values.PASSWORD_HASH_COST ?? DEFAULT_PASSWORD_HASH_COST,
    accessTokenTtlS: values.ACCESS_TOKEN_TTL_S,
    refreshTokenTtlS: values.REFRESH_TOKEN_TTL_S,
    adminPassword: values.ADMIN_PASSWORD ?? null,
    releaseIsUpdate: values.RELEASE_IS_UPDATE,
    logLevel: values.LOG_LEVEL,
    trustProxy: values.TRUST_PROXY ?? [],
    ozonAllowedHosts: (values.OZON_ALLOWED_HOSTS ?? []).map((host) => host.toLowerCase()),
    chatImageAllowedHosts: (values.CHAT_IMAGE_ALLOWED_HOSTS ?? []).map((host) => host.toLowerCase()),
    collectSites: { ozon: values.COLLECT_OZON_URL ?? null, '1688': values.COLLECT_1688_URL ?? null },
    apiDocs: values.API_DOCS ?? !production,
    flowsPage: values.FLOWS_PAGE ?? !production,
    mail: { url: values.SMTP_URL ?? null, from: values.MAIL_FROM ?? 'no-reply@seller.local' },
    smtpAllowedHosts: (values.SMTP_ALLOWED_HOSTS ?? []).map((host) => host.toLowerCase()),
    sms: {
      url: values.SMS_API_URL ?? (production ? SMS_ALIYUN_URL : null),
      accessKeyId: values.SMS_ACCESS_KEY_ID ?? null,
      accessKeySecret: values.SMS_ACCESS_KEY_SECRET ?? null,
      signName: values.SMS_SIGN_NAME ?? '跨境卖家后台',
      template: values.SMS_TEMPLATE ?? 'SMS_100000001',
    },
    hstsMaxAgeS: values.HSTS_MAX_AGE_S,
  };
}

/** A key without an address means Yandex's own; no key outside production means the simulator. */
function translateConfig(values: z.infer<typeof envSchema>, production: boolean): Config['translate'] {
  const apiKey = values.YANDEX_TRANSLATE_API_KEY ?? null;
  return { url: values.YANDEX_TRANSLATE_URL ?? (production || apiKey ? YANDEX_TRANSLATE_DEFAULT_URL : null), apiKey, folderId: values.YANDEX_TRANSLATE_FOLDER_ID ?? null };
}

function keptSecretKey(dataDir: string): Buffer {
  const file = join(dataDir, 'secret.key');
  if (existsSync(file)) {
    const text = readFileSync(file, 'utf8').trim();
    if (!/^[0-9a-fA-F]{64}$/.test(text)) {
      throw new ConfigError(`Invalid configuration:\n  ${file}: must hold 64 hex digits; restore it or set SECRET_KEY`);
    }
    return Buffer.from(text, 'hex');
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}
