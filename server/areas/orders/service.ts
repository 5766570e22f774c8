import { randomUUID } from 'node:crypto';
import { ownRecordsSql, shopScopeSql } from '../team/shopScope';
import { PDFDocument } from 'pdf-lib';
import { eachLang, message, type Lang, type Localized } from '../../../contract/errors';
import {
  CANCEL_REASON_OTHER,
  CANCELLABLE_STATUSES,
  type BatchResult,
  type CancelReasonsAnswer,
  type OrderListPage,
  type PostingDetail,
  type OrderRow,
  type StockResult,
  type Warehouse,
} from '../../../contract/orders';
import {
  type addOrderBodySchema,
  ORDER_SYNC_MAX_LIMIT,
  type orderListQuerySchema,
  type updateOrderBodySchema,
} from '../../../contract/orders';
import type { z } from 'zod';
import { LABELS_NOT_READY_FIELD } from '../../../contract/orderActions';
import type { Database } from '../../db/database';
import { ApiError } from '../../http/errors';
import { createListFrameSync, nextListCursor, parseListCursor } from '../../lists/frameSync';
import { ORDER_COPY } from './frame';
import { STOCKS_PER_CALL, TRACKING_NUMBERS_PER_CALL, type OzonClient } from '../../marketplace/ozon/client';
import { isOzonError } from '../../marketplace/ozon/errors';
import { postingExtrasSchema } from '../../marketplace/ozon/schemas';

/** How the orders area reaches a shop's Ozon client (the store area builds it from the shop's decrypted key). */
export type ShopClientFor = (userId: number, shopId: number) => Promise<OzonClient>;
export type OrdersDeps = { database: Database; clientFor: ShopClientFor; now: () => Date };

/** Consecutive slices of at most `size` items (Ozon's per-call limits). */
function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
/** A message names a few postings and counts the rest: a batch of a thousand must not fill the screen. */
const SHOWN_POSTINGS = 5;
const postingList = (numbers: readonly string[], lang: Lang): string => {
  const shown = numbers.slice(0, SHOWN_POSTINGS).join(message('listSeparator', lang));
  const more = numbers.length - SHOWN_POSTINGS;
  return more <= 0 ? shown : message('postingsAndMore', lang, { shown, count: String(numbers.length), more: String(more) });
};
/** The `{postings}` of a label refusal, in every language. */
const postingsParam = (numbers: readonly string[]): Localized => eachLang((lang) => postingList(numbers, lang));
/** Statuses in which Ozon has (or will shortly have) a label for a posting. */
const LABEL_STATUSES: ReadonlySet<string> = new Set(['awaiting_deliver', 'delivering', 'driver_pickup', 'delivered', 'sent_by_seller', 'arbitration', 'client_arbitration']);

const ms = (column: string) => `(extract(epoch from ${column}) * 1000)::bigint`;

/** One row as contract/orders.ts OrderRow, built by Postgres (bulk answers are JSON text, never row objects). */
export const ROW_JSON = `json_build_object(
  'id', o.id, 'shopId', o.shop_id, 'shopName', o.shop_name, 'postingNumber', o.posting_number,
  'orderNumber', o.order_number, 'orderId', o.order_id, 'status', o.status, 'substatus', o.substatus,
  'warehouseId', o.warehouse_id, 'warehouseName', o.warehouse_name, 'inProcessAt', ${ms('o.in_process_at')},
  'shipmentDate', ${ms('o.shipment_date')}, 'deliveringDate', ${ms('o.delivering_date')},
  'trackingNumber', o.tracking_number, 'sku', o.sku, 'offerId', o.offer_id, 'productName', o.product_name,
  'quantity', o.quantity, 'amount', o.amount, 'currency', o.currency, 'source', o.source,
  'updatedAt', ${ms('o.updated_at')}, 'deleted', o.deleted)`;


type RowJson = { row: OrderRow };

/** Postgres hands numeric as a string and bigint as a string or number depending on the driver: normalise. */
function normalise(row: OrderRow): OrderRow {
  const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return {
    ...row,
    amount: Number(row.amount),
    inProcessAt: Number(row.inProcessAt),
    shipmentDate: num(row.shipmentDate),
    deliveringDate: num(row.deliveringDate),
    updatedAt: Number(row.updatedAt),
  };
}

// ---------------------------------------------------------------- list, get

/**
 * The caller's orders as ` and …` fragments: their shops, and of entered orders only those they entered when their
 * role keeps them to their own records (orders synced from Ozon have no creator: the shop scope alone decides).
 */
const callerScopeParts = (alias = '') => [shopScopeSql(`${alias}shop_id`), ownRecordsSql(`${alias}created_by`, `${alias}source <> 'manual'`)];
export const callerScopeSql = (alias = '') => callerScopeParts(alias).join('');

