import type { Database } from '../../db/database';

/**
 * The rows a load stages (server/areas/research/store.ts), as the generator makes them and an import reads them
 * (docs/market-import.md), and the writer that sends them to the stage tables in COPY batches. The figures over 7,
 * 30 and 90 days are summed here, from each series' last days, so building the live tables needs no pass over the
 * series in SQL.
 */

export type MarketProductRecord = {
  sku: number;
  name: string;
  categoryId: number;
  typeId: number;
  brand: string;
  sellerId: number;
  sellerName: string;
  sellerCountry: string;
  price: number;
  rating: number | null;
  reviews: number;
  firstSeen: string;
  /** The first day of `sales` and `prices` (yyyy-mm-dd); the last is the market's as-of day. */
  from: string;
  sales: number[];
  prices: number[];
};

export type MarketKeywordRecord = {
  keyword: string;
  categoryId: number | null;
  results: number;
  from: string;
  frequency: number[];
  topSkus: number[];
};

const DAY_MS = 86_400_000;

/** The series' last day (yyyy-mm-dd). */
export function seriesEnd(from: string, length: number): string {
  return new Date(Date.parse(`${from}T00:00:00Z`) + (length - 1) * DAY_MS).toISOString().slice(0, 10);
}

/** Sums of the last 7, 30 and 90 values and of the 30 before the last 30. */
export function windows(values: readonly number[], weights?: readonly number[]): { w7: number; w30: number; w90: number; prev30: number } {
  let w7 = 0;
  let w30 = 0;
  let w90 = 0;
  let prev30 = 0;
  const last = values.length - 1;
  for (let back = 0; back < 90 && back <= last; back++) {
    const value = values[last - back]! * (weights ? weights[last - back]! : 1);
    if (back < 7) w7 += value;
    if (back < 30) w30 += value;
    else if (back < 60) prev30 += value;
    w90 += value;
  }
  return { w7, w30, w90, prev30 };
}

const escapeText = (value: string) => value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
const field = (value: string | number | null) => (value === null ? '\\N' : typeof value === 'number' ? String(value) : escapeText(value));
const array = (values: readonly number[]) => `{${values.join(',')}}`;

export const STAGE_PRODUCT_COLUMNS = [
  'sku', 'name', 'category_id', 'type_id', 'brand', 'seller_id', 'seller_name', 'seller_country', 'price', 'rating', 'reviews',
  'first_seen', 's7', 's30', 's90', 'r7', 'r30', 'r90', 'prev30',
] as const;
export const STAGE_HISTORY_COLUMNS = ['sku', 'from_day', 'sales', 'prices'] as const;
export const STAGE_KEYWORD_COLUMNS = ['keyword', 'category_id', 'results', 'from_day', 'frequency', 'top_skus', 'f7', 'f30', 'f90', 'prev30'] as const;

/** Collects staged rows as COPY text and sends them in batches. */
export class StageWriter {
  private products: string[] = [];
  private history: string[] = [];
  private keywords: string[] = [];
  productCount = 0;
  keywordCount = 0;

  constructor(
    private readonly database: Database,
    private readonly tables: { products: string; history: string; keywords: string },
    private readonly batch = 20_000,
  ) {}

  async addProduct(p: MarketProductRecord): Promise<void> {
    const units = windows(p.sales);
    // In kopecks, so the sums are exact.
    const revenue = windows(p.sales, p.prices.map((price) => Math.round(price * 100)));
    this.products.push(
      [
        ...[p.sku, p.name, p.categoryId, p.typeId, p.brand, p.sellerId, p.sellerName, p.sellerCountry, p.price, p.rating, p.reviews, p.firstSeen].map(field),
        ...[units.w7, units.w30, units.w90, Math.round(revenue.w7 / 100), Math.round(revenue.w30 / 100), Math.round(revenue.w90 / 100), units.prev30].map(field),
      ].join('\t'),
    );
    this.history.push(`${p.sku}\t${p.from}\t${array(p.sales)}\t${array(p.prices)}`);
    this.productCount++;
    if (this.products.length >= this.batch) await this.flushProducts();
  }

  async addKeyword(k: MarketKeywordRecord): Promise<void> {
    const f = windows(k.frequency);
    this.keywords.push(
      [field(k.keyword), field(k.categoryId), k.results, k.from, array(k.frequency), array(k.topSkus), f.w7, f.w30, f.w90, f.prev30].join('\t'),
    );
    this.keywordCount++;
    if (this.keywords.length >= this.batch) await this.flushKeywords();
  }

  async flush(): Promise<void> {
    await this.flushProducts();
    await this.flushKeywords();
  }

  private async flushProducts(): Promise<void> {
    if (this.products.length === 0) return;
    const text = `${this.products.join('\n')}\n`;
    const history = `${this.history.join('\n')}\n`;
    this.products = [];
    this.history = [];
    await this.database.copyIn(this.tables.products, STAGE_PRODUCT_COLUMNS, text);
    await this.database.copyIn(this.tables.history, STAGE_HISTORY_COLUMNS, history);
  }

  private async flushKeywords(): Promise<void> {
    if (this.keywords.length === 0) return;
    const text = `${this.keywords.join('\n')}\n`;
    this.keywords = [];
    await this.database.copyIn(this.tables.keywords, STAGE_KEYWORD_COLUMNS, text);
  }
}
