import { message, type Lang, type MessageKey, type MessageParams } from '../../../contract/errors';
import { shopScopeSql } from '../team/shopScope';
import { checkPrice, checkPriceRate, checkStockRate, HOUR_MS, STOCK_PAIR_INTERVAL_MS } from '../../../contract/productRules';
import {
  quotaLeft,
  quotaResetText,
  SKU_IMAGES_MAX,
  PRICE_BATCH,
  STOCK_BATCH,
  type MarketplaceProductProListBody,
  type ProductInfo,
  type ProductOutcome,
  type ProductPage,
  type ProductRow,
  type ProductWarehouse,
  type SkuImageResult,
} from '../../../contract/products';
import type { Database } from '../../db/database';
import { ApiError } from '../../http/errors';
import { createListFrameSync } from '../../lists/frameSync';
import type { OzonClient } from '../../marketplace/ozon/client';
import { isOzonError } from '../../marketplace/ozon/errors';
import { PRODUCT_SYNC_SOURCE } from './frame';

/** How the products area reaches a shop's Ozon client (the store area builds it from the shop's decrypted key). */
export type ShopClientFor = (userId: number, shopId: number) => Promise<OzonClient>;
export type ProductsDeps = { database: Database; clientFor: ShopClientFor; now: () => Date };

/** GET /api/product/sync: binary frames of the user's product rows (server/lists/frameSync.ts). */
export function createProductFrameSync(deps: ProductsDeps) {
  return createListFrameSync(deps, PRODUCT_SYNC_SOURCE);
}

const ms = (column: string) => `(extract(epoch from ${column}) * 1000)::bigint`;

/** One row as contract/products.ts ProductRow, built by Postgres. */
const ROW_JSON = `json_build_object(
  'id', p.id, 'productId', p.product_id, 'offerId', p.offer_id, 'sku', p.sku, 'name', p.name, 'barcode', p.barcode,
  'image', p.image, 'shopId', p.shop_id, 'shopName', p.shop_name, 'status', p.status, 'moderation', p.moderation,
  'visibility', p.visibility, 'currency', p.currency, 'price', p.price::float8, 'oldPrice', p.old_price::float8,
  'minPrice', p.min_price::float8, 'fbsStock', p.fbs_stock, 'fboStock', p.fbo_stock, 'errorCount', p.error_count,
  'units30d', p.units_30d, 'revenue30d', p.revenue_30d::float8, 'createdAt', ${ms('p.created_at')},
  'changedAt', ${ms('p.changed_at')}, 'updatedAt', ${ms('p.updated_at')}, 'deleted', p.deleted)`;

type StoredRow = ProductRow & { stocks: Record<string, number> };

function normalise(row: ProductRow): ProductRow {
  return { ...row, createdAt: Number(row.createdAt), changedAt: Number(row.changedAt), updatedAt: Number(row.updatedAt) };
}

/** The user's live rows with these ids (others' ids and tombstones are not there). */
async function rowsOf(deps: ProductsDeps, userId: number, ids: readonly string[]): Promise<Map<string, StoredRow>> {
  const rows = await deps.database.query<{ row: ProductRow; stocks: Record<string, number> }>(
    `select ${ROW_JSON} as row, p.stocks from products p where p.user_id = $1 and p.id = any($2::text[]) and not p.deleted${shopScopeSql('p.shop_id')}`,
    [userId, [...new Set(ids)]],
  );
  return new Map(rows.map(({ row, stocks }) => [row.id, { ...normalise(row), stocks: stocks ?? {} }]));
}

// ---------------------------------------------------------------- server-paged lists

const SORTS: Record<NonNullable<MarketplaceProductProListBody['sort']>, string> = {
  changedAt: 'p.changed_at',
  createdAt: 'p.created_at',
  price: 'p.price',
  fbsStock: 'p.fbs_stock',
  units30d: 'p.units_30d',
  revenue30d: 'p.revenue_30d',
  name: 'p.name',
  offerId: 'p.offer_id',
};

