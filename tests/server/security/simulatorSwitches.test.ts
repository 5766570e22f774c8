import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIMULATOR_PREFIX } from '../../../server/marketplace/plugin';
import { DATABASE_TARGETS, login, startTestApp, type Session, type TestApp } from '../harness';

/**
 * The embedded simulator's switches (faults, latency, rate limits, made-up buyer messages) outside production: only
 * a call from this machine, or an administrator's, may use them; anyone else reaching the server (HOST defaults to
 * 0.0.0.0) is refused.
 */
describe.each(DATABASE_TARGETS)("the simulator's switches on $kind", (target) => {
  let t: TestApp;
  let admin: Session;
  let seller: Session;
  beforeAll(async () => {
    t = await startTestApp(target);
    admin = await login(t.app, 'admin', 'admin123');
    seller = await login(t.app, 'seller', 'seller123');
  });
  afterAll(async () => t?.close());

  const control = (remoteAddress: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: `${SIMULATOR_PREFIX}/__sim/control`, remoteAddress, headers, payload: { latencyMs: 0 } });

  it('refuses a caller from elsewhere, a seller, and a request forwarded by a proxy on this machine', async () => {
    expect((await control('203.0.113.5')).statusCode).toBe(403);
    expect((await control('203.0.113.5', seller.headers)).statusCode).toBe(403);
    expect((await control('127.0.0.1', { 'x-forwarded-for': '203.0.113.5' })).statusCode).toBe(403);
    const read = await t.app.inject({ method: 'GET', url: `${SIMULATOR_PREFIX}/__sim/control`, remoteAddress: '203.0.113.5' });
    expect(read.statusCode).toBe(403);
    const trigger = await t.app.inject({ method: 'POST', url: `${SIMULATOR_PREFIX}/__sim/trigger/posting`, remoteAddress: '198.51.100.2', payload: { clientId: '1001' } });
    expect(trigger.statusCode).toBe(403);
  });

  it('answers this machine and an administrator from anywhere', async () => {
    expect((await control('127.0.0.1')).statusCode).toBe(200);
    expect((await control('::1')).statusCode).toBe(200);
    expect((await control('203.0.113.5', admin.headers)).statusCode).toBe(200);
  });
});
