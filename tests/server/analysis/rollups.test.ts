import { analysisSkuQuerySchema, type AnalysisSku } from '../../../contract/analysis';
import { createAnalysisService } from '../../../server/areas/analysis/service';
import { backfillRollups, refreshRollupCosts, rollupShopDays, rollupUser } from '../../../server/areas/analysis/rollups';
import type { SyncService } from '../../../server/areas/sync/service';
import type { Database } from '../../../server/db/database';
import { seedOrders } from '../../../server/demo/orders-seed';
import { simulatedShops, startSimulator } from '../marketplace/harness';
import { DATABASE_TARGETS } from '../harness';

const FIGURES = ['orders', 'units', 'revenue', 'cancellations', 'returns', 'return_amount', 'commission', 'fees', 'payout'] as const;
type Figures = Record<(typeof FIGURES)[number], number>;
type Key = { shopId: number; day: string; sku: string; warehouseId: string };

const chinaDay = (at: string | Date) => new Date(new Date(at).getTime() + 8 * 3_600_000).toISOString().slice(0, 10);
const zero = (): Figures => ({ orders: 0, units: 0, revenue: 0, cancellations: 0, returns: 0, return_amount: 0, commission: 0, fees: 0, payout: 0 });
const dayAfter = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const keyOf = (k: Key) => `${k.shopId}|${k.day}|${k.sku}|${k.warehouseId}`;

type SyncedRecord = {
  type?: string;
  posting_number?: string;
  posting?: { posting_number: string };
  sale_commission: number;
  delivery_charge: number;
  return_delivery_charge: number;
  amount: number;
  services?: { price: number }[];
  logistic?: { return_date?: string };
  product: { sku: number; quantity: number; price: { price: number } };
};

/** The reference: the same figures computed here from the raw orders, returns and finance transactions. */
async function recompute(database: Database, userId: number): Promise<Map<string, Figures & Key>> {
  const rows = new Map<string, Figures & Key>();
  const at = (k: Key) => {
    const key = keyOf(k);
    let row = rows.get(key);
    if (!row) rows.set(key, (row = { ...k, ...zero() }));
    return row;
  };
  const orders = await database.query<{ shop_id: number; posting_number: string; in_process_at: Date; sku: string; warehouse_id: string; status: string; quantity: number; amount: number }>(
    `select shop_id, posting_number, in_process_at, sku, warehouse_id, status, quantity, amount from orders where user_id = $1 and not deleted`,
    [userId],
  );
  const byPosting = new Map<string, typeof orders>();
  for (const o of orders) {
    const row = at({ shopId: o.shop_id, day: chinaDay(o.in_process_at), sku: o.sku, warehouseId: o.warehouse_id });
    row.orders += 1;
    if (o.status === 'cancelled') row.cancellations += 1;
    else {
      row.units += o.quantity;
      row.revenue += Number(o.amount);
    }
    const key = `${o.shop_id}|${o.posting_number}`;
    byPosting.set(key, [...(byPosting.get(key) ?? []), o]);
  }
  const records = await database.query<{ shop_id: number; entity: string; data: SyncedRecord }>(
    `select shop_id, entity, data from mp_records where entity in ('finance', 'returns') and shop_id in (select id from mp_shops where user_id = $1)`,
    [userId],
  );
  for (const { shop_id, entity, data } of records) {
    if (entity === 'finance') {
      const lines = byPosting.get(`${shop_id}|${data.posting?.posting_number}`) ?? [];
      const total = lines.reduce((sum, l) => sum + Number(l.amount), 0);
      for (const l of lines) {
        const share = total > 0 ? Number(l.amount) / total : 1 / lines.length;
        const row = at({ shopId: shop_id, day: chinaDay(l.in_process_at), sku: l.sku, warehouseId: l.warehouse_id });
        row.commission += -data.sale_commission * share;
        row.fees += -(data.delivery_charge + data.return_delivery_charge + (data.services ?? []).reduce((t, x) => t + x.price, 0)) * share;
        row.payout += data.amount * share;
      }
    } else if (data.type !== 'Cancellation' && data.logistic?.return_date) {
      const line = byPosting.get(`${shop_id}|${data.posting_number}`)?.find((l) => l.sku === String(data.product.sku));
      const row = at({ shopId: shop_id, day: chinaDay(data.logistic.return_date), sku: String(data.product.sku), warehouseId: line?.warehouse_id ?? '' });
      row.returns += data.product.quantity;
      row.return_amount += data.product.price.price * data.product.quantity;
    }
  }
  return rows;
}

