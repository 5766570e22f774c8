import type { z } from 'zod';
import { COUNT_CAP, EXPORT_MAX_ROWS, type CategoryNode, type KeywordExportPage, type KeywordRow, type ProductCursor, type ProductExportPage, type MarketProductRow, type newProductQuerySchema, type potentialQuerySchema, type productQuerySchema, type ProductSort } from '../../../contract/research';
import { textIn, type Lang } from '../../../contract/errors';
import { CATEGORY_TREE, type SimCategory } from '../../marketplace/simulator/catalog';
import { ApiError } from '../../http/errors';

/**
 * The research queries over the market store (server/db/tables/market.ts). Each runs through
 * `Database.cancellableQuery` with the request's signal, so a newer query or a closed page stops the older one in the
 * database. Figures are columns computed at load, so a query is filters, one sort and a limit over indexed columns.
 */

type ProductQuery = z.output<typeof productQuerySchema>;
type NewProductQuery = z.output<typeof newProductQuerySchema>;
type PotentialQuery = z.output<typeof potentialQuerySchema>;
type Run = <Row extends Record<string, unknown>>(text: string, params: unknown[]) => Promise<Row[]>;

export const SORT_COLUMNS: Record<ProductSort, string> = {
  sales7: 'sales_7', sales30: 'sales_30', sales90: 'sales_90', revenue7: 'revenue_7', revenue30: 'revenue_30', revenue90: 'revenue_90',
  growth: 'growth', price: 'price', rating: 'rating', reviews: 'reviews', firstSeen: 'first_seen', potentialScore: 'potential_score',
};

/** The market row as the contract's product row (days as epoch ms). */
export const PRODUCT_COLUMNS = `sku::text as key, sku::float8 as sku, name, category_id as "categoryId", type_id as "typeId", brand,
  seller_id as "sellerId", seller_name as "sellerName", seller_country as "sellerCountry", price::float8 as price, rating::float8 as rating,
  reviews, (extract(epoch from first_seen) * 1000)::float8 as "firstSeen", sales_7 as sales7, sales_30 as sales30, sales_90 as sales90,
  revenue_7::float8 as revenue7, revenue_30::float8 as revenue30, revenue_90::float8 as revenue90, growth::float8 as growth,
  potential_score::float8 as "potentialScore", potential_demand::float8 as "potentialDemand",
  potential_competition::float8 as "potentialCompetition", potential_reviews::float8 as "potentialReviews",
  potential_price::float8 as "potentialPrice", type_sellers as "typeSellers", false as deleted`;

/** The leaf type ids under a node of the tree (a root, a category or a type); null when the id names no node. */
export function typesUnder(id: number): number[] | null {
  const typesOf = (node: SimCategory): number[] => [...node.types.map((t) => t.typeId), ...node.children.flatMap(typesOf)];
  const visit = (nodes: SimCategory[]): number[] | null => {
    for (const node of nodes) {
      if (node.categoryId === id) return typesOf(node);
      const type = node.types.find((t) => t.typeId === id);
      if (type) return [type.typeId];
      const found = visit(node.children);
      if (found) return found;
    }
    return null;
  };
  return visit(CATEGORY_TREE);
}

export function categoryTree(lang: Lang): CategoryNode[] {
  const node = (c: SimCategory): CategoryNode => ({
    id: c.categoryId,
    name: textIn(c.names, lang),
    children: [...c.children.map(node), ...c.types.map((t) => ({ id: t.typeId, name: textIn(t.names, lang), children: [] }))],
  });
  return CATEGORY_TREE.map(node);
}

/**
 * A where clause built up with numbered parameters; each part may name the column it bounds, and the clause records
 * every column it reads, so a walk can select just those (and read them from a covering sort index alone).
 */
