import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { HOTP, Secret, TOTP } from 'otpauth';
import { RECOVERY_CODE_COUNT, type OtpPolicy } from '../../../contract/signin';

/**
 * One-time passwords with otpauth (RFC 4226 HOTP and RFC 6238 TOTP; a well-kept library, not hand-written crypto).
 * The checks here are pure: what makes a code single-use (the step or counter it matched) is returned for the
 * caller to store atomically.
 */

/** The secret's size follows the algorithm's block (RFC 4226 asks for at least 128 bits; 160 for SHA-1). */
const SECRET_BYTES: Record<OtpPolicy['algorithm'], number> = { SHA1: 20, SHA256: 32, SHA512: 64 };

export function newSecret(policy: Pick<OtpPolicy, 'algorithm'>): string {
  return new Secret({ size: SECRET_BYTES[policy.algorithm] }).base32;
}

/** The otpauth:// URI an authenticator app reads from the QR code. */
export function otpUri(policy: OtpPolicy, secret: string, label: string, issuer: string, counter = 0): string {
  const common = { issuer, label, secret: Secret.fromBase32(secret), algorithm: policy.algorithm, digits: policy.digits };
  return policy.type === 'totp' ? new TOTP({ ...common, period: policy.period }).toString() : new HOTP({ ...common, counter }).toString();
}

export type OtpState = { counter: number; lastStep: number };
/** The code matched: store this as the credential's new state (only if it is still the state the check read). */
export type OtpMatch = { counter: number; lastStep: number };

function sameCode(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Checks a code. TOTP: the steps within `window` of now, and only steps after the last one accepted (a code seen once
 * is refused, as is any earlier one). HOTP: the counters from the next one up to `window` ahead (look-ahead for a
 * device pressed without signing in); the counter moves past the one matched.
 */
export function checkCode(policy: OtpPolicy, secret: string, state: OtpState, code: string, nowMs: number): OtpMatch | null {
  const token = code.replace(/\s+/g, '');
  if (!/^\d+$/.test(token) || token.length !== policy.digits) return null;
  const key = Secret.fromBase32(secret);
  if (policy.type === 'totp') {
    const current = Math.floor(nowMs / 1000 / policy.period);
    for (let step = current - policy.window; step <= current + policy.window; step += 1) {
      if (step <= state.lastStep) continue;
      const expected = TOTP.generate({ secret: key, algorithm: policy.algorithm, digits: policy.digits, period: policy.period, timestamp: step * policy.period * 1000 });
      if (sameCode(expected, token)) return { counter: state.counter, lastStep: step };
    }
    return null;
  }
  for (let counter = state.counter; counter <= state.counter + policy.window; counter += 1) {
    const expected = HOTP.generate({ secret: key, algorithm: policy.algorithm, digits: policy.digits, counter });
    if (sameCode(expected, token)) return { counter: counter + 1, lastStep: state.lastStep };
  }
  return null;
}

/** No 0/O, 1/I/L: codes read off paper. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten codes like `k7dp-3xqa-m2tn` (about 70 bits each). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    Array.from({ length: 3 }, () => Array.from({ length: 4 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('')).join('-'),
  );
}

/** Keyed with SECRET_KEY: a copied table neither reveals nor lets anyone test the codes. */
export function recoveryCodeHash(secretKey: Buffer, code: string): string {
  return createHmac('sha256', secretKey).update(`recovery:${code.trim().toLowerCase().replace(/\s+/g, '')}`).digest('hex');
}
