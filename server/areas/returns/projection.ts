import { RFBS_ACTIONS, type RfbsAction } from '../../../contract/returns';
import type { Database, Queryable } from '../../db/database';

/**
 * The returns projection: synced Ozon returns (mp_records, entity 'returns', Ozon's answer as jsonb) flattened into
 * `returns`, one row per return, in ONE statement (insert … select … on conflict do update). A row whose data did
 * not change keeps its `updated_at`, so re-syncing a shop sends the browsers nothing.
 *
 * FBS and FBO returns are /v1/returns/list items; rFBS requests (external id `rfbs:<return_id>`) are the request's
 * /v2/returns/rfbs/list item merged over its /get details (`rfbs: true`). An rFBS request's status change time is
 * not in Ozon's answer: it is when this projection first saw the new state (its creation time at first).
 */

/**
 * Ozon's action ids of each rFBS decision, as /v2/returns/rfbs/get lists them in `available_actions` and
 * /v1/returns/rfbs/action/set takes them. The official file names -1 and -10 (a rejection: of the request, and of
 * the product after its check) and 1020 (a partial compensation); the others are the simulator's.
 */
export const OZON_RFBS_ACTION_IDS: Record<RfbsAction, readonly number[]> = { verify: [1], reject: [-1, -10], compensate: [1020], returnMoney: [4], receive: [5] };

const ACTIONS_SQL = `coalesce((
    select string_agg(d.name, ',' order by d.ord) from (
      select a.name, min(a.ord) as ord
      from (values ${RFBS_ACTIONS.flatMap((name, ord) => OZON_RFBS_ACTION_IDS[name].map((id) => `(${id}, '${name}', ${ord})`)).join(', ')}) as a(id, name, ord)
      where exists (select 1 from jsonb_array_elements(coalesce(r.data->'available_actions', '[]'::jsonb)) x where (x->>'id')::int = a.id)
      group by a.name) d
  ), '')`;

/** The columns a return decides, but its status change time (see below); a change in any is one the browsers must see. */
const PROJECTED = [
  'user_id',
  'shop_name',
  'external_id',
  'return_id',
  'scheme',
  'type',
  'status',
  'status_name',
  'reason',
  'posting_number',
  'order_number',
  'sku',
  'offer_id',
  'product_name',
  'quantity',
  'amount',
  'currency',
  'actions',
  'returned_at',
  'deleted',
] as const;

const rfbs = `(r.data->>'rfbs') = 'true'`;
const PROJECT_SQL = `
insert into returns (id, shop_id, updated_at, changed_at, ${PROJECTED.join(', ')})
select
  r.shop_id || ':' || r.external_id,
  r.shop_id,
  clock_timestamp(),
  case when ${rfbs} then (r.data->>'created_at')::timestamptz
       else coalesce(nullif(r.data#>>'{visual,change_moment}', ''), nullif(r.data#>>'{logistic,return_date}', ''))::timestamptz end,
  s.user_id,
  s.name,
  r.external_id,
  case when ${rfbs} then r.data->>'return_id' else r.data->>'id' end,
  case when ${rfbs} then 'rFBS' else upper(coalesce(r.data->>'schema', 'FBS')) end,
  case when ${rfbs} then 'ClientReturn' else coalesce(r.data->>'type', '') end,
  case when ${rfbs} then coalesce(r.data#>>'{state,state}', '') else coalesce(r.data#>>'{visual,status,sys_name}', '') end,
  case when ${rfbs} then coalesce(r.data#>>'{state,state_name}', '') else coalesce(r.data#>>'{visual,status,display_name}', '') end,
  case when ${rfbs} then coalesce(r.data#>>'{return_reason,name}', '') else coalesce(r.data->>'return_reason_name', '') end,
  coalesce(r.data->>'posting_number', ''),
  coalesce(r.data->>'order_number', ''),
  coalesce(r.data#>>'{product,sku}', ''),
  coalesce(r.data#>>'{product,offer_id}', ''),
  coalesce(r.data#>>'{product,name}', ''),
  case when ${rfbs} then 1 else coalesce((r.data#>>'{product,quantity}')::int, 1) end,
  round(coalesce(nullif(case when ${rfbs} then r.data#>>'{product,price}' else r.data#>>'{product,price,price}' end, '')::numeric, 0), 2),
  coalesce(case when ${rfbs} then r.data#>>'{product,currency_code}' else r.data#>>'{product,price,currency_code}' end, ''),
  case when ${rfbs} then ${ACTIONS_SQL} else '' end,
  case when ${rfbs} then (r.data->>'created_at')::timestamptz
       else coalesce(nullif(r.data#>>'{logistic,return_date}', ''), nullif(r.data#>>'{visual,change_moment}', ''))::timestamptz end,
  false
from mp_records r
join mp_shops s on s.id = r.shop_id
where r.shop_id = $1 and r.entity = 'returns' and ($2::timestamptz is null or r.synced_at >= $2::timestamptz)
for key share of s
on conflict (id) do update set
  ${PROJECTED.map((column) => `${column} = excluded.${column}`).join(',\n  ')},
  changed_at = case when excluded.scheme <> 'rFBS' then excluded.changed_at
                    when returns.status is distinct from excluded.status then clock_timestamp()
                    else returns.changed_at end,
  updated_at = excluded.updated_at
where (${PROJECTED.map((column) => `returns.${column}`).join(', ')})
  is distinct from (${PROJECTED.map((column) => `excluded.${column}`).join(', ')})
  or (excluded.scheme <> 'rFBS' and returns.changed_at is distinct from excluded.changed_at)
returning returns.user_id`;

/**
 * Projects a shop's synced returns into `returns`: those synced at or after `since`, or all of them when it is null.
 * Called after each stored page of the returns sync (server/areas/sync/service.ts) and after a decision on an rFBS
 * request; push 'returns.changed' to `userId` when `changed > 0`.
 */
export async function projectReturns(database: Database, shopId: number, options: { since: Date | null }): Promise<{ changed: number; userId: number | null }> {
  const rows = await database.query<{ user_id: number }>(PROJECT_SQL, [shopId, options.since?.toISOString() ?? null]);
  return { changed: rows.length, userId: rows[0]?.user_id ?? null };
}

/** Tombstones a deleted shop's returns (its mp_records went with it); returns the rows marked. */
export async function tombstoneShopReturns(database: Queryable, shopIds: readonly number[]): Promise<number> {
  const rows = await database.query(
    `update returns set deleted = true, updated_at = clock_timestamp() where shop_id = any($1::int[]) and not deleted returning id`,
    [shopIds],
  );
  return rows.length;
}
