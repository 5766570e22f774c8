import type { Database, Queryable } from '../../db/database';

/**
 * The orders projection: synced Ozon postings (mp_records, entity 'postings', Ozon's answer as jsonb) flattened into
 * `orders`, one row per product line, in ONE statement (insert … select … on conflict do update). A row whose data
 * did not change keeps its `updated_at`, so re-syncing a shop sends the browsers nothing.
 *
 * Row ids are `<shopId>:<postingNumber>:<sku>`: stable across syncs and unique across the user's shops.
 *
 * The projection holds its shop's row (`for key share of s`) while it writes, as the products and returns
 * projections do. A shop being deleted (server/areas/store/service.ts deleteStores) therefore either waits for a
 * running projection to end, or makes one that starts later find no shop and write nothing. Without it, a
 * projection started just before the delete wrote its rows back as live after they were tombstoned, and the two
 * statements could deadlock on the rows and the user's `order_counts` row.
 */

/** The columns a posting decides; a change in any of them is a change the browsers must see. */
const PROJECTED = [
  'user_id',
  'shop_name',
  'posting_number',
  'order_number',
  'order_id',
  'status',
  'substatus',
  'warehouse_id',
  'warehouse_name',
  'in_process_at',
  'shipment_date',
  'delivering_date',
  'tracking_number',
  'sku',
  'offer_id',
  'product_name',
  'quantity',
  'amount',
  'currency',
  'deleted',
] as const;

const PROJECT_SQL = `
insert into orders (id, shop_id, source, updated_at, ${PROJECTED.join(', ')})
select
  r.shop_id || ':' || r.external_id || ':' || (p->>'sku'),
  r.shop_id,
  'ozon',
  clock_timestamp(),
  s.user_id,
  s.name,
  r.external_id,
  coalesce(r.data->>'order_number', ''),
  coalesce(r.data->>'order_id', ''),
  r.data->>'status',
  coalesce(r.data->>'substatus', ''),
  coalesce(r.data#>>'{delivery_method,warehouse_id}', ''),
  coalesce(r.data#>>'{delivery_method,warehouse}', r.data#>>'{delivery_method,name}', ''),
  (r.data->>'in_process_at')::timestamptz,
  nullif(r.data->>'shipment_date', '')::timestamptz,
  nullif(r.data->>'delivering_date', '')::timestamptz,
  coalesce(r.data->>'tracking_number', ''),
  p->>'sku',
  coalesce(p->>'offer_id', ''),
  coalesce(p->>'name', ''),
  coalesce((p->>'quantity')::int, 1),
  round(coalesce((p#>>'{price,amount}')::numeric, 0) * coalesce((p->>'quantity')::int, 1), 2),
  coalesce(p#>>'{price,currency}', p->>'currency_code', ''),
  false
from mp_records r
join mp_shops s on s.id = r.shop_id
cross join lateral jsonb_array_elements(r.data->'products') as p
where r.shop_id = $1 and r.entity = 'postings' and ($2::timestamptz is null or r.synced_at >= $2::timestamptz)
for key share of s
on conflict (id) do update set
  ${PROJECTED.map((column) => `${column} = excluded.${column}`).join(',\n  ')},
  updated_at = excluded.updated_at
where (${PROJECTED.map((column) => `orders.${column}`).join(', ')})
  is distinct from (${PROJECTED.map((column) => `excluded.${column}`).join(', ')})
returning orders.user_id`;

export type ProjectionResult = {
  /** Rows inserted or changed. */
  changed: number;
  /** The shop's owner when anything changed (push `{ type: 'orders.changed', shopId }` to them), else null. */
  userId: number | null;
};

/**
 * Projects a shop's synced postings into `orders`: those synced at or after `since`, or all of them when it is null.
 *
 * WHERE TO CALL IT: after each chunk of postings is stored in mp_records — the postings sync's `afterChunk` hook
 * (server/areas/sync/projections.ts POSTINGS_PROJECTIONS), with the page's `synced_at` as `since`, so a page projects
 * itself and nothing stored before it — then push 'orders.changed' to `userId` when `changed > 0`. The sync engine
 * runs it before it moves the page cursor, so a crash never leaves a stored page unprojected; the order calls
 * themselves do not project (it would be work on every list and sync request).
 */
export async function projectPostings(database: Database, shopId: number, options: { since: Date | null }): Promise<ProjectionResult> {
  const rows = await database.query<{ user_id: number }>(PROJECT_SQL, [shopId, options.since?.toISOString() ?? null]);
  return { changed: rows.length, userId: rows[0]?.user_id ?? null };
}

/**
 * Tombstones the Ozon rows of a deleted shop (its mp_records went with it, the rows stay for the caches that still
 * hold them). The store area calls it after deleting shops; returns the rows marked.
 */
export async function tombstoneShopOrders(database: Queryable, shopIds: readonly number[]): Promise<number> {
  const rows = await database.query(
    `update orders set deleted = true, updated_at = clock_timestamp()
     where shop_id = any($1::int[]) and source = 'ozon' and not deleted returning id`,
    [shopIds],
  );
  return rows.length;
}
