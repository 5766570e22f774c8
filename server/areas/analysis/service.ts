import type {
  analysisQuerySchema} from '../../../contract/analysis';
import {
  ABC_LIMITS,
  ANALYSIS_MESSAGES,
  type AbcClass,
  type AnalysisAnswer,
  type AnalysisFigures,
  type AnalysisGrouping,
  type AnalysisSku
} from '../../../contract/analysis';
import type { Lang } from '../../../contract/errors';
import type { z } from 'zod';
import type { Database } from '../../db/database';
import { ApiError } from '../../http/errors';
import { decryptSecret } from '../../marketplace/crypto';
import type { ClientFactory } from '../../marketplace/plugin';
import type { OzonCategoryNode } from '../../marketplace/ozon/schemas';

type Query = z.output<typeof analysisQuerySchema>;

export type AnalysisDeps = {
  database: Database;
  secretKey: Buffer;
  clientFor: ClientFactory;
  log: { warn(object: unknown, message: string): void };
};

/** The sums a rollup row adds up to; cost in roubles (cost prices are), converted when figures are made. */
type Sums = {
  orders: number;
  units: number;
  revenue: number;
  cancellations: number;
  returns: number;
  return_amount: number;
  commission: number;
  fees: number;
  payout: number;
  cost_rub: number;
};

const SUMS = [
  'sum(d.orders)::int as orders',
  'sum(d.units)::int as units',
  'sum(d.revenue)::float8 as revenue',
  'sum(d.cancellations)::int as cancellations',
  'sum(d.returns)::int as returns',
  'sum(d.return_amount)::float8 as return_amount',
  'sum(d.commission)::float8 as commission',
  'sum(d.fees)::float8 as fees',
  'sum(d.payout)::float8 as payout',
  'sum(d.units * coalesce(c.cost, 0))::float8 as cost_rub',
]
  // The grand total of an empty period is a row of nulls.
  .map((sum) => sum.replace(/^(sum\(.*\))::(\w+) as (\w+)$/, 'coalesce($1, 0)::$2 as $3'))
  .join(',\n  ');

const EMPTY: Sums = { orders: 0, units: 0, revenue: 0, cancellations: 0, returns: 0, return_amount: 0, commission: 0, fees: 0, payout: 0, cost_rub: 0 };

const cents = (n: number) => Math.round(n * 100) / 100;

/** The figures of some sums, the cost converted at `rate` roubles per unit of the orders' currency. */
export function figuresOf(s: Sums, rate: number): AnalysisFigures {
  const cost = cents(s.cost_rub / rate);
  const profit = cents(s.revenue - s.return_amount - s.commission - s.fees - cost);
  return {
    orders: s.orders,
    units: s.units,
    revenue: cents(s.revenue),
    averagePrice: s.units > 0 ? cents(s.revenue / s.units) : 0,
    cancellations: s.cancellations,
    returns: s.returns,
    returnAmount: cents(s.return_amount),
    commission: cents(s.commission),
    fees: cents(s.fees),
    payout: cents(s.payout),
    cost,
    profit,
    margin: s.revenue > 0 ? Math.round((profit / s.revenue) * 10_000) / 10_000 : null,
  };
}

const DAY = 86_400_000;
const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The bucket (first day of its day, ISO week or month) a day falls in; as Postgres's date_trunc has it. */
export function bucketOf(day: string, grouping: AnalysisGrouping): string {
  if (grouping === 'day') return day;
  if (grouping === 'month') return `${day.slice(0, 7)}-01`;
  const ms = dayMs(day);
  const weekday = (new Date(ms).getUTCDay() + 6) % 7;
  return dayOf(ms - weekday * DAY);
}

function bucketsOf(from: string, to: string, grouping: AnalysisGrouping): string[] {
  const buckets: string[] = [];
  for (let ms = dayMs(from); ms <= dayMs(to); ms += DAY) {
    const bucket = bucketOf(dayOf(ms), grouping);
    if (buckets[buckets.length - 1] !== bucket) buckets.push(bucket);
  }
  return buckets;
}

/** ABC classes by revenue: A up to 80% of the running total (the SKU crossing the line included), B to 95%, C after. */
export function abcClasses(revenues: readonly number[]): AbcClass[] {
  const total = revenues.reduce((sum, r) => sum + Math.max(0, r), 0);
  let running = 0;
  return revenues.map((revenue) => {
    const before = total > 0 ? running / total : 1;
    running += Math.max(0, revenue);
    if (total <= 0 || revenue <= 0) return 'C';
    return before < ABC_LIMITS.A ? 'A' : before < ABC_LIMITS.B ? 'B' : 'C';
  });
}

/** Ozon's description-category names by id, per language, read once a day from the first shop that answers. */
type CategoryNames = { at: number; names: Map<number, string> };
const CATEGORY_TTL_MS = DAY;

function collectNames(nodes: readonly OzonCategoryNode[], into: Map<number, string>) {
  for (const node of nodes) {
    if (node.description_category_id !== undefined && node.category_name) into.set(node.description_category_id, node.category_name);
    collectNames(node.children, into);
  }
}

