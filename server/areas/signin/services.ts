import { eq } from 'drizzle-orm';
import type { Localized } from '../../../contract/errors';
import {
  DEFAULT_CAPTCHA,
  SERVICE_MESSAGES,
  captchaSettingsSchema,
  type CaptchaAnswer,
  type CaptchaSettings,
  type MailSettings,
  type MailSettingsAnswer,
  type SaveMailBody,
  type SaveSmsBody,
  type Sent,
  type SmsSettings,
  type SmsSettingsAnswer,
  type SmtpSecurity,
} from '../../../contract/signinServices';
import { captchaSettings, mailSettings, smsSettings, users } from '../../db/schema';
import { ApiError } from '../../http/errors';
import type { SmtpTarget } from '../../integrations/mail/mailer';
import { sendSmtp } from '../../integrations/mail/mailer';
import { checkedSmtpAddress, type SmtpHostPolicy } from '../../integrations/mail/smtpHost';
import { invitationMail, testMail, type MailMessage } from '../../integrations/mail/messages';
import type { Messaging } from '../../integrations/messaging';
import { aliyunSendSms, SmsError } from '../../integrations/sms/aliyun';
import { decryptSecret, encryptSecret } from '../../marketplace/crypto';
import type { ServiceDeps } from '../session/deps';
import type { AuthUser } from '../session/service';
import type { OrgContext } from '../team/service';

/**
 * The services the sign-in relies on: an organisation's mail server and SMS account (the messages of its people go
 * through them, else through the app's own, server/integrations/messaging.ts), and the app's captcha settings.
 */
export type MessagingDeps = ServiceDeps & { messaging: Messaging };

const withReason = (text: Localized, reason: string): Localized => ({ zh: text.zh.replace('{reason}', reason), en: text.en.replace('{reason}', reason), pt: text.pt.replace('{reason}', reason) });

// ---------------------------------------------------------------- mail

type MailRow = typeof mailSettings.$inferSelect;

function mailOf(row: MailRow): MailSettings {
  return {
    smtpHost: row.smtpHost,
    smtpPort: row.smtpPort,
    smtpSecurity: row.smtpSecurity as SmtpSecurity,
    popHost: row.popHost,
    popPort: row.popPort,
    imapHost: row.imapHost,
    imapPort: row.imapPort,
    username: row.username,
    fromAddress: row.fromAddress,
    status: row.status === 1 ? 1 : 0,
    passwordSet: Boolean(row.passwordEnc),
    updatedAt: row.updatedAt.getTime(),
  };
}

async function mailRow(deps: MessagingDeps, orgId: number): Promise<MailRow | undefined> {
  const [row] = await deps.db.select().from(mailSettings).where(eq(mailSettings.orgId, orgId)).limit(1);
  return row;
}

export async function mailSettingsOf(deps: MessagingDeps, ctx: Pick<OrgContext, 'orgId'>): Promise<MailSettingsAnswer> {
  const row = await mailRow(deps, ctx.orgId);
  const sim = deps.messaging.mail.simulator;
  return { settings: row ? mailOf(row) : null, fallback: deps.messaging.mail.fallbackKind, simulator: sim ? { host: sim.host, port: sim.port } : null };
}

function smtpHostPolicy(deps: MessagingDeps): SmtpHostPolicy {
  const sim = deps.messaging.mail.simulator;
  return { allowedHosts: deps.config.smtpAllowedHosts, simulator: sim ? { host: sim.host, port: sim.port } : null };
}

export async function saveMail(deps: MessagingDeps, ctx: Pick<OrgContext, 'orgId'>, body: Omit<SaveMailBody, 'orgId'>): Promise<{ before: MailSettings | null; after: MailSettingsAnswer }> {
  const old = await mailRow(deps, ctx.orgId);
  const { password, ...fields } = body;
  // Refused at once with the field, before the first send (and checked again at each send).
  if (fields.smtpHost) await checkedSmtpAddress(smtpHostPolicy(deps), fields.smtpHost, fields.smtpPort);
  const passwordEnc = password ? encryptSecret(deps.config.secretKey, password) : (old?.passwordEnc ?? null);
  if (fields.username && !passwordEnc) throw new ApiError(400, SERVICE_MESSAGES.secretNeeded, 'password');
  const values = { ...fields, passwordEnc, updatedAt: deps.now() };
  await deps.db.insert(mailSettings).values({ orgId: ctx.orgId, ...values }).onConflictDoUpdate({ target: mailSettings.orgId, set: values });
  return { before: old ? mailOf(old) : null, after: await mailSettingsOf(deps, ctx) };
}

