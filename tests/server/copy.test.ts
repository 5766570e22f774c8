import type { CopyPreviewAnswer, CopyRecord, HistoryPage, PriceTemplate } from '../../contract/copy';
import type { Store } from '../../contract/store';
import { isCopyForbidden } from '../../server/marketplace/simulator/catalog';
import { DATABASE_TARGETS, login, startTestApp, type Session, type TestApp } from './harness';

const RULE = { currency: 'CNY', markup: '1.5', shipping: '12', fixed: '3.5', rounding: 'upTo9' } as const;

describe.each(DATABASE_TARGETS)('copying cards between shops on $kind', (target) => {
  let t: TestApp;
  let seller: Session;
  let admin: Session;
  let shops: number[];
  /** Three SKUs of another seller's shop (1003): two that may be copied, one whose owner forbids it. */
  let skus: { open: number[]; forbidden: number; price: number };

  beforeAll(async () => {
    t = await startTestApp(target, {
      app: { marketplace: { simulatorOptions: { ordersPerShop: 10, productsPerShop: 40, control: { taskDelayMs: 0, labelReadyDelayMs: 0 } } } },
    });
    await t.app.ready();
    seller = await login(t.app, 'seller', 'seller123');
    admin = await login(t.app, 'admin', 'admin123');
    shops = [];
    for (const clientId of ['1001', '1002']) {
      const added = await post<Store>('/api/store/add', { name: `店 ${clientId}`, clientId, apiKey: `sim-key-${clientId}` });
      shops.push(added.body.data.id);
    }
    const sim = t.app.marketplace.simulator!.shop('1003');
    const onSale = sim.products.map((p) => sim.settle(p)).filter((p) => p.sku > 0 && !p.archived);
    const open = onSale.filter((p) => !isCopyForbidden(p.id)).slice(0, 2);
    const forbidden = onSale.find((p) => isCopyForbidden(p.id))!;
    skus = { open: open.map((p) => p.sku), forbidden: forbidden.sku, price: open[0]!.price };
  });
  afterAll(() => t.close());

  const get = <T>(url: string, session: Session = seller, lang = 'zh') =>
    t.app.inject({ method: 'GET', url, headers: { ...session.headers, 'accept-language': lang } }).then((r) => ({ status: r.statusCode, body: r.json<{ data: T; msg: string }>() }));
  const post = <T>(url: string, payload: unknown, session: Session = seller, lang = 'zh') =>
    t.app
      .inject({ method: 'POST', url, headers: { ...session.headers, 'accept-language': lang }, payload: payload as object })
      .then((r) => ({ status: r.statusCode, body: r.json<{ data: T; msg: string }>() }));

  it('answers 401 outside the copy roles, and keeps the integrated list to administrators', async () => {
    for (const [name, password] of [['analyst', 'analyst123'], ['newbie', 'newbie123']] as const) {
      const other = await login(t.app, name, password);
      expect((await get('/api/history/list', other)).status).toBe(401);
      expect((await post('/api/CopyProduct', { shopIds: [1], currency: 'CNY', items: [{ sku: 1, price: '1' }] }, other)).status).toBe(401);
      expect((await post('/api/copy/preview', { sources: ['1'], rule: RULE }, other)).status).toBe(401);
      expect((await get('/api/copy/templates', other)).status).toBe(401);
    }
    expect((await get('/api/history/allList', seller)).status).toBe(401);
    expect((await get('/api/history/allList', admin)).status).toBe(200);
  });

  it('keeps pricing templates per user, one default at a time', async () => {
    const first = await post<PriceTemplate>('/api/copy/template/save', { name: '标准', ...RULE, isDefault: true });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ name: '标准', markup: '1.5', shipping: '12', fixed: '3.5', rounding: 'upTo9', isDefault: true });
    const second = await post<PriceTemplate>('/api/copy/template/save', { name: '低价', ...RULE, markup: '1.2', isDefault: true });
    const list = await get<PriceTemplate[]>('/api/copy/templates');
    expect(list.body.data.map((x) => [x.name, x.isDefault])).toEqual([
      ['低价', true],
      ['标准', false],
    ]);
    const changed = await post<PriceTemplate>('/api/copy/template/save', { id: second.body.data.id, name: '低价2', ...RULE, markup: '1.25', oldPriceFactor: '1.3' });
    expect(changed.body.data).toMatchObject({ name: '低价2', markup: '1.25', oldPriceFactor: '1.3', isDefault: false });
    expect((await post('/api/copy/template/save', { name: 'x', ...RULE, markup: '0' })).status).toBe(400);
    expect((await post('/api/copy/template/save', { id: second.body.data.id, name: '别人的', ...RULE }, admin)).status).toBe(404);
    expect((await get<PriceTemplate[]>('/api/copy/templates', admin)).body.data).toEqual([]);
    expect((await post<{ count: number }>('/api/copy/template/delete', { id: first.body.data.id }, admin)).body.data.count).toBe(0);
    expect((await post<{ count: number }>('/api/copy/template/delete', { id: first.body.data.id })).body.data.count).toBe(1);
  });

  it('previews pasted links and SKUs with the target price, and says what cannot be read', async () => {
    const link = `https://www.ozon.ru/product/besprovodnye-naushniki-${skus.open[0]}/?at=abc`;
    const answer = await post<CopyPreviewAnswer>('/api/copy/preview', { sources: [link, String(skus.open[1]), String(skus.open[0]), 'hello', '42'], rule: RULE });
    expect(answer.status).toBe(200);
    const { items, rates } = answer.body.data;
    expect(items.map((i) => i.state)).toEqual(['ok', 'ok', 'duplicate', 'invalid', 'notFound']);
    expect(items[0]!.sku).toBe(skus.open[0]);
    expect(items[0]!.image).toMatch(/^\/sim\/ozon\/assets\//);
    expect(rates.CNY).toBe('1.000000');
    // CNY to CNY: price × 1.5 + 12 + 3.5, up to the next amount ending in 9.
    const raw = skus.price * 1.5 + 15.5;
    const expected = Math.ceil(raw) + ((9 - (Math.ceil(raw) % 10) + 10) % 10);
    expect(items[0]!.targetPrice).toBe(`${expected}.00`);
    const inRoubles = await post<CopyPreviewAnswer>('/api/copy/preview', { sources: [String(skus.open[0])], rule: { ...RULE, currency: 'RUB', rounding: 'cent' } });
    expect(Number(inRoubles.body.data.items[0]!.targetPrice)).toBeGreaterThan(Number(items[0]!.targetPrice));
  });

  it('copies three SKUs into two shops; the one Ozon refuses fails with its reason, the others follow import to listed', async () => {
    const items = [...skus.open, skus.forbidden].map((sku) => ({ sku, price: '199.00' }));
    const copied = await post<{ list: CopyRecord[] }>('/api/CopyProduct', { shopIds: shops, currency: 'CNY', items });
    expect(copied.status).toBe(200);
    expect(copied.body.data.list).toHaveLength(6);
    expect(copied.body.data.list.every((r) => r.status === 'importing' && r.mode === 'sku')).toBe(true);

    const settled = await post<{ list: CopyRecord[] }>('/api/history/status', { ids: copied.body.data.list.map((r) => r.id) }, seller, 'en');
    const refused = settled.body.data.list.filter((r) => r.sku === skus.forbidden);
    expect(refused.map((r) => r.status)).toEqual(['failed', 'failed']);
    expect(refused[0]!.errors[0]).toMatchObject({ code: 'SKU_COPY_FORBIDDEN', message: "The card's owner forbids creating products from this SKU" });
    // Moderation takes no time in this simulator: the others are listed once Ozon gives them an SKU.
    expect(settled.body.data.list.filter((r) => r.sku !== skus.forbidden).map((r) => r.status)).toEqual(['listed', 'listed', 'listed', 'listed']);
    const onOzon = await t.app.marketplace.simulator!.shop('1002').productByOffer.get(`CP${skus.open[0]}`);
    expect(onOzon?.price).toBe(199);

    const page = await get<HistoryPage>('/api/history/list?rows=50');
    expect(page.body.data).toMatchObject({ total: 6, unsettled: 0 });
    expect(page.body.data.list.find((r) => r.status === 'failed')!.errors[0]!.message).toBe('该商品的卖家禁止跟卖（按SKU创建商品）');
    expect((await get<HistoryPage>('/api/history/list?status=failed')).body.data.total).toBe(2);
    expect((await get<HistoryPage>(`/api/history/list?search=${skus.open[1]}`)).body.data.total).toBe(2);

    const retried = await post<{ list: CopyRecord[] }>('/api/history/retry', { ids: refused.map((r) => r.id) });
    expect(retried.body.data.list.map((r) => [r.status, r.attempts])).toEqual([
      ['importing', 2],
      ['importing', 2],
    ]);
    expect((await post('/api/history/retry', { ids: [settled.body.data.list.find((r) => r.status === 'listed')!.id] })).status).toBe(400);

    const all = await get<HistoryPage>('/api/history/allList?rows=100', admin);
    expect(all.body.data.list.filter((r) => r.userName === 'seller')).toHaveLength(6);
  });

  it('imports the read card with the seller\'s name and pictures when the pictures change', async () => {
    const images = ['https://img.example.com/a.jpg'];
    const copied = await post<{ list: CopyRecord[] }>('/api/CopyProduct', { shopIds: [shops[0]], currency: 'CNY', items: [{ sku: skus.open[1], offerId: 'MY-1', name: '我的耳机', images, price: '88' }] });
    expect(copied.body.data.list[0]).toMatchObject({ mode: 'card', offerId: 'MY-1', name: '我的耳机', image: images[0] });
    const [record] = (await post<{ list: CopyRecord[] }>('/api/history/status', { ids: [copied.body.data.list[0]!.id] })).body.data.list;
    expect(record!.status).toBe('listed');
    const card = t.app.marketplace.simulator!.shop('1001').productByOffer.get('MY-1')!;
    expect(card.images).toEqual(images);
    expect(card.name).toBe('我的耳机');
  });

  it('serves the copy and history calls under the alternate bases, with the same session rules', async () => {
    const page = await get<HistoryPage>('/e-api/history/list');
    expect(page.status).toBe(200);
    expect(page.body.data.total).toBeGreaterThan(0);
    expect((await get('/x-api/history/allList', admin)).status).toBe(200);
    expect((await get('/x-api/history/allList', seller)).status).toBe(401);
    const anonymous = await t.app.inject({ method: 'GET', url: '/x-api/history/list' });
    expect(anonymous.statusCode).toBe(402);
    const copied = await post<{ list: CopyRecord[] }>('/x-api/CopyProduct', { shopIds: [shops[1]], currency: 'CNY', items: [{ sku: 42, price: '10' }] });
    expect(copied.body.data.list[0]).toMatchObject({ status: 'failed', errors: [{ code: 'sku_not_found', message: 'Ozon上找不到该SKU的商品' }] });
    // Only the three swapBase calls have aliases.
    expect((await post('/e-api/history/delete', { ids: [1] })).status).toBe(404);
  });

  it("refuses another user's shop and deletes the caller's records only", async () => {
    expect((await post('/api/CopyProduct', { shopIds: [shops[0]], currency: 'CNY', items: [{ sku: skus.open[0], price: '10' }] }, admin)).status).toBe(404);
    const page = await get<HistoryPage>('/api/history/list?rows=100');
    const one = page.body.data.list[0]!;
    expect((await post<{ count: number }>('/api/history/delete', { ids: [one.id] }, admin)).body.data.count).toBe(0);
    expect((await post<{ count: number }>('/api/history/delete', { ids: [one.id] })).body.data.count).toBe(1);
    expect((await post<{ count: number }>('/api/history/deleteAll', {})).body.data.count).toBe(page.body.data.total - 1);
    expect((await get<HistoryPage>('/api/history/list')).body.data.total).toBe(0);
  });
});
