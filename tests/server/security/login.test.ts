import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_BACKOFF_MAX_MS, ACCOUNT_FAILURE_LIMIT, ADDRESS_ACCOUNTS_LIMIT, ADDRESS_FAILURE_LIMIT, LOGIN_FAILURE_LIMIT, LOGIN_FAILURE_WINDOW_MS } from '../../../server/areas/session/loginLimit';
import { captcha, DATABASE_TARGETS, login, startTestApp, type TestApp } from '../harness';

describe.each(DATABASE_TARGETS)('login failure limits on $kind', (target) => {
  let t: TestApp;
  let proxied: TestApp;
  beforeAll(async () => {
    t = await startTestApp(target);
    proxied = await startTestApp(target, { env: { TRUST_PROXY: '10.0.0.1, 192.168.0.0/16', HSTS_MAX_AGE_S: '31536000' } });
  });
  afterAll(async () => {
    await t?.close();
    await proxied?.close();
  });

  const tryLogin = async (app: TestApp, username: string, password: string, remoteAddress: string, forwardedFor?: string, proto?: string) =>
    app.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username, password, ...(await captcha(app.app)) },
      remoteAddress,
      headers: { ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}), ...(proto ? { 'x-forwarded-proto': proto } : {}) },
    });

  it('behind a trusted proxy saying https: a Secure refresh cookie and HSTS; not over http nor from an untrusted client', async () => {
    const secure = await tryLogin(proxied, 'analyst', 'analyst123', '10.0.0.1', '198.51.100.50', 'https');
    expect(secure.statusCode).toBe(200);
    expect(String(secure.headers['set-cookie'])).toMatch(/; Secure/);
    expect(secure.headers['strict-transport-security']).toBe('max-age=31536000');
    const plain = await tryLogin(proxied, 'analyst', 'analyst123', '10.0.0.1', '198.51.100.50', 'http');
    expect(String(plain.headers['set-cookie'])).not.toMatch(/Secure/);
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const forged = await tryLogin(proxied, 'analyst', 'analyst123', '172.16.9.9', '198.51.100.50', 'https');
    expect(forged.statusCode).toBe(200);
    expect(String(forged.headers['set-cookie'])).not.toMatch(/Secure/);
    expect(forged.headers['strict-transport-security']).toBeUndefined();
  });

  it('ignores X-Forwarded-For without TRUST_PROXY: a new forged address per try is still one address', async () => {
    for (let i = 0; i < 5; i += 1) {
      expect((await tryLogin(t, 'analyst', 'nope12345', '10.1.1.1', `203.0.113.${i}`)).statusCode).toBe(400);
    }
    const right = await tryLogin(t, 'analyst', 'analyst123', '10.1.1.1', '203.0.113.99');
    expect(right.statusCode).toBe(429);
    t.clock.advance(LOGIN_FAILURE_WINDOW_MS + 1000);
  });

  it('believes X-Forwarded-For only from the configured proxies', async () => {
    for (let i = 0; i < 5; i += 1) {
      expect((await tryLogin(proxied, 'analyst', 'nope12345', '10.0.0.1', '198.51.100.7')).statusCode).toBe(400);
    }
    // The proxy passes on a blocked client; another client behind the same proxy is not blocked.
    expect((await tryLogin(proxied, 'analyst', 'analyst123', '10.0.0.1', '198.51.100.7')).statusCode).toBe(429);
    expect((await tryLogin(proxied, 'analyst', 'analyst123', '10.0.0.1', '198.51.100.8')).statusCode).toBe(200);
    // A client that is not a configured proxy cannot name its address.
    for (let i = 0; i < 5; i += 1) await tryLogin(proxied, 'seller', 'nope12345', '172.16.5.5', `198.51.100.${20 + i}`);
    expect((await tryLogin(proxied, 'seller', 'seller123', '172.16.5.5', '198.51.100.30')).statusCode).toBe(429);
  });

  it('slows tries from new addresses once an account has many failures, but never locks out its known addresses', async () => {
    // The owner logged in from home before the attack.
    await login(t.app, 'newbie', 'newbie123', '10.50.0.1');
    for (let i = 0; i < ACCOUNT_FAILURE_LIMIT + 6; i += 1) {
      // Each guess waits out the backoff its predecessors earned, so every one is processed.
      if (i >= ACCOUNT_FAILURE_LIMIT) t.clock.advance(2 ** (i - ACCOUNT_FAILURE_LIMIT) * 1000);
      expect((await tryLogin(t, 'newbie', 'guess12345', `10.60.0.${i}`)).statusCode).toBe(400);
    }
    // A fresh address with the right password must wait: the account is being guessed at.
    expect((await tryLogin(t, 'newbie', 'newbie123', '10.70.0.1')).statusCode).toBe(429);
    // The owner's known address is not slowed.
    expect((await tryLogin(t, 'newbie', 'newbie123', '10.50.0.1')).statusCode).toBe(200);
    // Elsewhere the wait is bounded: past the longest backoff the right password logs in.
    t.clock.advance(ACCOUNT_BACKOFF_MAX_MS + 1000);
    expect((await tryLogin(t, 'newbie', 'newbie123', '10.70.0.1')).statusCode).toBe(200);
    t.clock.advance(LOGIN_FAILURE_WINDOW_MS + 1000);
  });

  it('stops one address trying a few passwords at each of many accounts', async () => {
    // Four guesses at each account (under the per-account limit of five), over many accounts, from one address.
    for (let i = 0; i < ADDRESS_FAILURE_LIMIT; i += 1) {
      // Past five accounts the address is slowed too (the test below): each guess waits out that backoff.
      if (i > 4 * (ADDRESS_ACCOUNTS_LIMIT - 1)) t.clock.advance(1000);
      expect((await tryLogin(t, `member_${Math.floor(i / 4)}`, 'guess12345', '10.90.0.1')).statusCode).toBe(400);
    }
    expect((await tryLogin(t, 'member_99', 'guess12345', '10.90.0.1')).statusCode).toBe(429);
    // Even the right password of an account never tried from there waits; another address is not held up.
    expect((await tryLogin(t, 'analyst', 'analyst123', '10.90.0.1')).statusCode).toBe(429);
    expect((await tryLogin(t, 'analyst', 'analyst123', '10.90.0.2')).statusCode).toBe(200);
    t.clock.advance(LOGIN_FAILURE_WINDOW_MS + 1000);
    expect((await tryLogin(t, 'analyst', 'analyst123', '10.90.0.1')).statusCode).toBe(200);
  });

  it('slows one address trying 8 accounts with one guess each, not another address', async () => {
    const answers: number[] = [];
    for (let i = 0; i < 8; i += 1) answers.push((await tryLogin(t, `spray_${i}`, 'guess12345', '10.91.0.1')).statusCode);
    // Five accounts are let through; the sixth comes too soon after the fifth.
    expect(answers).toEqual([400, 400, 400, 400, 400, 429, 429, 429]);
    expect((await tryLogin(t, 'analyst', 'analyst123', '10.91.0.1')).statusCode).toBe(429);
    expect((await tryLogin(t, 'analyst', 'analyst123', '10.91.0.2')).statusCode).toBe(200);
    // The wait doubles with each further account: one second after the fifth, two after the sixth.
    t.clock.advance(1001);
    expect((await tryLogin(t, 'spray_5', 'guess12345', '10.91.0.1')).statusCode).toBe(400);
    t.clock.advance(1001);
    expect((await tryLogin(t, 'spray_6', 'guess12345', '10.91.0.1')).statusCode).toBe(429);
    t.clock.advance(1001);
    expect((await tryLogin(t, 'analyst', 'analyst123', '10.91.0.1')).statusCode).toBe(200);
    t.clock.advance(LOGIN_FAILURE_WINDOW_MS + 1000);
  });

  it('counts wrong passwords at /user/checkPsw with the login failures of the account and address', async () => {
    const session = await login(t.app, 'seller', 'seller123', '10.95.0.1');
    const check = (password: string) =>
      t.app.inject({ method: 'POST', url: '/api/user/checkPsw', payload: { password }, headers: session.headers, remoteAddress: '10.95.0.1' });
    for (let i = 0; i < LOGIN_FAILURE_LIMIT - 1; i += 1) expect((await check(`guess${i}abc`)).json().data).toBe(false);
    // The fifth failure, at the login from the same address, reaches the limit: both stop answering.
    expect((await tryLogin(t, 'seller', 'guess9abc', '10.95.0.1')).statusCode).toBe(400);
    const refused = await check('seller123');
    expect(refused.statusCode).toBe(429);
    expect((await tryLogin(t, 'seller', 'seller123', '10.95.0.1')).statusCode).toBe(429);
    t.clock.advance(LOGIN_FAILURE_WINDOW_MS + 1000);
    expect((await check('seller123')).json().data).toBe(true);
  });

  it('takes as long for an unknown user name as for a known one with a wrong password', async () => {
    const timed = async (username: string) => {
      const times: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const start = performance.now();
        await tryLogin(t, username, 'wrong12345', `10.80.0.${i}`);
        times.push(performance.now() - start);
      }
      return times.sort((a, b) => a - b)[2]!;
    };
    await timed('seller');
    const known = await timed('seller');
    const unknown = await timed('nobody_here');
    // Without the dummy hash an unknown name answered in a tenth of the time (5 ms against 47 ms).
    expect(unknown).toBeGreaterThan(known * 0.5);
  });
});