type ListQuery = z.output<typeof orderListQuerySchema>;

const SORT_COLUMNS = { inProcessAt: 'in_process_at', shipmentDate: 'shipment_date', amount: 'amount', updatedAt: 'updated_at' } as const;

export async function listOrders(deps: OrdersDeps, userId: number, query: ListQuery): Promise<OrderListPage> {
  const params: unknown[] = [userId];
  const where = ['o.user_id = $1', 'not o.deleted'];
  const param = (value: unknown) => `$${params.push(value)}`;
  // While only shops narrow the list (a member's scope, the shop filter), its total is the sum of those shops' counts.
  const counted = ['user_id = $1'];
  // A member scoped to some shops: only theirs (and the total counts only theirs).
  const [shopScope, ownRecords] = callerScopeParts('o.');
  if (shopScope) {
    where.push(shopScope.slice(' and '.length));
    counted.push(shopScopeSql('shop_id').slice(' and '.length));
  }
  if (query.shopIds?.length) {
    const shops = param(query.shopIds);
    where.push(`o.shop_id = any(${shops}::int[])`);
    counted.push(`shop_id = any(${shops}::int[])`);
  }
  const byShopsOnly = where.length;
  if (ownRecords) where.push(ownRecords.slice(' and '.length));
  if (query.statuses?.length) where.push(`o.status = any(${param(query.statuses)}::text[])`);
  if (query.warehouseIds?.length) where.push(`o.warehouse_id = any(${param(query.warehouseIds)}::text[])`);
  if (query.source) where.push(`o.source = ${param(query.source)}`);
  const range = (column: string, from: number | undefined, to: number | undefined, isTime: boolean) => {
    const cast = (p: string) => (isTime ? `to_timestamp(${p}::double precision / 1000)` : `${p}::numeric`);
    if (from !== undefined) where.push(`o.${column} >= ${cast(param(from))}`);
    if (to !== undefined) where.push(`o.${column} <= ${cast(param(to))}`);
  };
  range('in_process_at', query.inProcessFrom, query.inProcessTo, true);
  range('shipment_date', query.shipmentFrom, query.shipmentTo, true);
  range('amount', query.amountFrom, query.amountTo, false);
  if (query.search) {
    const needle = param(`%${query.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(
      `(${['posting_number', 'order_number', 'sku', 'offer_id', 'product_name', 'tracking_number'].map((c) => `lower(o.${c}) like ${needle}`).join(' or ')})`,
    );
  }
  // The browser's list engine's order (workers/lists/engine.ts): empty values last ascending and first descending,
  // ties in sync order (updated_at, id). A first visit shows this page until its cache is filled, then the engine's.
  const order = `o.${SORT_COLUMNS[query.sort]} ${query.direction} nulls ${query.direction === 'asc' ? 'last' : 'first'}, o.updated_at, o.id`;
  const limit = param(query.rows);
  const offset = param((query.page - 1) * query.rows);
  // The page walks orders_user_in_process_idx (backward for the default newest first) and stops at `limit`. The
  // live orders of each user's shop are kept by triggers (order_counts); a list narrowed by more than shops counts.
  const total =
    where.length > byShopsOnly
      ? `(select count(*) from orders o where ${where.join(' and ')})`
      : `coalesce((select sum(live) from order_counts where ${counted.join(' and ')}), 0)`;
  const [result] = await deps.database.query<{ list: string; total: number | string }>(
    `select (select coalesce(json_agg(${ROW_JSON} order by ${order}), '[]')::text
               from (select * from orders o where ${where.join(' and ')} order by ${order} limit ${limit} offset ${offset}) o) as list,
            ${total} as total`,
    params,
  );
  return { list: (JSON.parse(result!.list) as OrderRow[]).map(normalise), total: Number(result!.total) };
}

async function rowsOf(deps: OrdersDeps, userId: number, ids: readonly string[]): Promise<OrderRow[]> {
  const rows = await deps.database.query<RowJson>(
    `select ${ROW_JSON} as row from orders o where o.user_id = $1 and o.id = any($2::text[]) and not o.deleted${callerScopeSql('o.')}`,
    [userId, ids],
  );
  return rows.map((r) => normalise(r.row));
}

/**
 * The rows `ids` name and every other line of their postings: Ozon ships a posting whole (a package lists all its
 * products), and a row picked in the posting view stands for its posting.
 */
async function postingRowsOf(deps: OrdersDeps, userId: number, ids: readonly string[]): Promise<OrderRow[]> {
  const rows = await deps.database.query<RowJson>(
    `select ${ROW_JSON} as row from orders o where o.user_id = $1 and not o.deleted${callerScopeSql('o.')} and (o.id = any($2::text[]) or (o.posting_number <> '' and
       (o.shop_id, o.posting_number) in (select p.shop_id, p.posting_number from orders p where p.user_id = $1 and p.id = any($2::text[]) and p.posting_number <> '')))`,
    [userId, ids],
  );
  return rows.map((r) => normalise(r.row));
}

export async function getOrder(deps: OrdersDeps, userId: number, id: string): Promise<OrderRow> {
  const [row] = await rowsOf(deps, userId, [id]);
  if (!row) throw new ApiError(404, 'orderNotFound', 'id');
  return row;
}

// ---------------------------------------------------------------- entered orders

type AddBody = z.output<typeof addOrderBodySchema>;
type UpdateBody = z.output<typeof updateOrderBodySchema>;

async function shopName(deps: OrdersDeps, userId: number, shopId: number): Promise<string> {
  if (shopId === 0) return '';
  const [shop] = await deps.database.query<{ name: string }>(`select name from mp_shops where id = $1 and user_id = $2`, [shopId, userId]);
  if (!shop) throw new ApiError(400, 'shopNotFound', 'shopId');
  return shop.name;
}

/** `createdBy`: the person entering it (an organisation's member sees only their own when their role says so). */
export async function addOrder(deps: OrdersDeps, userId: number, body: AddBody, createdBy: number): Promise<OrderRow> {
  const id = `m:${randomUUID()}`;
  const name = await shopName(deps, userId, body.shopId);
  await deps.database.query(
    `insert into orders (id, user_id, shop_id, shop_name, posting_number, order_number, status, warehouse_name, in_process_at,
       tracking_number, sku, offer_id, product_name, quantity, amount, currency, source, updated_at, created_by)
     values ($1, $2, $3, $4, $5, $6, $7, $8, to_timestamp($9::double precision / 1000), $10, $11, $12, $13, $14, $15, $16, 'manual', clock_timestamp(), $17)`,
    [id, userId, body.shopId, name, body.postingNumber, body.orderNumber, body.status, body.warehouseName, body.inProcessAt,
      body.trackingNumber, body.sku, body.offerId, body.productName, body.quantity, body.amount, body.currency, createdBy],
  );
  return getOrder(deps, userId, id);
}

async function ownManual(deps: OrdersDeps, userId: number, id: string): Promise<OrderRow> {
  const row = await getOrder(deps, userId, id);
  if (row.source !== 'manual') throw new ApiError(400, 'orderNotManual', 'id');
  return row;
}

export async function updateOrder(deps: OrdersDeps, userId: number, body: UpdateBody): Promise<OrderRow> {
  const current = await ownManual(deps, userId, body.id);
  const next = { ...current, ...Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) } as OrderRow;
  const name = body.shopId === undefined ? current.shopName : await shopName(deps, userId, body.shopId);
  await deps.database.query(
    `update orders set shop_id = $3, shop_name = $4, posting_number = $5, order_number = $6, status = $7, warehouse_name = $8,
       in_process_at = to_timestamp($9::double precision / 1000), tracking_number = $10, sku = $11, offer_id = $12,
       product_name = $13, quantity = $14, amount = $15, currency = $16, updated_at = clock_timestamp()
     where id = $1 and user_id = $2`,
    [body.id, userId, next.shopId, name, next.postingNumber, next.orderNumber, next.status, next.warehouseName, next.inProcessAt,
      next.trackingNumber, next.sku, next.offerId, next.productName, next.quantity, next.amount, next.currency],
  );
  return getOrder(deps, userId, body.id);
}

/** Entered orders only; they become tombstones so every browser's cache drops them. */
export async function deleteOrders(deps: OrdersDeps, userId: number, ids: readonly string[]): Promise<number> {
  const rows = await deps.database.query(
    `update orders set deleted = true, updated_at = clock_timestamp()
     where user_id = $1 and id = any($2::text[]) and source = 'manual' and not deleted${callerScopeSql()} returning id`,
    [userId, ids],
  );
  return rows.length;
}

// ---------------------------------------------------------------- incremental sync

export { SYNC_SETTLE_MS } from '../../lists/frameSync';
/** The user's rows changed after `from`, oldest change first: `limit` of them plus one that tells whether more wait. */
const pageSql = (scope: string) => `page as (
       select o.*, row_number() over (order by o.updated_at, o.id) as rn
       from (select * from orders
             where user_id = $1 and (updated_at, id) > (timestamptz 'epoch' + $2::bigint * interval '1 microsecond', $3)${scope}
             order by updated_at, id limit $4 + 1) o
     )`;
const LAST_SQL = `(array_agg((extract(epoch from o.updated_at) * 1000000)::bigint || ':' || o.id order by o.rn desc) filter (where o.rn <= $4))[1]`;

/**
 * GET /api/order/sync: the user's rows changed after `cursor`, oldest change first, at most `limit`.
 * Postgres builds the rows' JSON text; the route sends it on without parsing it.
 * The cursor is `<updated_at in µs>:<id>`.
 */
export async function syncChunk(deps: OrdersDeps, userId: number, cursorText: string | undefined, limit: number) {
  const from = parseListCursor(cursorText);
  const take = Math.min(limit, ORDER_SYNC_MAX_LIMIT);
  const [result] = await deps.database.query<{ rows: string; n: number | string; last: string | null }>(
    `with ${pageSql(callerScopeSql())}
     select coalesce(json_agg(${ROW_JSON} order by o.rn) filter (where o.rn <= $4), '[]')::text as rows,
            count(*) as n, ${LAST_SQL} as last
     from page o`,
    [userId, from.micros.toString(), from.id, take],
  );
  const hasMore = Number(result!.n) > take;
  return { rowsJson: result!.rows, cursor: nextListCursor(deps.now(), from, result!.last, hasMore), hasMore };
}

/**
 * GET /api/order/sync?format=binary: the same changes as `syncChunk`, as one frame (contract/orderChunk.ts), with
 * the list sync's read-ahead (server/lists/frameSync.ts).
 */
export function createFrameSync(deps: OrdersDeps) {
  return createListFrameSync(deps, { copy: ORDER_COPY, table: 'orders', maxLimit: ORDER_SYNC_MAX_LIMIT, callerSql: () => ownRecordsSql('created_by', "source <> 'manual'") });
}

// ---------------------------------------------------------------- marketplace actions

type Posting = { shopId: number; postingNumber: string; rows: OrderRow[] };

function byPosting(rows: readonly OrderRow[]): Posting[] {
  const postings = new Map<string, Posting>();
  for (const row of rows) {
    const key = `${row.shopId}:${row.postingNumber}`;
    let posting = postings.get(key);
    if (!posting) postings.set(key, (posting = { shopId: row.shopId, postingNumber: row.postingNumber, rows: [] }));
    posting.rows.push(row);
  }
  return [...postings.values()];
}

function reasonOf(error: unknown, lang: Lang): string {
  if (isOzonError(error) && error.ozonMessage.includes('POSTING_ALREADY_SHIPPED')) return message('postingAlreadyShipped', lang);
  if (isOzonError(error) && error.ozonMessage.includes('POSTING_ALREADY_CANCELLED')) return message('postingAlreadyCancelled', lang);
  if (isOzonError(error)) return error.texts[lang];
  if (error instanceof ApiError) return error.localized(lang);
  return message('operationFailed', lang);
}

/** Statuses a posting has once it was shipped (handed over or on its way): a ship of it was carried out. */
const SHIPPED_STATUSES: ReadonlySet<string> = new Set(['awaiting_deliver', 'sent_by_seller', 'driver_pickup', 'delivering', 'delivered', 'arbitration', 'client_arbitration']);
/** A ship whose answer was lost and that Ozon then shows still awaiting packaging is sent again at most this often. */
const SHIP_RESENDS = 1;

/**
 * Ships one posting on Ozon and answers its status there afterwards. A ship is not safe to send twice: one whose
 * answer was lost (a timeout, a 5xx) is settled by reading the posting back, and so is Ozon's "already shipped" (the
 * earlier ship went through): shipped counts as done. Sent again only when Ozon shows it still awaiting packaging.
 */
async function shipOnOzon(client: OzonClient, posting: Posting): Promise<string> {
  const request = {
    posting_number: posting.postingNumber,
    packages: [{ products: posting.rows.map((row) => ({ product_id: Number(row.sku), quantity: row.quantity })) }],
  };
  for (let resent = 0; ; resent++) {
    try {
      await client.postingFbsShip(request);
      return 'awaiting_deliver';
    } catch (error) {
      const alreadyShipped = isOzonError(error) && error.ozonMessage.includes('POSTING_ALREADY_SHIPPED');
      if (!alreadyShipped && !(isOzonError(error) && error.outcomeUnknown)) throw error;
      const state = await client.postingFbsGet(posting.postingNumber).catch(() => null);
      if (state && SHIPPED_STATUSES.has(state.status)) return state.status;
      if (alreadyShipped && !state) return 'awaiting_deliver';
      // Not carried out (or not known to be): the seller is told Ozon did not answer, and may try again.
      if (alreadyShipped || state?.status !== 'awaiting_packaging' || resent >= SHIP_RESENDS) throw error;
    }
  }
}

/** Ships the selected rows' postings in one package each (Ozon: the products and quantities of the posting). */
export async function shipOrders(deps: OrdersDeps, userId: number, ids: readonly string[], lang: Lang): Promise<BatchResult> {
  const rows = await postingRowsOf(deps, userId, ids);
  const result: BatchResult = { done: 0, failures: [] };
  for (const posting of byPosting(rows)) {
    const manual = posting.rows[0]!.source === 'manual';
    try {
      if (!posting.rows.every((row) => row.status === 'awaiting_packaging')) throw new ApiError(400, 'orderNotShippable');
      const status = manual ? 'awaiting_deliver' : await shipOnOzon(await deps.clientFor(userId, posting.shopId), posting);
      await deps.database.query(
        `update orders set status = $3, updated_at = clock_timestamp() where user_id = $1 and id = any($2::text[])`,
        [userId, posting.rows.map((row) => row.id), status],
      );
      if (!manual) await patchSyncedPostings(deps, posting.shopId, [{ postingNumber: posting.postingNumber, patch: { status } }]);
      result.done++;
    } catch (error) {
      result.failures.push({ postingNumber: posting.postingNumber || posting.rows[0]!.orderNumber, message: reasonOf(error, lang) });
    }
  }
  return result;
}

/** Ozon's view of the row's posting for its drawer; an entered order has nothing on Ozon and answers its own rows. */
export async function postingDetail(deps: OrdersDeps, userId: number, id: string): Promise<PostingDetail> {
  const row = await getOrder(deps, userId, id);
  const own: PostingDetail = {
    postingNumber: row.postingNumber,
    buyer: null,
    address: null,
    destination: null,
    deliveryMethod: '',
    products: [],
    cancellation: null,
  };
  if (row.source === 'manual' || row.postingNumber === '') return own;
  const client = await deps.clientFor(userId, row.shopId);
  let posting: Awaited<ReturnType<typeof client.postingFbsGet>>;
  try {
    posting = await client.postingFbsGet(row.postingNumber, { analytics_data: true, financial_data: true });
  } catch (error) {
    if (isOzonError(error)) throw new ApiError(error.code, error.texts);
    throw error;
  }
  const extras = postingExtrasSchema.parse(posting);
  const text = (value: string | null | undefined) => value ?? '';
  const address = extras.customer?.address;
  const finance = new Map((extras.financial_data?.products ?? []).map((p) => [String(p.product_id), p]));
  const recipient = extras.addressee?.name ? extras.addressee : extras.customer;
  return {
    ...own,
    buyer: recipient?.name ? { name: recipient.name, phone: text(recipient.phone) } : null,
    address: address?.address_tail
      ? {
          text: address.address_tail,
          city: text(address.city),
          region: text(address.region),
          zipCode: text(address.zip_code),
          country: text(address.country),
          comment: text(address.comment),
        }
      : null,
    destination: extras.analytics_data?.city || extras.analytics_data?.region ? { region: text(extras.analytics_data.region), city: text(extras.analytics_data.city) } : null,
    deliveryMethod: posting.delivery_method?.name ?? '',
    products: posting.products.map((product) => {
      const money = finance.get(String(product.sku));
      return {
        sku: String(product.sku),
        quantity: product.quantity,
        price: money?.price ?? product.price.amount,
        commission: money?.commission_amount ?? money?.commission?.amount ?? null,
        commissionPercent: money?.commission_percent ?? money?.commission?.percent ?? null,
        payout: money?.payout ?? null,
        currency: money?.currency_code || product.price.currency,
      };
    }),
    cancellation: posting.cancellation?.cancel_reason
      ? { reasonId: posting.cancellation.cancel_reason_id ?? null, reason: posting.cancellation.cancel_reason }
      : null,
  };
}

const CANCELLABLE: ReadonlySet<string> = new Set(CANCELLABLE_STATUSES);
/** Postings per cancel-reason call (Ozon documents no limit; its lists take 50 without complaint). */
const CANCEL_REASONS_PER_CALL = 50;

/** The Ozon postings of the selected rows that can still be cancelled, and Ozon's reasons for each. */
export async function cancelReasons(deps: OrdersDeps, userId: number, ids: readonly string[]): Promise<CancelReasonsAnswer> {
  const postings = byPosting(await rowsOf(deps, userId, ids)).filter(
    (p) => p.rows[0]!.source === 'ozon' && p.postingNumber !== '' && p.rows.every((row) => CANCELLABLE.has(row.status)),
  );
  const answer: CancelReasonsAnswer = [];
  const byShop = new Map<number, string[]>();
  for (const posting of postings) byShop.set(posting.shopId, [...(byShop.get(posting.shopId) ?? []), posting.postingNumber]);
  for (const [shopId, numbers] of byShop) {
    const client = await deps.clientFor(userId, shopId);
    for (const batch of chunks(numbers, CANCEL_REASONS_PER_CALL)) {
      try {
        for (const item of await client.postingFbsCancelReasons(batch)) {
          answer.push({ shopId, postingNumber: item.posting_number, reasons: item.reasons.map((r) => ({ id: r.id, title: r.title })) });
        }
      } catch (error) {
        if (isOzonError(error)) throw new ApiError(error.code, error.texts);
        throw error;
      }
    }
  }
  return answer;
}

/**
 * Cancels the selected rows' postings on Ozon with one reason, posting by posting (Ozon's call takes one), and marks
 * the rows cancelled. Entered orders are not on Ozon: they are refused with a hint to delete them.
 */
export async function cancelOrders(
  deps: OrdersDeps,
  userId: number,
  body: { ids: readonly string[]; reasonId: number; message?: string | undefined },
  lang: Lang,
): Promise<BatchResult> {
  const text = body.message?.trim() ?? '';
  if (body.reasonId === CANCEL_REASON_OTHER && text === '') throw new ApiError(400, 'cancelMessageRequired', 'message');
  const rows = await postingRowsOf(deps, userId, body.ids);
  if (rows.length === 0) throw new ApiError(404, 'orderNotFound', 'ids');
  const result: BatchResult = { done: 0, failures: [] };
  for (const posting of byPosting(rows)) {
    try {
      if (posting.rows[0]!.source === 'manual') throw new ApiError(400, 'orderCancelOzonOnly');
      if (!posting.rows.every((row) => CANCELLABLE.has(row.status))) throw new ApiError(400, 'orderNotCancellable');
      const client = await deps.clientFor(userId, posting.shopId);
      await client
        .postingFbsCancel({
          posting_number: posting.postingNumber,
          cancel_reason_id: body.reasonId,
          ...(text ? { cancel_reason_message: text } : {}),
        })
        .catch(async (error: unknown) => {
          // A cancel whose answer was lost, or one Ozon says was made already: cancelled on Ozon counts as done.
          const settle = isOzonError(error) && (error.outcomeUnknown || error.ozonMessage.includes('POSTING_ALREADY_CANCELLED'));
          const state = settle ? await client.postingFbsGet(posting.postingNumber).catch(() => null) : null;
          if (state?.status !== 'cancelled') throw error;
        });
      await deps.database.query(
        `update orders set status = 'cancelled', updated_at = clock_timestamp() where user_id = $1 and id = any($2::text[])`,
        [userId, posting.rows.map((row) => row.id)],
      );
      await patchSyncedPostings(deps, posting.shopId, [{ postingNumber: posting.postingNumber, patch: { status: 'cancelled' } }]);
      result.done++;
    } catch (error) {
      const notCancellable = isOzonError(error) && error.ozonMessage.includes('HAS_INCORRECT_STATUS');
      result.failures.push({
        postingNumber: posting.postingNumber || posting.rows[0]!.orderNumber,
        message: notCancellable ? message('orderNotCancellable', lang) : reasonOf(error, lang),
      });
    }
  }
  return result;
}

/** Sets tracking numbers: on Ozon for synced postings (one call per shop), in our rows for every one that succeeded. */
export async function setTrackingNumbers(
  deps: OrdersDeps,
  userId: number,
  items: readonly { id: string; trackingNumber: string }[],
  lang: Lang,
  options: { marketplace: boolean; substatus?: string } = { marketplace: true },
): Promise<BatchResult> {
  const rows = await rowsOf(deps, userId, items.map((item) => item.id));
  if (rows.length === 0) throw new ApiError(404, 'orderNotFound', 'id');
  const wanted = new Map(items.map((item) => [item.id, item.trackingNumber]));
  const result: BatchResult = { done: 0, failures: [] };
  const accepted: { id: string; trackingNumber: string }[] = [];
  const ozonAccepted: { shopId: number; postingNumber: string }[] = [];
  const postings = byPosting(rows);
  const byShop = new Map<number, Posting[]>();
  for (const posting of postings) {
    const isOzon = options.marketplace && posting.rows[0]!.source === 'ozon';
    if (!isOzon) {
      for (const row of posting.rows) accepted.push({ id: row.id, trackingNumber: wanted.get(row.id)! });
      result.done++;
      continue;
    }
    byShop.set(posting.shopId, [...(byShop.get(posting.shopId) ?? []), posting]);
  }
  for (const [shopId, shopPostings] of byShop) {
    // Ozon takes at most 20 postings a call and refuses a longer list whole: a failed batch fails only its own.
    for (const batch of chunks(shopPostings, TRACKING_NUMBERS_PER_CALL)) {
      try {
        const client = await deps.clientFor(userId, shopId);
        const answers = await client.setTrackingNumbers(
          batch.map((p) => ({ posting_number: p.postingNumber, tracking_number: wanted.get(p.rows[0]!.id)! })),
        );
        const verdict = new Map(answers.map((a) => [a.posting_number, a]));
        for (const posting of batch) {
          const answer = verdict.get(posting.postingNumber);
          if (answer?.result) {
            const tracking = wanted.get(posting.rows[0]!.id)!;
            for (const row of posting.rows) accepted.push({ id: row.id, trackingNumber: tracking });
            ozonAccepted.push({ shopId, postingNumber: posting.postingNumber });
            result.done++;
          } else {
            result.failures.push({ postingNumber: posting.postingNumber, message: answer?.error || message('operationFailed', lang) });
          }
        }
      } catch (error) {
        for (const posting of batch) result.failures.push({ postingNumber: posting.postingNumber, message: reasonOf(error, lang) });
      }
    }
  }
  if (ozonAccepted.length > 0) {
    for (const [shopId, postingsOfShop] of byShop) {
      const numbers = new Set(ozonAccepted.filter((p) => p.shopId === shopId).map((p) => p.postingNumber));
      await patchSyncedPostings(
        deps,
        shopId,
        postingsOfShop.filter((p) => numbers.has(p.postingNumber)).map((p) => ({ postingNumber: p.postingNumber, patch: { tracking_number: wanted.get(p.rows[0]!.id)! } })),
      );
    }
  }
  if (accepted.length > 0) {
    await deps.database.query(
      `update orders o set tracking_number = t.tracking, substatus = coalesce($3, o.substatus), updated_at = clock_timestamp()
       from jsonb_to_recordset($2::jsonb) as t(id text, tracking text)
       where o.user_id = $1 and o.id = t.id`,
      [userId, JSON.stringify(accepted.map((a) => ({ id: a.id, tracking: a.trackingNumber }))), options.substatus ?? null],
    );
  }
  return result;
}

/** Ozon's synchronous label call takes at most 20 postings. */
const LABEL_BATCH = 20;

/** The labels of the selected rows' postings as ONE PDF (pages in the order the postings were selected). */
export async function labelPdf(deps: OrdersDeps, userId: number, ids: readonly string[]): Promise<Uint8Array> {
  const postings = byPosting(await rowsOf(deps, userId, ids));
  if (postings.length === 0) throw new ApiError(404, 'orderNotFound', 'ids');
  if (postings.some((posting) => posting.rows[0]!.source === 'manual')) throw new ApiError(400, 'orderNoLabel', 'ids');
  const merged = await PDFDocument.create();
  const byShop = new Map<number, string[]>();
  for (const posting of postings) byShop.set(posting.shopId, [...(byShop.get(posting.shopId) ?? []), posting.postingNumber]);
  for (const [shopId, numbers] of byShop) {
    const client = await deps.clientFor(userId, shopId);
    for (let i = 0; i < numbers.length; i += LABEL_BATCH) {
      const batch = numbers.slice(i, i + LABEL_BATCH);
      try {
        const label = await client.packageLabel(batch);
        const source = await PDFDocument.load(label.bytes);
        for (const page of await merged.copyPages(source, source.getPageIndices())) merged.addPage(page);
      } catch (error) {
        if (isOzonError(error) && /aren't ready|not ready/i.test(error.ozonMessage)) throw labelRefusal(postings, shopId, batch);
        if (isOzonError(error)) throw new ApiError(error.code, error.texts);
        throw error;
      }
    }
  }
  return merged.save();
}

/**
 * Ozon names no reason beyond "not ready": our rows tell a posting still to be shipped (ship first) from one shipped
 * moments ago (its label comes 45–60 s after ship: retry in a minute).
 */
function labelRefusal(postings: readonly Posting[], shopId: number, batch: readonly string[]): ApiError {
  const inBatch = new Set(batch);
  const unshipped = postings
    .filter((p) => p.shopId === shopId && inBatch.has(p.postingNumber) && !p.rows.every((row) => LABEL_STATUSES.has(row.status)))
    .map((p) => p.postingNumber);
  return unshipped.length
    ? new ApiError(400, { key: 'labelsNeedShipping', params: { postings: postingsParam(unshipped) } }, 'ids')
    : new ApiError(400, { key: 'labelsNotReady', params: { postings: postingsParam(batch) } }, LABELS_NOT_READY_FIELD);
}

/**
 * Writes what Ozon just accepted (ship, tracking number) into the synced copy of the posting too. The projection
 * rebuilds order rows from that copy; left stale, it would undo the change until the next sync brought Ozon's answer.
 */
async function patchSyncedPostings(deps: OrdersDeps, shopId: number, changes: readonly { postingNumber: string; patch: Record<string, string> }[]) {
  if (changes.length === 0) return;
  await deps.database.query(
    `update mp_records r set data = r.data || c.patch
     from jsonb_to_recordset($2::jsonb) as c(posting text, patch jsonb)
     where r.shop_id = $1 and r.entity = 'postings' and r.external_id = c.posting`,
    [shopId, JSON.stringify(changes.map((c) => ({ posting: c.postingNumber, patch: c.patch })))],
  );
}

/** Starts Ozon's asynchronous label tasks (for sets too big for the synchronous call). */
export async function startLabelTasks(deps: OrdersDeps, userId: number, ids: readonly string[]) {
  const postings = byPosting(await rowsOf(deps, userId, ids)).filter((p) => p.rows[0]!.source === 'ozon');
  const tasks: { storeId: number; taskId: number }[] = [];
  const byShop = new Map<number, string[]>();
  for (const posting of postings) byShop.set(posting.shopId, [...(byShop.get(posting.shopId) ?? []), posting.postingNumber]);
  for (const [shopId, numbers] of byShop) {
    const client = await deps.clientFor(userId, shopId);
    try {
      for (const task of await client.packageLabelCreate(numbers)) tasks.push({ storeId: shopId, taskId: task.task_id });
    } catch (error) {
      if (isOzonError(error)) throw new ApiError(error.code, error.texts);
      throw error;
    }
  }
  return { tasks };
}

/** The user's warehouses as synced per shop (mp_records, entity 'warehouses'). */
export async function listWarehouses(deps: OrdersDeps, userId: number, storeId: number | undefined): Promise<Warehouse[]> {
  const rows = await deps.database.query<{ store_id: number; shop_name: string; warehouse_id: string; name: string; status: string }>(
    `select r.shop_id as store_id, s.name as shop_name, r.external_id as warehouse_id, coalesce(r.data->>'name', '') as name, coalesce(r.data->>'status', '') as status
     from mp_records r join mp_shops s on s.id = r.shop_id
     where s.user_id = $1 and r.entity = 'warehouses' and ($2::int is null or r.shop_id = $2)${shopScopeSql('r.shop_id')}
     order by r.shop_id, name`,
    [userId, storeId ?? null],
  );
  return rows.map((r) => ({ storeId: r.store_id, shopName: r.shop_name, warehouseId: r.warehouse_id, name: r.name, status: r.status }));
}

export async function updateStock(
  deps: OrdersDeps,
  userId: number,
  items: readonly { storeId: number; offerId: string; warehouseId: string; stock: number }[],
  lang: Lang,
): Promise<StockResult> {
  const result: StockResult = { done: 0, failures: [] };
  const byShop = new Map<number, typeof items>();
  for (const item of items) byShop.set(item.storeId, [...(byShop.get(item.storeId) ?? []), item]);
  for (const [shopId, shopItems] of byShop) {
    for (const batch of chunks(shopItems, STOCKS_PER_CALL)) {
      try {
        const client = await deps.clientFor(userId, shopId);
        // The official schema requires product_id with the offer_id: Ozon's own card is the one authority on it.
        const offers = [...new Set(batch.map((i) => i.offerId))];
        const productIds = new Map((await client.productInfoList({ offer_id: offers })).map((p) => [p.offer_id, p.id]));
        const known = batch.filter((i) => productIds.has(i.offerId));
        for (const item of batch) if (!productIds.has(item.offerId)) result.failures.push({ offerId: item.offerId, message: message('productNotFoundOnOzon', lang) });
        if (known.length === 0) continue;
        const outcomes = await client.productsStocks(
          known.map((i) => ({ offer_id: i.offerId, product_id: productIds.get(i.offerId)!, stock: i.stock, warehouse_id: Number(i.warehouseId) })),
        );
        for (const outcome of outcomes) {
          if (outcome.updated) result.done++;
          else result.failures.push({ offerId: outcome.offer_id, message: outcome.failures[0]?.texts[lang] ?? message('operationFailed', lang) });
        }
      } catch (error) {
        for (const item of batch) result.failures.push({ offerId: item.offerId, message: reasonOf(error, lang) });
      }
    }
  }
  return result;
}

/** Unfulfilled postings from our rows (awaiting packaging or delivery), a page at a time. */
export async function unfulfilledList(deps: OrdersDeps, userId: number, storeId: number | undefined, page: number, rows: number) {
  return listOrders(deps, userId, {
    page,
    rows,
    shopIds: storeId === undefined ? undefined : [storeId],
    statuses: ['awaiting_packaging', 'awaiting_deliver'],
    source: 'ozon',
    sort: 'inProcessAt',
    direction: 'asc',
  });
}

/** Ozon's own unfulfilled list for one shop (the v3 shape: postings, count, cursor), straight from the marketplace. */
export async function unfulfilledListLive(deps: OrdersDeps, userId: number, storeId: number, limit: number, cursor: string | undefined) {
  const client = await deps.clientFor(userId, storeId);
  const now = deps.now();
  try {
    return await client.postingFbsUnfulfilledList({
      filter: { cutoff_from: new Date(now.getTime() - 30 * 86_400_000).toISOString(), cutoff_to: new Date(now.getTime() + 30 * 86_400_000).toISOString() },
      limit,
      cursor,
    });
  } catch (error) {
    if (isOzonError(error)) throw new ApiError(error.code, error.texts);
    throw error;
  }
}
