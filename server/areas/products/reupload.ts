import { eachLang, localized, message, textIn, type Lang, type Localized, type MessageKey, type MessageParams, type ZhEnText } from '../../../contract/errors';
import { shopScopeSql } from '../team/shopScope';
import { quotaLeft, quotaResetText, type ProductLimit, type ProductOutcome } from '../../../contract/products';
import { nextOfferId, REUPLOAD_UNSETTLED, type ReuploadItem, type ReuploadStep } from '../../../contract/reupload';
import { ApiError } from '../../http/errors';
import type { OzonClient, ProductImportItem } from '../../marketplace/ozon/client';
import { describeItemError, isOzonError, type OzonErrorKind } from '../../marketplace/ozon/errors';
import type { OzonProductInfo } from '../../marketplace/ozon/schemas';
import { projectProducts } from './projection';
import type { ProductsDeps } from './service';

/**
 * Delist and re-upload (contract/reupload.ts). Each product of a batch is one `reupload_items` row that moves one step
 * at a time, every step written before the next begins:
 *
 *   reading    the full card read from Ozon and stored in the row (nothing on Ozon has changed yet)
 *   archiving  the old card archived
 *   deleting   the old card deleted when Ozon allows it (no SKU); otherwise it stays archived
 *   importing  the stored card imported under the new offer id; the task followed to its end
 *   moderating the new card followed until Ozon gives it an SKU or declines it
 *   restoring  the minimum price and the stock per warehouse set again; the new card stored in the list
 *
 * A row is held by one caller at a time (`lease_until`). Before an import is sent, Ozon is asked whether the new
 * offer id already exists (an import sent just before a crash), so a card is never imported twice.
 */

type Stored = { code: string; attribute: string } & ZhEnText;
type StoredCard = { item: Omit<ProductImportItem, 'offer_id'>; minPrice: number; stocks: { warehouseId: string; stock: number }[]; sku: string };

type ItemRow = {
  id: number;
  user_id: number;
  shop_id: number;
  shop_name: string;
  batch_id: string;
  row_id: string;
  old_product_id: string;
  old_offer_id: string;
  new_offer_id: string;
  new_product_id: string | null;
  name: string;
  image: string;
  step: ReuploadStep;
  failed_step: ReuploadStep | null;
  old_card: ReuploadItem['oldCard'];
  card: StoredCard | null;
  task_id: number | string | null;
  errors: Stored[];
  attempts: number;
  created_at: Date | string;
  updated_at: Date | string;
};

/** Consecutive passing failures (timeouts, rate limits, Ozon's 5xx) at one step before the product is failed. */
const MAX_ATTEMPTS = 3;
/** How long one caller holds a row while it moves it on. */
const LEASE_MS = 120_000;
/** The wait before a step that failed in passing is tried again, times the tries so far. */
const RETRY_WAIT_MS = 5_000;
/** Ozon's item code for a stock change within 30 s of the last one at that warehouse. */
const STOCK_TOO_SOON = 'TOO_MANY_REQUESTS';
const TRANSIENT: ReadonlySet<OzonErrorKind> = new Set(['timeout', 'network', 'rateLimited', 'circleOpen', 'server', 'malformed']);

const SELECT_ITEMS = `select r.*, s.name as shop_name from reupload_items r join mp_shops s on s.id = r.shop_id`;

function itemOf(row: ItemRow, lang: Lang): ReuploadItem {
  return {
    id: row.id,
    batchId: row.batch_id,
    rowId: row.row_id,
    shopId: row.shop_id,
    shopName: row.shop_name,
    name: row.name,
    image: row.image,
    oldOfferId: row.old_offer_id,
    oldProductId: row.old_product_id,
    newOfferId: row.new_offer_id,
    newProductId: row.new_product_id,
    step: row.step,
    failedStep: row.failed_step,
    oldCard: row.old_card,
    errors: row.errors.map((e) => ({ code: e.code, message: textIn(e, lang), attribute: e.attribute })),
    createdAt: new Date(row.created_at).getTime(),
    updatedAt: new Date(row.updated_at).getTime(),
  };
}

const storedOf = (code: string, texts: Localized, attribute = ''): Stored => ({ code, attribute, ...texts });
const catalogued = (key: MessageKey, params?: MessageParams): Stored => storedOf(key, localized(key, params));

