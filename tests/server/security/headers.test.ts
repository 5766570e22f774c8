import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_TARGETS, login, startTestApp, type TestApp } from '../harness';

describe.each(DATABASE_TARGETS)('security headers on $kind', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(target);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves pages with a CSP, no framing by other sites and nosniff', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/login' });
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers a logged-in caller with Cache-Control: no-store', async () => {
    const session = await login(t.app, 'seller', 'seller123');
    const info = await t.app.inject({ method: 'GET', url: '/api/getInfo', headers: session.headers });
    expect(info.statusCode).toBe(200);
    expect(info.headers['cache-control']).toBe('no-store');
    const refused = await t.app.inject({ method: 'GET', url: '/api/getInfo', headers: { ...session.headers, 'x-token': 'nope' } });
    expect(refused.statusCode).toBe(402);
  });
});
