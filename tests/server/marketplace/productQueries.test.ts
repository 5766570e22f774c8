import { refusal, startSimulator } from './harness';

let sim: Awaited<ReturnType<typeof startSimulator>>;
beforeAll(async () => {
  sim = await startSimulator({ productsPerShop: 60 });
});
afterAll(() => sim.close());

const period = { date_from: '2025-05-01T00:00:00Z', date_to: '2025-05-28T23:59:59Z' };

/** The shop's sellable SKUs, as the product list names them. */
async function skusOf(clientId: string): Promise<{ sku: string; name: string; offerId: string }[]> {
  const client = sim.client(clientId);
  const ids = (await client.productList({ filter: { visibility: 'ALL' }, limit: 1000 })).items.map((item) => item.product_id);
  const cards = await client.productInfoList({ product_id: ids });
  return cards.filter((card) => Number(card.sku) > 0).map((card) => ({ sku: String(card.sku), name: card.name, offerId: card.offer_id }));
}

describe('search queries of own products (/v1/analytics/product-queries and /details)', () => {
  it('answers each SKU with its searches, most searched first, paged from 0, and the same on every call', async () => {
    const client = sim.client('1001');
    const own = await skusOf('1001');
    expect(own.length).toBeGreaterThan(20);
    const skus = own.map((p) => p.sku);
    const first = await client.productQueries({ ...period, skus, page: 0, page_size: 10, sort_by: 'BY_SEARCHES' });
    expect(first.total).toBe(own.length);
    expect(first.page_count).toBe(Math.ceil(own.length / 10));
    expect(first.analytics_period).toEqual({ date_from: '2025-05-01', date_to: '2025-05-28' });
    expect(first.items).toHaveLength(10);
    const searches = first.items.map((item) => item.unique_search_users);
    expect(searches).toEqual([...searches].sort((a, b) => b - a));
    const item = first.items[0]!;
    const card = own.find((p) => p.sku === item.sku)!;
    expect(item).toMatchObject({ name: card.name, offer_id: card.offerId, currency: 'RUB' });
    expect(item.category).not.toBe('');
    const second = await client.productQueries({ ...period, skus, page: 1, page_size: 10, sort_by: 'BY_SEARCHES' });
    expect(second.items[0]!.unique_search_users).toBeLessThanOrEqual(searches.at(-1)!);
    expect(second.items.map((i) => i.sku)).not.toContain(item.sku);
    expect((await client.productQueries({ ...period, skus, page: 0, page_size: 10 })).items).toEqual(first.items);
    // A longer period has more searchers; SKUs of another seller are not answered.
    const longer = await client.productQueries({ ...period, date_from: '2025-04-01T00:00:00Z', skus: [item.sku], page_size: 1 });
    expect(longer.items[0]!.unique_search_users).toBeGreaterThan(item.unique_search_users);
    expect((await client.productQueries({ ...period, skus: ['999999999'], page_size: 10 })).total).toBe(0);
  });

  it('gives each SKU its queries (its product word, with buyers\' words), at most limit_by_sku, sorted as asked', async () => {
    const client = sim.client('1001');
    const skus = (await skusOf('1001')).slice(0, 5).map((p) => p.sku);
    const details = await client.productQueriesDetails({ ...period, skus, limit_by_sku: 3, page: 0, page_size: 100, sort_by: 'BY_GMV', sort_dir: 'ASCENDING' });
    expect(details.total).toBe(15);
    expect(details.queries.map((q) => q.query_index)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    const gmv = details.queries.map((q) => q.gmv);
    expect(gmv).toEqual([...gmv].sort((a, b) => a - b));
    for (const sku of skus) expect(details.queries.filter((q) => q.sku === sku)).toHaveLength(3);
    const all = await client.productQueriesDetails({ ...period, skus: [skus[0]!], limit_by_sku: 15, page_size: 100 });
    expect(all.queries.length).toBeGreaterThanOrEqual(5);
    expect(new Set(all.queries.map((q) => q.query)).size).toBe(all.queries.length);
    // Every query is the product's own word, alone or with more words: what buyers type for it.
    const word = all.queries.at(0)!.query.split(' ')[0]!;
    expect(all.queries.filter((q) => q.query.startsWith(word)).length).toBeGreaterThanOrEqual(all.queries.length - 1);
    for (const q of all.queries) {
      expect(q.order_count).toBeLessThanOrEqual(q.unique_view_users ?? 0);
      expect(q.unique_view_users).toBeLessThanOrEqual(q.unique_search_users);
    }
  });

  it('refuses what Ozon refuses: no SKUs, more than 15 queries a SKU, a page over 100, a request without date_from', async () => {
    const client = sim.client('1001');
    expect((await refusal(client.productQueries({ ...period, skus: [], page_size: 10 }))).status).toBe(400);
    expect((await refusal(client.productQueriesDetails({ ...period, skus: ['1'], limit_by_sku: 16, page_size: 10 }))).status).toBe(400);
    expect((await refusal(client.productQueriesDetails({ ...period, skus: ['1'], limit_by_sku: 5, page_size: 101 }))).status).toBe(400);
    // The official request schema: date_from is required.
    const response = await fetch(`${sim.baseUrl}/v1/analytics/product-queries`, {
      method: 'POST',
      headers: { 'Client-Id': '1001', 'Api-Key': 'sim-key-1001', 'Content-Type': 'application/json' },
      body: JSON.stringify({ skus: ['1'], page_size: 10 }),
    });
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain('date_from');
  });
});

describe('queries of every product the simulator makes', () => {
  it('answers every SKU of a large shop (a product whose type is named as its word has fewer query forms)', async () => {
    const big = await startSimulator({ productsPerShop: 1_000 });
    try {
      const client = big.client('1002');
      const ids = (await client.productList({ filter: { visibility: 'ALL' }, limit: 1000 })).items.map((item) => item.product_id);
      const skus = (await client.productInfoList({ product_id: ids })).filter((card) => Number(card.sku) > 0).map((card) => String(card.sku));
      const details = await client.productQueriesDetails({ ...period, skus, limit_by_sku: 15, page_size: 100 });
      expect(details.total).toBeGreaterThan(skus.length * 4);
    } finally {
      await big.close();
    }
  });
});