type PageQuery = {
  storeIds?: number[];
  page: number;
  rows: number;
  search?: string;
  statuses?: string[];
  visibilities?: string[];
  priceFrom?: number;
  priceTo?: number;
  inStock?: boolean;
  hasErrors?: boolean;
  sort: keyof typeof SORTS;
  direction: 'asc' | 'desc';
};

/** A page of the user's products filtered and sorted by Postgres (the server-paged lists). */
export async function pageOfProducts(deps: ProductsDeps, userId: number, query: PageQuery): Promise<ProductPage> {
  const where = ['p.user_id = $1', 'not p.deleted'];
  const scope = shopScopeSql('p.shop_id');
  if (scope) where.push(scope.slice(' and '.length));
  const params: unknown[] = [userId];
  const add = (clause: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(clause(`$${params.length}`));
  };
  if (query.storeIds?.length) add((n) => `p.shop_id = any(${n}::int[])`, query.storeIds);
  if (query.statuses?.length) add((n) => `p.status = any(${n}::text[])`, query.statuses);
  if (query.visibilities?.length) add((n) => `p.visibility = any(${n}::text[])`, query.visibilities);
  if (query.priceFrom !== undefined) add((n) => `p.price >= ${n}`, query.priceFrom);
  if (query.priceTo !== undefined) add((n) => `p.price <= ${n}`, query.priceTo);
  if (query.inStock !== undefined) where.push(query.inStock ? 'p.fbs_stock + p.fbo_stock > 0' : 'p.fbs_stock + p.fbo_stock = 0');
  if (query.hasErrors !== undefined) where.push(query.hasErrors ? 'p.error_count > 0' : 'p.error_count = 0');
  if (query.search) {
    add(
      (n) => `(strpos(lower(p.name), ${n}) > 0 or strpos(lower(p.offer_id), ${n}) > 0 or strpos(p.sku, ${n}) > 0 or strpos(lower(p.barcode), ${n}) > 0)`,
      query.search.toLowerCase(),
    );
  }
  const order = `${SORTS[query.sort]} ${query.direction === 'asc' ? 'asc' : 'desc'}, p.id`;
  params.push(query.rows, (query.page - 1) * query.rows);
  const [result] = await deps.database.query<{ list: ProductRow[]; total: number | string }>(
    `with hits as (select p.* from products p where ${where.join(' and ')})
     select coalesce((select json_agg(r.row) from (select ${ROW_JSON} as row from hits p order by ${order} limit $${params.length - 1} offset $${params.length}) r), '[]') as list,
            (select count(*) from hits) as total`,
    params,
  );
  return { list: (result?.list ?? []).map(normalise), total: Number(result?.total ?? 0) };
}

async function ownShopIds(deps: ProductsDeps, userId: number, ids: readonly number[]): Promise<void> {
  const rows = await deps.database.query<{ id: number }>(`select id from mp_shops where user_id = $1 and id = any($2::int[])${shopScopeSql('id')}`, [userId, [...ids]]);
  if (rows.length !== new Set(ids).size) throw new ApiError(404, 'shopNotFound', 'storeId');
}

/** GET /api/ozonProduct/list: one of the user's shops, a page at a time. */
export async function shopProductPage(
  deps: ProductsDeps,
  userId: number,
  query: { storeId: number; page: number; rows: number; search?: string; visibility?: string },
): Promise<ProductPage> {
  await ownShopIds(deps, userId, [query.storeId]);
  return pageOfProducts(deps, userId, {
    storeIds: [query.storeId],
    page: query.page,
    rows: query.rows,
    search: query.search,
    visibilities: query.visibility ? [query.visibility] : undefined,
    sort: 'changedAt',
    direction: 'desc',
  });
}

/** POST /api/ozonProductPro/list. */
export async function proProductPage(deps: ProductsDeps, userId: number, body: PageQuery): Promise<ProductPage> {
  if (body.storeIds?.length) await ownShopIds(deps, userId, body.storeIds);
  return pageOfProducts(deps, userId, body);
}

