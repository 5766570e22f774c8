import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { and, count, desc, eq, gt, isNull, lt, max, sql, type SQL } from 'drizzle-orm';
import type { Localized } from '../../../contract/errors';
import {
  RESEND_AFTER_S,
  RESET_CODE_DIGITS,
  RESET_CODE_TRIES,
  RESET_CODE_TTL_S,
  RESET_CHANNEL_NAMES,
  RESET_MESSAGES,
  SENDS_PER_HOUR,
  type Contact,
  type ForgotResetBody,
  type ForgotSendBody,
  type ForgotSent,
  type ResetChannel,
} from '../../../contract/passwordReset';
import { sentCodes, sessions, users, type UserRow } from '../../db/schema';
import { ApiError } from '../../http/errors';
import { codeMail, passwordResetMail } from '../../integrations/mail/messages';
import { consumeCaptcha } from '../session/captcha';
import { hashPassword } from '../session/passwords';
import { findUserByName, formatNoticeTime, newPasswordStamp, type AuthUser, type SignInOrigin } from '../session/service';
import { enforcePassword, policyOrgOf, replacedPassword, subjectOf } from './passwordPolicy';
import { logSignIn } from './secondStep';
import { deliverMail, deliverSmsCode, type MessagingDeps } from './services';

/**
 * A forgotten password (contract/passwordReset.ts): a code to the account's e-mail or phone, kept as a keyed hash,
 * then a new password under the policy. Each step is written to the sign-in log (event `reset`).
 */

const HOUR_MS = 3_600_000;
const fill = (text: Localized, params: Record<string, string | Localized>): Localized => {
  const one = (lang: keyof Localized) => Object.entries(params).reduce((out, [key, value]) => out.replace(`{${key}}`, typeof value === 'string' ? value : value[lang]), text[lang]);
  return { zh: one('zh'), en: one('en'), pt: one('pt') };
};

function codeHash(deps: MessagingDeps, userId: number, code: string): string {
  return createHmac('sha256', deps.config.secretKey).update(`reset:${userId}:${code}`).digest('hex');
}

export function masked(channel: ResetChannel, destination: string): string {
  if (channel === 'sms') return destination.length > 7 ? `${destination.slice(0, 3)}****${destination.slice(-4)}` : `${destination.slice(0, 1)}****`;
  const [name = '', domain = ''] = destination.split('@');
  return `${name.slice(0, 1)}***${name.length > 1 ? name.slice(-1) : ''}@${domain}`;
}

/** The wait before another send, or 0: RESEND_AFTER_S since the last, and the hourly counts per account, destination, address. */
async function waitBeforeSend(deps: MessagingDeps, userId: number, destination: string, ip: string): Promise<number> {
  const now = deps.now().getTime();
  const since = new Date(now - HOUR_MS);
  const waits: number[] = [];
  const limits: { where: SQL; perHour: number; spaced: boolean }[] = [
    { where: eq(sentCodes.userId, userId), perHour: SENDS_PER_HOUR.account, spaced: true },
    { where: eq(sentCodes.destination, destination), perHour: SENDS_PER_HOUR.destination, spaced: true },
    { where: eq(sentCodes.ip, ip), perHour: SENDS_PER_HOUR.address, spaced: false },
  ];
  for (const limit of limits) {
    const [row] = await deps.db
      .select({ n: count(), latest: max(sentCodes.createdAt), first: sql<Date | string | null>`min(${sentCodes.createdAt})` })
      .from(sentCodes)
      .where(and(limit.where, gt(sentCodes.createdAt, since)));
    if (limit.spaced && row?.latest) waits.push(new Date(row.latest).getTime() + RESEND_AFTER_S * 1000 - now);
    if ((row?.n ?? 0) >= limit.perHour && row?.first) waits.push(new Date(row.first).getTime() + HOUR_MS - now);
  }
  return Math.max(0, Math.ceil(Math.max(0, ...waits) / 1000));
}

function destinationOf(user: UserRow, channel: ResetChannel): string | null {
  const value = channel === 'email' ? user.email : user.phone;
  return value && value.trim() ? value.trim() : null;
}

