import { createHmac, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { createRequire } from 'node:module';
import { eq, lt } from 'drizzle-orm';
import { CAPTCHA_TTL_MS, type CaptchaImage } from '../../../contract/session';
import { captchas } from '../../db/schema';
import { ApiError } from '../../http/errors';
import type { ServiceDeps } from './deps';

type RenderCaptcha = (text: string, options?: { width?: number; height?: number; fontSize?: number; noise?: number; color?: boolean; background?: string }) => string;
// svg-captcha's typings omit its callable default export, which renders a given text.
const renderCaptcha = createRequire(import.meta.url)('svg-captcha') as RenderCaptcha;

/** No 0/O/o, 1/I/l/i, 2/Z/z, 5/S/s, 8/B, 9/g/q: characters easy to misread in a distorted image. */
const ALPHABET = 'ACDEFGHJKLMNPQRTUVWXYacdefhjkmnprtuvwxy34678';
const LENGTH = 4;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function answerHash(deps: ServiceDeps, uuid: string, answer: string): string {
  // Keyed and bound to the uuid: a copied table does not reveal answers, nor lets one answer serve two captchas.
  return createHmac('sha256', deps.config.secretKey).update(`${uuid}:${answer.toLowerCase()}`).digest('hex');
}

function randomAnswer(): string {
  return Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
}

export async function createCaptcha(deps: ServiceDeps): Promise<CaptchaImage> {
  const now = deps.now();
  const uuid = randomUUID();
  const answer = deps.config.captchaTestCode ?? randomAnswer();
  await deps.db.delete(captchas).where(lt(captchas.expiresAt, now));
  await deps.db.insert(captchas).values({ uuid, answerHash: answerHash(deps, uuid, answer), expiresAt: new Date(now.getTime() + CAPTCHA_TTL_MS) });
  const svg = renderCaptcha(answer, { width: 120, height: 40, fontSize: 44, noise: 2, color: true, background: '#f4f6fa' });
  return { uuid, img: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/** Single use: the captcha is spent whether the answer was right or not. 508 when missing, 509 when wrong or expired. */
export async function consumeCaptcha(deps: ServiceDeps, uuid: string, code: string): Promise<void> {
  if (!code || !uuid) throw new ApiError(508, 'captchaMissing', code ? 'uuid' : 'code');
  if (!UUID_PATTERN.test(uuid)) throw new ApiError(509, 'captchaWrong', 'code');
  const [row] = await deps.db.delete(captchas).where(eq(captchas.uuid, uuid)).returning();
  if (!row || row.expiresAt.getTime() <= deps.now().getTime()) throw new ApiError(509, 'captchaWrong', 'code');
  const given = Buffer.from(answerHash(deps, uuid, code));
  const expected = Buffer.from(row.answerHash);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new ApiError(509, 'captchaWrong', 'code');
}