/** GET /api/product/search: a quick lookup by name, offer id, SKU or barcode. */
export async function searchProducts(deps: ProductsDeps, userId: number, q: string, storeIds: number[] | undefined, limit: number): Promise<ProductRow[]> {
  return (await pageOfProducts(deps, userId, { storeIds, page: 1, rows: limit, search: q, sort: 'changedAt', direction: 'desc' })).list;
}

export async function productWarehouses(deps: ProductsDeps, userId: number): Promise<ProductWarehouse[]> {
  const rows = await deps.database.query<{ shop_id: number; shop_name: string; warehouse_id: string; name: string }>(
    `select r.shop_id, s.name as shop_name, r.external_id as warehouse_id, coalesce(r.data->>'name', '') as name
     from mp_records r join mp_shops s on s.id = r.shop_id
     where s.user_id = $1 and r.entity = 'warehouses'${shopScopeSql('r.shop_id')} order by r.shop_id, name`,
    [userId],
  );
  return rows.map((r) => ({ shopId: r.shop_id, shopName: r.shop_name, warehouseId: r.warehouse_id, name: r.name }));
}

// ---------------------------------------------------------------- one product

type OzonCardError = { code?: string; attribute_id?: number; texts?: { description?: string; message?: string; short_description?: string; attribute_name?: string } };

/** GET /api/product/info: the drawer's card. Attributes come from Ozon at once; without an answer the rest still shows. */
export async function productInfo(deps: ProductsDeps, userId: number, id: string): Promise<ProductInfo> {
  const row = (await rowsOf(deps, userId, [id])).get(id);
  if (!row) throw new ApiError(404, 'productNotFound', 'id');
  const { stocks, ...plain } = row;
  const [record] = await deps.database.query<{ info: Record<string, unknown> | null }>(
    `select data->'info' as info from mp_records where shop_id = $1 and entity = 'products' and external_id = $2`,
    [row.shopId, row.productId],
  );
  const info = record?.info ?? {};
  const warehouses = (await productWarehouses(deps, userId)).filter((w) => w.shopId === row.shopId);
  const sales = await deps.database.query<{ day: string; units: number; revenue: number }>(
    `select to_char(d.day, 'YYYY-MM-DD') as day, coalesce(sum(o.quantity), 0)::int as units, coalesce(sum(o.amount), 0)::float8 as revenue
     from generate_series(date_trunc('day', $3::timestamptz) - interval '29 days', date_trunc('day', $3::timestamptz), interval '1 day') as d(day)
     left join orders o on o.shop_id = $1 and o.offer_id = $2 and o.source = 'ozon' and not o.deleted and o.status <> 'cancelled'
       and o.in_process_at >= d.day and o.in_process_at < d.day + interval '1 day'
     group by d.day order by d.day`,
    [row.shopId, row.offerId, deps.now().toISOString()],
  );
  let attributes: ProductInfo['attributes'] = [];
  let dimensions: ProductInfo['dimensions'] = null;
  try {
    const client = await deps.clientFor(userId, row.shopId);
    const answer = await client.productInfoAttributes({ filter: { product_id: [row.productId] }, limit: 1 });
    const card = answer.result[0];
    if (card) {
      attributes = card.attributes.map((a) => ({ id: a.id, values: a.values.map((v) => v.value) }));
      dimensions = { depth: card.depth ?? 0, width: card.width ?? 0, height: card.height ?? 0, weight: card.weight ?? 0 };
    }
  } catch {
    // Ozon not answering now: the card shows what the sync stored.
  }
  const images = Array.isArray(info.images) ? (info.images as unknown[]).map(String) : row.image ? [row.image] : [];
  const errors = (Array.isArray(info.errors) ? (info.errors as OzonCardError[]) : []).map((e) => ({
    code: String(e.code ?? ''),
    message: String(e.texts?.description ?? e.texts?.message ?? e.texts?.short_description ?? e.code ?? ''),
    attribute: String(e.texts?.attribute_name ?? ''),
  }));
  return {
    row: plain,
    images,
    attributes,
    errors,
    stocks: warehouses.map((w) => ({ warehouseId: w.warehouseId, warehouseName: w.name, present: Number(stocks[w.warehouseId] ?? 0) })),
    sales: sales.map((s) => ({ day: s.day, units: Number(s.units), revenue: Number(s.revenue) })),
    dimensions,
  };
}

