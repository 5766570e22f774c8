import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PERMISSION_ACTIONS } from '../../contract/access';
import { API_BASE, API_DOCS_PATHS, defineEndpoint, permissionOf, routePath, type Endpoint } from '../../contract/endpoint';
import { listEndpoints } from '../../contract/endpoints';
import { MESSAGES } from '../../contract/errors';
import { PUSH_PATH } from '../../contract/push';
import { route } from '../../server/http/route';
import { DATABASE_TARGETS, startTestApp, type TestApp } from './harness';

const methodsOf = (route: RouteOptions) => (Array.isArray(route.method) ? route.method : [route.method]);

/** Probe endpoints: what the server does with an answer that breaks its contract, and with one that says too much. */
const probeAnswer = z.object({ id: z.number().int(), name: z.string() });
const probes = {
  wrong: defineEndpoint({ method: 'GET', path: '/probe/answer/wrong', summary: 'probe', access: 'public', answer: probeAnswer }),
  extra: defineEndpoint({ method: 'GET', path: '/probe/answer/extra', summary: 'probe', access: 'public', answer: probeAnswer }),
};

describe.each(DATABASE_TARGETS.slice(0, 1))('endpoint objects and the routes registered from them ($kind)', (target) => {
  let t: TestApp;
  const routes: RouteOptions[] = [];
  beforeAll(async () => {
    t = await startTestApp(target, { app: { onRoute: (route) => routes.push(route) } });
    route(t.app, probes.wrong, async () => ({ id: 'seven', name: 'x' }) as unknown as { id: number; name: string });
    route(t.app, probes.extra, async () => ({ id: 7, name: 'x', passwordHash: 'secret' }));
    await t.app.ready();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('registers every endpoint object with its method, path, input and answer schemas and its access gate', () => {
    const endpoints = listEndpoints();
    expect(endpoints.length).toBeGreaterThan(70);
    for (const { group, name, endpoint } of endpoints) {
      const label = `${group}.${name} ${endpoint.method} ${routePath(endpoint)}`;
      const found = routes.filter((r) => r.url === routePath(endpoint) && methodsOf(r).includes(endpoint.method));
      expect(found, label).toHaveLength(1);
      const [registered] = found as [RouteOptions];
      expect(registered.config?.endpoint, label).toBe(endpoint);
      const schema = registered.schema ?? {};
      const inputPart = endpoint.method === 'GET' ? schema.querystring : schema.body;
      expect(inputPart, `${label}: input schema`).toBe(endpoint.input);
      expect(schema.params, `${label}: params schema`).toBe(endpoint.params);
      const answer = (schema.response as Record<number, z.ZodType> | undefined)?.[200];
      if (endpoint.answer) {
        const data = endpoint.site ? answer : (answer as z.ZodObject | undefined)?.shape.data;
        expect(data, `${label}: answer schema`).toBe(endpoint.answer);
      } else {
        expect(answer, `${label}: a raw-only endpoint declares no JSON answer`).toBeUndefined();
      }
      const config = registered.config as { public?: boolean; area?: string };
      if (endpoint.access === 'public') expect(config.public, label).toBe(true);
      else expect(config.area, label).toBe(endpoint.access);
    }
  });

  it('gives every endpoint the permission a member of an organisation needs for it', () => {
    const missing = listEndpoints()
      .filter(({ endpoint }) => permissionOf(endpoint) === undefined)
      .map(({ group, name, endpoint }) => `${group}.${name} ${endpoint.method} ${endpoint.path}`);
    expect(missing, 'each of these needs an `action` (contract/access.ts PERMISSION_ACTIONS)').toEqual([]);
    for (const { group, name, endpoint } of listEndpoints()) {
      const needed = permissionOf(endpoint);
      if (endpoint.access === 'public' || endpoint.access === 'open') expect(needed, `${group}.${name}`).toBeNull();
      else expect(needed, `${group}.${name}`).toMatch(new RegExp(`^${endpoint.access}:(${PERMISSION_ACTIONS.join('|')})$`));
    }
    // What the check above catches: a write that says nothing, and a read, which is `view` unless it says otherwise.
    const write = defineEndpoint({ method: 'POST', path: '/probe/write', summary: 'probe', access: 'orders', answer: probeAnswer });
    expect(permissionOf(write)).toBeUndefined();
    expect(permissionOf(defineEndpoint({ method: 'GET', path: '/probe/read', summary: 'probe', access: 'orders', answer: probeAnswer }))).toBe('orders:view');
    expect(permissionOf(defineEndpoint({ ...write, action: 'ship' }))).toBe('orders:ship');
  });

  it('has no API route that is not an endpoint object', () => {
    const known = new Set<Endpoint>([...listEndpoints().map((named) => named.endpoint), ...Object.values(probes)]);
    const docs = `${API_BASE}${API_DOCS_PATHS.page}`;
    const handWritten = routes
      .filter((r) => r.url.startsWith(`${API_BASE}/`) && !methodsOf(r).every((m) => m === 'HEAD'))
      .filter((r) => r.url !== PUSH_PATH && r.url !== `${API_BASE}${API_DOCS_PATHS.document}` && !r.url.startsWith(docs))
      .filter((r) => !known.has(r.config?.endpoint as Endpoint))
      .map((r) => `${methodsOf(r).join(',')} ${r.url}`);
    expect(handWritten).toEqual([]);
  });

  it('answers 500 for an answer that breaks its contract, without saying more', async () => {
    const response = await t.app.inject({ method: 'GET', url: routePath(probes.wrong) });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ code: 500, msg: MESSAGES.serverError.zh, data: null });
  });

  it('sends only what the answer schema declares', async () => {
    const response = await t.app.inject({ method: 'GET', url: routePath(probes.extra) });
    expect(response.json()).toEqual({ code: 200, msg: 'success', data: { id: 7, name: 'x' } });
  });

  it('serves the OpenAPI document of every endpoint, and the API reference page with its files', async () => {
    const response = await t.app.inject({ method: 'GET', url: `${API_BASE}${API_DOCS_PATHS.document}` });
    expect(response.statusCode).toBe(200);
    const document = response.json<{ openapi: string; paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>> }>();
    expect(document.openapi).toBe('3.1.0');
    for (const { group, name, endpoint } of listEndpoints()) {
      const operation = document.paths[routePath(endpoint).replace(/:(\w+)/g, '{$1}')]?.[endpoint.method.toLowerCase()];
      expect(operation?.operationId).toBe(`${group}.${name}`);
    }
    const ship = document.paths['/api/shipOrder']?.post as unknown as {
      requestBody: { content: { 'application/json': { schema: { properties: Record<string, unknown> } } } };
      responses: { 200: { content: { 'application/json': { schema: { properties: { data: { properties: Record<string, unknown> } } } } } } };
    };
    expect(Object.keys(ship.requestBody.content['application/json'].schema.properties)).toEqual(['ids']);
    expect(Object.keys(ship.responses[200].content['application/json'].schema.properties.data.properties)).toEqual(['done', 'failures']);

    const page = await t.app.inject({ method: 'GET', url: `${API_BASE}${API_DOCS_PATHS.page}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const bundle = await t.app.inject({ method: 'GET', url: `${API_BASE}${API_DOCS_PATHS.page}/swagger-ui-bundle.js` });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.body.length).toBeGreaterThan(100_000);
    const unknown = await t.app.inject({ method: 'GET', url: `${API_BASE}${API_DOCS_PATHS.page}/secret.txt` });
    expect(unknown.statusCode).toBe(404);
  });
});

describe.each(DATABASE_TARGETS.slice(0, 1))('the API reference when it is off ($kind)', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(target, { env: { API_DOCS: 'off' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers the 404 envelope for the document and the page', async () => {
    for (const path of [API_DOCS_PATHS.document, API_DOCS_PATHS.page]) {
      const response = await t.app.inject({ method: 'GET', url: `${API_BASE}${path}` });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 404 });
    }
  });
});