/** The SMTP server an organisation's mail leaves through: its own when switched on, else the app's; null: none. */
async function smtpFor(deps: MessagingDeps, orgId: number | null): Promise<{ target: SmtpTarget; via: string } | null> {
  const row = orgId === null ? undefined : await mailRow(deps, orgId);
  if (row && row.status === 1) {
    return {
      target: {
        kind: 'server',
        host: row.smtpHost,
        port: row.smtpPort,
        security: row.smtpSecurity as SmtpSecurity,
        username: row.username,
        password: row.passwordEnc ? decryptSecret(deps.config.secretKey, row.passwordEnc) : null,
        from: row.fromAddress,
        address: await checkedSmtpAddress(smtpHostPolicy(deps), row.smtpHost, row.smtpPort),
      },
      via: `${row.smtpHost}:${row.smtpPort}`,
    };
  }
  const fallback = deps.messaging.mail.fallback;
  return fallback ? { target: fallback, via: deps.messaging.mail.fallbackKind } : null;
}

/** Sends one of the server's messages for an organisation (null: the app's own service); refused with the reason. */
export async function deliverMail(deps: MessagingDeps, orgId: number | null, to: string, message: MailMessage): Promise<Sent> {
  const smtp = await smtpFor(deps, orgId);
  if (!smtp) throw new ApiError(503, SERVICE_MESSAGES.mailNotConfigured);
  try {
    await sendSmtp(smtp.target, to, message);
  } catch (error) {
    throw new ApiError(502, withReason(SERVICE_MESSAGES.mailFailed, error instanceof Error ? error.message : String(error)));
  }
  return { to, via: smtp.via };
}

async function orgName(deps: MessagingDeps, orgId: number): Promise<string> {
  const [row] = await deps.db.select({ name: users.username }).from(users).where(eq(users.id, orgId)).limit(1);
  return row?.name ?? '';
}

/**
 * A new member's invitation (their login name and where to sign in) through the organisation's mail service. Sent
 * after the member exists: a mail that fails is logged, the member stays.
 */
export async function sendInvitation(deps: MessagingDeps, orgId: number, username: string, to: string, loginUrl: string): Promise<Sent> {
  return deliverMail(deps, orgId, to, invitationMail(await orgName(deps, orgId), username, loginUrl));
}

export async function sendTestMail(deps: MessagingDeps, ctx: Pick<OrgContext, 'orgId'>, to: string): Promise<Sent> {
  return deliverMail(deps, ctx.orgId, to, testMail(await orgName(deps, ctx.orgId)));
}

export async function emailList(deps: MessagingDeps, ctx: Pick<OrgContext, 'orgId'>, query: { page: number; rows: number }) {
  const row = await mailRow(deps, ctx.orgId);
  const item = row && {
    id: ctx.orgId,
    smtp: row.smtpHost,
    smtpPort: row.smtpPort,
    security: row.smtpSecurity as SmtpSecurity,
    pop: row.popHost,
    popPort: row.popPort,
    imap: row.imapHost,
    imapPort: row.imapPort,
    user: row.username,
    from: row.fromAddress,
    status: row.status === 1 ? (1 as const) : (0 as const),
  };
  const all = item ? [item] : [];
  return { list: all.slice((query.page - 1) * query.rows, query.page * query.rows), total: all.length };
}

// ---------------------------------------------------------------- SMS

type SmsRow = typeof smsSettings.$inferSelect;

function smsOf(row: SmsRow): SmsSettings {
  return { provider: 'aliyun', appKey: row.appKey, signName: row.signName, template: row.template, status: row.status === 1 ? 1 : 0, secretSet: Boolean(row.appSecretEnc), updatedAt: row.updatedAt.getTime() };
}

async function smsRow(deps: MessagingDeps, orgId: number): Promise<SmsRow | undefined> {
  const [row] = await deps.db.select().from(smsSettings).where(eq(smsSettings.orgId, orgId)).limit(1);
  return row;
}

export async function smsSettingsOf(deps: MessagingDeps, ctx: Pick<OrgContext, 'orgId'>): Promise<SmsSettingsAnswer> {
  const row = await smsRow(deps, ctx.orgId);
  return { settings: row ? smsOf(row) : null, fallback: deps.messaging.sms.fallbackKind };
}

export async function saveSms(deps: MessagingDeps, ctx: Pick<OrgContext, 'orgId'>, body: Omit<SaveSmsBody, 'orgId'>): Promise<{ before: SmsSettings | null; after: SmsSettingsAnswer }> {
  const old = await smsRow(deps, ctx.orgId);
  const { appSecret, ...fields } = body;
  const appSecretEnc = appSecret ? encryptSecret(deps.config.secretKey, appSecret) : (old?.appSecretEnc ?? null);
  if (!appSecretEnc) throw new ApiError(400, SERVICE_MESSAGES.secretNeeded, 'appSecret');
  const values = { ...fields, appSecretEnc, updatedAt: deps.now() };
  await deps.db.insert(smsSettings).values({ orgId: ctx.orgId, ...values }).onConflictDoUpdate({ target: smsSettings.orgId, set: values });
  return { before: old ? smsOf(old) : null, after: await smsSettingsOf(deps, ctx) };
}

