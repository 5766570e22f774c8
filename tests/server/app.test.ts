import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MESSAGES } from '../../contract/errors';
import { healthSchema, versionFileSchema } from '../../contract/session';
import { DATABASE_TARGETS, login, startTestApp, type TestApp } from './harness';

const distDir = mkdtempSync(join(tmpdir(), 'server-dist-'));
mkdirSync(join(distDir, 'static', 'js'), { recursive: true });
writeFileSync(join(distDir, 'index.html'), '<!doctype html><div id="root"></div>');
writeFileSync(join(distDir, 'static', 'js', 'index.3f2a9c.js'), 'console.log(1)');
afterAll(() => rmSync(distDir, { recursive: true, force: true }));

describe.each(DATABASE_TARGETS)('app foundation on $kind', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(target, { env: { RELEASE_IS_UPDATE: 'false' }, app: { distDir } });
    // Probe routes, the way later areas declare theirs.
    t.app.get('/api/probe/admin', { config: { area: 'admin' } }, async () => ({ code: 200, msg: 'success', data: 'admin area' }));
    t.app.get('/api/probe/research', { config: { area: 'research' } }, async () => ({ code: 200, msg: 'success', data: 'research' }));
    t.app.get(
      '/api/probe/query',
      { config: { public: true }, schema: { querystring: z.object({ page: z.coerce.number().int().min(1), rows: z.coerce.number().int().max(100) }) } },
      async (request) => ({ code: 200, msg: 'success', data: request.query }),
    );
    t.app.get('/api/probe/crash', { config: { public: true } }, async () => {
      throw new Error('connection string postgres://secret@db leaked');
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('gates a role area: 401 with the catalogue text outside the roles, 200 inside', async () => {
    const seller = await login(t.app, 'seller', 'seller123');
    const denied = await t.app.inject({ method: 'GET', url: '/api/probe/admin', headers: seller.headers });
    expect(denied.statusCode).toBe(401);
    expect(denied.json()).toEqual({ code: 401, msg: MESSAGES.unauthorized.zh, data: null });
    expect((await t.app.inject({ method: 'GET', url: '/api/probe/research', headers: seller.headers })).statusCode).toBe(200);

    const admin = await login(t.app, 'admin', 'admin123');
    expect((await t.app.inject({ method: 'GET', url: '/api/probe/admin', headers: admin.headers })).json().data).toBe('admin area');
    const newbie = await login(t.app, 'newbie', 'newbie123');
    expect((await t.app.inject({ method: 'GET', url: '/api/probe/research', headers: newbie.headers })).statusCode).toBe(401);
  });

  it('answers 402 before the role check when there is no session', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/probe/admin' })).statusCode).toBe(402);
  });

  it('validates with zod: coerced values reach the handler, a failure answers 400 naming the field', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/probe/query?page=2&rows=50' })).json().data).toEqual({ page: 2, rows: 50 });
    const bad = await t.app.inject({ method: 'GET', url: '/api/probe/query?page=0&rows=50' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 400, data: { field: 'page' } });
    expect(bad.json().msg).toMatch(/^page: /);
    const missing = await t.app.inject({ method: 'GET', url: '/api/probe/query?page=1', headers: { 'accept-language': 'en' } });
    expect(missing.json()).toEqual({ code: 400, msg: 'rows: is required', data: { field: 'rows' } });
    // A Brazilian browser (or the app in Portuguese) reads the server's messages in Portuguese.
    const portuguese = await t.app.inject({ method: 'GET', url: '/api/probe/query?page=1', headers: { 'accept-language': 'pt-BR,pt;q=0.9,en;q=0.8' } });
    expect(portuguese.json()).toEqual({ code: 400, msg: 'rows: é obrigatório', data: { field: 'rows' } });
  });

  it('answers 400 for a malformed JSON body', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/login', headers: { 'content-type': 'application/json' }, payload: '{"username":' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 400, data: null });
  });

  it('hides the internals of a 5xx', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/probe/crash', headers: { 'accept-language': 'en' } });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ code: 500, msg: MESSAGES.serverError.en, data: null });
    expect(response.body).not.toContain('secret');
  });

  it('serves /version.json without caching, from package.json and RELEASE_IS_UPDATE', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/version.json?t=123' });
    expect(versionFileSchema.parse(response.json())).toEqual({ version: expect.stringMatching(/^\d+\.\d+\.\d+/), isUpdate: false });
    expect(response.headers['cache-control']).toContain('no-cache');
  });

  it('answers health without a session: "ok" only; the details to an administrator', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(anonymous.json()).toEqual({ code: 200, msg: 'success', data: { status: 'ok' } });
    const seller = await login(t.app, 'seller', 'seller123');
    expect((await t.app.inject({ method: 'GET', url: '/api/health', headers: seller.headers })).json().data).toEqual({ status: 'ok' });
    const admin = await login(t.app, 'admin', 'admin123');
    const health = healthSchema.parse((await t.app.inject({ method: 'GET', url: '/api/health', headers: admin.headers })).json().data);
    expect(health).toEqual({ status: 'ok', database: target.kind, version: expect.any(String), uptimeS: expect.any(Number) });
  });

  it('serves index.html for deep links, uncached, and hashed assets cacheable', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/order-manager/order-list?x=1' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.body).toContain('<div id="root">');
    const asset = await t.app.inject({ method: 'GET', url: '/static/js/index.3f2a9c.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it('answers the 404 envelope for an unknown /api path', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/x' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ code: 404, msg: MESSAGES.notFound.zh, data: null });
    expect((await t.app.inject({ method: 'POST', url: '/api/nothing/here', payload: {} })).statusCode).toBe(404);
  });
});

describe('without a built UI', () => {
  it('answers a page that says to run npm run build', async () => {
    const [target] = DATABASE_TARGETS;
    const t = await startTestApp(target!, { app: { distDir: join(distDir, 'missing') } });
    try {
      const response = await t.app.inject({ method: 'GET', url: '/some/deep/link' });
      expect(response.headers['content-type']).toContain('text/plain');
      expect(response.body).toContain('npm run build');
      expect((await t.app.inject({ method: 'GET', url: '/api/x' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('serves the UI once a build beside the running server has put it in place, without a restart', async () => {
    const [target] = DATABASE_TARGETS;
    const later = join(distDir, 'later');
    const t = await startTestApp(target!, { app: { distDir: later } });
    try {
      expect((await t.app.inject({ method: 'GET', url: '/orders' })).statusCode).toBe(503);
      mkdirSync(join(later, 'static', 'js'), { recursive: true });
      writeFileSync(join(later, 'index.html'), '<!doctype html><div id="app-root"></div>');
      writeFileSync(join(later, 'static', 'js', 'index.9c1d.js'), 'console.log(2)');
      const page = await t.app.inject({ method: 'GET', url: '/orders' });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('app-root');
      const asset = await t.app.inject({ method: 'GET', url: '/static/js/index.9c1d.js' });
      expect(asset.body).toBe('console.log(2)');
      expect(asset.headers['cache-control']).toContain('immutable');
    } finally {
      await t.close();
    }
  });
});