// ---------------------------------------------------------------- actions

type Outcomes = Map<string, ProductOutcome>;
const refuse = (outcomes: Outcomes, id: string, lang: Lang, key: MessageKey, params?: MessageParams) =>
  outcomes.set(id, { id, ok: false, message: message(key, lang, params) });
const done = (outcomes: Outcomes, id: string) => outcomes.set(id, { id, ok: true, message: '' });
const inOrder = (ids: readonly string[], outcomes: Outcomes): ProductOutcome[] => ids.map((id) => outcomes.get(id)!);

function reasonOf(error: unknown, lang: Lang): string {
  if (isOzonError(error)) return error.texts[lang];
  if (error instanceof ApiError) return error.localized(lang);
  return message('operationFailed', lang);
}

function byShop<T extends { row: StoredRow }>(items: readonly T[]): Map<number, T[]> {
  const shops = new Map<number, T[]>();
  for (const item of items) shops.set(item.row.shopId, [...(shops.get(item.row.shopId) ?? []), item]);
  return shops;
}

function slices<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** What a batch already did (a batch resent after a crash): its products that went through are not sent again. */
async function doneInBatch(deps: ProductsDeps, userId: number, kind: string, batchId: string | undefined): Promise<Set<string>> {
  if (!batchId) return new Set();
  const rows = await deps.database.query<{ key: string }>(
    `select product_row_id || '|' || warehouse_id as key from product_sends where user_id = $1 and batch_id = $2 and kind = $3 and outcome = 'ok'`,
    [userId, batchId, kind],
  );
  return new Set(rows.map((r) => r.key));
}

/** Records sends before they go (what Ozon's per-product rates count), answering their ids. */
async function recordSends(
  deps: ProductsDeps,
  userId: number,
  kind: 'price' | 'stock',
  batchId: string | undefined,
  items: readonly { rowId: string; warehouseId: string; payload: unknown }[],
): Promise<number[]> {
  if (items.length === 0) return [];
  const rows = await deps.database.query<{ id: number }>(
    `insert into product_sends (user_id, product_row_id, kind, warehouse_id, batch_id, payload, sent_at)
     select $1, x.row_id, $2, x.warehouse_id, $3, x.payload, $5::timestamptz
     from jsonb_to_recordset($4::jsonb) as x(row_id text, warehouse_id text, payload jsonb)
     returning id`,
    [userId, kind, batchId ?? null, JSON.stringify(items.map((i) => ({ row_id: i.rowId, warehouse_id: i.warehouseId, payload: i.payload }))), deps.now().toISOString()],
  );
  return rows.map((r) => r.id);
}

async function settleSends(deps: ProductsDeps, results: readonly { sendId: number; ok: boolean; message: string }[]): Promise<void> {
  if (results.length === 0) return;
  await deps.database.query(
    `update product_sends s set outcome = x.outcome, message = x.message
     from jsonb_to_recordset($1::jsonb) as x(id int, outcome text, message text) where s.id = x.id`,
    [JSON.stringify(results.map((r) => ({ id: r.sendId, outcome: r.ok ? 'ok' : 'failed', message: r.message })))],
  );
}

const money = (value: number) => value.toFixed(2);

/**
 * POST /api/price/update: each product's new price checked against Ozon's rules (the old price's gap, the minimum
 * price, 10 changes an hour), then sent per shop in batches of PRICE_BATCH; each product answers its own verdict.
 */
