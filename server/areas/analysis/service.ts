import type { analysisExportQuerySchema, analysisQuerySchema, analysisSkuQuerySchema } from '../../../contract/analysis';
import { shopScopeSql } from '../team/shopScope';
import {
  ABC_LIMITS,
  ANALYSIS_BREAKDOWN_MAX,
  ANALYSIS_MESSAGES,
  ANALYSIS_TOP,
  type AbcClass,
  type AnalysisAnswer,
  type AnalysisFigures,
  type AnalysisGrouping,
  type AnalysisSku,
  type AnalysisSkuPage,
} from '../../../contract/analysis';
import type { Lang } from '../../../contract/errors';
import type { z } from 'zod';
import type { Database } from '../../db/database';
import { ApiError } from '../../http/errors';
import { decryptSecret } from '../../marketplace/crypto';
import type { ClientFactory } from '../../marketplace/plugin';
import type { OzonCategoryNode } from '../../marketplace/ozon/schemas';
import { refreshRollupCosts } from './rollups';

type Query = z.output<typeof analysisQuerySchema>;
type SkuQuery = z.output<typeof analysisSkuQuerySchema>;
type ExportQuery = z.output<typeof analysisExportQuerySchema>;
type Period = { from: string; to: string; shopIds: number[] };

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

const FIGURES = ['orders', 'units', 'revenue', 'cancellations', 'returns', 'return_amount', 'commission', 'fees', 'payout', 'cost_rub'] as const;
const INTEGER_FIGURES: ReadonlySet<string> = new Set(['orders', 'units', 'cancellations', 'returns']);
const cast = (column: string) => (INTEGER_FIGURES.has(column) ? 'int' : 'float8');
/** Sums of the figures over rows of `alias` (an empty period's grand total is a row of zeros, not nulls). */
const sumsOf = (alias: string) => FIGURES.map((f) => `coalesce(sum(${alias}.${f}), 0)::${cast(f)} as ${f}`).join(',\n  ');

const EMPTY: Sums = { orders: 0, units: 0, revenue: 0, cancellations: 0, returns: 0, return_amount: 0, commission: 0, fees: 0, payout: 0, cost_rub: 0 };

/** Adds a row's sums into `total` (in place: a period's thousands of SKUs each made a new object) and returns it. */
function addInto(total: Sums, row: Sums): Sums {
  for (const f of FIGURES) total[f] += row[f];
  return total;
}

/** The sums of several rows' sums. */
function addSums(rows: readonly Sums[]): Sums {
  return rows.reduce(addInto, { ...EMPTY });
}

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
/** How long a period's SKUs are reused at most (cachedSkus), and how many periods are kept. */
const SKU_CACHE_MS = 60_000;
const SKU_CACHE_SIZE = 8;
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

type Dimension = 'bucket' | 'shop' | 'warehouse';
const DIMENSIONS: Record<Dimension, string> = { bucket: 'b.bucket', shop: 't.shop_id', warehouse: 't.warehouse_id' };

type ShopRow = { id: number; name: string; client_id: string; api_key_enc: string; base_url: string | null; status: string };
type GroupRow = Sums & { kind: Dimension | 'total'; key: string | null; name: string | null };
type SkuRow = Sums & { sku: string; offer_id: string; name: string; shop_id: number; missing: boolean };

/** A period's SKUs with their figures and ABC class, by revenue (the class is the SKU's place in that order). */
type RankedSku = AnalysisSku;

function compareSkus(sort: SkuQuery['sort'], order: SkuQuery['order']): (a: RankedSku, b: RankedSku) => number {
  const sign = order === 'asc' ? 1 : -1;
  if (sort === 'sku' || sort === 'offerId' || sort === 'name') return (a, b) => sign * a[sort].localeCompare(b[sort]) || a.sku.localeCompare(b.sku);
  // Nulls (a margin without revenue) last either way.
  return (a, b) => {
    const x = a[sort];
    const y = b[sort];
    if (x === null || y === null) return x === y ? a.sku.localeCompare(b.sku) : x === null ? 1 : -1;
    return sign * (x - y) || a.sku.localeCompare(b.sku);
  };
}