function errorOf(error: unknown): { stored: Stored; transient: boolean } {
  if (isOzonError(error)) return { stored: storedOf(error.kind, error.texts), transient: TRANSIENT.has(error.kind) };
  if (error instanceof ApiError) return { stored: storedOf('error', eachLang((lang) => error.localized(lang))), transient: false };
  throw error;
}

async function batchRows(deps: ProductsDeps, userId: number, batchId: string): Promise<ItemRow[]> {
  return deps.database.query<ItemRow>(`${SELECT_ITEMS} where r.user_id = $1 and r.batch_id = $2${shopScopeSql('r.shop_id')} order by r.id`, [userId, batchId]);
}

// ---------------------------------------------------------------- quotas

const quota = (q: { limit: number; usage: number; reset_at?: string }) => ({ limit: q.limit, usage: q.usage, resetAt: q.reset_at ?? '' });

/** GET /api/product/limit: each of the user's shops' quotas from Ozon (or why they could not be read). */
export async function productLimits(deps: ProductsDeps, userId: number, storeIds: readonly number[] | undefined, lang: Lang): Promise<ProductLimit[]> {
  const shops = await deps.database.query<{ id: number; name: string }>(
    `select id, name from mp_shops where user_id = $1 and ($2::int[] is null or id = any($2::int[]))${shopScopeSql('id')} order by id`,
    [userId, storeIds?.length ? [...storeIds] : null],
  );
  return Promise.all(
    shops.map(async (shop): Promise<ProductLimit> => {
      try {
        const client = await deps.clientFor(userId, shop.id);
        const answer = await client.productInfoLimit();
        return { shopId: shop.id, shopName: shop.name, dailyCreate: quota(answer.daily_create), dailyUpdate: quota(answer.daily_update), total: { limit: answer.total.limit, usage: answer.total.usage }, error: null };
      } catch (error) {
        const none = { limit: 0, usage: 0, resetAt: '' };
        return { shopId: shop.id, shopName: shop.name, dailyCreate: none, dailyUpdate: none, total: { limit: 0, usage: 0 }, error: textIn(errorOf(error).stored, lang) };
      }
    }),
  );
}