export async function updatePrices(
  deps: ProductsDeps,
  userId: number,
  body: { batchId?: string; items: { id: string; price: number; oldPrice?: number; minPrice?: number }[] },
  lang: Lang,
): Promise<{ outcomes: ProductOutcome[]; changed: number }> {
  const ids = body.items.map((i) => i.id);
  const rows = await rowsOf(deps, userId, ids);
  const outcomes: Outcomes = new Map();
  const already = await doneInBatch(deps, userId, 'price', body.batchId);
  const now = deps.now().getTime();
  const recent = await deps.database.query<{ id: string; at: number | string }>(
    `select product_row_id as id, ${ms('sent_at')} as at from product_sends
     where product_row_id = any($1::text[]) and kind = 'price' and outcome <> 'failed' and sent_at > $2::timestamptz`,
    [ids, new Date(now - HOUR_MS).toISOString()],
  );
  const changesOf = new Map<string, number[]>();
  for (const r of recent) changesOf.set(r.id, [...(changesOf.get(r.id) ?? []), Number(r.at)]);
  const toSend: { row: StoredRow; price: number; oldPrice: number; minPrice: number }[] = [];
  const seen = new Set<string>();
  for (const item of body.items) {
    const row = rows.get(item.id);
    if (!row) refuse(outcomes, item.id, lang, 'productNotFound');
    else if (already.has(`${item.id}|`)) done(outcomes, item.id);
    else if (seen.has(item.id)) refuse(outcomes, item.id, lang, 'alreadyInBatch');
    else {
      seen.add(item.id);
      const next = { price: item.price, oldPrice: item.oldPrice ?? row.oldPrice, minPrice: item.minPrice ?? row.minPrice };
      const refusal = checkPrice(next) ?? checkPriceRate(changesOf.get(item.id) ?? [], now);
      if (refusal) refuse(outcomes, item.id, lang, refusal.key, refusal.params);
      else toSend.push({ row, ...next });
    }
  }
  let changed = 0;
  for (const [shopId, items] of byShop(toSend)) {
    for (const batch of slices(items, PRICE_BATCH)) {
      const sendIds = await recordSends(deps, userId, 'price', body.batchId, batch.map((i) => ({ rowId: i.row.id, warehouseId: '', payload: { price: i.price, oldPrice: i.oldPrice, minPrice: i.minPrice } })));
      const settled: { sendId: number; ok: boolean; message: string }[] = [];
      try {
        const client = await deps.clientFor(userId, shopId);
        const answers = await client.productImportPrices(
          batch.map((i) => ({
            offer_id: i.row.offerId,
            product_id: Number(i.row.productId),
            price: money(i.price),
            old_price: money(i.oldPrice),
            min_price: money(i.minPrice),
            currency_code: i.row.currency,
          })),
        );
        const byOffer = new Map(answers.map((a) => [a.offer_id, a]));
        const updated: typeof batch = [];
        batch.forEach((item, k) => {
          const answer = byOffer.get(item.row.offerId);
          const ok = answer?.updated === true;
          const reason = ok ? '' : (answer?.failures[0]?.texts[lang] ?? message('operationFailed', lang));
          settled.push({ sendId: sendIds[k]!, ok, message: reason });
          if (ok) {
            done(outcomes, item.row.id);
            updated.push(item);
          } else outcomes.set(item.row.id, { id: item.row.id, ok: false, message: reason });
        });
        if (updated.length) {
          await deps.database.query(
            `update products p set price = x.price, old_price = x.old_price, min_price = x.min_price, updated_at = clock_timestamp()
             from jsonb_to_recordset($2::jsonb) as x(id text, price numeric, old_price numeric, min_price numeric)
             where p.id = x.id and p.user_id = $1`,
            [userId, JSON.stringify(updated.map((i) => ({ id: i.row.id, price: i.price, old_price: i.oldPrice, min_price: i.minPrice })))],
          );
          changed += updated.length;
        }
      } catch (error) {
        const reason = reasonOf(error, lang);
        batch.forEach((item, k) => {
          settled.push({ sendId: sendIds[k]!, ok: false, message: reason });
          outcomes.set(item.row.id, { id: item.row.id, ok: false, message: reason });
        });
      }
      await settleSends(deps, settled);
    }
  }
  return { outcomes: inOrder(ids, outcomes), changed };
}