async function rollups(database: Database, userId: number) {
  const rows = await database.query<Key & Figures>(
    `select shop_id as "shopId", day::text as day, sku, warehouse_id as "warehouseId", ${FIGURES.map((f) => `${f}::float8 as ${f}`).join(', ')}
     from sales_daily where user_id = $1`,
    [userId],
  );
  return new Map(rows.map((row) => [keyOf(row), row]));
}

/**
 * The pre-aggregations of sales_daily (per shop, day and warehouse with the units' cost; running totals per SKU and
 * their spans) equal what a recomputation from sales_daily gives.
 */
async function expectDerivedEqual(database: Database, userId: number) {
  const daily = [...(await rollups(database, userId)).values()];
  const [costs, offers] = await Promise.all([
    database.query<{ offer_id: string; cost: number }>(`select offer_id, cost::float8 as cost from cost_prices where user_id = $1`, [userId]),
    database.query<{ key: string; offer_id: string }>(
      `select shop_id || '|' || day || '|' || sku || '|' || warehouse_id as key, offer_id from sales_daily where user_id = $1`,
      [userId],
    ),
  ]);
  const costOf = new Map(costs.map((c) => [c.offer_id, c.cost]));
  const offerOf = new Map(offers.map((o) => [o.key, o.offer_id]));
  const add = (into: Map<string, Figures & { cost: number }>, key: string, row: Figures, cost: number) => {
    const sums = into.get(key) ?? { ...zero(), cost: 0 };
    for (const f of FIGURES) sums[f] += row[f];
    sums.cost += cost;
    into.set(key, sums);
  };
  const totals = new Map<string, Figures & { cost: number }>();
  for (const row of daily) add(totals, `${row.shopId}|${row.day}|${row.warehouseId}`, row, row.units * (costOf.get(offerOf.get(keyOf(row)) ?? '') ?? 0));
  const storedTotals = await database.query<{ key: string; cost: number } & Figures>(
    `select shop_id || '|' || day || '|' || warehouse_id as key, cost_rub::float8 as cost, ${FIGURES.map((f) => `${f}::float8 as ${f}`).join(', ')}
     from sales_daily_totals where user_id = $1`,
    [userId],
  );
  expect(storedTotals.map((r) => r.key).sort()).toEqual([...totals.keys()].sort());
  for (const row of storedTotals) {
    const expected = totals.get(row.key)!;
    for (const f of [...FIGURES, 'cost'] as const) expect(Math.abs(row[f] - expected[f]), `totals ${row.key} ${f}`).toBeLessThan(0.005);
  }
  // Weekly running totals: a SKU's row at a Sunday holds its sums (and count of days with a row) of every day up to
  // it, for each Sunday from its first day to before its last; its span the first and last day and all-time sums.
  const perSkuDay = new Map<string, Figures & { cost: number }>();
  for (const row of daily) add(perSkuDay, `${row.shopId}|${row.sku}|${row.day}`, row, 0);
  const skuDays = new Map<string, { day: string; figures: Figures }[]>();
  for (const [key, figures] of perSkuDay) {
    const [shop, sku, day] = key.split('|');
    skuDays.set(`${shop}|${sku}`, [...(skuDays.get(`${shop}|${sku}`) ?? []), { day: day!, figures }]);
  }
  const expectedWeeks = new Map<string, Figures & { days: number }>();
  const spans = new Map<string, { first: string; last: string; days: number } & Figures>();
  for (const [sku, days] of skuDays) {
    days.sort((x, y) => x.day.localeCompare(y.day));
    const first = days[0]!.day;
    const last = days[days.length - 1]!.day;
    const sums = { ...zero(), days: 0 };
    let next = 0;
    // Every Sunday from the first day's to before the last day.
    for (let sunday = dayAfter(first, (7 - new Date(`${first}T00:00:00Z`).getUTCDay()) % 7); sunday < last; sunday = dayAfter(sunday, 7)) {
      for (; next < days.length && days[next]!.day <= sunday; next++) {
        for (const f of FIGURES) sums[f] += days[next]!.figures[f];
        sums.days += 1;
      }
      expectedWeeks.set(`${sku}|${sunday}`, { ...sums });
    }
    const all = { ...zero(), days: days.length };
    for (const { figures } of days) for (const f of FIGURES) all[f] += figures[f];
    spans.set(sku, { ...all, first, last });
  }
  const weekly = await database.query<{ key: string; days: number } & Figures>(
    `select shop_id || '|' || sku || '|' || week_end as key, days, ${FIGURES.map((f) => `${f}::float8 as ${f}`).join(', ')}
     from sales_sku_weekly where user_id = $1`,
    [userId],
  );
  expect(weekly.map((r) => r.key).sort()).toEqual([...expectedWeeks.keys()].sort());
  for (const row of weekly) {
    const expected = expectedWeeks.get(row.key)!;
    expect(row.days, `weekly ${row.key} days`).toBe(expected.days);
    for (const f of FIGURES) expect(Math.abs(row[f] - expected[f]), `weekly ${row.key} ${f}`).toBeLessThan(0.005);
  }
  const storedSpans = await database.query<{ key: string; first: string; last: string; days: number } & Figures>(
    `select shop_id || '|' || sku as key, first_day::text as first, last_day::text as last, days, ${FIGURES.map((f) => `${f}::float8 as ${f}`).join(', ')}
     from sales_sku_span where user_id = $1`,
    [userId],
  );
  expect(storedSpans.map((r) => r.key).sort()).toEqual([...spans.keys()].sort());
  for (const row of storedSpans) {
    const expected = spans.get(row.key)!;
    expect([row.first, row.last, row.days]).toEqual([expected.first, expected.last, expected.days]);
    for (const f of FIGURES) expect(Math.abs(row[f] - expected[f]), `span ${row.key} ${f}`).toBeLessThan(0.005);
  }
}

