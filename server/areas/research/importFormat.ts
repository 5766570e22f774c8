import { z } from 'zod';
import { eachLang, localized, type Localized, type MessageKey } from '../../../contract/errors';
import { isMessageKey } from '../../http/errors';
import type { MarketKeywordRecord, MarketProductRecord } from './stage';

/**
 * The market import's line formats (docs/market-import.md): one file per entity, `products` and `keywords`, each as
 * CSV (`.csv`, a header line, comma-separated, double quotes around a field holding a comma or a quote, daily series
 * and SKU lists separated by `;`) or JSON lines (`.jsonl`, one object a line, camelCase keys).
 */

/** A catalogue key as a schema's message: `problemOf` reads it back and gives the text in every language. */
const says = (key: MessageKey) => key;
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, says('importDate')).refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), says('importRealDate'));
const whole = () => z.number().int(says('importWhole'));
const count = whole().min(0, says('importNotNegative'));
const positive = () => whole().positive(says('importPositive'));
const series = (max: number) => z.array(count).min(1, says('importSeriesEmpty')).max(max, says('importTooManyDays'));
export const MAX_SERIES_DAYS = 400;

export const productLineSchema = z.object({
  sku: positive().max(Number.MAX_SAFE_INTEGER),
  name: z.string().trim().min(1, says('importNotEmpty')).max(500),
  categoryId: positive(),
  typeId: positive(),
  brand: z.string().trim().max(200),
  sellerId: positive(),
  sellerName: z.string().trim().min(1, says('importNotEmpty')).max(300),
  sellerCountry: z.string().regex(/^[A-Z]{2}$/, says('importCountry')),
  price: z.number().positive(says('importPositive')).max(10_000_000),
  rating: z.number().min(0).max(5).nullable(),
  reviews: count,
  firstSeen: day,
  from: day,
  sales: series(MAX_SERIES_DAYS),
  prices: z.array(z.number().min(0).max(10_000_000)).min(1, says('importSeriesEmpty')).max(MAX_SERIES_DAYS, says('importTooManyDays')),
}).refine((p) => p.prices.length === p.sales.length, { message: says('importSameDays'), path: ['prices'] });

export const keywordLineSchema = z.object({
  keyword: z.string().trim().min(1, says('importNotEmpty')).max(300),
  categoryId: positive().nullable(),
  results: count,
  from: day,
  frequency: series(MAX_SERIES_DAYS),
  topSkus: z.array(positive()).max(100),
});

export type Entity = 'products' | 'keywords';
export const PRODUCT_CSV_COLUMNS = ['sku', 'name', 'category_id', 'type_id', 'brand', 'seller_id', 'seller_name', 'seller_country', 'price', 'rating', 'reviews', 'first_seen', 'from', 'sales', 'prices'] as const;
export const KEYWORD_CSV_COLUMNS = ['keyword', 'category_id', 'results', 'from', 'frequency', 'top_skus'] as const;

/** One CSV line's fields (RFC 4180 quoting within the line). Null when a quote is left open. */
export function splitCsvLine(line: string): string[] | null {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else field += c;
  }
  if (quoted) return null;
  fields.push(field);
  return fields;
}

const num = (text: string | undefined) => (text === undefined || text.trim() === '' ? Number.NaN : Number(text));
const numOrNull = (text: string | undefined) => (text === undefined || text.trim() === '' ? null : Number(text));
const list = (text: string | undefined) => (text === undefined || text.trim() === '' ? [] : text.split(';').map((value) => num(value)));

/** A CSV line's fields by the header's names, as the JSON line of the same entity would be. */
export function csvToObject(entity: Entity, header: readonly string[], fields: readonly string[]): Record<string, unknown> {
  const at = (name: string) => fields[header.indexOf(name)];
  if (entity === 'products') {
    return {
      sku: num(at('sku')), name: at('name'), categoryId: num(at('category_id')), typeId: num(at('type_id')), brand: at('brand') ?? '',
      sellerId: num(at('seller_id')), sellerName: at('seller_name'), sellerCountry: at('seller_country'), price: num(at('price')),
      rating: numOrNull(at('rating')), reviews: num(at('reviews')), firstSeen: at('first_seen'), from: at('from'), sales: list(at('sales')), prices: list(at('prices')),
    };
  }
  return { keyword: at('keyword'), categoryId: numOrNull(at('category_id')), results: num(at('results')), from: at('from'), frequency: list(at('frequency')), topSkus: list(at('top_skus')) };
}