class Where {
  readonly parts: { sql: string; column: string | null }[] = [];
  readonly params: unknown[] = [];
  readonly reads = new Set<string>();
  add(sql: (placeholder: string) => string, value: unknown, column: string | null = null, reads: string[] = column ? [column] : []): void {
    this.params.push(value);
    this.parts.push({ sql: sql(`$${this.params.length}`), column });
    for (const read of reads) this.reads.add(read);
  }
  /** A part of several parameters (a row comparison). */
  addAll(sql: (placeholders: string[]) => string, values: unknown[], column: string | null, reads: string[] = column ? [column] : []): void {
    const placeholders = values.map((value) => (this.params.push(value), `$${this.params.length}`));
    this.parts.push({ sql: sql(placeholders), column });
    for (const read of reads) this.reads.add(read);
  }
  raw(sql: string, reads: string[]): void {
    this.parts.push({ sql, column: null });
    for (const read of reads) this.reads.add(read);
  }
  /** The clause of the parts that bound `column` (`only`), of the others (`except`), or of all. */
  toString(select?: { only?: string; except?: string }): string {
    const parts = this.parts
      .filter(({ column }) => (select?.only === undefined || column === select.only) && (select?.except === undefined || column !== select.except))
      .map((part) => part.sql);
    return parts.length > 0 ? `where ${parts.join(' and ')}` : '';
  }
}