type Dimension = 'sku' | 'bucket' | 'shop' | 'warehouse';
const DIMENSIONS: Record<Dimension, string> = { sku: 'd.sku', bucket: 'b.bucket', shop: 'd.shop_id', warehouse: 'd.warehouse_id' };

type ShopRow = { id: number; name: string; client_id: string; api_key_enc: string; base_url: string | null; status: string };
type GroupRow = Sums & { kind: Dimension | 'total'; key: string | null; offer_id: string | null; name: string | null; shop_id: number | null; missing: boolean | null };

export function createAnalysisService(deps: AnalysisDeps) {
  const q = deps.database.query.bind(deps.database);
  const categoryCache = new Map<Lang, CategoryNames>();

  async function categoryNames(shops: readonly ShopRow[], lang: Lang): Promise<Map<number, string>> {
    const cached = categoryCache.get(lang);
    if (cached && Date.now() - cached.at < CATEGORY_TTL_MS) return cached.names;
    for (const shop of shops.filter((s) => s.status === 'active')) {
      try {
        const client = deps.clientFor({ clientId: shop.client_id, apiKey: decryptSecret(deps.secretKey, shop.api_key_enc), baseUrl: shop.base_url });
        const names = new Map<number, string>();
        collectNames(await client.categoryTree(lang === 'zh' ? 'ZH_HANS' : 'EN'), names);
        categoryCache.set(lang, { at: Date.now(), names });
        return names;
      } catch (error) {
        // Names are a nicety: the analysis answers with category ids rather than fail.
        deps.log.warn({ err: error, shopId: shop.id }, 'category tree unavailable for the sales analysis');
      }
    }
    return cached?.names ?? new Map();
  }

  /** The currency most of the seller's recent orders are in, and the roubles one unit of it buys. */
  async function currencyOf(userId: number): Promise<{ currency: string; rate: { rate: number; date: string } | null }> {
    const [row] = await q<{ currency: string }>(
      `select currency from (select currency from orders where user_id = $1 and not deleted order by in_process_at desc limit 1000) o
       group by currency order by count(*) desc, currency limit 1`,
      [userId],
    );
    const currency = row?.currency || 'RUB';
    if (currency === 'RUB') return { currency, rate: null };
    const [fx] = await q<{ rate: number; date: string }>(
      `select (value / nominal)::float8 as rate, date::text as date from fx_rates where code = $1 order by date desc limit 1`,
      [currency],
    );
    return { currency, rate: fx ? { rate: fx.rate, date: fx.date } : null };
  }

  /** The period's sums per each of `dimensions` and in total, in one scan of the rollups (grouping sets). */
  async function grouped(userId: number, shopIds: number[], from: string, to: string, grouping: AnalysisGrouping, dimensions: readonly Dimension[]): Promise<GroupRow[]> {
    const kind = dimensions.map((d) => `when grouping(${DIMENSIONS[d]}) = 0 then '${d}'`).join(' ');
    const key = dimensions.map((d) => `${DIMENSIONS[d]}::text`).join(', ');
    const name = dimensions.includes('warehouse') ? `case when grouping(d.warehouse_id) = 0 then max(d.warehouse_name) else max(d.product_name) end` : 'max(d.product_name)';
    return q<GroupRow>(
      `select case ${kind} else 'total' end as kind, coalesce(${key}) as key, max(d.offer_id) as offer_id, ${name} as name,
         min(d.shop_id) as shop_id, bool_and(c.cost is null) as missing,
         ${SUMS}
       from sales_daily d
       cross join lateral (select date_trunc($5::text, d.day)::date as bucket) b
       left join cost_prices c on c.user_id = d.user_id and c.offer_id = d.offer_id
       where d.user_id = $1 and d.shop_id = any($2::int[]) and d.day between $3::date and $4::date
       group by grouping sets (${[...dimensions.map((d) => `(${DIMENSIONS[d]})`), '()'].join(', ')})`,
      [userId, shopIds, from, to, grouping],
    );
  }

  return {
    async analyze(userId: number, query: Query, lang: Lang): Promise<AnalysisAnswer> {
      const shops = await q<ShopRow>(`select id, name, client_id, api_key_enc, base_url, status from mp_shops where user_id = $1 order by id`, [userId]);
      const unknown = query.shopIds.find((id) => !shops.some((s) => s.id === id));
      if (unknown !== undefined) throw new ApiError(400, ANALYSIS_MESSAGES.shopNotFound, 'shopIds');
      const picked = query.shopIds.length > 0 ? shops.filter((s) => query.shopIds.includes(s.id)) : shops;
      const ids = picked.map((s) => s.id);
      const length = Math.round((dayMs(query.to) - dayMs(query.from)) / DAY) + 1;
      const previous = { from: dayOf(dayMs(query.from) - length * DAY), to: dayOf(dayMs(query.from) - DAY) };

      const [{ currency, rate }, current, before] = await Promise.all([
        currencyOf(userId),
        grouped(userId, ids, query.from, query.to, query.groupBy, ['sku', 'bucket', 'shop', 'warehouse']),
        grouped(userId, ids, previous.from, previous.to, query.groupBy, ['bucket']),
      ]);
      const perUnit = rate?.rate ?? 1;
      const make = (row: Sums | undefined) => figuresOf(row ?? EMPTY, perUnit);
      const of = (rows: GroupRow[], kind: GroupRow['kind']) => rows.filter((r) => r.kind === kind);

      // SKUs by revenue, with their ABC class and category.
      const skuRows = of(current, 'sku').sort((a, b) => b.revenue - a.revenue || (a.key ?? '').localeCompare(b.key ?? ''));
      const classes = abcClasses(skuRows.map((r) => r.revenue));
      const categoryRows = skuRows.length
        ? await q<{ sku: string; category: number | null }>(
            `select distinct on (p.sku) p.sku, (r.data#>>'{info,description_category_id}')::bigint as category
             from products p
             join mp_records r on r.shop_id = p.shop_id and r.entity = 'products' and r.external_id = p.product_id
             where p.user_id = $1 and p.sku = any($2::text[])
             order by p.sku, p.updated_at desc`,
            [userId, skuRows.map((r) => r.key ?? '')],
          ).catch(() => [])
        : [];
      const categoryOf = new Map(categoryRows.map((r) => [r.sku, r.category === null ? null : Number(r.category)]));
      const skus: AnalysisSku[] = skuRows.map((row, i) => ({
        ...make(row),
        sku: row.key ?? '',
        offerId: row.offer_id ?? '',
        name: row.name ?? '',
        shopId: row.shop_id ?? 0,
        categoryId: categoryOf.get(row.key ?? '') ?? null,
        costMissing: row.missing ?? true,
        abc: classes[i]!,
      }));

      const names = skus.some((s) => s.categoryId !== null) ? await categoryNames(picked, lang) : new Map<number, string>();
      const byCategory = new Map<number | null, Sums>();
      for (const row of skuRows) {
        const id = categoryOf.get(row.key ?? '') ?? null;
        const sums = byCategory.get(id) ?? { ...EMPTY };
        for (const k of Object.keys(EMPTY) as (keyof Sums)[]) sums[k] += row[k];
        byCategory.set(id, sums);
      }
      const totalRow = of(current, 'total')[0];
      const revenue = totalRow?.revenue ?? 0;
      const categoryName = (id: number | null) => (id === null ? '' : (names.get(id) ?? `#${id}`));
      const categories = [...byCategory.entries()]
        .map(([id, sums]) => ({ id, name: categoryName(id), revenue: cents(sums.revenue), share: revenue > 0 ? sums.revenue / revenue : 0 }))
        .sort((a, b) => b.revenue - a.revenue);

      const shopName = new Map(shops.map((s) => [String(s.id), s.name]));
      const named = (rows: GroupRow[], name: (row: GroupRow) => string) =>
        rows.map((row) => ({ ...make(row), key: row.key ?? '', name: name(row) })).sort((a, b) => b.revenue - a.revenue);
      const byShop = named(of(current, 'shop'), (row) => shopName.get(row.key ?? '') ?? '');
      const breakdown =
        query.breakdown === 'shop'
          ? byShop
          : query.breakdown === 'warehouse'
            ? named(of(current, 'warehouse'), (row) => row.name || row.key || '')
            : query.breakdown === 'sku'
              ? skus.map((s) => ({ ...s, key: s.sku, name: s.name }))
              : [...byCategory.entries()]
                  .map(([id, sums]) => ({ ...make(sums), key: id === null ? '' : String(id), name: categoryName(id) }))
                  .sort((a, b) => b.revenue - a.revenue);

      const currentBuckets = new Map(of(current, 'bucket').map((r) => [String(r.key), r]));
      const previousBuckets = new Map(of(before, 'bucket').map((r) => [String(r.key), r]));
      const previousList = bucketsOf(previous.from, previous.to, query.groupBy);
      const series = bucketsOf(query.from, query.to, query.groupBy).map((bucket, i) => ({
        bucket,
        current: make(currentBuckets.get(bucket)),
        previousBucket: previousList[i] ?? '',
        previous: make(previousList[i] ? previousBuckets.get(previousList[i]) : undefined),
      }));

      const abc = (['A', 'B', 'C'] as const).map((cls) => {
        const members = skus.filter((s) => s.abc === cls);
        const sum = members.reduce((t, s) => t + s.revenue, 0);
        return { abc: cls, skus: members.length, revenue: cents(sum), share: revenue > 0 ? sum / revenue : 0 };
      });

      return {
        currency,
        period: { from: query.from, to: query.to },
        previous,
        shops: shops.map((s) => ({ id: s.id, name: s.name })),
        totals: make(totalRow),
        previousTotals: make(of(before, 'total')[0]),
        series,
        breakdown,
        byShop,
        categories,
        abc,
        skus,
        costMissing: skus.filter((s) => s.costMissing).length,
        costRate: rate,
      };
    },
  };
}