/** Sums of every figure over the rows of the given shops and days (a period's answer, as the analysis asks it). */
function sum(rows: Iterable<Figures & Key>, shops: Set<number>, from: string, to: string): Figures {
  const total = zero();
  for (const row of rows) {
    if (!shops.has(row.shopId) || row.day < from || row.day > to) continue;
    for (const f of FIGURES) total[f] += row[f];
  }
  for (const f of FIGURES) total[f] = Math.round(total[f] * 100) / 100;
  return total;
}

/** A deterministic pseudo-random sequence, so a failure is repeatable. */
function sequence(seed: number) {
  let s = seed;
  return () => ((s = (s * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
}

function expectClose(actual: Figures, expected: Figures, what: string) {
  for (const f of FIGURES) {
    // Each rollup row rounds its shared commission, fees and payout to the cent.
    expect(Math.abs(actual[f] - expected[f]), `${what}: ${f} ${actual[f]} vs ${expected[f]}`).toBeLessThanOrEqual(FIGURES.indexOf(f) >= 6 ? 0.01 * 400 : 0.005);
  }
}

describe.each(DATABASE_TARGETS)('sales rollups ($kind)', (target) => {
  let sim: Awaited<ReturnType<typeof startSimulator>>;
  let database: Database;
  let dispose: () => Promise<void>;
  let sync: SyncService;
  let shops: number[];

  beforeAll(async () => {
    sim = await startSimulator({ ordersPerShop: 800, productsPerShop: 60, anchor: Date.now() });
    ({ database, dispose } = await target.open());
    await database.migrate();
    await database.query(`insert into users (id, username, password_hash, password_stamp) values (1, 'owner', 'x', 'x'), (2, 'other', 'x', 'x')`);
    ({ shops, sync } = await simulatedShops(database, sim, ['1001', '1002'], 200));
    for (const shopId of shops) {
      const results = await sync.runShop(shopId, ['postings', 'returns', 'finance']);
      expect(results.map((r) => r.status)).toEqual(['done', 'done', 'done']);
    }
  }, 120_000);
  afterAll(async () => {
    await sync.stop();
    await dispose();
    await sim.close();
  });

  it('sync keeps rollups equal to a recomputation from the raw orders, returns and transactions over random periods and shops', async () => {
    const reference = await recompute(database, 1);
    const stored = await rollups(database, 1);
    expect(stored.size).toBeGreaterThan(100);
    expect([...stored.keys()].sort()).toEqual([...reference.keys()].sort());
    const figures = (rows: Map<string, Figures & Key>) => [...rows.values()];
    // Every figure is there: the synced data has sales, cancellations, returns and Ozon's transactions.
    const all = sum(figures(stored), new Set(shops), '0000', '9999');
    for (const f of FIGURES) expect(all[f], f).not.toBe(0);
    const days = [...new Set(figures(reference).map((r) => r.day))].sort();
    const random = sequence(30);
    for (let i = 0; i < 25; i++) {
      const a = days[Math.floor(random() * days.length)]!;
      const b = days[Math.floor(random() * days.length)]!;
      const [from, to] = a < b ? [a, b] : [b, a];
      const picked = new Set(shops.filter(() => random() < 0.6));
      if (picked.size === 0) picked.add(shops[0]!);
      expectClose(sum(figures(stored), picked, from, to), sum(figures(reference), picked, from, to), `${[...picked]} ${from}..${to}`);
    }
    await expectDerivedEqual(database, 1);
  });

  it('a period\'s SKUs read from the weekly running totals equal the sums of their days, over random periods and shops', async () => {
    const analysis = createAnalysisService({ database, secretKey: Buffer.alloc(32), clientFor: () => { throw new Error('offline'); }, log: { warn: () => undefined } });
    const daily = [...(await rollups(database, 1)).values()];
    const days = [...new Set(daily.map((r) => r.day))].sort();
    const first = days[0]!;
    const last = days[days.length - 1]!;
    const span = (Date.parse(last) - Date.parse(first)) / 86_400_000;
    const random = sequence(7);
    const periods: [string, string][] = [[first, last], [dayAfter(first, -3), first], [last, dayAfter(last, 9)], [dayAfter(first, 1), dayAfter(last, -1)]];
    while (periods.length < 30) {
      const from = dayAfter(first, Math.floor(random() * (span + 1)) - 2);
      periods.push([from, dayAfter(from, Math.floor(random() * (random() < 0.3 ? 8 : span / 2)))]);
    }
    for (const [from, to] of periods) {
      const picked = shops.filter(() => random() < 0.7);
      const expected = new Map<string, Figures>();
      for (const row of daily) {
        if (row.day < from || row.day > to || (picked.length > 0 && !picked.includes(row.shopId))) continue;
        const sums = expected.get(row.sku) ?? zero();
        for (const f of FIGURES) sums[f] += row[f];
        expected.set(row.sku, sums);
      }
      const skus: AnalysisSku[] = [];
      for (let page = 1; ; page++) {
        const answer = await analysis.skuPage(1, analysisSkuQuerySchema.parse({ from, to, shopIds: picked, page, rows: 500, sort: 'sku', order: 'asc' }));
        skus.push(...answer.list);
        if (skus.length >= answer.total) break;
      }
      const what = `${picked.join(',') || 'all'} ${from}..${to}`;
      expect(skus.map((s) => s.sku).sort(), what).toEqual([...expected.keys()].sort());
      for (const sku of skus) {
        const sums = expected.get(sku.sku)!;
        const got: Figures = { orders: sku.orders, units: sku.units, revenue: sku.revenue, cancellations: sku.cancellations, returns: sku.returns, return_amount: sku.returnAmount, commission: sku.commission, fees: sku.fees, payout: sku.payout };
        for (const f of FIGURES) expect(Math.abs(got[f] - sums[f]), `${what} ${sku.sku} ${f}`).toBeLessThan(0.005);
      }
    }
  });

  it('a posting added later is rolled up by the next sync, and the rest stays equal', async () => {
    const shopId = shops[0]!;
    const before = sum((await rollups(database, 1)).values(), new Set([shopId]), '0000', '9999');
    const { postingNumber } = sim.simulator.shop('1001').addPosting();
    const [result] = await sync.runShop(shopId, ['postings']);
    expect(result?.status).toBe('done');
    // A posting of several products counts once on each of its SKUs' rows.
    const [added] = await database.query<{ skus: number }>(`select count(distinct sku)::int as skus from orders where shop_id = $1 and posting_number = $2`, [shopId, postingNumber]);
    expect(added!.skus).toBeGreaterThan(0);
    const after = sum((await rollups(database, 1)).values(), new Set([shopId]), '0000', '9999');
    expect(after.orders).toBe(before.orders + added!.skus);
    expectClose(after, sum((await recompute(database, 1)).values(), new Set([shopId]), '0000', '9999'), 'after the new posting');
    await expectDerivedEqual(database, 1);
  });

  it('a refresh of a shop\'s days removes the rows whose orders went, and the running totals after them follow', async () => {
    const shopId = shops[1]!;
    // The SKU-days of one order line each, on the shop's older days: their rows go, the later running totals drop.
    const lone = await database.query<{ posting_number: string; day: string }>(
      `select min(posting_number) as posting_number, ((in_process_at at time zone 'Asia/Shanghai')::date)::text as day
       from orders where shop_id = $1 and not deleted group by sku, warehouse_id, 2 having count(*) = 1 order by 2 limit 12`,
      [shopId],
    );
    expect(lone.length).toBeGreaterThan(5);
    const before = (await rollups(database, 1)).size;
    await database.query(`update orders set deleted = true where shop_id = $1 and posting_number = any($2::text[])`, [shopId, lone.map((l) => l.posting_number)]);
    await rollupShopDays(database, shopId, [...new Set(lone.map((l) => l.day))]);
    const stored = await rollups(database, 1);
    expect(stored.size).toBeLessThan(before);
    expect([...stored.keys()].sort()).toEqual([...(await recompute(database, 1)).keys()].sort());
    expectClose(sum(stored.values(), new Set(shops), '0000', '9999'), sum((await recompute(database, 1)).values(), new Set(shops), '0000', '9999'), 'after the removal');
    await expectDerivedEqual(database, 1);
  });

  it('a refresh that fails part-way changes nothing, and the next one leaves every rollup right', async () => {
    const shopId = shops[0]!;
    const lone = await database.query<{ posting_number: string; day: string }>(
      `select min(posting_number) as posting_number, ((in_process_at at time zone 'Asia/Shanghai')::date)::text as day
       from orders o where shop_id = $1 and not deleted
         and not exists (select 1 from mp_records r where r.shop_id = o.shop_id and r.entity = 'returns' and r.data->>'posting_number' = o.posting_number)
       group by sku, warehouse_id, 2 having count(*) = 1 order by 2 limit 6`,
      [shopId],
    );
    expect(lone.length).toBeGreaterThan(2);
    const days = [...new Set(lone.map((l) => l.day))];
    const before = await rollups(database, 1);
    await database.query(`update orders set deleted = true where shop_id = $1 and posting_number = any($2::text[])`, [shopId, lone.map((l) => l.posting_number)]);
    // The running totals' statement fails, after the daily rows were recomputed.
    await database.query(`create function refuse_running() returns trigger language plpgsql as $$ begin raise exception 'refused'; end $$`);
    await database.query(`create trigger refuse_running before insert or update or delete on sales_sku_weekly for each statement execute function refuse_running()`);
    try {
      await expect(rollupShopDays(database, shopId, days)).rejects.toThrow('refused');
    } finally {
      await database.query(`drop trigger refuse_running on sales_sku_weekly`);
      await database.query(`drop function refuse_running()`);
    }
    expect(await rollups(database, 1)).toEqual(before);
    await rollupShopDays(database, shopId, days);
    expect([...(await rollups(database, 1)).keys()].sort()).toEqual([...(await recompute(database, 1)).keys()].sort());
    await expectDerivedEqual(database, 1);
  });

  it('the days\' cost follows the cost prices the seller enters, changes and removes', async () => {
    const [offer] = await database.query<{ offer_id: string }>(`select offer_id from sales_daily where user_id = 1 and units > 0 and offer_id <> '' limit 1`);
    await database.query(`insert into cost_prices (user_id, offer_id, cost) values (1, $1, 12.5)`, [offer!.offer_id]);
    const first = await refreshRollupCosts(database, 1);
    await expectDerivedEqual(database, 1);
    // Unchanged cost prices: nothing recomputed, the same state.
    expect(await refreshRollupCosts(database, 1)).toBe(first);
    await database.query(`update cost_prices set cost = 20, updated_at = now() where user_id = 1`);
    expect(await refreshRollupCosts(database, 1)).not.toBe(first);
    await expectDerivedEqual(database, 1);
    await database.query(`delete from cost_prices where user_id = 1`);
    await refreshRollupCosts(database, 1);
    await expectDerivedEqual(database, 1);
  });

  it('the start-up backfill and a seeding fill the rollups of data stored before them', async () => {
    await seedOrders(database, { userId: 2, shops: [{ id: 0, name: '' }], count: 3_000, now: new Date() });
    expect(await rollups(database, 2)).toHaveProperty('size', 0);
    await database.query(`delete from sales_daily where user_id = 1`);
    await database.query(`delete from mp_settings where key = 'analysis.rollupVersion'`);
    expect(await backfillRollups(database)).toBeGreaterThanOrEqual(2);
    expect(await backfillRollups(database)).toBe(0);
    for (const userId of [1, 2]) {
      const stored = await rollups(database, userId);
      const reference = await recompute(database, userId);
      expect(stored.size).toBe(reference.size);
      expectClose(sum(stored.values(), new Set([0, ...shops]), '0000', '9999'), sum(reference.values(), new Set([0, ...shops]), '0000', '9999'), `user ${userId}`);
      await expectDerivedEqual(database, userId);
    }
    await rollupUser(database, 2);
    expect((await rollups(database, 2)).size).toBe((await recompute(database, 2)).size);
  });
});