function productWhere(query: Omit<ProductQuery, 'offset' | 'countOnly' | 'limit'>): Where {
  const where = new Where();
  if (query.categoryId !== undefined) {
    const types = typesUnder(query.categoryId);
    if (!types) throw new ApiError(400, 'invalidInput', 'categoryId');
    where.add((p) => `type_id = any(${p}::int[])`, types, null, ['type_id']);
  }
  const range = (column: string, min: number | undefined, max: number | undefined) => {
    if (min !== undefined) where.add((p) => `${column} >= ${p}`, min, column);
    if (max !== undefined) where.add((p) => `${column} <= ${p}`, max, column);
  };
  range('price', query.priceMin, query.priceMax);
  range(`sales_${query.period}`, query.salesMin, query.salesMax);
  range(`revenue_${query.period}`, query.revenueMin, query.revenueMax);
  range('growth', query.growthMin, query.growthMax);
  range('rating', query.ratingMin, undefined);
  range('reviews', query.reviewsMin, query.reviewsMax);
  if (query.brand) where.add((p) => `lower(brand) = lower(${p})`, query.brand, null, ['brand']);
  if (query.seller) {
    if (/^\d{1,9}$/.test(query.seller)) where.add((p) => `seller_id = ${p}`, Number(query.seller), null, ['seller_id']);
    else where.add((p) => `seller_name ilike ${p}`, `%${query.seller.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, null, ['seller_name']);
  }
  if (query.firstSeenFrom) where.add((p) => `first_seen >= ${p}::date`, query.firstSeenFrom, 'first_seen');
  if (query.firstSeenTo) where.add((p) => `first_seen <= ${p}::date`, query.firstSeenTo, 'first_seen');
  return where;
}

/** The product columns that may be null (no growth without sales before, no rating without reviews). */
const NULLABLE_PRODUCT_COLUMNS: ReadonlySet<string> = new Set(['growth', 'rating']);

/**
 * A research sort: nulls last either way, the sku keeping equal figures in a fixed order, so each sort is one walk of
 * its `(column, sku)` index (server/db/tables/market.ts). `nulls last` is written only for the nullable columns: on a
 * NOT NULL column a descending `nulls last` no longer matches its index's order (the planner does not know there are
 * none). `unindexed` writes the column as an expression no index has (`column + 0`): the same order, which the
 * planner can only reach by filtering first and sorting what matched.
 */
export function productOrder(column: string, direction: 'asc' | 'desc', unindexed = false): string {
  return `${unindexed ? `${column} + 0` : column} ${direction}${NULLABLE_PRODUCT_COLUMNS.has(column) ? ' nulls last' : ''}, sku ${direction}`;
}

export async function marketAsOf(run: Run): Promise<string | null> {
  const [meta] = await run<{ as_of: string }>(`select to_char(as_of, 'YYYY-MM-DD') as as_of from market_meta where id = 1`, []);
  return meta?.as_of ?? null;
}

/**
 * How far a query walks its sort's index: `first` rows at first (at least 10 per row asked), `max` at most when the
 * first walk found too few; past it, the filters go first.
 */
export type SortWalks = { first: number; max: number };
/** Walks that read the table's pages for the filters' columns (a filter on a column the indexes do not cover). */
const HEAP_WALKS: SortWalks = { first: 8_000, max: 120_000 };
/** Walks that read the sort's covering index alone: about a tenth of the cost per row. */
const INDEX_WALKS: SortWalks = { first: 8_000, max: 400_000 };

/**
 * The columns every sort index (and the category's) holds besides its key (migration 0027): a query whose filters
 * read only these walks its sort's index without reading the table.
 */
export const COVERED_COLUMNS: ReadonlySet<string> = new Set([
  'sku', 'type_id', 'price', 'sales_7', 'sales_30', 'sales_90', 'revenue_7', 'revenue_30', 'revenue_90', 'growth', 'rating', 'reviews',
  'first_seen', 'seller_country', 'potential_score',
]);

/**
 * The full rows of the skus a query selects (`select sku from market_products ...`, in its order). The walks and the
 * filters select skus only, from what the sort indexes hold (each covers the figures the filters read,
 * server/db/tables/market.ts), so they read no table pages; the rows asked are fetched by key afterwards.
 */
const rowsOf = (skus: string) =>
  `select ${PRODUCT_COLUMNS} from unnest(array(${skus})) with ordinality as t(sku, position) join market_products using (sku) order by t.position`;

/**
 * A page of a research result: the rows `offset .. offset + limit - 1` of the whole market in the query's sort.
 * They come from walking the sort's index, never further than `walks.max` rows:
 * 1. the first `walk` rows of the sort's index (from the sort column's own bounds), filtered: when the filters match
 *    often among the best of the sort, the page is among them. The planner cannot be left this choice: it
 *    assumes matches spread evenly along the sort, and when the filters and the sort go together (units at least
 *    50, by 90-day revenue rising) it walked 890,000 rows to find 500;
 * 2. when they matched too rarely for the rows asked, a walk as long as that rate says it takes (once, up to
 *    `walks.max` rows; on a covering index, up to `walks.max` whatever the rate);
 * 3. else the filters first (their indexes, or a scan) and a top-N sort of what matched: `productOrder`'s
 *    `unindexed` keeps the planner from walking the sort's index again.
 * A walk reads only the sort's index when that covers every column the filters read (`Where.reads`).
 * The count, capped at COUNT_CAP + 1, is asked only when the rows do not already tell it; past the cap the answer
 * carries the planner's estimate, and `countOnly` asks the exact count alone.
 */
async function productResult(run: Run, where: Where, query: ProductQuery, walks?: SortWalks, countCap = COUNT_CAP) {
  const asOf = await marketAsOf(run);
  if (query.countOnly) {
    const [row] = await run<{ n: number }>(`select count(*)::int as n from market_products ${where}`, where.params);
    return { asOf, total: row?.n ?? 0, totalCapped: false, estimate: null, rows: [] };
  }
  const { offset, limit } = query;
  const rows = await productPage(run, where, query.sort, offset, limit, walks);
  const counted =
    rows.length < limit && (rows.length > 0 || offset === 0)
      ? offset + rows.length
      : ((await run<{ n: number }>(`select count(*)::int as n from (select 1 from market_products ${where} limit ${countCap + 1}) t`, where.params))[0]?.n ?? 0);
  const capped = counted > countCap;
  return { asOf, total: Math.min(counted, countCap), totalCapped: capped, estimate: capped ? await estimateOf(run, where, countCap) : null, rows };
}

/** The rows `offset .. offset + limit - 1` of the products `where` matches, in `sort` (see productResult). */
async function productPage(run: Run, where: Where, sort: ProductQuery['sort'], offset: number, limit: number, walks?: SortWalks): Promise<MarketProductRow[]> {
  const column = SORT_COLUMNS[sort.column];
  const order = productOrder(column, sort.direction);
  const depth = offset + limit;
  const page = `order by ${order} limit ${limit}${offset > 0 ? ` offset ${offset}` : ''}`;
  const walked = [...new Set(['sku', column, ...where.reads])].join(', ');
  const walkRows = (length: number) =>
    run<MarketProductRow>(
      rowsOf(`select sku from (select ${walked} from market_products ${where.toString({ only: column })} order by ${order} limit ${length}) p
       ${where.toString({ except: column })} ${page}`),
      where.params,
    );
  const covered = [...where.reads].every((read) => COVERED_COLUMNS.has(read));
  const limits = walks ?? (covered ? INDEX_WALKS : HEAP_WALKS);
  const first = walks ? limits.first : Math.min(Math.max(limits.first, depth * 10), Math.max(limits.max, depth));
  let rows = await walkRows(first);
  if (rows.length < limit && first < limits.max) {
    const needed = rows.length === 0 ? Infinity : Math.ceil((first * depth * 1.5) / (offset + rows.length));
    // A walk stops as soon as it has the rows asked, so on the index alone one up to `max` is worth it even when the
    // first walk's rate says it falls short (matches often start past a run of non-matches: the newest products have
    // no rating yet); a walk through the table's pages is tried only when that rate says it reaches the rows.
    if (covered || needed <= limits.max) rows = await walkRows(Math.min(needed, limits.max));
  }
  if (rows.length < limit) {
    const unindexed = productOrder(column, sort.direction, true);
    rows = await run<MarketProductRow>(
      rowsOf(`select sku from market_products ${where} order by ${unindexed} limit ${limit}${offset > 0 ? ` offset ${offset}` : ''}`),
      where.params,
    );
  }
  return rows;
}

/** The planner's estimate of the rows a where clause matches (no rows read), at least COUNT_CAP + 1. */
async function estimateOf(run: Run, where: Where, countCap: number): Promise<number> {
  const [row] = await run<{ 'QUERY PLAN': unknown }>(`explain (format json) select 1 from market_products ${where}`, where.params);
  const plan = typeof row?.['QUERY PLAN'] === 'string' ? (JSON.parse(row['QUERY PLAN']) as unknown) : row?.['QUERY PLAN'];
  const rows = Array.isArray(plan) ? Number((plan[0] as { Plan?: { 'Plan Rows'?: number } } | undefined)?.Plan?.['Plan Rows']) : NaN;
  return Math.max(countCap + 1, Number.isFinite(rows) ? Math.round(rows) : 0);
}

/** `walks` and `countCap` only for tests, to take each path on a small market. */
export function hotProducts(run: Run, query: ProductQuery, walks?: SortWalks, countCap?: number) {
  return productResult(run, productWhere(query), query, walks, countCap);
}

function newWhere(query: Omit<NewProductQuery, 'offset' | 'countOnly'>): Where {
  const where = productWhere(query);
  where.add((p) => `first_seen > (select as_of from market_meta where id = 1) - ${p}::int`, query.newDays, 'first_seen');
  return where;
}

export async function newProducts(run: Run, query: NewProductQuery) {
  return productResult(run, newWhere(query), query);
}

function cnWhere(query: Omit<ProductQuery, 'offset' | 'countOnly'>): Where {
  const where = productWhere(query);
  where.raw(`seller_country = 'CN'`, ['seller_country']);
  return where;
}

export function cnProducts(run: Run, query: ProductQuery) {
  return productResult(run, cnWhere(query), query);
}

function potentialWhere(query: Omit<PotentialQuery, 'offset' | 'countOnly'>): Where {
  const where = productWhere(query);
  const floor = (column: string, min: number | undefined) => {
    if (min !== undefined) where.add((p) => `${column} >= ${p}`, min, column);
  };
  floor('potential_score', query.scoreMin);
  floor('potential_demand', query.demandMin);
  floor('potential_competition', query.competitionMin);
  floor('potential_reviews', query.reviewsPartMin);
  floor('potential_price', query.pricePartMin);
  return where;
}

export function potentialProducts(run: Run, query: PotentialQuery) {
  return productResult(run, potentialWhere(query), query);
}

/** The first page of an export counts its rows exactly, up to here: more is refused. */
async function exportTotal(run: Run, from: string, where: Where, maxRows: number): Promise<number> {
  const [row] = await run<{ n: number }>(`select count(*)::int as n from (select 1 from ${from} ${where} limit ${maxRows + 1}) t`, where.params);
  const total = row?.n ?? 0;
  if (total > maxRows) throw new ApiError(400, { key: 'exportTooLarge', params: { max: maxRows.toLocaleString('en') } }, 'filters');
  return total;
}

/**
 * A page of a product list's export: the rows after `after` in the query's sort, as the list's pages answer them
 * (productPage, so the same order), found from the cursor on: the cursor is a bound on the sort's index (`(column,
 * sku)` past the last row's), so each page walks from where the last ended, not from the top. A nullable sort
 * column's products without a value come last either way: past the last valued row, the page goes on with them.
 */
async function productExport(run: Run, whereOf: () => Where, query: ExportQuery, maxRows: number): Promise<ProductExportPage> {
  const asOf = await marketAsOf(run);
  const column = SORT_COLUMNS[query.sort.column];
  const before = query.sort.direction === 'desc' ? '<' : '>';
  const total = query.after ? null : await exportTotal(run, 'market_products', whereOf(), maxRows);
  const after = query.after;
  const where = whereOf();
  if (after?.value === null) where.add((p) => `${column} is null and sku ${before} ${p}`, after.sku, column);
  else if (after) where.addAll(([value, sku]) => `(${column}, sku) ${before} (${value}, ${sku})`, [after.value, after.sku], column);
  const rows = await productPage(run, where, query.sort, 0, query.limit);
  if (rows.length < query.limit && after && after.value !== null && NULLABLE_PRODUCT_COLUMNS.has(column)) {
    const unvalued = whereOf();
    unvalued.raw(`${column} is null`, [column]);
    rows.push(...(await productPage(run, unvalued, query.sort, 0, query.limit - rows.length)));
  }
  const last = rows.length === query.limit ? rows[rows.length - 1] : undefined;
  const next = last
    ? { value: (await run<{ value: string | null }>(`select ${column}::text as value from market_products where sku = $1`, [last.sku]))[0]?.value ?? null, sku: last.sku }
    : null;
  return { asOf, total, rows, next };
}

type ExportQuery = { sort: ProductQuery['sort']; limit: number; after?: ProductCursor };
type Unpaged<Query> = Omit<Query, 'offset' | 'countOnly'> & ExportQuery;
/** `maxRows` only for tests (a small market's export refused). */
export const hotExport = (run: Run, query: Unpaged<ProductQuery>, maxRows = EXPORT_MAX_ROWS) => productExport(run, () => productWhere(query), query, maxRows);
export const newExport = (run: Run, query: Unpaged<NewProductQuery>) => productExport(run, () => newWhere(query), query, EXPORT_MAX_ROWS);
export const cnExport = (run: Run, query: Unpaged<ProductQuery>) => productExport(run, () => cnWhere(query), query, EXPORT_MAX_ROWS);
export const potentialExport = (run: Run, query: Unpaged<PotentialQuery>) => productExport(run, () => potentialWhere(query), query, EXPORT_MAX_ROWS);

export async function productDetail(run: Run, sku: number) {
  const asOf = await marketAsOf(run);
  const [row] = await run<Record<string, unknown> & { from: string; sales: number[]; prices: number[] }>(
    `select ${PRODUCT_COLUMNS}, to_char(h.from_day, 'YYYY-MM-DD') as "from", h.sales, h.prices::float8[] as prices
     from market_products p left join market_product_history h using (sku) where p.sku = $1`,
    [sku],
  );
  if (!row) throw new ApiError(404, 'notFound');
  const keywords = await run<{ keyword: string; freq30: number; position: number }>(
    `select keyword, freq_30 as "freq30", array_position(top_skus, $1::bigint) as position from market_keywords
     where top_skus @> array[$1::bigint] order by freq_30 desc limit 50`,
    [sku],
  );
  const { from, sales, prices, ...product } = row;
  return { asOf, product: product as never, from: from ?? asOf ?? '', sales: sales ?? [], prices: prices ?? [], keywords };
}

const KEYWORD_COLUMNS = `keyword, category_id as "categoryId", results, freq_7 as "freq7", freq_30 as "freq30", freq_90 as "freq90", growth::float8 as growth`;
const KEYWORD_SORT_COLUMNS = { freq7: 'freq_7', freq30: 'freq_30', freq90: 'freq_90', growth: 'growth', results: 'results' } as const;

type KeywordListQuery = { text: string; sort: { column: keyof typeof KEYWORD_SORT_COLUMNS; direction: 'asc' | 'desc' } };

/** The keyword list's select: the keywords matching the text, in its sort (the keyword keeping equal figures in order). */
function keywordList(query: KeywordListQuery): { where: Where; order: string } {
  const where = new Where();
  if (query.text) where.add((p) => `lower(keyword) like ${p}`, `%${query.text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const order = `${KEYWORD_SORT_COLUMNS[query.sort.column]} ${query.sort.direction}${query.sort.column === 'growth' ? ' nulls last' : ''}, keyword`;
  return { where, order };
}

export async function keywords(run: Run, query: KeywordListQuery & { limit: number }) {
  const asOf = await marketAsOf(run);
  const { where, order } = keywordList(query);
  const rows = await run<Record<string, unknown>>(`select ${KEYWORD_COLUMNS} from market_keywords ${where} order by ${order} limit ${query.limit}`, where.params);
  return { asOf, rows: rows as never[] };
}

/** A page of the keyword list's export, in the list's order (pages by offset: the keywords are far fewer than the products). */
export async function keywordExport(run: Run, query: KeywordListQuery & { limit: number; after?: { offset: number } }): Promise<KeywordExportPage> {
  const asOf = await marketAsOf(run);
  const { where, order } = keywordList(query);
  const offset = query.after?.offset ?? 0;
  const total = query.after ? null : await exportTotal(run, 'market_keywords', where, EXPORT_MAX_ROWS);
  const limit = Math.min(query.limit, EXPORT_MAX_ROWS - offset);
  const rows = limit > 0 ? await run<KeywordRow>(`select ${KEYWORD_COLUMNS} from market_keywords ${where} order by ${order} limit ${limit} offset ${offset}`, where.params) : [];
  return { asOf, total, rows, next: rows.length === query.limit && offset + limit < EXPORT_MAX_ROWS ? { offset: offset + rows.length } : null };
}

export async function keywordDetail(run: Run, keyword: string) {
  const asOf = await marketAsOf(run);
  const [row] = await run<Record<string, unknown> & { id: number; from: string; frequency: number[]; top: string[] }>(
    `select id, ${KEYWORD_COLUMNS}, to_char(from_day, 'YYYY-MM-DD') as "from", frequency, top_skus::text[] as top from market_keywords where lower(keyword) = lower($1)`,
    [keyword],
  );
  if (!row) throw new ApiError(404, 'notFound');
  const { id, from, frequency, top, ...figures } = row;
  const related = await run<Record<string, unknown>>(
    `select ${KEYWORD_COLUMNS}, (select count(*) from unnest(top_skus) s where s = any($1::bigint[]))::int as shared
     from market_keywords where top_skus && $1::bigint[] and id <> $2 order by shared desc, freq_30 desc limit 20`,
    [top, id],
  );
  const products = await run<Record<string, unknown>>(
    `select ${PRODUCT_COLUMNS}, t.position::int as position from unnest($1::bigint[]) with ordinality as t(sku, position)
     join market_products p using (sku) order by t.position`,
    [top],
  );
  return { asOf, keyword: figures as never, from, frequency, related: related as never[], products: products as never[] };
}