/**
 * POST /api/product/stock: FBS stock per product and warehouse, checked first (the card approved, the warehouse the
 * product's shop's, one change per product and warehouse every 30 s), then sent per shop in batches of STOCK_BATCH
 * with both offer_id and product_id; the shop's client keeps Ozon's 80 requests a minute.
 */
export async function updateStocks(
  deps: ProductsDeps,
  userId: number,
  body: { batchId?: string; items: { id: string; warehouseId: string; stock: number }[] },
  lang: Lang,
): Promise<{ outcomes: ProductOutcome[]; changed: number }> {
  const ids = body.items.map((i) => i.id);
  const rows = await rowsOf(deps, userId, ids);
  const warehouses = await productWarehouses(deps, userId);
  const shopOf = new Map(warehouses.map((w) => [`${w.shopId}|${w.warehouseId}`, true]));
  const already = await doneInBatch(deps, userId, 'stock', body.batchId);
  const now = deps.now().getTime();
  const recent = await deps.database.query<{ key: string; at: number | string }>(
    `select product_row_id || '|' || warehouse_id as key, max(${ms('sent_at')}) as at from product_sends
     where product_row_id = any($1::text[]) and kind = 'stock' and outcome <> 'failed' and sent_at > $2::timestamptz
     group by product_row_id, warehouse_id`,
    [ids, new Date(now - STOCK_PAIR_INTERVAL_MS).toISOString()],
  );
  const lastOf = new Map(recent.map((r) => [r.key, Number(r.at)]));
  // Outcomes per item (a product may have several warehouses in one call): keyed by position.
  const outcomes: ProductOutcome[] = body.items.map((i) => ({ id: i.id, ok: false, message: '' }));
  const toSend: { at: number; row: StoredRow; warehouseId: string; stock: number }[] = [];
  const seen = new Set<string>();
  body.items.forEach((item, at) => {
    const row = rows.get(item.id);
    const key = `${item.id}|${item.warehouseId}`;
    const no = (k: MessageKey, params?: MessageParams) => (outcomes[at] = { id: item.id, ok: false, message: message(k, lang, params) });
    if (!row) return no('productNotFound');
    if (already.has(key)) return (outcomes[at] = { id: item.id, ok: true, message: '' });
    if (seen.has(key)) return no('alreadyInBatch');
    seen.add(key);
    if (!row.sku || row.status === 'moderating' || row.status === 'failed') return no('stockNeedsSku');
    if (!shopOf.has(`${row.shopId}|${item.warehouseId}`)) return no('warehouseNotOfShop');
    const refusal = checkStockRate(lastOf.get(key) ?? null, now);
    if (refusal) return no(refusal.key, refusal.params);
    toSend.push({ at, row, warehouseId: item.warehouseId, stock: item.stock });
  });
  let changed = 0;
  for (const [shopId, items] of byShop(toSend)) {
    for (const batch of slices(items, STOCK_BATCH)) {
      const sendIds = await recordSends(deps, userId, 'stock', body.batchId, batch.map((i) => ({ rowId: i.row.id, warehouseId: i.warehouseId, payload: { stock: i.stock } })));
      const settled: { sendId: number; ok: boolean; message: string }[] = [];
      try {
        const client = await deps.clientFor(userId, shopId);
        const answers = await client.productsStocks(
          batch.map((i) => ({ offer_id: i.row.offerId, product_id: Number(i.row.productId), stock: i.stock, warehouse_id: Number(i.warehouseId) })),
        );
        const answerOf = new Map(answers.map((a) => [`${a.product_id}|${a.warehouse_id ?? ''}`, a]));
        const updated: typeof batch = [];
        batch.forEach((item, k) => {
          const answer = answerOf.get(`${item.row.productId}|${item.warehouseId}`) ?? answers[k];
          const ok = answer?.updated === true;
          const reason = ok ? '' : (answer?.failures[0]?.texts[lang] ?? message('operationFailed', lang));
          settled.push({ sendId: sendIds[k]!, ok, message: reason });
          outcomes[item.at] = { id: item.row.id, ok, message: reason };
          if (ok) updated.push(item);
        });
        if (updated.length) {
          // Per warehouse as set; the FBS total moves by the change at that warehouse.
          await deps.database.query(
            `update products p set
               fbs_stock = greatest(0, p.fbs_stock + x.stock - coalesce((p.stocks->>x.warehouse_id)::int, 0)),
               stocks = p.stocks || jsonb_build_object(x.warehouse_id, x.stock),
               updated_at = clock_timestamp()
             from jsonb_to_recordset($2::jsonb) as x(id text, warehouse_id text, stock int)
             where p.id = x.id and p.user_id = $1`,
            [userId, JSON.stringify(updated.map((i) => ({ id: i.row.id, warehouse_id: i.warehouseId, stock: i.stock })))],
          );
          changed += updated.length;
        }
      } catch (error) {
        const reason = reasonOf(error, lang);
        batch.forEach((item, k) => {
          settled.push({ sendId: sendIds[k]!, ok: false, message: reason });
          outcomes[item.at] = { id: item.row.id, ok: false, message: reason };
        });
      }
      await settleSends(deps, settled);
    }
  }
  return { outcomes, changed };
}