/** A number as each language writes it (10,000,000; 10.000.000 in pt). */
const amount = (value: number | bigint): Localized => eachLang((lang) => Number(value).toLocaleString(lang === 'pt' ? 'pt-BR' : lang === 'zh' ? 'zh-CN' : 'en-US'));

const TYPE_NAMES: Partial<Record<string, MessageKey>> = { number: 'importTypeNumber', int: 'importTypeNumber', string: 'importTypeText', array: 'importTypeList', object: 'importTypeObject', null: 'importTypeNull' };

/** What is wrong with one value, in every language: the schema's own catalogue key, else by the kind of issue. */
function issueText(issue: z.core.$ZodIssue): Localized {
  const bounds = { min: 'minimum' in issue ? amount(issue.minimum as number) : '', max: 'maximum' in issue ? amount(issue.maximum as number) : '' };
  if (isMessageKey(issue.message)) return localized(issue.message, bounds);
  switch (issue.code) {
    case 'invalid_type': {
      const type = TYPE_NAMES[issue.expected];
      return localized('importMustBe', { type: type ? localized(type) : issue.expected });
    }
    case 'too_small':
      if (issue.origin === 'string') return localized('importNotEmpty');
      return localized(issue.minimum === 0 && issue.inclusive === false ? 'importPositive' : 'importAtLeast', bounds);
    case 'too_big':
      return localized(issue.origin === 'string' ? 'importTooLong' : issue.origin === 'array' ? 'importTooManyItems' : 'importAtMost', bounds);
    default:
      return localized('importInvalid');
  }
}

/** The first problem of a parsed line, named by its field: `sales: must not be negative` (in every language). */
export function problemOf(error: z.ZodError): Localized {
  const issue = error.issues[0];
  if (!issue) return localized('importInvalid');
  const field = issue.path.filter((part) => typeof part === 'string').join('.');
  const problem = issueText(issue);
  return field ? localized('importFieldProblem', { field, problem }) : problem;
}

export type ParsedLine = { ok: true; product?: MarketProductRecord; keyword?: MarketKeywordRecord } | { ok: false; message: Localized };

export function parseLine(entity: Entity, value: unknown): ParsedLine {
  const parsed = (entity === 'products' ? productLineSchema : keywordLineSchema).safeParse(value);
  if (!parsed.success) return { ok: false, message: problemOf(parsed.error) };
  return entity === 'products' ? { ok: true, product: parsed.data as MarketProductRecord } : { ok: true, keyword: parsed.data as MarketKeywordRecord };
}

/** A line of the given record in the given format (the generator's sample files and the tests write with these). */
export function formatLine(entity: Entity, format: 'csv' | 'jsonl', record: MarketProductRecord | MarketKeywordRecord): string {
  if (format === 'jsonl') return JSON.stringify(record);
  const quote = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  if (entity === 'products') {
    const p = record as MarketProductRecord;
    return [p.sku, quote(p.name), p.categoryId, p.typeId, quote(p.brand), p.sellerId, quote(p.sellerName), p.sellerCountry, p.price, p.rating ?? '', p.reviews, p.firstSeen, p.from, p.sales.join(';'), p.prices.join(';')].join(',');
  }
  const k = record as MarketKeywordRecord;
  return [quote(k.keyword), k.categoryId ?? '', k.results, k.from, k.frequency.join(';'), k.topSkus.join(';')].join(',');
}

export function csvHeader(entity: Entity): string {
  return (entity === 'products' ? PRODUCT_CSV_COLUMNS : KEYWORD_CSV_COLUMNS).join(',');
}
