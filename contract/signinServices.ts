import { z } from 'zod';
import { defineEndpoint, routePaths } from './endpoint';
import { pageQuerySchema } from './envelope';
import type { Localized } from './errors';
import { queryInt, ROW_ID_MAX } from './fields';
import { lazySchema } from './lazySchema';

/**
 * The services the sign-in relies on (the spec's console "mail service", "SMS" and "captcha" pages): an
 * organisation's mail server and SMS account, through which its codes, password resets, invitations and shop-key
 * warnings are sent, and the app's captcha. Secrets are write-only: an answer says whether one is set.
 */

export const SERVICE_MESSAGES = {
  mailNotConfigured: {
    zh: '未配置邮件服务：请在“邮件服务”中填写 SMTP 服务器，或由运维设置 SMTP_URL',
    en: 'No mail service is set up: fill in the SMTP server under "Mail service", or have the operator set SMTP_URL',
    pt: 'Nenhum serviço de e-mail configurado: preencha o servidor SMTP em "Serviço de e-mail" ou peça SMTP_URL ao operador',
  },
  smtpHostPrivate: {
    zh: 'SMTP 服务器不能是内网、本机或保留地址；如确需使用内网邮件服务器，请由运维将其加入 SMTP_ALLOWED_HOSTS',
    en: 'The SMTP server may not be an internal, loopback or reserved address; an internal mail relay must be added to SMTP_ALLOWED_HOSTS by the operator',
    pt: 'O servidor SMTP não pode ser um endereço interno, de loopback ou reservado; um relay interno deve ser incluído em SMTP_ALLOWED_HOSTS pelo operador',
  },
  smtpHostUnresolved: { zh: '找不到该 SMTP 服务器的地址', en: 'The SMTP server name does not resolve to an address', pt: 'O nome do servidor SMTP não resolve para um endereço' },
  mailFailed: { zh: '邮件发送失败：{reason}', en: 'The mail could not be sent: {reason}', pt: 'O e-mail não pôde ser enviado: {reason}' },
  smsNotConfigured: {
    zh: '未配置短信服务：请在“短信”中填写 AccessKey、签名和模板',
    en: 'No SMS service is set up: fill in the AccessKey, signature and template under "SMS"',
    pt: 'Nenhum serviço de SMS configurado: preencha AccessKey, assinatura e modelo em "SMS"',
  },
  smsFailed: { zh: '短信发送失败：{reason}', en: 'The SMS could not be sent: {reason}', pt: 'O SMS não pôde ser enviado: {reason}' },
  secretNeeded: { zh: '首次保存时必须填写密码/密钥', en: 'The password or secret is needed the first time the settings are saved', pt: 'A senha ou o segredo é necessário na primeira gravação' },
  captchaAdminOnly: { zh: '验证码设置仅管理员可修改', en: 'Only the administrator may change the captcha settings', pt: 'Só o administrador pode mudar o captcha' },
} as const satisfies Record<string, Localized>;

const queryId = () => queryInt(1, ROW_ID_MAX);
const orgQuery = lazySchema(() => z.object({ orgId: queryId().optional() }));
const host = z.string().trim().max(253).regex(/^[A-Za-z0-9.:[\]-]*$/, 'host');
const port = z.number().int().min(1).max(65535);
const status = z.union([z.literal(0), z.literal(1)]);
const listQuery = lazySchema(() => pageQuerySchema.extend({ rows: queryInt(1, 1000).default(10), orgId: queryId().optional() }));

// ---------------------------------------------------------------- mail

export const SMTP_SECURITY = ['none', 'starttls', 'tls'] as const;
export type SmtpSecurity = (typeof SMTP_SECURITY)[number];