export async function sendResetCode(deps: MessagingDeps, body: ForgotSendBody, origin: SignInOrigin): Promise<ForgotSent> {
  await consumeCaptcha(deps, body.uuid, body.code);
  const user = await findUserByName(deps, body.username);
  const destination = user ? destinationOf(user, body.channel) : null;
  const entry = { orgId: user ? policyOrgOf(user) : 0, userId: user?.id ?? null, username: body.username, event: 'reset', method: body.channel, ...origin } as const;
  if (!user || !destination) {
    const error = new ApiError(400, fill(RESET_MESSAGES.noContact, { channel: RESET_CHANNEL_NAMES[body.channel] }), 'username');
    await logSignIn(deps, { ...entry, success: false, reason: error.localized('en') });
    throw error;
  }
  const wait = await waitBeforeSend(deps, user.id, destination, origin.ip);
  if (wait > 0) {
    const error = new ApiError(429, fill(RESET_MESSAGES.wait, { n: String(wait) }));
    await logSignIn(deps, { ...entry, success: false, reason: error.localized('en') });
    throw error;
  }
  const now = deps.now();
  const code = String(randomInt(10 ** RESET_CODE_DIGITS)).padStart(RESET_CODE_DIGITS, '0');
  await deps.db.delete(sentCodes).where(lt(sentCodes.createdAt, new Date(now.getTime() - 24 * HOUR_MS)));
  // An earlier code stops working when a new one is sent.
  await deps.db.update(sentCodes).set({ usedAt: now }).where(and(eq(sentCodes.userId, user.id), eq(sentCodes.purpose, 'reset'), isNull(sentCodes.usedAt)));
  await deps.db.insert(sentCodes).values({
    userId: user.id,
    purpose: 'reset',
    channel: body.channel,
    destination,
    ip: origin.ip,
    codeHash: codeHash(deps, user.id, code),
    createdAt: now,
    expiresAt: new Date(now.getTime() + RESET_CODE_TTL_S * 1000),
  });
  const org = policyOrgOf(user);
  try {
    if (body.channel === 'email') await deliverMail(deps, org, destination, codeMail(code, RESET_CODE_TTL_S, 'reset'));
    else await deliverSmsCode(deps, org, destination, code);
  } catch (error) {
    if (error instanceof ApiError) await logSignIn(deps, { ...entry, success: false, reason: error.localized('en') });
    throw error;
  }
  return { channel: body.channel, sentTo: masked(body.channel, destination), ttl: RESET_CODE_TTL_S, resendAfter: RESEND_AFTER_S };
}

/** Checks the code (a wrong one spends a try), the new password under the policy, then uses the code up and sets it. */
export async function resetWithCode(deps: MessagingDeps, body: ForgotResetBody, origin: SignInOrigin): Promise<{ endedSessionIds: number[] }> {
  const user = await findUserByName(deps, body.username);
  const [sent] = user
    ? await deps.db
        .select()
        .from(sentCodes)
        .where(and(eq(sentCodes.userId, user.id), eq(sentCodes.purpose, 'reset'), isNull(sentCodes.usedAt), gt(sentCodes.expiresAt, deps.now())))
        .orderBy(desc(sentCodes.createdAt))
        .limit(1)
    : [];
  const entry = { orgId: user ? policyOrgOf(user) : 0, userId: user?.id ?? null, username: body.username, event: 'reset', method: (sent?.channel ?? 'email') as ResetChannel, ...origin } as const;
  const refuse = async (text: Localized, field: string | null): Promise<never> => {
    const error = new ApiError(400, text, field);
    await logSignIn(deps, { ...entry, success: false, reason: error.localized('en') });
    throw error;
  };
  if (!user || !sent || sent.attempts >= RESET_CODE_TRIES) return refuse(RESET_MESSAGES.codeExpired, 'code');
  const given = Buffer.from(codeHash(deps, user.id, body.code));
  const expected = Buffer.from(sent.codeHash);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    await deps.db.update(sentCodes).set({ attempts: sql`${sentCodes.attempts} + 1` }).where(eq(sentCodes.id, sent.id));
    return refuse(sent.attempts + 1 >= RESET_CODE_TRIES ? RESET_MESSAGES.codeExpired : RESET_MESSAGES.codeWrong, 'code');
  }
  try {
    await enforcePassword(deps.db, { orgId: policyOrgOf(user), subject: subjectOf(user), user }, body.password, 'password');
  } catch (error) {
    if (error instanceof ApiError) await logSignIn(deps, { ...entry, success: false, reason: error.localized('en') });
    throw error;
  }
  const passwordHash = await hashPassword(body.password);
  const now = deps.now();
  const ended = await deps.db.transaction(async (tx) => {
    // Used once: of two resets racing with one code, one wins.
    const [taken] = await tx.update(sentCodes).set({ usedAt: now }).where(and(eq(sentCodes.id, sent.id), isNull(sentCodes.usedAt))).returning({ id: sentCodes.id });
    if (!taken) return null;
    const changed = await replacedPassword(tx, user, now);
    await tx.update(users).set({ passwordHash, passwordStamp: newPasswordStamp(), ...changed }).where(eq(users.id, user.id));
    return tx.update(sessions).set({ endedAt: now }).where(and(eq(sessions.userId, user.id), isNull(sessions.endedAt))).returning({ id: sessions.id });
  });
  if (!ended) return refuse(RESET_MESSAGES.codeExpired, 'code');
  await logSignIn(deps, { ...entry, success: true });
  if (user.email) {
    // A notice to the owner of the mailbox; the reset stands whether it goes out or not.
    await deliverMail(deps, policyOrgOf(user), user.email, passwordResetMail(user.username, formatNoticeTime(now), origin.ip)).catch(() => undefined);
  }
  return { endedSessionIds: ended.map((row) => row.id) };
}

// ---------------------------------------------------------------- the person's contact

export async function ownContact(user: AuthUser): Promise<Contact> {
  return { email: user.row.email ?? '', phone: user.row.phone ?? '' };
}

export async function saveOwnContact(deps: MessagingDeps, user: AuthUser, body: Contact): Promise<Contact> {
  const [row] = await deps.db
    .update(users)
    .set({ email: body.email || null, phone: body.phone || null })
    .where(eq(users.id, user.id))
    .returning({ email: users.email, phone: users.phone });
  return { email: row?.email ?? '', phone: row?.phone ?? '' };
}
