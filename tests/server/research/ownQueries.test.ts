import { OWN_QUERIES_CACHE_MS, type KeywordResult, type OwnQueries } from '../../../contract/research';
import type { Store } from '../../../contract/store';
import { generateMarket } from '../../../server/areas/research/generate';
import { DATABASE_TARGETS, login, startTestApp, type Session, type TestApp } from '../harness';

type Envelope<T> = { code: number; msg: string; data: T };

describe.each(DATABASE_TARGETS)("own products' search queries from Ozon ($kind)", (target) => {
  let t: TestApp;
  let seller: Session;
  let storeId: number;

  beforeAll(async () => {
    t = await startTestApp(target, { app: { marketplace: { simulatorOptions: { ordersPerShop: 300, productsPerShop: 40 } } } });
    await t.app.ready();
    seller = await login(t.app, 'seller', 'seller123');
    const added = await t.app.inject({ method: 'POST', url: '/api/store/add', headers: seller.headers, payload: { name: '义乌小百货', clientId: '1001', apiKey: 'sim-key-1001' } });
    storeId = added.json<Envelope<Store>>().data.id;
    await t.app.sync.runShop(storeId, ['products']);
  });
  afterAll(() => t.close());

  const own = async (session: Session) => {
    const response = await t.app.inject({ method: 'GET', url: '/api/search/ownQueries', headers: session.headers });
    return { status: response.statusCode, body: response.json<Envelope<OwnQueries>>() };
  };

  it('answers the queries behind the seller\'s synced SKUs over the four weeks Ozon has computed', async () => {
    const { status, body } = await own(seller);
    expect(status, JSON.stringify(body)).toBe(200);
    const data = body.data;
    expect(data.shops).toBe(1);
    expect(data.failures).toEqual([]);
    // The test clock stands at 2025-06-10: the period ends three days before and spans 28 days.
    expect(data.period).toEqual({ from: '2025-05-10', to: '2025-06-06' });
    const synced = await t.database.query<{ sku: string; name: string; offer_id: string }>(`select sku, name, offer_id from products where shop_id = $1 and sku <> ''`, [storeId]);
    expect(data.products.length).toBe(synced.length);
    for (const product of data.products) {
      const row = synced.find((s) => s.sku === product.sku);
      expect(row, product.sku).toBeDefined();
      expect(product).toMatchObject({ shopId: storeId, shopName: '义乌小百货', name: row!.name, offerId: row!.offer_id, currency: 'RUB' });
      expect(product.searches).toBeGreaterThan(0);
    }
    expect(data.products.map((p) => p.searches)).toEqual([...data.products.map((p) => p.searches)].sort((a, b) => b - a));
    // The queries are those of the 20 most searched SKUs, up to 15 each, most searched first.
    const top = new Set(data.products.slice(0, 20).map((p) => p.sku));
    expect(data.queries.length).toBeGreaterThan(20 * 5);
    expect(data.queries.every((q) => top.has(q.sku))).toBe(true);
    expect(new Set(data.queries.map((q) => q.sku)).size).toBe(top.size);
    expect(data.queries.map((q) => q.searches)).toEqual([...data.queries.map((q) => q.searches)].sort((a, b) => b - a));
    const first = data.queries[0]!;
    expect(first.name).toBe(synced.find((s) => s.sku === first.sku)!.name);
  });

  it("keeps Ozon's answer per shop and period for six hours: the next call does not reach Ozon, a later one does", async () => {
    const simulator = t.app.marketplace.simulator!;
    // Moving the clock ends sessions: each move signs in again.
    const wait = async (ms: number) => (t.clock.advance(ms), (seller = await login(t.app, 'seller', 'seller123')));
    await wait(24 * 3_600_000); // a period no earlier test asked for
    const first = await own(seller);
    expect(first.status).toBe(200);
    expect(first.body.data.failures).toEqual([]);
    expect(first.body.data.fetchedAt).toBe(t.clock.now().toISOString());
    // A call that reaches Ozon's product-queries now meets this fault (and retries past it): it stays until one does.
    simulator.fail('serverError', 1, { path: '/v1/analytics/product-queries' });
    try {
      await wait(OWN_QUERIES_CACHE_MS - 60_000);
      const again = await own(seller);
      expect(again.body.data.failures).toEqual([]);
      expect(again.body.data).toEqual(first.body.data);
      expect(simulator.control.faults).toHaveLength(1);

      await wait(2 * 60_000);
      const later = await own(seller);
      expect(simulator.control.faults).toHaveLength(0);
      expect(later.body.data.failures).toEqual([]);
      expect(later.body.data.fetchedAt).toBe(t.clock.now().toISOString());
      expect(later.body.data.queries).toEqual(first.body.data.queries);
    } finally {
      simulator.control.faults = [];
    }
  });

  it('names queries the market research knows, so the keyword page can put them side by side', async () => {
    await generateMarket(t.database, { products: 3_000, now: new Date('2025-06-10T00:00:00Z') });
    const { body } = await own(seller);
    const words = [...new Set(body.data.queries.map((q) => q.query).filter((q) => !q.includes(' ') || q.split(' ').length === 2))].slice(0, 5);
    let found = 0;
    for (const word of words) {
      const response = await t.app.inject({ method: 'POST', url: '/api/getQueryResult', headers: seller.headers, payload: { text: word } });
      if (response.json<Envelope<KeywordResult>>().data.rows.some((row) => row.keyword === word)) found++;
    }
    expect(found).toBeGreaterThan(0);
  });

  it('answers a user without shops with nothing, and refuses users whose roles do not reach research', async () => {
    const analyst = await login(t.app, 'analyst', 'analyst123');
    const { status, body } = await own(analyst);
    expect(status).toBe(200);
    expect(body.data).toEqual({ period: null, shops: 0, products: [], queries: [], failures: [], fetchedAt: null });
    const newbie = await login(t.app, 'newbie', 'newbie123');
    expect((await own(newbie)).status).toBe(401);
  });
});
