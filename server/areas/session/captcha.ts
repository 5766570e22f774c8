import { createHmac, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { createRequire } from 'node:module';
import { eq, lt } from 'drizzle-orm';
import { CAPTCHA_TTL_MS, type CaptchaImage } from '../../../contract/session';
import { captchas } from '../../db/schema';
import { ApiError } from '../../http/errors';
import type { ServiceDeps } from './deps';
import { captchaShape } from '../../../contract/signinServices';
import { captchaInForce } from '../signin/services';

type RenderOptions = { width?: number; height?: number; fontSize?: number; noise?: number; color?: boolean; background?: string };
type SvgCaptcha = ((text: string, options?: RenderOptions) => string) & {
  createMathExpr(options: RenderOptions & { mathMin?: number; mathMax?: number; mathOperator?: string }): { text: string; data: string };
};
// svg-captcha's typings omit its callable default export, which renders a given text.
const svgCaptcha = createRequire(import.meta.url)('svg-captcha') as SvgCaptcha;

/** No 0/O/o, 1/I/l/i, 2/Z/z, 5/S/s, 8/B, 9/g/q: characters easy to misread in a distorted image. */
const ALPHABET = 'ACDEFGHJKLMNPQRTUVWXYacdefhjkmnprtuvwxy34678';
/** A sum's picture: a width no text captcha has (30 per character), so a test tells them apart. */
const MATH_WIDTH = 160;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function answerHash(deps: ServiceDeps, uuid: string, answer: string): string {
  // Keyed and bound to the uuid: a copied table does not reveal answers, nor lets one answer serve two captchas.
  return createHmac('sha256', deps.config.secretKey).update(`${uuid}:${answer.toLowerCase()}`).digest('hex');
}

function randomAnswer(length: number): string {
  return Array.from({ length }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
}

/** Bends the drawing by a turbulence map: `scale` 0 leaves it straight. */
function distorted(svg: string, scale: number): string {
  const open = svg.indexOf('>') + 1;
  const close = svg.lastIndexOf('</svg>');
  if (open <= 0 || close < open) return svg;
  const filter =
    `<defs><filter id="warp" x="0" y="0" width="100%" height="100%"><feTurbulence type="turbulence" baseFrequency="0.03" numOctaves="2" seed="${randomInt(1000)}"/>` +
    `<feDisplacementMap in="SourceGraphic" scale="${scale}" xChannelSelector="R" yChannelSelector="G"/></filter></defs>`;
  return `${svg.slice(0, open)}${filter}<g filter="url(#warp)">${svg.slice(open, close)}</g></svg>`;
}

/**
 * A new captcha under the settings in force (server/areas/signin/services.ts, read at each captcha: a change applies
 * to the next one): the complexity sets its length, noise lines and distortion (contract/signinServices.ts captchaShape).
 * CAPTCHA_TEST_CODE (tests only) is the answer of every captcha: a text one's, repeated to its length, and a sum's (a
 * numeric code is the sum shown; any other is accepted for the sum the picture shows).
 */
export async function createCaptcha(deps: ServiceDeps): Promise<CaptchaImage> {
  const now = deps.now();
  const uuid = randomUUID();
  const settings = await captchaInForce(deps);
  const shape = captchaShape(settings.complexity);
  const test = deps.config.captchaTestCode;
  const render = { height: 40, noise: shape.noise, color: true, background: '#f4f6fa' };
  let answer: string;
  let svg: string;
  if (settings.type === 'math') {
    const expr = svgCaptcha.createMathExpr({ ...render, width: MATH_WIDTH, fontSize: 44, mathMin: 1, mathMax: 9 * settings.complexity, mathOperator: settings.complexity > 5 ? '+-' : '+' });
    answer = expr.text;
    svg = expr.data;
    if (test) {
      // Still a sum to work out, whose result is the test code when it is a number; else the code is its answer.
      answer = test;
      const sum = /^\d+$/.test(test) ? Number(test) : null;
      if (sum !== null && sum > 1) {
        const left = randomInt(1, sum);
        svg = svgCaptcha(`${left}+${sum - left}=?`, { ...render, width: MATH_WIDTH, fontSize: 44 });
      }
    }
  } else {
    answer = test ? test.repeat(shape.length).slice(0, shape.length) : randomAnswer(shape.length);
    svg = svgCaptcha(answer, { ...render, width: 30 * shape.length, fontSize: 44 });
  }
  await deps.db.delete(captchas).where(lt(captchas.expiresAt, now));
  await deps.db.insert(captchas).values({ uuid, answerHash: answerHash(deps, uuid, answer), expiresAt: new Date(now.getTime() + CAPTCHA_TTL_MS) });
  svg = distorted(svg, shape.distortion * 1.5);
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
