import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';
import { hashPassword, setPasswordHashCost, verifyPassword } from '../../server/areas/session/passwords';
import { TEST_PASSWORD_HASH_COST } from './harness';

const dirs: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'config-test-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({ DATA_DIR: dataDir() });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: null,
      ozonApiUrl: null,
      demo: true,
      production: false,
      captchaTestCode: null,
      accessTokenTtlS: 7200,
      refreshTokenTtlS: 30 * 24 * 3600,
      releaseIsUpdate: true,
      apiDocs: true,
      logLevel: 'info',
    });
  });

  it('generates the secret key once and keeps it in DATA_DIR', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir });
    expect(first.secretKey).toHaveLength(32);
    expect(readFileSync(join(dir, 'secret.key'), 'utf8').trim()).toBe(first.secretKey.toString('hex'));
    expect(loadConfig({ DATA_DIR: dir }).secretKey.equals(first.secretKey)).toBe(true);
  });

  it('turns demo mode off in production and refuses to turn it on there', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), NODE_ENV: 'production' }).demo).toBe(false);
    expect(loadConfig({ DATA_DIR: dataDir(), NODE_ENV: 'production', DEMO: 'off' }).demo).toBe(false);
    expect(() => loadConfig({ DATA_DIR: dataDir(), NODE_ENV: 'production', DEMO: 'on' })).toThrow(/DEMO: the demo accounts .* NODE_ENV=production/);
  });

  it('trusts no proxy unless TRUST_PROXY names addresses or ranges', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).trustProxy).toEqual([]);
    expect(loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,::1' }).trustProxy).toEqual(['10.0.0.1', '192.168.0.0/16', '::1']);
    expect(() => loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
  });

  it('reads OZON_ALLOWED_HOSTS as lower-case host names', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), OZON_ALLOWED_HOSTS: 'Ozon-Proxy.internal:8443, 10.0.0.5' }).ozonAllowedHosts).toEqual(['ozon-proxy.internal:8443', '10.0.0.5']);
    expect(() => loadConfig({ DATA_DIR: dataDir(), OZON_ALLOWED_HOSTS: 'http://x/y' })).toThrow(/OZON_ALLOWED_HOSTS/);
  });

  it('runs the Ozon simulator only when asked for: outside production unless OZON_API_URL is set, in production only with OZON_SIMULATOR', () => {
    const simulator = (env: Record<string, string>) => loadConfig({ DATA_DIR: dataDir(), ...env }).ozonSimulator;
    expect(simulator({})).toBe(true);
    expect(simulator({ OZON_API_URL: 'https://api-seller.ozon.ru' })).toBe(false);
    expect(simulator({ NODE_ENV: 'production' })).toBe(false);
    expect(simulator({ NODE_ENV: 'production', OZON_SIMULATOR: 'on' })).toBe(true);
    expect(simulator({ OZON_SIMULATOR: 'off' })).toBe(false);
    expect(() => simulator({ OZON_SIMULATOR: 'sometimes' })).toThrow(/OZON_SIMULATOR/);
  });

  it('refuses CAPTCHA_TEST_CODE in production', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), NODE_ENV: 'production', CAPTCHA_TEST_CODE: 'ABCD' })).toThrow(/CAPTCHA_TEST_CODE/);
  });

  it('hashes passwords at scrypt 2^14 unless told otherwise, and never cheaper in production', async () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).passwordHashCost).toBe(14);
    expect(loadConfig({ DATA_DIR: dataDir(), PASSWORD_HASH_COST: '16' }).passwordHashCost).toBe(16);
    expect(() => loadConfig({ DATA_DIR: dataDir(), NODE_ENV: 'production', PASSWORD_HASH_COST: '10', ADMIN_PASSWORD: 'admin12345' })).toThrow(/PASSWORD_HASH_COST: must be at least 14/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), PASSWORD_HASH_COST: '9' })).toThrow(/PASSWORD_HASH_COST/);
    // A hash carries its cost: one made at another cost still verifies after the setting changes.
    setPasswordHashCost(11);
    const cheap = await hashPassword('secret123');
    setPasswordHashCost(12);
    expect(cheap.split('$')[1]).toBe(String(2 ** 11));
    expect(await verifyPassword('secret123', cheap)).toBe(true);
    expect(await verifyPassword('secret124', cheap)).toBe(false);
    expect((await hashPassword('secret123')).split('$')[1]).toBe(String(2 ** 12));
    setPasswordHashCost(Number(TEST_PASSWORD_HASH_COST));
  });

  it('names every bad value at once', () => {
    let error: unknown;
    try {
      loadConfig({ DATA_DIR: dataDir(), PORT: 'eighty', DATABASE_URL: 'mysql://x', SECRET_KEY: 'short', DEMO: 'maybe' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const text = (error as Error).message;
    for (const name of ['PORT', 'DATABASE_URL', 'SECRET_KEY', 'DEMO']) expect(text).toContain(name);
  });

  it('refuses DATABASE_URL without SECRET_KEY, which every instance on the database must share', () => {
    const dir = dataDir();
    expect(() => loadConfig({ DATA_DIR: dir, DATABASE_URL: 'postgres://u:p@localhost:5432/app' })).toThrow(/SECRET_KEY: must be set when DATABASE_URL is set/);
    // No key of its own was generated meanwhile.
    expect(() => readFileSync(join(dir, 'secret.key'))).toThrow();
  });

  it('reads explicit values', () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      PORT: '9000',
      DATABASE_URL: 'postgres://u:p@localhost:5432/app',
      SECRET_KEY: 'cd'.repeat(32),
      ACCESS_TOKEN_TTL_S: '60',
      RELEASE_IS_UPDATE: 'false',
      LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({ port: 9000, databaseUrl: 'postgres://u:p@localhost:5432/app', accessTokenTtlS: 60, releaseIsUpdate: false, logLevel: 'warn' });
    expect(config.secretKey.toString('hex')).toBe('cd'.repeat(32));
  });
});