const mailFields = {
  smtpHost: host.min(1),
  smtpPort: port,
  smtpSecurity: z.enum(SMTP_SECURITY),
  popHost: host,
  popPort: port,
  imapHost: host,
  imapPort: port,
  username: z.string().trim().max(200),
  fromAddress: z.string().trim().max(200).regex(/^[^\s@<>]+@[^\s@<>]+$/, 'email'),
  status,
};
export const mailSettingsSchema = lazySchema(() => z.object({ ...mailFields, passwordSet: z.boolean(), updatedAt: z.number() }));
export type MailSettings = z.infer<typeof mailSettingsSchema>;
export const mailSettingsAnswerSchema = lazySchema(() => z.object({
  /** The organisation's own; null: none saved yet. */
  settings: mailSettingsSchema.nullable(),
  /** What sends when the organisation's is off or missing: the app's configured server, the local simulator, or nothing. */
  fallback: z.enum(['config', 'simulator', 'none']),
  /** The in-process SMTP server outside production (host and port to point the settings at, for a try). */
  simulator: z.object({ host: z.string(), port: z.number().int() }).nullable(),
}));
export type MailSettingsAnswer = z.infer<typeof mailSettingsAnswerSchema>;
/** `password` empty or absent: keep the one stored. */
export const saveMailBodySchema = lazySchema(() => z.object({ orgId: queryId().optional(), ...mailFields, password: z.string().max(200).optional() }));
export type SaveMailBody = z.input<typeof saveMailBodySchema>;
export const testMailBodySchema = lazySchema(() => z.object({ orgId: queryId().optional(), to: z.string().trim().max(200).regex(/^[^\s@<>]+@[^\s@<>]+$/, 'email') }));
export const sentSchema = lazySchema(() => z.object({ to: z.string(), via: z.string() }));
export type Sent = z.infer<typeof sentSchema>;
export const emailRowSchema = lazySchema(() => z.object({
  id: z.number().int(),
  smtp: z.string(),
  smtpPort: z.number().int(),
  security: z.enum(SMTP_SECURITY),
  pop: z.string(),
  popPort: z.number().int(),
  imap: z.string(),
  imapPort: z.number().int(),
  user: z.string(),
  from: z.string(),
  status,
}));
export const emailPageSchema = lazySchema(() => z.object({ list: z.array(emailRowSchema), total: z.number().int() }));

// ---------------------------------------------------------------- SMS

/** Aliyun SMS (dysmsapi, SendSms); see server/integrations/sms/aliyun.ts for why this provider. */
export const SMS_PROVIDERS = ['aliyun'] as const;
const smsFields = {
  provider: z.enum(SMS_PROVIDERS),
  /** The AccessKey ID (the spec's app_key). */
  appKey: z.string().trim().min(1).max(100),
  signName: z.string().trim().min(1).max(40),
  /** The template code, e.g. SMS_123456789, with one `${code}` variable. */
  template: z.string().trim().regex(/^SMS_\d+$/, 'template'),
  status,
};
export const smsSettingsSchema = lazySchema(() => z.object({ ...smsFields, secretSet: z.boolean(), updatedAt: z.number() }));
export type SmsSettings = z.infer<typeof smsSettingsSchema>;
export const smsSettingsAnswerSchema = lazySchema(() => z.object({ settings: smsSettingsSchema.nullable(), fallback: z.enum(['config', 'simulator', 'none']) }));
export type SmsSettingsAnswer = z.infer<typeof smsSettingsAnswerSchema>;
export const saveSmsBodySchema = lazySchema(() => z.object({ orgId: queryId().optional(), ...smsFields, appSecret: z.string().max(200).optional() }));
export type SaveSmsBody = z.input<typeof saveSmsBodySchema>;
export const PHONE_PATTERN = /^\+?\d{6,15}$/;
export const testSmsBodySchema = lazySchema(() => z.object({ orgId: queryId().optional(), phone: z.string().trim().regex(PHONE_PATTERN, 'phone') }));
export const smsRowSchema = lazySchema(() => z.object({ id: z.number().int(), provider: z.enum(SMS_PROVIDERS), app_key: z.string(), sign_name: z.string(), template: z.string(), status }));
export const smsPageSchema = lazySchema(() => z.object({ list: z.array(smsRowSchema), total: z.number().int() }));

// ---------------------------------------------------------------- captcha

