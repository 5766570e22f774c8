import { generateMarket, marketDays } from '../../../server/areas/research/generate';
import { beginLoad, buildProducts, discardLoad, indexNext, STAGE } from '../../../server/areas/research/store';
import type { Database } from '../../../server/db/database';
import { DATABASE_TARGETS } from '../harness';

const NOW = new Date('2026-06-15T09:00:00Z');

type ProductRow = { sku: string; sales_7: number; sales_30: number; sales_90: number; revenue_30: string; growth: number | null; sales: number[]; prices: string[] };

describe.each(DATABASE_TARGETS)('market store ($kind)', (target) => {
  let database: Database;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ database, dispose } = await target.open());
    await database.migrate();
  });
  afterAll(async () => dispose());

  it('generates the same market twice, figures agreeing with the daily history', async () => {
    const first = await generateMarket(database, { products: 3_000, now: NOW });
    expect(first).toMatchObject({ asOf: marketDays(NOW).asOf, products: 3_000, keywords: 900 });
    const digest = async () =>
      (await database.query<{ d: string }>(`select md5(string_agg(p::text, ',' order by sku)) as d from market_products p`))[0]!.d;
    const before = await digest();
    await generateMarket(database, { products: 3_000, now: NOW });
    expect(await digest()).toBe(before);

    const rows = await database.query<ProductRow>(
      `select p.sku::text, sales_7, sales_30, sales_90, revenue_30::text, growth, h.sales, h.prices::text[] as prices
       from market_products p join market_product_history h using (sku) order by sku limit 500`,
    );
    for (const row of rows) {
      const sum = (from: number, to: number) => row.sales.slice(from, to).reduce((a, b) => a + b, 0);
      expect(row.sales).toHaveLength(90);
      expect(row.sales_7).toBe(sum(83, 90));
      expect(row.sales_30).toBe(sum(60, 90));
      expect(row.sales_90).toBe(sum(0, 90));
      const kopecks = row.sales.slice(60).reduce((total, units, k) => total + units * Math.round(Number(row.prices[60 + k]) * 100), 0);
      expect(Number(row.revenue_30)).toBe(Math.round(kopecks / 100));
      const previous = sum(30, 60);
      if (previous > 0) expect(row.growth).toBeCloseTo(((row.sales_30 - previous) * 100) / previous, 0);
      else expect(row.growth).toBeNull();
    }
  });

  it('looks like a market: a power law of sales, a share of Chinese sellers, new products, keywords ranking products', async () => {
    const [shape] = await database.query<{ top1: number; total: number; cn: number; fresh: number; types: number }>(
      `select (select sum(sales_30) from (select sales_30 from market_products order by sales_30 desc limit 30) t)::float8 as top1,
         sum(sales_30)::float8 as total, avg((seller_country = 'CN')::int)::float8 as cn,
         avg((first_seen > date '2026-06-14' - 60)::int)::float8 as fresh, count(distinct type_id)::int as types from market_products`,
    );
    // The best 1 % of products sell a large share of all units.
    expect(shape!.top1 / shape!.total).toBeGreaterThan(0.25);
    expect(shape!.cn).toBeGreaterThan(0.3);
    expect(shape!.cn).toBeLessThan(0.55);
    expect(shape!.fresh).toBeGreaterThan(0.05);
    expect(shape!.types).toBe(13);
    const [orphans] = await database.query<{ n: number }>(
      `select count(*)::int as n from market_keywords k, unnest(k.top_skus) s where not exists (select 1 from market_products p where p.sku = s)`,
    );
    expect(orphans!.n).toBe(0);
  });

  it('scores potential so that it ranks: percentile parts, no crowd at the top', async () => {
    const [top] = await database.query<{ full: number; best: number; distinct: number; max: number }>(
      `select count(*) filter (where potential_score >= 99.5)::int as full, count(*) filter (where rk <= 30)::int as best,
         count(distinct potential_score) filter (where rk <= 30)::int as distinct, max(potential_score)::float8 as max
       from (select potential_score, row_number() over (order by potential_score desc) as rk from market_products) t`,
    );
    // Thresholds gave whole groups a full 100 in every part; percentiles give the best 1 % scores of their own.
    expect(top!.full).toBeLessThanOrEqual(1);
    expect(top!.distinct).toBeGreaterThanOrEqual(25);
    expect(top!.max).toBeLessThan(100);
    const [spread] = await database.query<{ p10: number; p90: number }>(
      `select percentile_cont(0.1) within group (order by potential_score)::float8 as p10,
         percentile_cont(0.9) within group (order by potential_score)::float8 as p90 from market_products`,
    );
    expect(spread!.p90 - spread!.p10).toBeGreaterThan(20);
  });

  it('orders a known set by its potential: each flaw costs, two cost more', async () => {
    await beginLoad(database);
    type Known = { sku: number; type: number; seller: number; price: number; reviews: number; s30: number; prev30: number };
    const ideal = { price: 1225, reviews: 0, s30: 120, prev30: 20 };
    const known: Record<string, Known> = {
      ideal: { sku: 1, type: 1, seller: 1, ...ideal },
      reviewed: { sku: 2, type: 3, seller: 2, ...ideal, reviews: 800 },
      falling: { sku: 3, type: 4, seller: 3, ...ideal, s30: 20, prev30: 120 },
      pricey: { sku: 4, type: 5, seller: 4, ...ideal, price: 40_000 },
      crowded: { sku: 5, type: 2, seller: 5, ...ideal },
      fallingReviewed: { sku: 6, type: 6, seller: 6, ...ideal, reviews: 800, s30: 20, prev30: 120 },
    };
    // The background: 60 sellers of type 2 in the ideal's price band, with some reviews and flat sales.
    const fillers: Known[] = Array.from({ length: 60 }, (_, i) => ({ sku: 100 + i, type: 2, seller: 100 + i, price: 1225, reviews: 300, s30: 20, prev30: 20 }));
    for (const p of [...Object.values(known), ...fillers]) {
      await database.query(
        `insert into ${STAGE.products} values ($1, 'p', 1, $2, '', $3, 's', 'CN', $4, 4.5, $5, '2026-01-01', 0, $6, $6, 0, 0, 0, $7)`,
        [p.sku, p.type, p.seller, p.price, p.reviews, p.s30, p.prev30],
      );
    }
    await buildProducts(database);
    const rows = await database.query<{ sku: string; potential_score: number; type_sellers: number }>(
      `select sku::text, potential_score, type_sellers from market_products_next order by potential_score desc, sku`,
    );
    await discardLoad(database);
    const score = (name: keyof typeof known) => rows.find((r) => Number(r.sku) === known[name]!.sku)!.potential_score;
    expect(Number(rows[0]!.sku)).toBe(known.ideal!.sku);
    for (const flaw of ['reviewed', 'falling', 'pricey', 'crowded'] as const) expect(score(flaw), flaw).toBeLessThan(score('ideal'));
    expect(score('fallingReviewed')).toBeLessThan(score('reviewed'));
    expect(score('fallingReviewed')).toBeLessThan(score('falling'));
    expect(rows.find((r) => Number(r.sku) === known.crowded!.sku)!.type_sellers).toBe(61);
  });

  it('keeps the previous market when a load fails before its swap', async () => {
    const [before] = await database.query<{ n: number; as_of: string }>(`select products as n, as_of::text from market_meta`);
    await beginLoad(database);
    await database.query(`insert into ${STAGE.products} select sku, name, category_id, type_id, brand, seller_id, seller_name, seller_country,
      price, rating, reviews, first_seen, 0, 0, 0, 0, 0, 0, 0 from market_products limit 10`);
    // A duplicate SKU breaks the primary key while the next tables are built.
    await database.query(`insert into ${STAGE.products} select * from ${STAGE.products} limit 1`);
    await buildProducts(database);
    await expect(indexNext(database)).rejects.toThrow();
    await discardLoad(database);
    const [after] = await database.query<{ n: number; as_of: string }>(`select products as n, as_of::text from market_meta`);
    expect(after).toEqual(before);
    const [count] = await database.query<{ n: number }>(`select count(*)::int as n from market_products`);
    expect(count!.n).toBe(3_000);
  });
});
