import type {
  CopyBody,
  CopyItem,
  CopyPreviewAnswer,
  CopyRecord,
  CopySource,
  HistoryQuery,
  PriceRule,
  PriceTemplate,
  SaveTemplateBody,
} from '../../../contract/copy';
import { localized, textIn, type Lang } from '../../../contract/errors';
import type { Database } from '../../db/database';
import { ApiError } from '../../http/errors';
import type { OzonClient, ProductImportItem } from '../../marketplace/ozon/client';
import { shopScopeSql } from '../team/shopScope';
import { containsPattern, failureOf, followImports, importPage, type StoredError } from './follow';
import { convertExact, findRate, ratesFor, RatesError, type RatesDeps } from '../tools/rates';
import { oldPriceFor, targetPrice } from './pricing';
import { skuOf, type SourceCard, type SourceCatalog } from './source';

export type CopyDeps = {
  database: Database;
  rates: RatesDeps;
  source: SourceCatalog;
  /** The caller's own shop with its client; refuses a shop that is not the caller's. */
  shopClient: (userId: number, shopId: number) => Promise<{ client: OzonClient; shopName: string }>;
  now: () => Date;
};

/** Ozon's batch limits: import-by-SKU takes 1,000 items a call, a card import 100. */
const IMPORT_BY_SKU_BATCH = 1_000;
const IMPORT_BATCH = 100;

// ---- pricing templates

type TemplateRow = {
  id: number;
  name: string;
  currency: PriceRule['currency'];
  markup: string;
  shipping: string;
  fixed: string;
  rounding: PriceRule['rounding'];
  old_price_factor: string | null;
  is_default: boolean;
  updated_at: Date | string;
};

/** numeric columns come back as '1.5000' or '1.5': the contract's texts carry no trailing zeros past two places. */
const decimal = (value: string) => value.replace(/(\.\d*?[1-9])0+$|\.0+$/, '$1');

function templateOf(row: TemplateRow): PriceTemplate {
  return {
    id: row.id,
    name: row.name,
    currency: row.currency,
    markup: decimal(row.markup),
    shipping: decimal(row.shipping),
    fixed: decimal(row.fixed),
    rounding: row.rounding,
    oldPriceFactor: row.old_price_factor === null ? undefined : decimal(row.old_price_factor),
    isDefault: row.is_default,
    updatedAt: new Date(row.updated_at).getTime(),
  };
}

export async function listTemplates(deps: CopyDeps, userId: number): Promise<PriceTemplate[]> {
  const rows = await deps.database.query<TemplateRow>(`select * from copy_price_templates where user_id = $1 order by is_default desc, name, id`, [userId]);
  return rows.map(templateOf);
}

export async function saveTemplate(deps: CopyDeps, userId: number, body: SaveTemplateBody): Promise<PriceTemplate> {
  const values = [userId, body.name, body.currency, body.markup, body.shipping, body.fixed, body.rounding, body.oldPriceFactor ?? null, body.isDefault ?? false];
  // One default per user: making this one the default clears the others in the same statement's transaction.
  const rows = body.id
    ? await deps.database.query<TemplateRow>(
        `with cleared as (update copy_price_templates set is_default = false where user_id = $1 and $9 and id <> $10)
         update copy_price_templates set name = $2, currency = $3, markup = $4, shipping = $5, fixed = $6, rounding = $7,
           old_price_factor = $8, is_default = $9, updated_at = now()
         where id = $10 and user_id = $1 returning *`,
        [...values, body.id],
      )
    : await deps.database.query<TemplateRow>(
        `with cleared as (update copy_price_templates set is_default = false where user_id = $1 and $9)
         insert into copy_price_templates (user_id, name, currency, markup, shipping, fixed, rounding, old_price_factor, is_default)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning *`,
        values,
      );
  const [row] = rows;
  if (!row) throw new ApiError(404, 'priceTemplateNotFound', 'id');
  return templateOf(row);
}

export async function deleteTemplate(deps: CopyDeps, userId: number, id: number): Promise<{ count: number }> {
  const rows = await deps.database.query(`delete from copy_price_templates where id = $1 and user_id = $2 returning id`, [id, userId]);
  return { count: rows.length };
}

// ---- preview

