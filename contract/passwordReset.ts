import { z } from 'zod';
import { defineEndpoint, routePaths } from './endpoint';
import type { Localized } from './errors';
import { lazySchema } from './lazySchema';
import { PASSWORD_PATTERN } from './session';
import { PHONE_PATTERN } from './signinServices';

/**
 * "Forgot password" on the login page: a 6-digit code sent to the account's e-mail or phone (good for 600 s, the
 * spec's ttl, five tries, once), then a new password under the policy in force. Sends are limited per account, per
 * destination and per address. Also where a person keeps the e-mail and phone the codes go to.
 */

export const RESET_CODE_TTL_S = 600;
export const RESET_CODE_DIGITS = 6;
export const RESET_CODE_TRIES = 5;
/** Between two sends to one account or one destination. */
export const RESEND_AFTER_S = 60;
/** Sends within an hour: per account, per destination, per address. */
export const SENDS_PER_HOUR = { account: 5, destination: 5, address: 10 } as const;

/** What the "no e-mail address / phone number" message names, per channel. */
export const RESET_CHANNEL_NAMES = {
  email: { zh: '邮箱', en: 'e-mail address', pt: 'e-mail' },
  sms: { zh: '手机号', en: 'phone number', pt: 'telefone' },
} as const;

export const RESET_MESSAGES = {
  noContact: {
    zh: '没有该账号，或该账号未绑定{channel}',
    en: 'There is no such account, or it has no {channel} on record',
    pt: 'Essa conta não existe ou não tem {channel} cadastrado',
  },
  wait: { zh: '发送太频繁，请 {n} 秒后再试', en: 'Sent too often; try again in {n} seconds', pt: 'Enviado com muita frequência; tente de novo em {n} segundos' },
  codeWrong: { zh: '验证码错误', en: 'The verification code is wrong', pt: 'O código de verificação está errado' },
  codeExpired: {
    zh: '验证码已过期或已失效，请重新获取',
    en: 'The verification code has expired or was used up; ask for a new one',
    pt: 'O código de verificação expirou ou foi usado; peça outro',
  },
} as const satisfies Record<string, Localized>;

export const RESET_CHANNELS = ['email', 'sms'] as const;
export type ResetChannel = (typeof RESET_CHANNELS)[number];

export const forgotSendBodySchema = lazySchema(() => z.object({
  username: z.string().trim().min(1).max(64),
  channel: z.enum(RESET_CHANNELS),
  code: z.string().trim().min(1).max(16),
  uuid: z.string().trim().min(1).max(64),
}));
export type ForgotSendBody = z.input<typeof forgotSendBodySchema>;
export const forgotSentSchema = lazySchema(() => z.object({
  channel: z.enum(RESET_CHANNELS),
  /** The destination, partly hidden: `s***r@example.cn`, `138****8000`. */
  sentTo: z.string(),
  ttl: z.number().int(),
  /** Seconds before another code may be sent. */
  resendAfter: z.number().int(),
}));
export type ForgotSent = z.infer<typeof forgotSentSchema>;
export const forgotResetBodySchema = lazySchema(() => z.object({
  username: z.string().trim().min(1).max(64),
  code: z.string().trim().regex(/^\d{6}$/, 'code'),
  password: z.string().regex(PASSWORD_PATTERN, 'passwordPolicy'),
}));
export type ForgotResetBody = z.input<typeof forgotResetBodySchema>;

const email = z.union([z.literal(''), z.string().trim().max(200).regex(/^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/, 'email')]);
const phone = z.union([z.literal(''), z.string().trim().regex(PHONE_PATTERN, 'phone')]);
export const contactSchema = lazySchema(() => z.object({ email, phone }));
export type Contact = z.infer<typeof contactSchema>;

export const RESET_ENDPOINTS = {
  forgotSend: defineEndpoint({
    method: 'POST',
    path: '/user/forgot/send',
    summary: "Sends a 6-digit code to the account's e-mail or phone for a new password (captcha; limited per account, destination and address).",
    access: 'public',
    input: forgotSendBodySchema,
    answer: forgotSentSchema,
  }),
  forgotReset: defineEndpoint({
    method: 'POST',
    path: '/user/forgot/reset',
    summary: 'Sets a new password (under the policy in force) with the code sent; every session of the account ends.',
    access: 'public',
    input: forgotResetBodySchema,
    answer: lazySchema(() => z.null()),
  }),
  contact: defineEndpoint({ method: 'GET', path: '/user/contact', summary: "The signed-in person's e-mail and phone (where codes are sent).", access: 'open', answer: contactSchema }),
  saveContact: defineEndpoint({ method: 'POST', path: '/user/contact', summary: "Sets the signed-in person's e-mail and phone.", access: 'open', input: contactSchema, answer: contactSchema }),
} as const;
export const RESET_PATHS = routePaths(RESET_ENDPOINTS);
