import { unzipSync, strFromU8 } from 'fflate';
import type { AnalysisAnswer, AnalysisFigures, AnalysisSku, AnalysisSkuPage } from '../../../contract/analysis';
import { seedDemoShops } from '../../../server/demo/shops';
import { DATABASE_TARGETS, login, startTestApp, type Session, type TestApp } from '../harness';

const ADDITIVE = ['orders', 'units', 'revenue', 'cancellations', 'returns', 'returnAmount', 'commission', 'fees', 'payout', 'cost', 'profit'] as const;
const chinaToday = () => new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
const daysBefore = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

function sumOf(rows: readonly AnalysisFigures[]) {
  return Object.fromEntries(ADDITIVE.map((k) => [k, Math.round(rows.reduce((t, r) => t + r[k], 0) * 100) / 100]));
}
function expectSums(rows: readonly AnalysisFigures[], totals: AnalysisFigures, what: string) {
  const sums = sumOf(rows);
  // Each row is rounded to the cent on its own.
  for (const k of ADDITIVE) expect(Math.abs(sums[k]! - totals[k]), `${what}: ${k}`).toBeLessThanOrEqual(0.005 * Math.max(1, rows.length));
}

describe.each(DATABASE_TARGETS)('sales analysis on $kind', (target) => {
  let t: TestApp;
  let seller: Session;
  let shops: number[];

  beforeAll(async () => {
    t = await startTestApp(target, {
      app: { marketplace: { simulatorOptions: { ordersPerShop: 400, productsPerShop: 40, anchor: Date.now(), control: { labelReadyDelayMs: 0, taskDelayMs: 0 } } } },
    });
    await t.app.ready();
    shops = await seedDemoShops(t.database, t.config.secretKey, t.app.marketplace.simulator!);
    for (const id of shops) await t.app.sync.runShop(id, ['products', 'postings', 'returns', 'finance']);
    seller = await login(t.app, 'seller', 'seller123');
  }, 180_000);
  afterAll(() => t.close());

  const analyze = (payload: object, session: Session = seller) =>
    t.app
      .inject({ method: 'POST', url: '/api/ozonSellerAnalyze', headers: { ...session.headers, 'accept-language': 'en' }, payload })
      .then((r) => ({ status: r.statusCode, body: r.json<{ data: AnalysisAnswer; msg: string }>() }));
  const skuPage = (payload: object, session: Session = seller) =>
    t.app
      .inject({ method: 'POST', url: '/api/ozonSellerAnalyzeSkus', headers: { ...session.headers, 'accept-language': 'en' }, payload })
      .then((r) => ({ status: r.statusCode, body: r.json<{ data: AnalysisSkuPage; msg: string }>() }));
  /** Every SKU of a period, page by page as the table asks for them. */
  async function allSkus(payload: object): Promise<AnalysisSku[]> {
    const skus: AnalysisSku[] = [];
    for (let page = 1; ; page++) {
      const { status, body } = await skuPage({ ...payload, page, rows: 7 });
      expect(status).toBe(200);
      skus.push(...body.data.list);
      if (skus.length >= body.data.total) return skus;
    }
  }

  it('answers a period whose SKUs, shops, days and categories each add up to the shop totals', async () => {
    const to = chinaToday();
    const from = daysBefore(to, 29);
    const { status, body } = await analyze({ from, to, groupBy: 'day', breakdown: 'warehouse' });
    expect(status).toBe(200);
    const a = body.data;
    expect(a.shops.map((s) => s.id)).toEqual(shops);
    expect(a.previous).toEqual({ from: daysBefore(from, 30), to: daysBefore(from, 1) });
    expect(a.totals.orders).toBeGreaterThan(100);
    expect(a.totals.commission).toBeGreaterThan(0);
    expect(a.previousTotals.orders).toBeGreaterThan(0);
    const skus = await allSkus({ from, to });
    expect(skus).toHaveLength(a.skuCount);
    expectSums(skus, a.totals, 'skus');
    expect(a.topSkus).toEqual(skus.slice(0, 10));
    expect(a.bottomSkus).toEqual(skus.filter((s) => s.revenue > 0).slice(-10).reverse());
    expect(a.bottomSkus.every((s) => s.revenue > 0)).toBe(true);
    expectSums(a.byShop, a.totals, 'shops');
    expectSums(a.breakdown, a.totals, 'warehouses');
    expectSums(a.series.map((p) => p.current), a.totals, 'days');
    expectSums(a.series.map((p) => p.previous), a.previousTotals, 'previous days');
    expect(a.series).toHaveLength(30);
    expect(a.series[0]).toMatchObject({ bucket: from, previousBucket: a.previous.from });
    expect(a.byShop.map((s) => s.name).sort()).toEqual(['深圳数码 Shenzhen Digital', '义乌小百货 Yiwu Goods'].sort());
    // The categories' names come from Ozon's tree in the asked language, and their shares make the whole.
    expect(a.categories.every((c) => c.name && !c.name.startsWith('#'))).toBe(true);
    expect(a.categories.reduce((t, c) => t + c.share, 0)).toBeCloseTo(1, 6);
    // ABC: SKUs by revenue, A first; A holds at least 80% of the revenue.
    expect(skus.map((s) => s.abc).join('')).toMatch(/^A+B*C*$/);
    expect(a.abc[0]!.share).toBeGreaterThanOrEqual(0.8);
    expect(a.abc.reduce((t, c) => t + c.skus, 0)).toBe(skus.length);
    // No cost prices yet: every SKU says so and profit is revenue less returns, commission and fees.
    expect(a.costMissing).toBe(skus.length);
    expect(a.totals.cost).toBe(0);
    expect(a.totals.profit).toBeCloseTo(a.totals.revenue - a.totals.returnAmount - a.totals.commission - a.totals.fees, 1);
  });

  it('counts the cost prices the seller entered, in the orders currency', async () => {
    const to = chinaToday();
    const from = daysBefore(to, 29);
    const before = (await analyze({ from, to, breakdown: 'sku' })).body.data;
    const top = before.topSkus[0]!;
    await t.database.query(`insert into cost_prices (user_id, offer_id, cost) values ($1, $2, 100)`, [seller.id, top.offerId]);
    const after = (await analyze({ from, to, breakdown: 'sku' })).body.data;
    const sku = (await skuPage({ from, to, search: top.sku })).body.data.list.find((s) => s.sku === top.sku)!;
    // The demo sells in yuan; cost prices are roubles, converted at the Bank of Russia's latest stored rate.
    expect(after.currency).toBe('CNY');
    const rate = after.costRate!.rate;
    expect(rate).toBeGreaterThan(1);
    expect(sku.costMissing).toBe(false);
    expect(sku.cost).toBeCloseTo((top.units * 100) / rate, 2);
    expect(sku.profit).toBeCloseTo(top.profit - sku.cost, 1);
    expect(after.costMissing).toBe(before.costMissing - 1);
    expect(after.totals.cost).toBeCloseTo(sku.cost, 2);
    // The days' totals follow the new cost price too: the series' cost adds up to the period's.
    expect(after.series.reduce((t, p) => t + p.current.cost, 0)).toBeCloseTo(sku.cost, 1);
  });

  it('groups by week and month, narrows to one shop, and answers an empty period with zeros', async () => {
    const to = chinaToday();
    const from = daysBefore(to, 89);
    const all = (await analyze({ from, to, groupBy: 'week' })).body.data;
    expect(all.series.every((p) => new Date(`${p.bucket}T00:00:00Z`).getUTCDay() === 1 || p.bucket === all.series[0]!.bucket)).toBe(true);
    const months = (await analyze({ from, to, groupBy: 'month', shopIds: [shops[0]] })).body.data;
    expect(months.series.every((p) => p.bucket.endsWith('-01') || p.bucket === months.series[0]!.bucket)).toBe(true);
    expect(months.byShop.map((s) => Number(s.key))).toEqual([shops[0]]);
    expect(months.totals.orders).toBeLessThan(all.totals.orders);
    const empty = (await analyze({ from: '2020-01-01', to: '2020-01-31' })).body.data;
    expect(empty.totals).toMatchObject({ orders: 0, revenue: 0, margin: null });
    expect(empty.skuCount).toBe(0);
    expect(empty.topSkus).toEqual([]);
    expect(empty.breakdownOthers).toBeNull();
    expect(empty.series).toHaveLength(31);
  });

  it('pages, sorts, searches and narrows the SKU table, and breaks a period down by SKU with the rest summed', async () => {
    const to = chinaToday();
    const from = daysBefore(to, 89);
    const all = await allSkus({ from, to });
    const byUnits = (await skuPage({ from, to, sort: 'units', order: 'asc', rows: 500 })).body.data;
    expect(byUnits.total).toBe(all.length);
    expect(byUnits.list.map((s) => s.units)).toEqual(all.map((s) => s.units).sort((x, y) => x - y));
    const byName = (await skuPage({ from, to, sort: 'name', order: 'desc', rows: 500 })).body.data.list.map((s) => s.name);
    expect(byName).toEqual([...byName].sort((x, y) => y.localeCompare(x)));
    const classB = (await skuPage({ from, to, abc: 'B', rows: 500 })).body.data;
    expect(classB.list.every((s) => s.abc === 'B')).toBe(true);
    expect(classB.total).toBe(all.filter((s) => s.abc === 'B').length);
    const one = all[all.length - 1]!;
    const found = (await skuPage({ from, to, search: one.offerId.toLowerCase() })).body.data;
    expect(found.list.map((s) => s.sku)).toContain(one.sku);
    const second = (await skuPage({ from, to, page: 2, rows: 5 })).body.data.list;
    expect(second).toEqual(all.slice(5, 10));
    // A breakdown by SKU: the first rows by revenue, the rest summed, together the period's totals.
    const a = (await analyze({ from, to, breakdown: 'sku' })).body.data;
    expect(a.breakdown.map((b) => b.key)).toEqual(all.slice(0, a.breakdown.length).map((s) => s.sku));
    const others = a.breakdownOthers ? [a.breakdownOthers] : [];
    expect(a.breakdown.length + (a.breakdownOthers?.count ?? 0)).toBe(all.length);
    expectSums([...a.breakdown, ...others], a.totals, 'sku breakdown');
    expect((await skuPage({ from, to, rows: 501 })).status).toBe(400);
    expect((await skuPage({ from, to, sort: 'nope' })).status).toBe(400);
  });

  it('exports the SKU table as an Excel workbook and as CSV, with headers in the user\'s language', async () => {
    const to = chinaToday();
    const from = daysBefore(to, 29);
    const skus = await allSkus({ from, to, sort: 'profit', order: 'asc' });
    const post = (payload: object, lang: string) =>
      t.app.inject({ method: 'POST', url: '/api/ozonSellerAnalyzeExport', headers: { ...seller.headers, 'accept-language': lang }, payload });
    const xlsx = await post({ from, to, sort: 'profit', order: 'asc' }, 'zh');
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    expect(xlsx.headers['content-disposition']).toContain(`sales-${from}-${to}.xlsx`);
    const files = unzipSync(new Uint8Array(xlsx.rawPayload));
    const sheet = strFromU8(files['xl/worksheets/sheet1.xml']!);
    expect(sheet.match(/<row /g)).toHaveLength(skus.length + 1);
    expect(sheet).toContain('<t xml:space="preserve">销售额</t>');
    // Rows in the table's order: the first SKU's id is in row 2.
    expect(sheet).toMatch(new RegExp(`<row r="2"><c r="A2" t="inlineStr"><is><t xml:space="preserve">${skus[0]!.sku}</t>`));
    expect(strFromU8(files['xl/workbook.xml']!)).toContain('SKU 明细');
    const csv = await post({ from, to, format: 'csv', abc: 'A' }, 'en');
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.replace(/^\ufeff/, '').trim().split('\r\n');
    expect(lines[0]).toMatch(/^SKU,Offer ID,Product,Shop,ABC,Revenue,/);
    expect(lines).toHaveLength(1 + skus.filter((s) => s.abc === 'A').length);
  });

  it('writes a shop name that a spreadsheet would run as a formula as text in the CSV', async () => {
    const to = chinaToday();
    const from = daysBefore(to, 29);
    const formula = '=HYPERLINK("http://evil.example","open")';
    const [{ name }] = (await t.database.query<{ name: string }>(`select name from mp_shops where id = $1`, [shops[0]])) as [{ name: string }];
    await t.database.query(`update mp_shops set name = $2 where id = $1`, [shops[0], formula]);
    try {
      const csv = await t.app.inject({ method: 'POST', url: '/api/ozonSellerAnalyzeExport', headers: seller.headers, payload: { from, to, format: 'csv', shopIds: [shops[0]] } });
      expect(csv.statusCode).toBe(200);
      const rows = csv.body.replace(/^\ufeff/, '').trim().split('\r\n').slice(1);
      expect(rows.length).toBeGreaterThan(0);
      // Quoted (it holds quotes) and led by an apostrophe: a cell starting with = never reaches the spreadsheet.
      for (const row of rows) expect(row).toContain(`,"'=HYPERLINK(""http://evil.example"",""open"")",`);
      expect(csv.body).not.toMatch(/(^|,)"?=HYPERLINK/m);
    } finally {
      await t.database.query(`update mp_shops set name = $2 where id = $1`, [shops[0], name]);
    }
  });

  it('refuses analysts, new users, other sellers\' shops and bad periods', async () => {
    for (const [name, password] of [['analyst', 'analyst123'], ['newbie', 'newbie123']] as const) {
      const session = await login(t.app, name, password);
      expect((await analyze({ from: '2025-01-01', to: '2025-01-31' }, session)).status).toBe(401);
      expect((await skuPage({ from: '2025-01-01', to: '2025-01-31' }, session)).status).toBe(401);
    }
    const admin = await login(t.app, 'admin', 'admin123');
    const foreign = await analyze({ from: '2025-01-01', to: '2025-01-31', shopIds: [shops[0]] }, admin);
    expect(foreign.status).toBe(400);
    expect(foreign.body.msg).toContain('shop');
    expect((await skuPage({ from: '2025-01-01', to: '2025-01-31', shopIds: [shops[0]] }, admin)).status).toBe(400);
    expect((await analyze({ from: '2025-02-01', to: '2025-01-01' })).status).toBe(400);
    expect((await analyze({ from: '2020-01-01', to: '2025-01-01' })).status).toBe(400);
    expect((await analyze({ from: '2025-13-01', to: '2025-01-01' })).status).toBe(400);
  });
});