export async function ratesInto(deps: Pick<CopyDeps, 'rates'>, currencies: Iterable<string>, target: string) {
  try {
    const day = await ratesFor(deps.rates);
    const to = findRate(day.rates, target, 'currency');
    const rates: Record<string, string> = {};
    for (const code of currencies) rates[code] = convertExact('1', findRate(day.rates, code, 'currency'), to).rate;
    const convert = (amount: string, code: string) => convertExact(amount, findRate(day.rates, code, 'currency'), to).result;
    return { rates, date: day.date, convert };
  } catch (error) {
    if (error instanceof RatesError) throw new ApiError(error.reason === 'unknownCurrency' ? 400 : 502, error.reason === 'unknownCurrency' ? 'unknownCurrency' : 'ratesUnavailable', 'currency');
    throw error;
  }
}

function requireSource(deps: CopyDeps) {
  if (!deps.source.available) throw new ApiError(502, 'copySourceUnavailable');
}

export async function preview(deps: CopyDeps, sources: readonly string[], rule: PriceRule, lang: Lang): Promise<CopyPreviewAnswer> {
  requireSource(deps);
  const seen = new Set<number>();
  const read = sources.map((input) => {
    const sku = skuOf(input);
    const duplicate = sku !== null && seen.has(sku);
    if (sku !== null) seen.add(sku);
    const card = sku !== null && !duplicate ? deps.source.cardBySku(sku) : null;
    return { input, sku, duplicate, card };
  });
  const { rates, date, convert } = await ratesInto(deps, new Set(read.flatMap((r) => (r.card ? [r.card.currency] : []))), rule.currency);
  const items = read.map(({ input, sku, duplicate, card }): CopySource => {
    const state = sku === null ? 'invalid' : duplicate ? 'duplicate' : card ? 'ok' : 'notFound';
    if (!card) return { input, sku, state, name: '', image: null, images: [], price: '', currency: '', categoryName: '', targetPrice: '', targetOldPrice: null };
    const price = targetPrice(convert(card.price, card.currency), rule);
    return {
      input,
      sku,
      state,
      name: card.name,
      image: card.images[0] ?? null,
      images: card.images,
      price: card.price,
      currency: card.currency,
      categoryName: textIn(card.categoryName, lang),
      targetPrice: price,
      targetOldPrice: oldPriceFor(price, rule.oldPriceFactor),
    };
  });
  return { items, rates, ratesDate: date };
}

// ---- copy

type RecordRow = {
  id: number;
  user_id: number;
  shop_id: number;
  shop_name: string;
  user_name?: string;
  sku: number | string;
  name: string;
  image: string | null;
  offer_id: string;
  price: string;
  old_price: string | null;
  currency: string;
  mode: 'sku' | 'card';
  changes: { name?: string; images?: string[] };
  status: CopyRecord['status'];
  task_id: number | string | null;
  product_id: number | string | null;
  errors: StoredError[];
  attempts: number;
  created_at: Date | string;
  updated_at: Date | string;
};

function recordOf(row: RecordRow, lang: Lang, withUser = false): CopyRecord {
  return {
    id: row.id,
    shopId: row.shop_id,
    shopName: row.shop_name,
    sku: Number(row.sku),
    name: row.name,
    image: row.image,
    offerId: row.offer_id,
    price: Number(row.price).toFixed(2),
    currency: row.currency,
    mode: row.mode,
    status: row.status,
    productId: row.product_id === null ? null : Number(row.product_id),
    errors: row.errors.map((e) => ({ code: e.code, message: textIn(e, lang), attributeId: e.attributeId, attributeName: e.attributeName })),
    attempts: row.attempts,
    createdAt: new Date(row.created_at).getTime(),
    updatedAt: new Date(row.updated_at).getTime(),
    ...(withUser ? { userName: row.user_name ?? '' } : {}),
  };
}

const SELECT_RECORDS = `select r.*, s.name as shop_name, u.username as user_name
  from copy_records r join mp_shops s on s.id = r.shop_id join users u on u.id = r.user_id`;

async function recordsByIds(deps: CopyDeps, userId: number, ids: readonly number[]): Promise<RecordRow[]> {
  if (ids.length === 0) return [];
  return deps.database.query<RecordRow>(`${SELECT_RECORDS} where r.user_id = $1 and r.id = any($2::int[])${shopScopeSql('r.shop_id')} order by r.id desc`, [userId, ids]);
}

const notFoundError = (): StoredError => ({ code: 'sku_not_found', attributeId: null, attributeName: null, ...localized('copySkuNotFound') });

