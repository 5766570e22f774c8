import type { z } from 'zod';
import { shopScopeSql } from '../team/shopScope';
import {
  RETURN_LIST,
  RETURN_SYNC_MAX_LIMIT,
  type ReturnDetail,
  type ReturnListPage,
  type ReturnRow,
  type ReturnScheme,
  type RfbsAction,
  type returnListQuerySchema,
  type rfbsActionBodySchema,
} from '../../../contract/returns';
import type { Database } from '../../db/database';
import { ApiError } from '../../http/errors';
import { defineListCopy } from '../../lists/copyFrame';
import { createListFrameSync } from '../../lists/frameSync';
import type { OzonClient, RfbsReturnActionSetRequest } from '../../marketplace/ozon/client';
import { isOzonError } from '../../marketplace/ozon/errors';
import { OZON_RFBS_ACTION_IDS, projectReturns } from './projection';

/** How the returns area reaches a shop's Ozon client (the store area builds it from the shop's decrypted key). */
export type ReturnsDeps = { database: Database; clientFor: (userId: number, shopId: number) => Promise<OzonClient>; now: () => Date };

const ms = (column: string) => `(extract(epoch from ${column}) * 1000)::bigint`;

/** One row as contract/returns.ts ReturnRow, built by Postgres. */
const ROW_JSON = `json_build_object(
  'id', o.id, 'returnId', o.return_id, 'shopId', o.shop_id, 'shopName', o.shop_name, 'scheme', o.scheme, 'type', o.type,
  'status', o.status, 'statusName', o.status_name, 'reason', o.reason, 'postingNumber', o.posting_number,
  'orderNumber', o.order_number, 'sku', o.sku, 'offerId', o.offer_id, 'productName', o.product_name,
  'quantity', o.quantity, 'amount', o.amount, 'currency', o.currency, 'actions', o.actions,
  'returnedAt', ${ms('o.returned_at')}, 'changedAt', ${ms('o.changed_at')}, 'updatedAt', ${ms('o.updated_at')}, 'deleted', o.deleted)`;

/** Postgres hands numeric and bigint as strings: numbers again. */
const normalise = (row: ReturnRow): ReturnRow => ({
  ...row,
  amount: Number(row.amount),
  returnedAt: Number(row.returnedAt),
  changedAt: Number(row.changedAt),
  updatedAt: Number(row.updatedAt),
});

/** The returns sync's binary copy: each RETURN_LIST column's column of the returns table. */
export const RETURN_COPY = defineListCopy({
  schema: RETURN_LIST,
  sql: {
    id: 'id',
    returnId: 'return_id',
    postingNumber: 'posting_number',
    orderNumber: 'order_number',
    shopId: 'shop_id',
    shopName: 'shop_name',
    scheme: 'scheme',
    type: 'type',
    status: 'status',
    statusName: 'status_name',
    reason: 'reason',
    sku: 'sku',
    offerId: 'offer_id',
    productName: 'product_name',
    currency: 'currency',
    actions: 'actions',
    quantity: 'quantity',
    amount: 'amount::float8',
    returnedAt: 'returned_at',
    changedAt: 'changed_at',
    updatedAt: 'updated_at',
  },
  cursorTime: 'updatedAt',
});

export function createReturnFrameSync(deps: ReturnsDeps) {
  return createListFrameSync(deps, { copy: RETURN_COPY, table: 'returns', maxLimit: RETURN_SYNC_MAX_LIMIT });
}

type ListQuery = z.output<typeof returnListQuerySchema>;

