import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_PATHS, policyDenied, type Policy } from '../../contract/accessPolicy';
import { API_CLIENT_MESSAGES, API_CLIENT_PATHS as P, type ApiClient, type ApiClientPage, type ApiToken, type IssuedToken } from '../../contract/apiClients';
import { MESSAGES } from '../../contract/errors';
import type { Store } from '../../contract/store';
import { TEAM_PATHS, type OrgRole } from '../../contract/team';
import { DATABASE_TARGETS, login, startTestApp, type Session, type TestApp } from './harness';

describe.each(DATABASE_TARGETS)('applications and API tokens on $kind', (target) => {
  let t: TestApp;
  let seller: Session;
  let shop1001: number;
  let shop1002: number;
  let reader: OrgRole;
  let client: ApiClient;

  type Answer<T> = { status: number; body: { code: number; data: T; msg: string } };
  const call = async <T>(method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: unknown, remoteAddress = '127.0.0.1'): Promise<Answer<T>> => {
    const response = await t.app.inject({ method, url, headers, remoteAddress, ...(payload === undefined ? {} : { payload: payload as object }) });
    return { status: response.statusCode, body: response.json() };
  };
  const get = <T>(url: string) => call<T>('GET', url, seller.headers);
  const post = <T>(url: string, payload: unknown) => call<T>('POST', url, seller.headers, payload);
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  beforeAll(async () => {
    t = await startTestApp(target, { app: { marketplace: { simulatorOptions: { ordersPerShop: 40, productsPerShop: 5 } } } });
    await t.app.ready();
    seller = await login(t.app, 'seller', 'seller123');
    shop1001 = (await post<Store>('/api/store/add', { name: '义乌小百货', clientId: '1001', apiKey: 'sim-key-1001' })).body.data.id;
    shop1002 = (await post<Store>('/api/store/add', { name: '莫斯科仓', clientId: '1002', apiKey: 'sim-key-1002' })).body.data.id;
    await t.app.sync.runShop(shop1001, ['warehouses', 'postings']);
    await t.app.sync.runShop(shop1002, ['warehouses', 'postings']);
    reader = (await post<OrgRole>(TEAM_PATHS.addRole, { name: 'order reader', permissions: ['orders:view'], dataScope: 'all' })).body.data;
    client = (await post<ApiClient>(P.save, { name: 'ERP sync', type: 'erp', sourceType: 'internal', mainConfig: ['127.0.0.1', '10.20.0.0/16'] })).body.data;
  }, 300_000);
  afterAll(() => t?.close());

  it("reads its one shop's orders, is refused a write and the other shop, and is refused at once when revoked", async () => {
    const issued = await post<IssuedToken>(P.issue, { clientId: client.id, name: 'nightly export', roleId: reader.id, shopIds: [shop1001], days: 30 });
    expect(issued.status).toBe(200);
    const { token } = issued.body.data;
    expect(token.startsWith('sbo_')).toBe(true);
    // Kept hashed: the list shows the prefix, never the token.
    const listed = (await get<ApiToken[]>(`${P.tokens}?clientId=${client.id}`)).body.data;
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(token);
    const stored = await t.database.query<{ token_hash: string }>('select token_hash from api_tokens');
    expect(stored[0]!.token_hash).not.toBe(token);

    const orders = await call<{ list: { shopId: number }[]; total: number }>('GET', '/api/order/list?rows=200', bearer(token));
    expect(orders.status).toBe(200);
    expect(orders.body.data.total).toBeGreaterThan(0);
    expect(orders.body.data.list.every((row) => row.shopId === shop1001)).toBe(true);
    const all = (await get<{ total: number }>('/api/order/list?rows=1')).body.data.total;
    expect(orders.body.data.total).toBeLessThan(all);
    // The other shop, a write, and a call of another area: refused.
    expect((await call('GET', `/api/order/list?rows=1&shopIds=${shop1002}`, bearer(token))).status).toBe(401);
    const write = await call('POST', '/api/shipOrder', bearer(token), { ids: ['x'] });
    expect(write.status).toBe(401);
    expect(write.body.msg).toBe(MESSAGES.unauthorized.zh);
    expect((await call('GET', '/api/store/list', bearer(token))).status).toBe(401);
    expect((await call('GET', TEAM_PATHS.members, bearer(token))).status).toBe(401);
    // Outside the application's addresses.
    const away = await call('GET', '/api/order/list?rows=1', bearer(token), undefined, '192.0.2.10');
    expect(away.status).toBe(401);
    expect(away.body.msg).toBe(API_CLIENT_MESSAGES.tokenAddress.zh);
    expect((await call('GET', '/api/order/list?rows=1', bearer(token), undefined, '10.20.3.4')).status).toBe(200);

    // The access policies hold a token by its role.
    const policy = (await post<Policy>(ACCESS_PATHS.savePolicy, { name: 'no API at night', strategy: 'denyLog', priority: 1, rule: { roleIds: [reader.id] } })).body.data;
    const denied = await call('GET', '/api/order/list?rows=1', bearer(token));
    expect(denied.status).toBe(401);
    expect(denied.body.msg).toBe(policyDenied(policy.name).zh);
    const logged = (await get<{ list: { operator: string }[] }>(ACCESS_PATHS.log)).body.data.list;
    expect(logged[0]?.operator).toBe('API: nightly export');
    await post(ACCESS_PATHS.deletePolicies, { ids: [policy.id] });

    expect((await post(P.revoke, { id: issued.body.data.id })).status).toBe(200);
    const revoked = await call('GET', '/api/order/list?rows=1', bearer(token));
    expect(revoked.status).toBe(401);
    expect(revoked.body.msg).toBe(API_CLIENT_MESSAGES.tokenUnknown.zh);
  });

  it('expires, stops with its application, and answers the spec\'s list and find', async () => {
    const { token } = (await post<IssuedToken>(P.issue, { clientId: client.id, name: 'short', roleId: reader.id, days: 1 })).body.data;
    expect((await call('GET', '/api/order/list?rows=1', bearer(token))).status).toBe(200);
    await post(P.save, { id: client.id, name: client.name, type: 'erp', mainConfig: client.mainConfig, status: 0 });
    expect((await call('GET', '/api/order/list?rows=1', bearer(token))).body.msg).toBe(API_CLIENT_MESSAGES.clientOff.zh);
    await post(P.save, { id: client.id, name: client.name, type: 'erp', mainConfig: client.mainConfig, status: 1 });
    t.clock.advance(86_400_000 + 1);
    seller = await login(t.app, 'seller', 'seller123');
    expect((await call('GET', '/api/order/list?rows=1', bearer(token))).status).toBe(401);

    const page = (await get<ApiClientPage>(`${P.list}?name=ERP&status=1&source_type=internal`)).body.data;
    expect(page.total).toBe(1);
    expect(page.list[0]).toMatchObject({ name: 'ERP sync', type: 'erp', mainConfig: ['127.0.0.1', '10.20.0.0/16'], status: 1, creator: 'seller', tokens: 1 });
    expect((await get<ApiClientPage>(`${P.list}?source_type=thirdParty`)).body.data.total).toBe(0);
    expect((await get<ApiClient>(`${P.find}?id=${client.id}`)).body.data.name).toBe('ERP sync');
    // Refused per field: an address that is not one, a role of nobody's.
    expect((await post(P.save, { name: 'bad', mainConfig: ['10.0.0.0/99'] })).status).toBe(400);
    const foreign = await post(P.issue, { clientId: client.id, name: 'x', roleId: 99_999 });
    expect(foreign.status).toBe(400);
    expect(foreign.body.data).toMatchObject({ field: 'roleId' });
  });

  it('shows the worked example in the API reference', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{ info: { description: string }; components: { securitySchemes: Record<string, unknown> } }>();
    expect(document.info.description).toContain('Authorization: Bearer $TOKEN');
    expect(document.components.securitySchemes.apiToken).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});