/** A plan of one card into one shop, before Ozon is asked. */
type Planned = { item: CopyItem; card: SourceCard | null; offerId: string; mode: 'sku' | 'card' };

function plan(deps: CopyDeps, items: readonly CopyItem[]): Planned[] {
  return items.map((item) => {
    const card = deps.source.cardBySku(item.sku);
    // Import-by-SKU takes offer id, name and prices; other changes (pictures) need the card read and imported.
    const changed = item.images !== undefined && card !== null && item.images.join('\n') !== card.images.join('\n');
    return { item, card, offerId: item.offerId ?? `CP${item.sku}`, mode: changed ? 'card' : 'sku' };
  });
}

function importItemOf(p: Planned, currency: string): ProductImportItem {
  const card = p.card!;
  return {
    offer_id: p.offerId,
    name: p.item.name ?? card.name,
    description_category_id: card.categoryId,
    type_id: card.typeId,
    price: p.item.price,
    old_price: p.item.oldPrice ?? '0',
    currency_code: currency,
    vat: card.vat,
    images: p.item.images ?? card.images,
    attributes: card.attributes,
    depth: card.dimensions.depth,
    width: card.dimensions.width,
    height: card.dimensions.height,
    dimension_unit: 'mm',
    weight: card.dimensions.weight,
    weight_unit: 'g',
  };
}

type Outcome = { taskId: number | null; status: CopyRecord['status']; errors: StoredError[] };

/** Sends one shop's planned copies to Ozon: the outcome of each, in the plan's order. */
async function sendToShop(client: OzonClient, planned: readonly Planned[], currency: string): Promise<Outcome[]> {
  const outcomes: Outcome[] = planned.map(() => ({ taskId: null, status: 'failed', errors: [notFoundError()] }));
  const bySku = planned.flatMap((p, i) => (p.card && p.mode === 'sku' ? [i] : []));
  const byCard = planned.flatMap((p, i) => (p.card && p.mode === 'card' ? [i] : []));
  for (let start = 0; start < bySku.length; start += IMPORT_BY_SKU_BATCH) {
    const batch = bySku.slice(start, start + IMPORT_BY_SKU_BATCH);
    try {
      const result = await client.productImportBySku(
        batch.map((i) => {
          const { item, offerId } = planned[i]!;
          return { sku: item.sku, offer_id: offerId, name: item.name, price: item.price, old_price: item.oldPrice ?? '0', currency_code: currency };
        }),
      );
      const unmatched = new Set(result.unmatched_sku_list.map(Number));
      for (const i of batch) {
        outcomes[i] = unmatched.has(planned[i]!.item.sku) ? { taskId: null, status: 'failed', errors: [notFoundError()] } : { taskId: Number(result.task_id), status: 'importing', errors: [] };
      }
    } catch (error) {
      const failure = failureOf(error);
      for (const i of batch) outcomes[i] = { taskId: null, status: 'failed', errors: [failure] };
    }
  }
  for (let start = 0; start < byCard.length; start += IMPORT_BATCH) {
    const batch = byCard.slice(start, start + IMPORT_BATCH);
    try {
      const taskId = Number(await client.productImport(batch.map((i) => importItemOf(planned[i]!, currency))));
      for (const i of batch) outcomes[i] = { taskId, status: 'importing', errors: [] };
    } catch (error) {
      const failure = failureOf(error);
      for (const i of batch) outcomes[i] = { taskId: null, status: 'failed', errors: [failure] };
    }
  }
  return outcomes;
}

export async function copy(deps: CopyDeps, userId: number, body: CopyBody & { currency: string }, lang: Lang): Promise<{ list: CopyRecord[] }> {
  requireSource(deps);
  const items = body.items as CopyItem[];
  const planned = plan(deps, items);
  const ids: number[] = [];
  for (const shopId of [...new Set(body.shopIds)]) {
    const { client } = await deps.shopClient(userId, shopId);
    const outcomes = await sendToShop(client, planned, body.currency);
    for (const [i, p] of planned.entries()) {
      const outcome = outcomes[i]!;
      const [row] = await deps.database.query<{ id: number }>(
        `insert into copy_records (user_id, shop_id, sku, name, image, offer_id, price, old_price, currency, mode, changes, status, task_id, errors, checked_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, $12, $13, $14::jsonb, now()) returning id`,
        [
          userId,
          shopId,
          p.item.sku,
          p.item.name ?? p.card?.name ?? String(p.item.sku),
          p.item.images?.[0] ?? p.card?.images[0] ?? null,
          p.offerId,
          p.item.price,
          p.item.oldPrice ?? null,
          body.currency,
          p.mode,
          JSON.stringify({ name: p.item.name, images: p.item.images }),
          outcome.status,
          outcome.taskId,
          JSON.stringify(outcome.errors),
        ],
      );
      ids.push(row!.id);
    }
  }
  return { list: (await recordsByIds(deps, userId, ids)).map((r) => recordOf(r, lang)) };
}