/** How many more cards a shop may create today (null: not known or no limit, Ozon decides). */
async function createsLeft(deps: ProductsDeps, userId: number, shopId: number): Promise<{ left: number; limit: number; usage: number; resetAt: string } | null> {
  try {
    const answer = await (await deps.clientFor(userId, shopId)).productInfoLimit();
    const daily = quotaLeft(answer.daily_create);
    const total = quotaLeft(answer.total);
    if (daily === null && total === null) return null;
    return { left: Math.min(daily ?? Infinity, total ?? Infinity), limit: answer.daily_create.limit, usage: answer.daily_create.usage, resetAt: answer.daily_create.reset_at ?? '' };
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------- start

type ProductRowLite = { id: string; shop_id: number; product_id: string; offer_id: string; sku: string; name: string; image: string; status: string };

/**
 * POST /api/product/reUpload: the batch's rows made (a batch sent again keeps its rows), each product checked first
 * (the user's, not under moderation, not in another unfinished batch, within the shop's daily create quota). The
 * server's runner (reuploadRunner.ts) then moves the rows on, whether or not any browser still watches.
 */
export async function startReupload(
  deps: ProductsDeps,
  userId: number,
  body: { batchId: string; ids: string[] },
  lang: Lang,
): Promise<{ items: ReuploadItem[]; refused: ProductOutcome[] }> {
  const ids = [...new Set(body.ids)];
  const existing = new Map((await batchRows(deps, userId, body.batchId)).map((r) => [r.row_id, r]));
  const products = await deps.database.query<ProductRowLite>(
    `select id, shop_id, product_id, offer_id, sku, name, image, status from products where user_id = $1 and id = any($2::text[]) and not deleted${shopScopeSql('shop_id')}`,
    [userId, ids],
  );
  const byId = new Map(products.map((p) => [p.id, p]));
  const busy = new Set(
    (
      await deps.database.query<{ row_id: string }>(
        `select row_id from reupload_items where user_id = $1 and batch_id <> $2 and row_id = any($3::text[]) and step <> all($4::text[])`,
        [userId, body.batchId, ids, ['done', 'failed']],
      )
    ).map((r) => r.row_id),
  );
  const refused: ProductOutcome[] = [];
  const no = (id: string, key: MessageKey, params?: MessageParams) => refused.push({ id, ok: false, message: message(key, lang, params) });
  const fresh: ProductRowLite[] = [];
  for (const id of ids) {
    if (existing.has(id)) continue;
    const product = byId.get(id);
    if (!product) no(id, 'productNotFound');
    else if (product.status === 'moderating') no(id, 'reuploadModerating');
    else if (busy.has(id)) no(id, 'reuploadUnderway');
    else fresh.push(product);
  }
  // Ozon's daily quota of new cards, per shop: products past it are refused now rather than failed by Ozon later.
  const byShop = new Map<number, ProductRowLite[]>();
  for (const p of fresh) byShop.set(p.shop_id, [...(byShop.get(p.shop_id) ?? []), p]);
  const accepted: ProductRowLite[] = [];
  for (const [shopId, list] of byShop) {
    const creates = await createsLeft(deps, userId, shopId);
    const take = creates === null ? list.length : creates.left;
    accepted.push(...list.slice(0, take));
    for (const p of list.slice(take)) no(p.id, 'dailyCreateLimit', { usage: String(creates!.usage), limit: String(creates!.limit), at: quotaResetText(creates!.resetAt) });
  }
  if (accepted.length) {
    const taken = await deps.database.query<{ shop_id: number; offer_id: string }>(
      `select shop_id, offer_id from products where shop_id = any($1::int[])
       union select shop_id, new_offer_id from reupload_items where shop_id = any($1::int[])`,
      [[...byShop.keys()]],
    );
    const used = new Set(taken.map((t) => `${t.shop_id}|${t.offer_id}`));
    const rows: Record<string, unknown>[] = [];
    for (const p of accepted) {
      const offerId = nextOfferId(p.offer_id, (candidate) => used.has(`${p.shop_id}|${candidate}`));
      if (offerId === null) {
        no(p.id, 'reuploadOfferTaken');
        continue;
      }
      used.add(`${p.shop_id}|${offerId}`);
      rows.push({ shop_id: p.shop_id, row_id: p.id, old_product_id: p.product_id, old_offer_id: p.offer_id, new_offer_id: offerId, name: p.name, image: p.image });
    }
    await deps.database.query(
      `insert into reupload_items (user_id, shop_id, batch_id, row_id, old_product_id, old_offer_id, new_offer_id, name, image, step)
       select $1, x.shop_id, $2, x.row_id, x.old_product_id, x.old_offer_id, x.new_offer_id, x.name, x.image, 'reading'
       from jsonb_to_recordset($3::jsonb) as x(shop_id int, row_id text, old_product_id text, old_offer_id text, new_offer_id text, name text, image text)
       on conflict (user_id, batch_id, row_id) do nothing`,
      [userId, body.batchId, JSON.stringify(rows)],
    );
  }
  const items = (await batchRows(deps, userId, body.batchId)).map((r) => itemOf(r, lang));
  const order = new Map(ids.map((id, k) => [id, k]));
  refused.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  return { items, refused };
}

/** POST /api/product/reUpload/status: where each product of the batch stands (the runner moves them on). */
export async function reuploadStatus(deps: ProductsDeps, userId: number, batchId: string, lang: Lang): Promise<{ items: ReuploadItem[] }> {
  return { items: (await batchRows(deps, userId, batchId)).map((r) => itemOf(r, lang)) };
}

/** POST /api/product/reUpload/retry: failed rows resume at the step they stopped at. */
export async function retryReupload(deps: ProductsDeps, userId: number, batchId: string, ids: readonly number[], lang: Lang) {
  const rows = await deps.database.query<{ id: number }>(
    `update reupload_items set step = failed_step, failed_step = null, attempts = 0, errors = '[]'::jsonb, updated_at = now()
     where user_id = $1 and batch_id = $2 and id = any($3::int[]) and step = 'failed' and failed_step is not null${shopScopeSql('shop_id')} returning id`,
    [userId, batchId, [...ids]],
  );
  if (rows.length === 0) throw new ApiError(400, 'reuploadNotRetryable', 'ids');
  return reuploadStatus(deps, userId, batchId, lang);
}

type HistoryQuery = { page: number; rows: number; step?: ReuploadStep; search?: string };

export async function reuploadHistory(deps: ProductsDeps, userId: number, query: HistoryQuery, lang: Lang) {
  const search = query.search ? `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where = `r.user_id = $1 and ($2::text is null or r.step = $2) and ($3::text is null or r.name ilike $3 or r.old_offer_id ilike $3 or r.new_offer_id ilike $3)${shopScopeSql('r.shop_id')}`;
  const params = [userId, query.step ?? null, search];
  const [count] = await deps.database.query<{ total: number }>(`select count(*)::int as total from reupload_items r where ${where}`, params);
  const rows = await deps.database.query<ItemRow>(`${SELECT_ITEMS} where ${where} order by r.id desc limit $4 offset $5`, [...params, query.rows, (query.page - 1) * query.rows]);
  const open = await deps.database.query<{ batch_id: string; unsettled: number; total: number }>(
    `select batch_id, count(*) filter (where step <> all($2::text[]))::int as unsettled, count(*)::int as total
     from reupload_items where user_id = $1${shopScopeSql('shop_id')} group by batch_id
     having count(*) filter (where step <> all($2::text[])) > 0 order by max(id) desc limit 20`,
    [userId, ['done', 'failed']],
  );
  return {
    list: rows.map((r) => itemOf(r, lang)),
    total: count?.total ?? 0,
    openBatches: open.map((b) => ({ batchId: b.batch_id, unsettled: b.unsettled, total: b.total })),
  };
}

// ---------------------------------------------------------------- moving a row on

/** Which rows a pass of the runner moves on: every user's, or one user's batch (tests, a resumed batch). */
export type ReuploadScope = { userId?: number; batchId?: string; skip?: ReadonlySet<number> };

/**
 * Takes up to `limit` unsettled rows that nobody holds and whose wait is over (oldest first, `skip` left out),
 * holds them, and moves each on as far as Ozon allows now. Answers the rows taken and, per user, how many rows of
 * their product list changed. An error that is not Ozon's or ours (a crash) ends the call; the rows stay held until
 * their lease runs out, then the next pass resumes them from their saved step.
 */
export async function advanceReuploads(deps: ProductsDeps, scope: ReuploadScope, limit: number): Promise<{ taken: number[]; changed: Map<number, number> }> {
  const rows = await deps.database.query<ItemRow>(
    `update reupload_items r set lease_until = now() + ($1 || ' milliseconds')::interval
     from mp_shops s
     where s.id = r.shop_id and r.id in (
       select id from reupload_items
       where step = any($2::text[]) and (lease_until is null or lease_until < now())
         and ($3::int is null or user_id = $3) and ($4::text is null or batch_id = $4) and id <> all($5::int[])
       order by id limit $6 for update skip locked)
     returning r.*, s.name as shop_name`,
    [String(LEASE_MS), REUPLOAD_UNSETTLED, scope.userId ?? null, scope.batchId ?? null, [...(scope.skip ?? [])], limit],
  );
  const changed = new Map<number, number>();
  const byShop = new Map<string, ItemRow[]>();
  for (const row of rows.sort((a, b) => a.id - b.id)) {
    const key = `${row.user_id}|${row.shop_id}`;
    byShop.set(key, [...(byShop.get(key) ?? []), row]);
  }
  for (const shopRows of byShop.values()) {
    const { user_id: userId, shop_id: shopId } = shopRows[0]!;
    let client: OzonClient;
    try {
      client = await deps.clientFor(userId, shopId);
    } catch (error) {
      for (const row of shopRows) await failOrWait(deps, row, errorOf(error));
      continue;
    }
    for (const row of shopRows) {
      try {
        const count = await advanceRow(deps, client, row);
        if (count > 0) changed.set(userId, (changed.get(userId) ?? 0) + count);
      } catch (error) {
        await failOrWait(deps, row, errorOf(error));
      }
    }
  }
  return { taken: rows.map((r) => r.id), changed };
}

async function save(deps: ProductsDeps, row: ItemRow, change: Partial<Pick<ItemRow, 'step' | 'failed_step' | 'old_card' | 'card' | 'task_id' | 'new_product_id' | 'errors'>>): Promise<ItemRow> {
  const next = { ...row, ...change, attempts: 0 };
  await deps.database.query(
    `update reupload_items set step = $2, failed_step = $3, old_card = $4, card = $5::jsonb, task_id = $6, new_product_id = $7, errors = $8::jsonb,
       attempts = 0, updated_at = now(), lease_until = case when $2 = any($9::text[]) then lease_until else null end
     where id = $1`,
    [row.id, next.step, next.failed_step, next.old_card, next.card === null ? null : JSON.stringify(next.card), next.task_id, next.new_product_id, JSON.stringify(next.errors), REUPLOAD_UNSETTLED],
  );
  return next;
}

/**
 * A failure at the row's step: a passing one is tried again after a wait growing with each try (up to MAX_ATTEMPTS),
 * any other fails the product.
 */
async function failOrWait(deps: ProductsDeps, row: ItemRow, { stored, transient }: { stored: Stored; transient: boolean }): Promise<void> {
  const fail = !transient || row.attempts + 1 >= MAX_ATTEMPTS;
  await deps.database.query(
    `update reupload_items set attempts = attempts + 1, errors = $2::jsonb, updated_at = now(),
       lease_until = case when $3 then null else now() + ($4 || ' milliseconds')::interval end,
       step = case when $3 then 'failed' else step end, failed_step = case when $3 then step else failed_step end
     where id = $1`,
    [row.id, JSON.stringify([stored]), fail, String(RETRY_WAIT_MS * (row.attempts + 1))],
  );
}

const release = (deps: ProductsDeps, row: ItemRow) => deps.database.query(`update reupload_items set lease_until = null where id = $1`, [row.id]);

type Attribute = ProductImportItem['attributes'][number];

/** The old card as an import item, read from Ozon (attributes, pictures, dimensions, prices), and its stocks. */
async function readCard(deps: ProductsDeps, client: OzonClient, row: ItemRow): Promise<StoredCard | null> {
  const productId = Number(row.old_product_id);
  const [attributes] = (await client.productInfoAttributes({ filter: { product_id: [String(productId)] }, limit: 1 })).result;
  const [info] = await client.productInfoList({ product_id: [productId] });
  if (!attributes || !info) return null;
  const [stored] = await deps.database.query<{ stocks: Record<string, number> | null; fbs_stock: number }>(`select stocks, fbs_stock from products where id = $1`, [row.row_id]);
  let stocks = Object.entries(stored?.stocks ?? {}).map(([warehouseId, stock]) => ({ warehouseId, stock: Number(stock) }));
  if (stocks.length === 0 && (stored?.fbs_stock ?? 0) > 0) {
    // The app never set this card's stock: Ozon's stock answer names the warehouses holding it but not how much each holds.
    const answer = await client.productInfoStocks({ filter: { product_id: [String(productId)] }, limit: 1 });
    const fbs = answer.items[0]?.stocks.find((s) => s.type === 'fbs');
    const warehouse = fbs?.warehouse_ids[0];
    if (fbs && warehouse !== undefined) stocks = [{ warehouseId: String(warehouse), stock: fbs.present }];
  }
  const images = attributes.images.length ? attributes.images : info.images;
  return {
    item: {
      name: attributes.name,
      description_category_id: attributes.description_category_id,
      type_id: attributes.type_id,
      attributes: attributes.attributes.map((a): Attribute => ({ id: a.id, complex_id: a.complex_id, values: a.values.map((v) => ({ dictionary_value_id: v.dictionary_value_id, value: v.value })) })),
      price: info.price ?? '0',
      old_price: info.old_price ?? '0',
      currency_code: info.currency_code ?? 'CNY',
      vat: info.vat ?? '0',
      images: images.slice(0, 15),
      primary_image: attributes.primary_image ?? undefined,
      depth: attributes.depth,
      width: attributes.width,
      height: attributes.height,
      dimension_unit: (attributes.dimension_unit as ProductImportItem['dimension_unit']) ?? 'mm',
      weight: attributes.weight,
      weight_unit: (attributes.weight_unit as ProductImportItem['weight_unit']) ?? 'g',
    },
    minPrice: Number(info.min_price ?? 0) || 0,
    stocks,
    sku: Number(info.sku ?? 0) > 0 ? String(info.sku) : '',
  };
}

/** The new card as Ozon describes it, by its offer id (null: Ozon has none). */
async function newCard(client: OzonClient, row: ItemRow): Promise<OzonProductInfo | null> {
  return (await client.productInfoList({ offer_id: [row.new_offer_id] })).find((p) => p.offer_id === row.new_offer_id) ?? null;
}

/** Stores cards as the sync stores them and projects them into the product list. */
async function storeCards(deps: ProductsDeps, shopId: number, cards: readonly OzonProductInfo[]): Promise<number> {
  if (cards.length === 0) return 0;
  const [at] = await deps.database.query<{ now: Date | string }>(`select now() as now`);
  await deps.database.query(
    `insert into mp_records (shop_id, entity, external_id, data, synced_at)
     select $1, 'products', r.id, r.data, now() from jsonb_to_recordset($2::jsonb) as r(id text, data jsonb)
     on conflict (shop_id, entity, external_id) do update set data = excluded.data, synced_at = excluded.synced_at`,
    [shopId, JSON.stringify(cards.map((c) => ({ id: String(c.id), data: { product_id: c.id, offer_id: c.offer_id, archived: Boolean(c.is_archived || c.is_autoarchived), info: c } })))],
  );
  return (await projectProducts(deps.database, shopId, { since: new Date(at!.now) })).changed;
}

/**
 * One row from its step as far as Ozon allows now (each step saved before the next); answers how many list rows
 * changed. Waiting on Ozon (an import task pending, moderation under way) ends the call and releases the row.
 */
async function advanceRow(deps: ProductsDeps, client: OzonClient, start: ItemRow): Promise<number> {
  let row = start;
  let changed = 0;
  for (;;) {
    switch (row.step) {
      case 'reading': {
        const card = await readCard(deps, client, row);
        row = card ? await save(deps, row, { card, step: 'archiving' }) : await save(deps, row, { step: 'failed', failed_step: 'reading', errors: [catalogued('productNotFoundOnOzon')] });
        break;
      }
      case 'archiving': {
        const [info] = await client.productInfoList({ product_id: [Number(row.old_product_id)] });
        if (!info) {
          // Already gone from Ozon (deleted before a crash): its stored card is what gets imported.
          row = await save(deps, row, { old_card: 'deleted', step: 'importing' });
          break;
        }
        if (!info.is_archived && !info.is_autoarchived) await client.productArchive([Number(row.old_product_id)]);
        row = await save(deps, row, { old_card: 'archived', step: 'deleting' });
        break;
      }
      case 'deleting': {
        let oldCard: ItemRow['old_card'] = 'archived';
        if (!row.card?.sku) {
          const [verdict] = await client.productsDelete([row.old_offer_id]);
          if (verdict?.is_deleted || verdict?.error === 'PRODUCT_NOT_FOUND') oldCard = 'deleted';
        }
        const [old] = oldCard === 'archived' ? await client.productInfoList({ product_id: [Number(row.old_product_id)] }) : [];
        if (old) changed += await storeCards(deps, row.shop_id, [old]);
        if (oldCard === 'deleted') {
          const gone = await deps.database.query(`update products set deleted = true, updated_at = clock_timestamp() where id = $1 and not deleted returning id`, [row.row_id]);
          await deps.database.query(`delete from mp_records where shop_id = $1 and entity = 'products' and external_id = $2`, [row.shop_id, row.old_product_id]);
          changed += gone.length;
        }
        row = await save(deps, row, { old_card: oldCard, step: 'importing' });
        break;
      }
      case 'importing': {
        if (row.task_id === null) {
          const already = await newCard(client, row);
          if (already) {
            row = await save(deps, row, { new_product_id: String(already.id), step: 'moderating' });
            break;
          }
          const taskId = await client.productImport([{ ...row.card!.item, offer_id: row.new_offer_id }]);
          row = await save(deps, row, { task_id: taskId });
        }
        const task = await client.productImportInfo(Number(row.task_id));
        const result = task.items.find((i) => i.offer_id === row.new_offer_id);
        if (!result || result.status === 'pending') {
          await release(deps, row);
          return changed;
        }
        if (result.status === 'failed' || result.status === 'skipped') {
          const errors = result.errors.map((e) => {
            const { code, texts } = describeItemError(e);
            return storedOf(code, texts, e.attribute_name ?? '');
          });
          // A failed import leaves no card behind: the retry imports again.
          row = await save(deps, row, { step: 'failed', failed_step: 'importing', task_id: null, errors: errors.length ? errors : [storedOf('failed', localized('operationFailed'))] });
          return changed;
        }
        row = await save(deps, row, { new_product_id: result.product_id ? String(result.product_id) : row.new_product_id, step: 'moderating' });
        break;
      }
      case 'moderating': {
        const card = await newCard(client, row);
        if (!card) {
          await release(deps, row);
          return changed;
        }
        const declined = card.statuses?.moderate_status === 'declined' || (card.statuses?.status_failed ?? '') !== '';
        if (declined) {
          changed += await storeCards(deps, row.shop_id, [card]);
          const reasons = (card.errors as { code?: string; attribute_id?: number; texts?: { attribute_name?: string; description?: string } }[]).flatMap((e) =>
            e.code ? [storedOf(e.code, describeItemError({ code: e.code, message: e.texts?.description ?? e.code }).texts, e.texts?.attribute_name ?? '')] : [],
          );
          row = await save(deps, row, { new_product_id: String(card.id), step: 'failed', failed_step: 'moderating', errors: reasons.length ? reasons : [storedOf('failed_moderation', describeItemError({ code: 'failed_moderation', message: '' }).texts)] });
          return changed;
        }
        if (!(Number(card.sku ?? 0) > 0) || card.statuses?.moderate_status === 'moderating') {
          await release(deps, row);
          return changed;
        }
        row = await save(deps, row, { new_product_id: String(card.id), step: 'restoring' });
        break;
      }
      case 'restoring': {
        const card = row.card!;
        const productId = Number(row.new_product_id);
        if (card.minPrice > 0) {
          const [verdict] = await client.productImportPrices([{ offer_id: row.new_offer_id, product_id: productId, price: card.item.price, old_price: card.item.old_price ?? '0', min_price: card.minPrice.toFixed(2), currency_code: card.item.currency_code }]);
          if (verdict && !verdict.updated) throw new ApiError(400, verdict.failures[0]?.texts ?? localized('operationFailed'));
        }
        const stocks = card.stocks.filter((s) => s.stock > 0);
        if (stocks.length) {
          const verdicts = await client.productsStocks(stocks.map((s) => ({ offer_id: row.new_offer_id, product_id: productId, stock: s.stock, warehouse_id: Number(s.warehouseId) })));
          const refused = verdicts.filter((v) => !v.updated);
          if (refused.some((v) => v.failures.some((f) => f.code !== STOCK_TOO_SOON))) {
            throw new ApiError(400, refused[0]!.failures[0]?.texts ?? localized('operationFailed'));
          }
          if (refused.length) {
            // Ozon takes one stock change per product and warehouse every 30 s: a change sent just before a crash
            // is refused as too soon. When the stock already stands as wanted it is done; otherwise ask again later.
            const answer = await client.productInfoStocks({ filter: { product_id: [String(productId)] }, limit: 1 });
            const present = answer.items[0]?.stocks.find((s) => s.type === 'fbs')?.present;
            if (present !== stocks.reduce((sum, s) => sum + s.stock, 0)) {
              await release(deps, row);
              return changed;
            }
          }
        }
        const fresh = await newCard(client, row);
        if (fresh) changed += await storeCards(deps, row.shop_id, [fresh]);
        if (stocks.length) {
          await deps.database.query(`update products set stocks = $2::jsonb where id = $1`, [
            `${row.shop_id}:${row.new_product_id}`,
            JSON.stringify(Object.fromEntries(stocks.map((s) => [s.warehouseId, s.stock]))),
          ]);
        }
        row = await save(deps, row, { step: 'done', errors: [] });
        return changed;
      }
      default:
        await release(deps, row);
        return changed;
    }
  }
}