/** The SKUs of a sort, search and class, in the table's order. */
export function selectSkus(skus: readonly RankedSku[], query: Pick<SkuQuery, 'sort' | 'order' | 'search' | 'abc'>): RankedSku[] {
  const needle = query.search?.toLowerCase();
  const picked = skus.filter(
    (s) =>
      (!query.abc || s.abc === query.abc) &&
      (!needle || s.sku.includes(needle) || s.offerId.toLowerCase().includes(needle) || s.name.toLowerCase().includes(needle)),
  );
  return picked.sort(compareSkus(query.sort, query.order));
}

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

  /**
   * The period's sums per each of `dimensions` and in total, from the days' totals (sales_daily_totals: a few rows a
   * day per shop and warehouse, whatever the SKUs), in one scan (grouping sets).
   */
  async function grouped(userId: number, shopIds: number[], from: string, to: string, grouping: AnalysisGrouping, dimensions: readonly Dimension[]): Promise<GroupRow[]> {
    const kind = dimensions.map((d) => `when grouping(${DIMENSIONS[d]}) = 0 then '${d}'`).join(' ');
    const key = dimensions.map((d) => `${DIMENSIONS[d]}::text`).join(', ');
    return q<GroupRow>(
      `select case ${kind} else 'total' end as kind, coalesce(${key}) as key, max(t.warehouse_name) as name,
         ${sumsOf('t')}
       from sales_daily_totals t
       cross join lateral (select date_trunc($5::text, t.day)::date as bucket) b
       where t.user_id = $1 and t.shop_id = any($2::int[]) and t.day between $3::date and $4::date
       group by grouping sets (${[...dimensions.map((d) => `(${DIMENSIONS[d]})`), '()'].join(', ')})`,
      [userId, shopIds, from, to, grouping],
    );
  }

  /**
   * Every SKU of the period with its sums, from the weekly running totals: per shop and SKU its sums up to the period's
   * last day less those up to the day before its first, each the row of the last Sunday at or before that day
   * (sales_sku_weekly) plus the days after that Sunday (sales_daily), or the SKU's all-time sums (sales_sku_span)
   * when it sold nothing after the period. The two Sundays are read as two runs of one index each and hashed, so a
   * period costs a few thousand rows read in order whatever its length, not two index probes per SKU.
   * A SKU sold by several shops is added up here rather than grouped in the query: the grouping's numeric sums
   * outgrew work_mem and spilled to disk (about 100 of 400 ms at 4,000 SKUs).
   */
  async function skuSums(userId: number, shopIds: number[], from: string, to: string): Promise<SkuRow[]> {
    const columns = ['days', ...FIGURES.filter((f) => f !== 'cost_rub')];
    /** The sums of the period's SKUs up to `day` from the last Sunday at or before it: `weekly` and `daily` rows. */
    const upTo = (name: string, day: string) => `
      ${name}_sunday as materialized (
        select w.shop_id, w.sku, ${columns.map((c) => `w.${c}`).join(', ')} from sales_sku_weekly w
        where w.user_id = $1 and w.week_end = ${day} - extract(dow from ${day})::int and w.shop_id = any($2::int[])
      ),
      ${name}_days as materialized (
        select d.shop_id, d.sku, count(distinct d.day)::int as days, ${columns.slice(1).map((c) => `sum(d.${c}) as ${c}`).join(', ')}
        from sales_daily d
        where d.user_id = $1 and d.day > ${day} - extract(dow from ${day})::int and d.day <= ${day} and d.shop_id = any($2::int[])
        group by 1, 2
      )`;
    const sumAt = (alias: string, column: string) => `coalesce(${alias}w.${column}, 0) + coalesce(${alias}d.${column}, 0)`;
    const endOf = (column: string) => `case when k.last_day <= $4::date then k.${column} else ${sumAt('e', column)} end`;
    const diff = (column: string) => `(${endOf(column)} - (${sumAt('s', column)}))`;
    const rows = await q<SkuRow>(
      `with ${upTo('end', '$4::date')}, ${upTo('start', '($3::date - 1)')}
       select k.sku, k.offer_id, k.product_name as name, k.shop_id,
         ${columns.slice(1).map((c) => `${diff(c)}::${cast(c)} as ${c}`).join(', ')},
         coalesce(${diff('units')} * c.cost, 0)::float8 as cost_rub, c.cost is null as missing
       from sales_sku_span k
       left join end_sunday ew on ew.shop_id = k.shop_id and ew.sku = k.sku
       left join end_days ed on ed.shop_id = k.shop_id and ed.sku = k.sku
       left join start_sunday sw on sw.shop_id = k.shop_id and sw.sku = k.sku
       left join start_days sd on sd.shop_id = k.shop_id and sd.sku = k.sku
       left join cost_prices c on c.user_id = k.user_id and c.offer_id = k.offer_id
       where k.user_id = $1 and k.shop_id = any($2::int[]) and k.first_day <= $4::date and k.last_day >= $3::date
         and ${diff('days')} > 0`,
      [userId, shopIds, from, to],
    );
    const bySku = new Map<string, SkuRow>();
    for (const row of rows) {
      const seen = bySku.get(row.sku);
      if (!seen) {
        bySku.set(row.sku, row);
        continue;
      }
      addInto(seen, row);
      // As max() and min() had them when the query grouped: the same offer id and name whichever shop came first.
      if (row.offer_id > seen.offer_id) seen.offer_id = row.offer_id;
      if (row.name > seen.name) seen.name = row.name;
      seen.shop_id = Math.min(seen.shop_id, row.shop_id);
      seen.missing &&= row.missing;
    }
    return [...bySku.values()];
  }

  /** The Ozon description category of each SKU the period's shops sold from its first day to its last. */
  function skuCategories(userId: number, shopIds: number[], from: string, to: string) {
    return q<{ sku: string; category: number | null }>(
      `select distinct on (p.sku) p.sku, (r.data#>>'{info,description_category_id}')::bigint as category
       from products p
       join mp_records r on r.shop_id = p.shop_id and r.entity = 'products' and r.external_id = p.product_id
       where p.user_id = $1 and p.sku in (
         select k.sku from sales_sku_span k
         where k.user_id = $1 and k.shop_id = any($2::int[]) and k.first_day <= $4::date and k.last_day >= $3::date
       )
       order by p.sku, p.updated_at desc`,
      [userId, shopIds, from, to],
    ).catch(() => []);
  }

  /** The seller's shops, and those of the period (all, or the ones named: another seller's shop is refused). */
  async function shopsOf(userId: number, shopIds: readonly number[]): Promise<{ shops: ShopRow[]; picked: ShopRow[] }> {
    const shops = await q<ShopRow>(`select id, name, client_id, api_key_enc, base_url, status from mp_shops where user_id = $1${shopScopeSql('id')} order by id`, [userId]);
    const unknown = shopIds.find((id) => !shops.some((s) => s.id === id));
    if (unknown !== undefined) throw new ApiError(400, ANALYSIS_MESSAGES.shopNotFound, 'shopIds');
    return { shops, picked: shopIds.length > 0 ? shops.filter((s) => shopIds.includes(s.id)) : shops };
  }

  /** The period's SKUs by revenue with their ABC class and category, and the cost rate they were made with. */
  async function rankedSkus(userId: number, period: Period, ids: number[]) {
    // The categories are asked for the SKUs the period can hold, beside their sums rather than after them.
    const [{ currency, rate }, rows, categoryRows] = await Promise.all([
      currencyOf(userId),
      ids.length ? skuSums(userId, ids, period.from, period.to) : Promise.resolve([]),
      ids.length ? skuCategories(userId, ids, period.from, period.to) : Promise.resolve([]),
    ]);
    const perUnit = rate?.rate ?? 1;
    rows.sort((a, b) => b.revenue - a.revenue || a.sku.localeCompare(b.sku));
    const classes = abcClasses(rows.map((r) => r.revenue));
    const categoryOf = new Map(categoryRows.map((r) => [r.sku, r.category === null ? null : Number(r.category)]));
    // Added to the figures' object, not spread into a new one: spreading thousands of them (whose number fields
    // change representation, whole or fractional) took V8's slow copy, 130-450 ms for 6,400 SKUs against 2-10 ms.
    const skus: RankedSku[] = rows.map((row, i) =>
      Object.assign(figuresOf(row, perUnit), {
        sku: row.sku,
        offerId: row.offer_id ?? '',
        name: row.name ?? '',
        shopId: row.shop_id,
        categoryId: categoryOf.get(row.sku) ?? null,
        costMissing: row.missing ?? true,
        abc: classes[i]!,
      }),
    );
    return { currency, rate, perUnit, rows, skus };
  }

  type Ranked = Awaited<ReturnType<typeof rankedSkus>>;
  const skuCache = new Map<string, { state: string; at: number; result: Promise<Ranked> }>();

  /**
   * rankedSkus, reused while the user's rollups stay as they were (and for a minute at most: rates and category
   * names move too), so the SKU table's pages, its export and a regrouping of the same period do not compute it again.
   */
  function cachedSkus(userId: number, period: Period, ids: number[], state: string): Promise<Ranked> {
    const key = `${userId}|${ids.join(',')}|${period.from}|${period.to}`;
    const hit = skuCache.get(key);
    if (hit && hit.state === state && Date.now() - hit.at < SKU_CACHE_MS) return hit.result;
    const entry = { state, at: Date.now(), result: rankedSkus(userId, period, ids) };
    skuCache.delete(key);
    skuCache.set(key, entry);
    if (skuCache.size > SKU_CACHE_SIZE) skuCache.delete(skuCache.keys().next().value!);
    entry.result.catch(() => skuCache.get(key) === entry && skuCache.delete(key));
    return entry.result;
  }

  async function periodSkus(userId: number, period: Period) {
    const [{ picked }, state] = await Promise.all([shopsOf(userId, period.shopIds), refreshRollupCosts(deps.database, userId)]);
    return cachedSkus(userId, period, picked.map((s) => s.id), state);
  }

  return {
    /** A page of the period's SKUs (the SKU table). */
    async skuPage(userId: number, query: SkuQuery): Promise<AnalysisSkuPage> {
      const { skus } = await periodSkus(userId, query);
      const selected = selectSkus(skus, query);
      return { list: selected.slice((query.page - 1) * query.rows, query.page * query.rows), total: selected.length };
    },

    /** Every SKU of the period as the table sorts and narrows them, with the shops' names (the export). */
    async exportSkus(userId: number, query: ExportQuery): Promise<{ skus: RankedSku[]; currency: string; shopName: (id: number) => string }> {
      const { shops } = await shopsOf(userId, query.shopIds);
      const { skus, currency } = await periodSkus(userId, query);
      const names = new Map(shops.map((s) => [s.id, s.name]));
      return { skus: selectSkus(skus, query), currency, shopName: (id) => names.get(id) ?? '' };
    },

    async analyze(userId: number, query: Query, lang: Lang): Promise<AnalysisAnswer> {
      const [{ shops, picked }, state] = await Promise.all([shopsOf(userId, query.shopIds), refreshRollupCosts(deps.database, userId)]);
      const ids = picked.map((s) => s.id);
      const length = Math.round((dayMs(query.to) - dayMs(query.from)) / DAY) + 1;
      const previous = { from: dayOf(dayMs(query.from) - length * DAY), to: dayOf(dayMs(query.from) - DAY) };

      const [{ skus, rows: skuRows, perUnit, currency, rate }, current, before] = await Promise.all([
        cachedSkus(userId, query, ids, state),
        grouped(userId, ids, query.from, query.to, query.groupBy, ['bucket', 'shop', 'warehouse']),
        grouped(userId, ids, previous.from, previous.to, query.groupBy, ['bucket']),
      ]);
      const make = (row: Sums | undefined) => figuresOf(row ?? EMPTY, perUnit);
      const of = (rows: GroupRow[], kind: GroupRow['kind']) => rows.filter((r) => r.kind === kind);

      const names = skus.some((s) => s.categoryId !== null) ? await categoryNames(picked, lang) : new Map<number, string>();
      const byCategory = new Map<number | null, Sums>();
      skuRows.forEach((row, i) => {
        const id = skus[i]!.categoryId;
        const sums = byCategory.get(id);
        if (sums) addInto(sums, row);
        else byCategory.set(id, addInto({ ...EMPTY }, row));
      });
      const totalRow = of(current, 'total')[0];
      // Shares of the SKUs' own sum: the days' totals are read in a query of their own, which a sync may commit between.
      const revenue = skuRows.reduce((sum, row) => sum + row.revenue, 0);
      const categoryName = (id: number | null) => (id === null ? '' : (names.get(id) ?? `#${id}`));
      const categories = [...byCategory.entries()]
        .map(([id, sums]) => ({ id, name: categoryName(id), revenue: cents(sums.revenue), share: revenue > 0 ? sums.revenue / revenue : 0 }))
        .sort((a, b) => b.revenue - a.revenue);

      const shopName = new Map(shops.map((s) => [String(s.id), s.name]));
      const named = (rows: GroupRow[], name: (row: GroupRow) => string) =>
        rows.map((row) => ({ ...make(row), key: row.key ?? '', name: name(row) })).sort((a, b) => b.revenue - a.revenue);
      const byShop = named(of(current, 'shop'), (row) => shopName.get(row.key ?? '') ?? '');
      type Part = { sums: Sums; key: string; name: string };
      const groupParts = (kind: GroupRow['kind'], name: (row: GroupRow) => string): Part[] => of(current, kind).map((row) => ({ sums: row, key: row.key ?? '', name: name(row) }));
      const parts: Part[] =
        query.breakdown === 'shop'
          ? groupParts('shop', (row) => shopName.get(row.key ?? '') ?? '')
          : query.breakdown === 'warehouse'
            ? groupParts('warehouse', (row) => row.name || row.key || '')
            : query.breakdown === 'sku'
              ? skuRows.map((row) => ({ sums: row, key: row.sku, name: row.name ?? '' }))
              : [...byCategory.entries()].map(([id, sums]) => ({ sums, key: id === null ? '' : String(id), name: categoryName(id) }));
      parts.sort((x, y) => y.sums.revenue - x.sums.revenue || x.key.localeCompare(y.key));
      const rest = parts.slice(ANALYSIS_BREAKDOWN_MAX);

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
        breakdown: parts.slice(0, ANALYSIS_BREAKDOWN_MAX).map((part) => ({ ...make(part.sums), key: part.key, name: part.name })),
        breakdownOthers: rest.length === 0 ? null : { ...make(addSums(rest.map((part) => part.sums))), count: rest.length },
        byShop,
        categories,
        abc,
        skuCount: skus.length,
        topSkus: skus.slice(0, ANALYSIS_TOP),
        // The weakest of the SKUs that sold: one with only returns has no revenue to draw.
        bottomSkus: skus.filter((s) => s.revenue > 0).slice(-ANALYSIS_TOP).reverse(),
        costMissing: skus.filter((s) => s.costMissing).length,
        costRate: rate,
      };
    },
  };
}