/** Copies failed records again, each into its own shop, as they were asked for. */
export async function retry(deps: CopyDeps, userId: number, ids: readonly number[], lang: Lang): Promise<{ list: CopyRecord[] }> {
  requireSource(deps);
  const rows = await recordsByIds(deps, userId, ids);
  if (rows.length === 0 || rows.some((r) => r.status !== 'failed')) throw new ApiError(400, 'copyNotRetryable', 'ids');
  const byShop = new Map<number, RecordRow[]>();
  for (const row of rows) byShop.set(row.shop_id, [...(byShop.get(row.shop_id) ?? []), row]);
  for (const [shopId, shopRows] of byShop) {
    const { client } = await deps.shopClient(userId, shopId);
    const items = shopRows.map((r): CopyItem => ({
      sku: Number(r.sku),
      offerId: r.offer_id,
      price: decimal(r.price),
      oldPrice: r.old_price === null ? undefined : decimal(r.old_price),
      name: r.changes.name,
      images: r.changes.images,
    }));
    const outcomes = await sendToShop(client, plan(deps, items), shopRows[0]!.currency);
    for (const [i, row] of shopRows.entries()) {
      const outcome = outcomes[i]!;
      await deps.database.query(
        `update copy_records set status = $2, task_id = $3, errors = $4::jsonb, product_id = null, attempts = attempts + 1, updated_at = now(), checked_at = now() where id = $1`,
        [row.id, outcome.status, outcome.taskId, JSON.stringify(outcome.errors)],
      );
    }
  }
  return { list: (await recordsByIds(deps, userId, ids)).map((r) => recordOf(r, lang)) };
}

// ---- following Ozon

/**
 * Asks Ozon where the caller's unsettled copies stand (the given ones, or all of them) and stores the answer:
 * an import task's item moves importing → moderating (with its product id) or failed with Ozon's per-item errors;
 * a card under moderation moves to listed once Ozon gives it an SKU, or to failed when moderation declines it.
 */
export async function follow(deps: CopyDeps, userId: number, ids?: readonly number[]): Promise<void> {
  await followImports({ database: deps.database, table: 'copy_records', userId, ids, shopClient: deps.shopClient });
}

export async function status(deps: CopyDeps, userId: number, ids: readonly number[], lang: Lang): Promise<{ list: CopyRecord[] }> {
  await follow(deps, userId, ids);
  return { list: (await recordsByIds(deps, userId, ids)).map((r) => recordOf(r, lang)) };
}

type ParsedHistoryQuery = { page: number; rows: number; status?: CopyRecord['status']; shopId?: number; search?: string };

/** A page of copies, newest first: the caller's, or everyone's for the integrated list (`userId` null). */
export async function history(deps: CopyDeps, userId: number | null, query: ParsedHistoryQuery, lang: Lang) {
  if (userId !== null) await follow(deps, userId);
  const where = `($1::int is null or r.user_id = $1) and ($2::text is null or r.status = $2) and ($3::int is null or r.shop_id = $3)
    and ($4::text is null or r.name ilike $4 or r.offer_id ilike $4 or r.sku::text like $4)${shopScopeSql('r.shop_id')}`;
  const params = [userId, query.status ?? null, query.shopId ?? null, containsPattern(query.search)];
  const { rows, total, unsettled } = await importPage<RecordRow>(deps.database, { table: 'copy_records', select: SELECT_RECORDS, where, params, page: query.page, rows: query.rows });
  return { list: rows.map((r) => recordOf(r, lang, userId === null)), total, unsettled };
}

export async function deleteRecords(deps: CopyDeps, userId: number, ids: readonly number[] | null): Promise<{ count: number }> {
  const rows = await deps.database.query(`delete from copy_records where user_id = $1 and ($2::int[] is null or id = any($2::int[]))${shopScopeSql('shop_id')} returning id`, [userId, ids]);
  return { count: rows.length };
}

export type { HistoryQuery };