/** A page of the user's returns of `schemes` (newest first), filtered on the server. */
export async function listReturns(deps: ReturnsDeps, userId: number, query: ListQuery, schemes: readonly ReturnScheme[]): Promise<ReturnListPage> {
  const params: unknown[] = [userId];
  const param = (value: unknown) => `$${params.push(value)}`;
  const wanted = query.schemes?.length ? query.schemes.filter((s) => schemes.includes(s)) : schemes;
  const where = ['o.user_id = $1', 'not o.deleted', `o.scheme = any(${param(wanted)}::text[])`];
  const scope = shopScopeSql('o.shop_id');
  if (scope) where.push(scope.slice(' and '.length));
  if (query.shopIds?.length) where.push(`o.shop_id = any(${param(query.shopIds)}::int[])`);
  if (query.statuses?.length) where.push(`o.status = any(${param(query.statuses)}::text[])`);
  if (query.reasons?.length) where.push(`o.reason = any(${param(query.reasons)}::text[])`);
  if (query.postingNumber) where.push(`o.posting_number = ${param(query.postingNumber)}`);
  if (query.returnedFrom !== undefined) where.push(`o.returned_at >= to_timestamp(${param(query.returnedFrom)}::double precision / 1000)`);
  if (query.returnedTo !== undefined) where.push(`o.returned_at <= to_timestamp(${param(query.returnedTo)}::double precision / 1000)`);
  if (query.search) {
    const needle = param(`%${query.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(`(${['posting_number', 'return_id', 'order_number', 'sku', 'offer_id', 'product_name'].map((c) => `lower(o.${c}) like ${needle}`).join(' or ')})`);
  }
  const order = 'o.returned_at desc, o.id';
  const limit = param(query.rows);
  const offset = param((query.page - 1) * query.rows);
  const [result] = await deps.database.query<{ list: string; total: number | string }>(
    `with matched as (select o.* from returns o where ${where.join(' and ')}),
          page as (select * from matched o order by ${order} limit ${limit} offset ${offset})
     select (select coalesce(json_agg(${ROW_JSON} order by ${order}), '[]')::text from page o) as list,
            (select count(*) from matched) as total`,
    params,
  );
  return { list: (JSON.parse(result!.list) as ReturnRow[]).map(normalise), total: Number(result!.total) };
}

type Stored = { row: ReturnRow; data: Record<string, unknown>; external_id: string; order_row_id: string | null };

async function ownReturn(deps: ReturnsDeps, userId: number, id: string): Promise<Stored> {
  const [found] = await deps.database.query<Stored>(
    `select ${ROW_JSON} as row, coalesce(r.data, '{}'::jsonb) as data, o.external_id,
            (select x.id from orders x where x.user_id = o.user_id and x.shop_id = o.shop_id and x.posting_number = o.posting_number
               and o.posting_number <> '' and not x.deleted order by (x.sku = o.sku) desc, x.id limit 1) as order_row_id
     from returns o left join mp_records r on r.shop_id = o.shop_id and r.entity = 'returns' and r.external_id = o.external_id
     where o.user_id = $1 and o.id = $2 and not o.deleted${shopScopeSql('o.shop_id')}`,
    [userId, id],
  );
  if (!found) throw new ApiError(404, 'returnNotFound', 'id');
  return { ...found, row: normalise(found.row) };
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const obj = (value: unknown) => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
const moneyOf = (value: unknown) => {
  const m = obj(value);
  return m.price === undefined ? null : { amount: Number(m.price), currency: text(m.currency_code) };
};
const timeOf = (value: unknown) => {
  const t = Date.parse(text(value));
  return Number.isNaN(t) ? null : t;
};

/** What the drawer shows of one stored return (FBS/FBO: /v1/returns/list's item; rFBS: the request's details). */
function detailOf(stored: Stored): ReturnDetail {
  const { row, data } = stored;
  const rfbs = row.scheme === 'rFBS';
  const product = obj(data.product);
  const storage = obj(data.storage);
  const logistic = obj(data.logistic);
  const place = obj(data.place);
  const target = obj(data.target_place);
  const reason = obj(data.return_reason);
  const state = obj(data.state);
  const sum = moneyOf(storage.sum);
  return {
    row,
    orderRowId: stored.order_row_id,
    priceWithoutCommission: rfbs ? null : moneyOf(product.price_without_commission),
    commission: rfbs ? null : moneyOf(product.commission),
    place: [text(place.name), text(place.address)].filter(Boolean).join(' · '),
    targetPlace: [text(target.name), text(target.address)].filter(Boolean).join(' · '),
    storage: !rfbs && data.storage && sum ? { days: Number(storage.days ?? 0), sum, arrivedAt: timeOf(storage.arrived_moment) } : null,
    barcode: text(logistic.barcode),
    opened: rfbs ? null : Boolean(obj(data.additional_info).is_opened),
    buyerName: text(data.client_name),
    comment: text(data.comment),
    photos: Array.isArray(data.client_photo) ? data.client_photo.filter((p): p is string => typeof p === 'string' && /^https?:\/\//.test(p)) : [],
    returnMethod: text(data.return_method_description),
    trackingNumber: text(data.ru_post_tracking_number),
    rejectionComment: text(data.rejection_comment),
    moneyReturnState: text(state.money_return_state_name),
    isDefect: rfbs && data.return_reason ? Boolean(reason.is_defect) : null,
    rejectionReasons: Array.isArray(data.rejection_reason)
      ? data.rejection_reason.map((r) => {
          const o = obj(r);
          return { id: Number(o.id), name: text(o.name), hint: text(o.hint), commentRequired: o.is_comment_required === true };
        })
      : [],
  };
}

export async function getReturn(deps: ReturnsDeps, userId: number, id: string): Promise<ReturnDetail> {
  return detailOf(await ownReturn(deps, userId, id));
}

type ActionBody = z.output<typeof rfbsActionBodySchema>;

/**
 * One decision on an rFBS return request, sent to Ozon; then the request is read back (its list item and details),
 * stored and projected, so the list shows the state Ozon now has. Refused before sending when the request's last
 * known state does not allow it, or when the input breaks a rule the request states (a rejection reason of its list,
 * a comment where the reason needs one, a compensation below the price).
 */
export async function rfbsAction(deps: ReturnsDeps, userId: number, body: ActionBody): Promise<{ detail: ReturnDetail; changed: boolean }> {
  const stored = await ownReturn(deps, userId, body.id);
  const { row } = stored;
  if (row.scheme !== 'rFBS') throw new ApiError(400, 'returnNotRfbs', 'id');
  const allowed = row.actions.split(',').filter(Boolean) as RfbsAction[];
  if (!allowed.includes(body.action)) throw new ApiError(400, 'returnActionNotAllowed', 'action');
  const detail = detailOf(stored);
  const returnId = Number(row.returnId);
  const request: RfbsReturnActionSetRequest = { return_id: returnId, id: ozonActionId(stored.data, body.action) };
  switch (body.action) {
    case 'verify':
      // action/set has no return method field: the seller's comment tells the buyer how to send the product.
      if (body.returnMethod) request.comment = body.returnMethod;
      break;
    case 'reject': {
      const reason = detail.rejectionReasons.find((r) => r.id === body.reasonId);
      if (!reason) throw new ApiError(400, 'returnRejectReasonUnknown', 'reasonId');
      if (reason.commentRequired && !body.comment) throw new ApiError(400, 'returnRejectCommentRequired', 'comment');
      // Ozon requires a comment with every rejection: the reason itself, when the seller wrote none.
      Object.assign(request, { rejection_reason_id: body.reasonId, comment: body.comment || reason.name });
      break;
    }
    case 'compensate':
      if (body.amount >= row.amount) throw new ApiError(400, 'returnCompensationTooHigh', 'amount');
      request.compensation_amount = Math.round(body.amount * 100) / 100;
      break;
    case 'returnMoney':
      if (body.backWay !== undefined) request.return_for_back_way = body.backWay;
      break;
    case 'receive':
      break;
  }
  const client = await deps.clientFor(userId, row.shopId);
  try {
    await client.rfbsReturnActionSet(request);
  } catch (error) {
    if (isOzonError(error)) throw new ApiError(error.code, error.texts, null);
    throw error;
  }
  const changed = await refreshRfbs(deps, row.shopId, stored.external_id, client, returnId, row.postingNumber);
  return { detail: await getReturn(deps, userId, body.id), changed };
}

/** The id of `action` among the request's `available_actions` as last read from Ozon (projection.ts checked it is there). */
function ozonActionId(data: Record<string, unknown>, action: RfbsAction): number {
  const offered = new Set((Array.isArray(data.available_actions) ? data.available_actions : []).map((a) => Number(obj(a).id)));
  const id = OZON_RFBS_ACTION_IDS[action].find((candidate) => offered.has(candidate));
  if (id === undefined) throw new ApiError(400, 'returnActionNotAllowed', 'action');
  return id;
}

/** Reads one rFBS request back from Ozon into mp_records and the returns table; true when its row changed. */
async function refreshRfbs(deps: ReturnsDeps, shopId: number, externalId: string, client: OzonClient, returnId: number, postingNumber: string) {
  const [details, listed] = await Promise.all([client.rfbsReturnGet(returnId), client.rfbsReturnsList({ limit: 50, filter: { posting_number: postingNumber } })]);
  const item = listed.find((r) => r.return_id === returnId);
  const data = { ...details, ...(item ?? {}), rfbs: true };
  // Without the list item, the details' own state (which lacks the group and the money state) stands in for it.
  const [stamp] = await deps.database.query<{ synced_at: string }>(
    `insert into mp_records (shop_id, entity, external_id, data, synced_at) values ($1, 'returns', $2, $3::jsonb, clock_timestamp())
     on conflict (shop_id, entity, external_id) do update set data = excluded.data, synced_at = excluded.synced_at
     returning synced_at`,
    [shopId, externalId, JSON.stringify(data)],
  );
  const { changed } = await projectReturns(deps.database, shopId, { since: new Date(stamp!.synced_at) });
  return changed > 0;
}
