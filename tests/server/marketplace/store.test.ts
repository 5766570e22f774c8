import type { Store } from '../../../contract/store';
import { createOzonSimulator } from '../../../server/marketplace/simulator/plugin';
import { DATABASE_TARGETS, login, startTestApp, type TestApp } from '../harness';

describe.each(DATABASE_TARGETS)('shops on $kind', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    const simulator = createOzonSimulator({ ordersPerShop: 200, productsPerShop: 50, control: { labelReadyDelayMs: 0, taskDelayMs: 0 } });
    t = await startTestApp(target, { app: { marketplace: { simulator } } });
  });
  afterAll(() => t.close());

  it('adds a shop after checking its key, stores the key encrypted and never returns it', async () => {
    const seller = await login(t.app, 'seller', 'seller123');
    const added = await t.app.inject({ method: 'POST', url: '/api/store/add', headers: seller.headers, payload: { name: '义乌小百货', clientId: '1001', apiKey: 'sim-key-1001' } });
    expect(added.statusCode).toBe(200);
    const store = added.json<{ data: Store }>().data;
    expect(store).toMatchObject({ name: '义乌小百货', clientId: '1001', status: 'active', roles: ['Admin'] });
    expect(store.keyExpiresAt).toBeGreaterThan(Date.now());
    expect(added.body).not.toContain('sim-key-1001');
    const list = await t.app.inject({ method: 'GET', url: '/api/store/list', headers: seller.headers });
    expect(list.json<{ data: Store[] }>().data.map((s) => s.clientId)).toEqual(['1001']);
    expect(list.body).not.toContain('sim-key');
    const [row] = await t.database.query<{ api_key_enc: string }>(`select api_key_enc from mp_shops where client_id = '1001'`);
    expect(row!.api_key_enc).not.toContain('sim-key');
    expect(row!.api_key_enc.startsWith('v1.')).toBe(true);
    const again = await t.app.inject({ method: 'POST', url: '/api/store/add', headers: seller.headers, payload: { name: 'x', clientId: '1001', apiKey: 'sim-key-1001' } });
    expect(again.statusCode).toBe(400);
  });

  it('refuses a wrong key with Ozon\'s reason in the user\'s language', async () => {
    const seller = await login(t.app, 'seller', 'seller123');
    const refused = await t.app.inject({ method: 'POST', url: '/api/store/add', headers: { ...seller.headers, 'accept-language': 'zh-CN' }, payload: { name: 'x', clientId: '1002', apiKey: 'wrong' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ msg: string }>().msg).toContain('Api-Key无效');
  });

  it('updates, re-authorizes and deletes shops', async () => {
    const seller = await login(t.app, 'seller', 'seller123');
    const added = await t.app.inject({ method: 'POST', url: '/api/store/add', headers: seller.headers, payload: { name: 'B', clientId: '1002', apiKey: 'sim-key-1002' } });
    const id = added.json<{ data: Store }>().data.id;
    const renamed = await t.app.inject({ method: 'POST', url: '/api/store/update', headers: seller.headers, payload: { id, name: '深圳数码' } });
    expect(renamed.json<{ data: Store }>().data.name).toBe('深圳数码');
    const applied = await t.app.inject({ method: 'POST', url: '/api/store/apply', headers: seller.headers, payload: { id } });
    expect(applied.json<{ data: Store }>().data.status).toBe('active');
    const deleted = await t.app.inject({ method: 'POST', url: '/api/store/multiDelete', headers: seller.headers, payload: { ids: [id] } });
    expect(deleted.json<{ data: number }>().data).toBe(1);
  });

  it('answers 401 to a user whose roles do not reach shops', async () => {
    const analyst = await login(t.app, 'analyst', 'analyst123');
    const response = await t.app.inject({ method: 'GET', url: '/api/store/list', headers: analyst.headers });
    expect(response.statusCode).toBe(401);
  });
});

describe.each(DATABASE_TARGETS)('a shop deleted while it syncs, on $kind', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    // Enough postings that the delete lands while the sync is still storing and projecting pages.
    const simulator = createOzonSimulator({ ordersPerShop: 1500, productsPerShop: 300, control: { labelReadyDelayMs: 0, taskDelayMs: 0 } });
    t = await startTestApp(target, { app: { marketplace: { simulator } } });
  });
  afterAll(() => t.close());

  it('is deleted every time, and none of its orders, products or returns stay live', async () => {
    const seller = await login(t.app, 'seller', 'seller123');
    const ids: number[] = [];
    for (let round = 0; round < 8; round++) {
      const added = await t.app.inject({ method: 'POST', url: '/api/store/add', headers: seller.headers, payload: { name: 'B', clientId: '1002', apiKey: 'sim-key-1002' } });
      const id = added.json<{ data: Store }>().data.id;
      ids.push(id);
      // A second sync of the same shop queued behind the first, as a re-authorization does.
      await t.app.inject({ method: 'POST', url: '/api/store/apply', headers: seller.headers, payload: { id } });
      // Each round deletes at another point of the sync.
      await new Promise((resolve) => setTimeout(resolve, round * 40));
      const deleted = await t.app.inject({ method: 'POST', url: '/api/store/multiDelete', headers: seller.headers, payload: { ids: [id] } });
      expect(deleted.json<{ data: number }>().data, deleted.body).toBe(1);
    }
    await vi.waitFor(() => expect(t.app.sync.busyShops()).toEqual([]), { timeout: 60_000, interval: 100 });
    for (const table of ['orders', 'products', 'returns']) {
      const [live] = await t.database.query<{ n: number }>(`select count(*)::int as n from ${table} where shop_id = any($1::int[]) and not deleted`, [ids]);
      expect(live!.n, table).toBe(0);
    }
    // The list's trigger-kept totals agree with the rows, the whole list's and each shop's.
    const [counts] = await t.database.query<{ kept: number | null; actual: number; shops: string }>(
      `select (select sum(live) from order_counts where user_id = u.id)::int as kept, (select count(*) from orders where user_id = u.id and not deleted)::int as actual,
              (select coalesce(string_agg(c.shop_id || ':' || c.live, ',' order by c.shop_id), '') from order_counts c where c.user_id = u.id and c.live <> 0) as shops
       from users u where u.username = 'seller'`,
    );
    expect(counts!.kept ?? 0).toBe(counts!.actual);
    const [actualShops] = await t.database.query<{ shops: string }>(
      `select coalesce(string_agg(shop_id || ':' || n, ',' order by shop_id), '') as shops from (select shop_id, count(*) as n from orders o join users u on u.id = o.user_id where u.username = 'seller' and not o.deleted group by shop_id) s`,
    );
    expect(counts!.shops).toBe(actualShops!.shops);
  });
});