export const CAPTCHA_TYPES = ['text', 'math'] as const;
export type CaptchaType = (typeof CAPTCHA_TYPES)[number];
export const captchaSettingsSchema = lazySchema(() => z.object({
  type: z.enum(CAPTCHA_TYPES),
  complexity: z.number().int().min(1).max(10),
  /** Kept for a third-party captcha service; the built-in types need none. */
  appKey: z.string().trim().max(100),
  /** 1: these settings are served; 0: the built-in default (text, complexity 3). */
  status,
}));
export type CaptchaSettings = z.infer<typeof captchaSettingsSchema>;
export const DEFAULT_CAPTCHA: CaptchaSettings = { type: 'text', complexity: 3, appKey: '', status: 1 };
export const captchaAnswerSchema = lazySchema(() => z.object({ settings: captchaSettingsSchema, editable: z.boolean() }));
export type CaptchaAnswer = z.infer<typeof captchaAnswerSchema>;

/** What a complexity serves: more characters, noise lines and a larger font spread as it rises. */
export function captchaShape(complexity: number): { length: number; noise: number; distortion: number } {
  const c = Math.min(10, Math.max(1, Math.round(complexity)));
  return { length: 3 + Math.ceil(c / 3), noise: Math.floor(c / 2) + 1, distortion: c };
}
export const captchaRowSchema = lazySchema(() => z.object({ id: z.number().int(), type: z.enum(CAPTCHA_TYPES), complexity: z.number().int(), app_key: z.string(), status }));
export const captchaPageSchema = lazySchema(() => z.object({ list: z.array(captchaRowSchema), total: z.number().int() }));

export const SERVICE_ENDPOINTS = {
  mail: defineEndpoint({ method: 'GET', path: '/security/mail', summary: "The organisation's mail service.", access: 'team', action: 'staff', input: orgQuery, answer: mailSettingsAnswerSchema }),
  saveMail: defineEndpoint({ method: 'POST', path: '/security/mail', summary: 'Saves the mail service (the password encrypted; empty keeps the stored one).', access: 'team', action: 'staff', input: saveMailBodySchema, answer: mailSettingsAnswerSchema }),
  testMail: defineEndpoint({ method: 'POST', path: '/security/mail/test', summary: 'Sends a test message through the mail service in force.', access: 'team', action: 'staff', input: testMailBodySchema, answer: sentSchema }),
  emailList: defineEndpoint({ method: 'GET', path: '/email/list', summary: "The spec's e-mail server list: the organisation's mail service.", access: 'team', action: 'staff', input: listQuery, answer: emailPageSchema }),
  sms: defineEndpoint({ method: 'GET', path: '/security/sms', summary: "The organisation's SMS account.", access: 'team', action: 'staff', input: orgQuery, answer: smsSettingsAnswerSchema }),
  saveSms: defineEndpoint({ method: 'POST', path: '/security/sms', summary: 'Saves the SMS account (the secret encrypted; empty keeps the stored one).', access: 'team', action: 'staff', input: saveSmsBodySchema, answer: smsSettingsAnswerSchema }),
  testSms: defineEndpoint({ method: 'POST', path: '/security/sms/test', summary: 'Sends a test code by SMS through the account in force.', access: 'team', action: 'staff', input: testSmsBodySchema, answer: sentSchema }),
  smsList: defineEndpoint({ method: 'GET', path: '/sms/list', summary: "The spec's SMS list: the organisation's SMS account.", access: 'team', action: 'staff', input: listQuery, answer: smsPageSchema }),
  captcha: defineEndpoint({ method: 'GET', path: '/security/captcha', summary: "The app's captcha settings (the administrator changes them).", access: 'team', action: 'staff', answer: captchaAnswerSchema }),
  saveCaptcha: defineEndpoint({ method: 'POST', path: '/security/captcha', summary: 'Saves the captcha settings; the next captcha served follows them.', access: 'team', action: 'staff', input: captchaSettingsSchema, answer: captchaAnswerSchema }),
  captchaList: defineEndpoint({ method: 'GET', path: '/captcha/list', summary: "The spec's captcha list: the settings in force.", access: 'team', action: 'staff', input: listQuery, answer: captchaPageSchema }),
} as const;
export const SERVICE_PATHS = routePaths(SERVICE_ENDPOINTS);