/** Sends a code by SMS for an organisation (its account when on, else the app's), through Aliyun's SendSms. */
export async function deliverSmsCode(deps: MessagingDeps, orgId: number | null, phone: string, code: string): Promise<Sent> {
  const { sms } = deps.messaging;
  const row = orgId === null ? undefined : await smsRow(deps, orgId);
  const account =
    row && row.status === 1 && row.appSecretEnc
      ? { accessKeyId: row.appKey, accessKeySecret: decryptSecret(deps.config.secretKey, row.appSecretEnc), signName: row.signName, template: row.template, via: 'aliyun' }
      : sms.fallback && { ...sms.fallback, via: sms.fallbackKind };
  if (!sms.url || !account) throw new ApiError(503, SERVICE_MESSAGES.smsNotConfigured);
  try {
    await aliyunSendSms(
      { url: sms.url, accessKeyId: account.accessKeyId, accessKeySecret: account.accessKeySecret, fetch: sms.fetch },
      { phone, signName: account.signName, template: account.template, params: { code } },
      deps.now(),
    );
  } catch (error) {
    throw new ApiError(502, withReason(SERVICE_MESSAGES.smsFailed, error instanceof SmsError ? error.message : String(error)));
  }
  return { to: phone, via: account.via };
}

export async function sendTestSms(deps: MessagingDeps, ctx: Pick<OrgContext, 'orgId'>, phone: string): Promise<Sent> {
  return deliverSmsCode(deps, ctx.orgId, phone, '123456');
}

export async function smsList(deps: MessagingDeps, ctx: Pick<OrgContext, 'orgId'>, query: { page: number; rows: number }) {
  const row = await smsRow(deps, ctx.orgId);
  const all = row ? [{ id: ctx.orgId, provider: 'aliyun' as const, app_key: row.appKey, sign_name: row.signName, template: row.template, status: row.status === 1 ? (1 as const) : (0 as const) }] : [];
  return { list: all.slice((query.page - 1) * query.rows, query.page * query.rows), total: all.length };
}

// ---------------------------------------------------------------- captcha

const CAPTCHA_ROW = 1;

/** The captcha settings served now: the stored ones while switched on, else the built-in default. */
export async function captchaInForce(deps: Pick<ServiceDeps, 'db'>): Promise<CaptchaSettings> {
  const stored = await storedCaptcha(deps);
  return stored.status === 1 ? stored : DEFAULT_CAPTCHA;
}

async function storedCaptcha(deps: Pick<ServiceDeps, 'db'>): Promise<CaptchaSettings> {
  const [row] = await deps.db.select().from(captchaSettings).where(eq(captchaSettings.id, CAPTCHA_ROW)).limit(1);
  const parsed = captchaSettingsSchema.safeParse(row && { type: row.type, complexity: row.complexity, appKey: row.appKey, status: row.status });
  return parsed.success ? parsed.data : DEFAULT_CAPTCHA;
}

const canEditCaptcha = (user: AuthUser) => user.isAdmin && !user.isMember;

export async function captchaOf(deps: ServiceDeps, user: AuthUser): Promise<CaptchaAnswer> {
  return { settings: await storedCaptcha(deps), editable: canEditCaptcha(user) };
}

export async function saveCaptcha(deps: ServiceDeps, user: AuthUser, body: CaptchaSettings): Promise<{ before: CaptchaSettings; after: CaptchaAnswer }> {
  if (!canEditCaptcha(user)) throw new ApiError(401, SERVICE_MESSAGES.captchaAdminOnly);
  const before = await storedCaptcha(deps);
  const values = { ...body, updatedAt: deps.now() };
  await deps.db.insert(captchaSettings).values({ id: CAPTCHA_ROW, ...values }).onConflictDoUpdate({ target: captchaSettings.id, set: values });
  return { before, after: await captchaOf(deps, user) };
}

export async function captchaList(deps: ServiceDeps, query: { page: number; rows: number }) {
  const settings = await storedCaptcha(deps);
  const all = [{ id: CAPTCHA_ROW, type: settings.type, complexity: settings.complexity, app_key: settings.appKey, status: settings.status }];
  return { list: all.slice((query.page - 1) * query.rows, query.page * query.rows), total: all.length };
}