type ArchiveKind = 'archive' | 'unarchive' | 'delete';

/** POST /api/product/archive, /unarchive, /deleteArchive: checked per product, then one Ozon call per shop and 100. */
export async function archiveProducts(deps: ProductsDeps, userId: number, ids: readonly string[], kind: ArchiveKind, lang: Lang) {
  const rows = await rowsOf(deps, userId, ids);
  const outcomes: Outcomes = new Map();
  const toSend: { row: StoredRow }[] = [];
  for (const id of new Set(ids)) {
    const row = rows.get(id);
    if (!row) refuse(outcomes, id, lang, 'productNotFound');
    else if (kind === 'archive' && row.status === 'archived') refuse(outcomes, id, lang, 'productArchivedAlready');
    else if (kind === 'unarchive' && row.status !== 'archived') refuse(outcomes, id, lang, 'productNotArchived');
    else if (kind === 'delete' && row.status !== 'archived') refuse(outcomes, id, lang, 'deleteNeedsArchive');
    else if (kind === 'delete' && row.sku) refuse(outcomes, id, lang, 'deleteHasSku');
    else toSend.push({ row });
  }
  let changed = 0;
  for (const [shopId, items] of byShop(toSend)) {
    for (const batch of slices(items, 100)) {
      try {
        const client = await deps.clientFor(userId, shopId);
        let okIds: string[];
        if (kind === 'delete') {
          const verdicts = await client.productsDelete(batch.map((i) => i.row.offerId));
          const byOffer = new Map(verdicts.map((v) => [v.offer_id, v]));
          okIds = [];
          for (const { row } of batch) {
            const verdict = byOffer.get(row.offerId);
            if (verdict?.is_deleted) okIds.push(row.id);
            else outcomes.set(row.id, { id: row.id, ok: false, message: verdict?.error || message('operationFailed', lang) });
          }
        } else {
          const productIds = batch.map((i) => Number(i.row.productId));
          await (kind === 'archive' ? client.productArchive(productIds) : client.productUnarchive(productIds));
          okIds = batch.map((i) => i.row.id);
        }
        for (const id of okIds) done(outcomes, id);
        if (okIds.length) {
          const set =
            kind === 'delete'
              ? `deleted = true`
              : kind === 'archive'
                ? `status = 'archived', visibility = 'archived'`
                : `status = case when fbs_stock + fbo_stock > 0 then 'selling' else 'notSelling' end,
                   visibility = case when fbs_stock + fbo_stock > 0 and moderation = 'approved' then 'visible' else 'hidden' end`;
          await deps.database.query(`update products set ${set}, updated_at = clock_timestamp() where user_id = $1 and id = any($2::text[])`, [userId, okIds]);
          changed += okIds.length;
        }
      } catch (error) {
        const reason = reasonOf(error, lang);
        for (const { row } of batch) outcomes.set(row.id, { id: row.id, ok: false, message: reason });
      }
    }
  }
  return { outcomes: inOrder([...new Set(ids)], outcomes), changed };
}

