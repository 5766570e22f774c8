import { generate as otplibGenerate, verify as otplibVerify } from 'otplib';
import { Secret } from 'otpauth';
import { describe, expect, it } from 'vitest';
import type { OtpPolicy } from '../../../contract/signin';
import { checkCode, newRecoveryCodes, newSecret, otpUri } from './otp';

const fresh = { counter: 0, lastStep: -1 };
const base32 = (ascii: string) => Secret.fromUTF8(ascii).base32;
const totp = (algorithm: OtpPolicy['algorithm'], digits = 8, window = 0): OtpPolicy => ({ type: 'totp', algorithm, digits, period: 30, window });

describe('one-time passwords', () => {
  // RFC 6238 appendix B: the same time steps under SHA-1, SHA-256 and SHA-512, 8 digits.
  const keys = { SHA1: '12345678901234567890', SHA256: '12345678901234567890123456789012', SHA512: '1234567890123456789012345678901234567890123456789012345678901234' } as const;
  const vectors: [number, string, string, string][] = [
    [59, '94287082', '46119246', '90693936'],
    [1111111109, '07081804', '68084774', '25091201'],
    [1234567890, '89005924', '91819424', '93441116'],
    [20000000000, '65353130', '77737706', '47863826'],
  ];
  it('accepts the RFC 6238 test vectors for SHA-1, SHA-256 and SHA-512, and nothing a step away without a window', () => {
    for (const [seconds, ...codes] of vectors) {
      (['SHA1', 'SHA256', 'SHA512'] as const).forEach((algorithm, i) => {
        const policy = totp(algorithm);
        const match = checkCode(policy, base32(keys[algorithm]), fresh, codes[i]!, seconds * 1000);
        expect(match, `${algorithm} at ${seconds}`).toEqual({ counter: 0, lastStep: Math.floor(seconds / 30) });
        expect(checkCode(policy, base32(keys[algorithm]), fresh, codes[i]!, (seconds + 30) * 1000)).toBeNull();
      });
    }
  });

  it('accepts the RFC 4226 HOTP vectors within the look-ahead window and moves the counter past the one used', () => {
    const hotp: OtpPolicy = { type: 'hotp', algorithm: 'SHA1', digits: 6, period: 30, window: 2 };
    const secret = base32(keys.SHA1);
    const codes = ['755224', '287082', '359152', '969429', '338314'];
    expect(checkCode(hotp, secret, fresh, codes[0]!, 0)).toEqual({ counter: 1, lastStep: -1 });
    expect(checkCode(hotp, secret, fresh, codes[2]!, 0)).toEqual({ counter: 3, lastStep: -1 });
    // Beyond the window ahead, and behind the counter, are refused.
    expect(checkCode(hotp, secret, fresh, codes[3]!, 0)).toBeNull();
    expect(checkCode(hotp, secret, { counter: 3, lastStep: -1 }, codes[2]!, 0)).toBeNull();
  });

  it('works with a second, independent implementation (otplib) under every algorithm and 6 to 8 digits', async () => {
    const now = Date.parse('2026-12-02T01:00:00Z');
    for (const algorithm of ['SHA1', 'SHA256', 'SHA512'] as const) {
      for (const digits of [6, 7, 8] as const) {
        const policy: OtpPolicy = { type: 'totp', algorithm, digits, period: 30, window: 1 };
        const secret = newSecret(policy);
        const options = { secret, algorithm: algorithm.toLowerCase() as 'sha1', digits, period: 30, epoch: now / 1000 };
        const code = await otplibGenerate(options);
        expect(checkCode(policy, secret, fresh, code, now)).not.toBeNull();
        // And the other way round: otplib accepts what otpauth's URI says, with the code a step old.
        const previous = await otplibGenerate({ ...options, epoch: now / 1000 - 30 });
        expect(checkCode(policy, secret, fresh, previous, now)).not.toBeNull();
        expect((await otplibVerify({ ...options, token: code })).valid).toBe(true);
        const uri = new URL(otpUri(policy, secret, 'packer1', 'Seller Back Office'));
        expect(uri.protocol).toBe('otpauth:');
        expect(uri.searchParams.get('secret')).toBe(secret);
        expect(uri.searchParams.get('algorithm')).toBe(algorithm);
        expect(uri.searchParams.get('digits')).toBe(String(digits));
      }
    }
    const hotp: OtpPolicy = { type: 'hotp', algorithm: 'SHA256', digits: 8, period: 30, window: 1 };
    const secret = newSecret(hotp);
    const code = await otplibGenerate({ secret, strategy: 'hotp', counter: 4, algorithm: 'sha256', digits: 8 });
    expect(checkCode(hotp, secret, { counter: 3, lastStep: -1 }, code, 0)).toEqual({ counter: 5, lastStep: -1 });
  });

  it('refuses a code of a step already used, or of an earlier one, and codes of the wrong length', () => {
    const policy = totp('SHA1', 8, 1);
    const secret = base32(keys.SHA1);
    expect(checkCode(policy, secret, { counter: 0, lastStep: 1 }, '94287082', 59_000)).toBeNull();
    expect(checkCode(policy, secret, { counter: 0, lastStep: 0 }, '94287082', 59_000)).toEqual({ counter: 0, lastStep: 1 });
    expect(checkCode(policy, secret, fresh, '4287082', 59_000)).toBeNull();
    expect(checkCode(policy, secret, fresh, 'abcdefgh', 59_000)).toBeNull();
  });

  it('makes ten distinct recovery codes', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
  });
});