/**
 * Refuses a change of `need` cards that Ozon's daily update quota cannot take today (contract ACTION_DAILY_QUOTA),
 * before anything is sent. A quota Ozon does not answer with lets the change go: Ozon then decides.
 */
export async function checkUpdatesLeft(client: OzonClient, need: number): Promise<void> {
  let quota;
  try {
    quota = (await client.productInfoLimit()).daily_update;
  } catch {
    return;
  }
  const left = quotaLeft(quota);
  if (left !== null && left < need) {
    throw new ApiError(429, { key: 'dailyUpdateLimit', params: { left: String(left), need: String(need), at: quotaResetText(quota.reset_at ?? '') } });
  }
}

/** POST /api/updateSkuImage: Ozon's pictures import for one product; the card's first picture follows when imported. */
export async function updateSkuImage(
  deps: ProductsDeps,
  userId: number,
  body: { id: string; images: string[]; colorImage?: string; keep?: boolean },
): Promise<{ result: SkuImageResult; changed: boolean }> {
  const row = (await rowsOf(deps, userId, [body.id])).get(body.id);
  if (!row) throw new ApiError(404, 'productNotFound', 'id');
  const client = await deps.clientFor(userId, row.shopId);
  let images = body.images;
  if (body.keep) {
    // Ozon's import replaces the card's pictures: the ones it has now (as synced) follow the new ones.
    const [record] = await deps.database.query<{ images: unknown }>(
      `select data->'info'->'images' as images from mp_records where shop_id = $1 and entity = 'products' and external_id = $2`,
      [row.shopId, row.productId],
    );
    const current = Array.isArray(record?.images) ? record.images.map(String) : row.image ? [row.image] : [];
    images = [...new Set([...body.images, ...current])].slice(0, SKU_IMAGES_MAX);
  }
  await checkUpdatesLeft(client, 1);
  let pictures;
  try {
    pictures = await client.productPicturesImport({ product_id: Number(row.productId), images, color_image: body.colorImage });
  } catch (error) {
    if (isOzonError(error)) throw new ApiError(error.code, error.texts);
    throw error;
  }
  const result: SkuImageResult = {
    id: row.id,
    pictures: pictures.map((p, k) => ({ url: p.url, state: p.state, primary: p.is_primary ?? k === 0 })),
  };
  const first = result.pictures.find((p) => p.primary && p.state !== 'failed') ?? null;
  const changed = first !== null && first.url !== row.image;
  if (changed) {
    await deps.database.query(`update products set image = $3, updated_at = clock_timestamp() where user_id = $1 and id = $2`, [userId, row.id, first.url]);
  }
  // The card's pictures as sent, until the next sync reads them from Ozon: the drawer and the next `keep` use them.
  const sent = result.pictures.filter((p) => p.state !== 'failed').map((p) => p.url);
  if (sent.length) {
    await deps.database.query(
      `update mp_records set data = jsonb_set(data, '{info,images}', $3::jsonb) where shop_id = $1 and entity = 'products' and external_id = $2 and data ? 'info'`,
      [row.shopId, row.productId, JSON.stringify(sent)],
    );
  }
  return { result, changed };
}
