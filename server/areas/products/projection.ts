import type { Database, Queryable } from '../../db/database';

/**
 * The products projection: synced Ozon cards (mp_records, entity 'products': the product list's item with the
 * card from /v3/product/info/list under `info`) flattened into `products` in ONE statement, with each card's units
 * and revenue of the last 30 days from the shop's orders. A row whose data did not change keeps its `updated_at`,
 * so re-syncing a shop sends the browsers nothing.
 *
 * Row ids are `<shopId>:<productId>`.
 */
const PROJECTED = [
  'user_id',
  'shop_name',
  'product_id',
  'offer_id',
  'sku',
  'name',
  'barcode',
  'image',
  'status',
  'moderation',
  'visibility',
  'currency',
  'price',
  'old_price',
  'min_price',
  'fbs_stock',
  'fbo_stock',
  'error_count',
  'units_30d',
  'revenue_30d',
  'created_at',
  'changed_at',
  'deleted',
] as const;

const money = (path: string) => `coalesce(nullif(c.info->>'${path}', '')::numeric, 0)`;
const stockOf = (source: string) =>
  `coalesce((select sum((s->>'present')::int) from jsonb_array_elements(coalesce(c.info#>'{stocks,stocks}', '[]')) s where s->>'source' = '${source}'), 0)`;

const PROJECT_SQL = `
with cards as (
  select r.shop_id, r.external_id, r.data, coalesce(r.data->'info', '{}'::jsonb) as info,
         coalesce((r.data->'info'->>'is_archived')::boolean, (r.data->>'archived')::boolean, false) as archived
  from mp_records r
  where r.shop_id = $1 and r.entity = 'products' and ($2::timestamptz is null or r.synced_at >= $2::timestamptz)
),
sales as (
  select o.offer_id, sum(o.quantity)::int as units, sum(o.amount) as revenue
  from orders o
  where o.shop_id = $1 and o.source = 'ozon' and not o.deleted and o.status <> 'cancelled'
    and o.in_process_at >= clock_timestamp() - interval '30 days'
  group by o.offer_id
),
flat as (
  select c.*, ${stockOf('fbs')} as fbs, ${stockOf('fbo')} as fbo,
         coalesce(c.info#>>'{statuses,moderate_status}', '') as moderate,
         coalesce(c.info#>>'{statuses,validation_status}', '') as validation,
         coalesce(c.info#>>'{statuses,status_failed}', '') as failed,
         coalesce((c.info#>>'{statuses,is_created}')::boolean, true) as created
  from cards c
)
insert into products (id, shop_id, updated_at, ${PROJECTED.join(', ')})
select
  c.shop_id || ':' || c.external_id,
  c.shop_id,
  clock_timestamp(),
  s.user_id,
  s.name,
  c.external_id,
  coalesce(c.info->>'offer_id', c.data->>'offer_id', ''),
  case when coalesce(c.info->>'sku', '0') in ('', '0') then '' else c.info->>'sku' end,
  coalesce(c.info->>'name', ''),
  coalesce(c.info#>>'{barcodes,0}', ''),
  coalesce(c.info#>>'{primary_image,0}', c.info#>>'{images,0}', ''),
  case
    when c.archived then 'archived'
    when c.moderate = 'declined' or c.validation = 'fail' or c.failed <> '' then 'failed'
    when c.moderate = 'moderating' or not c.created then 'moderating'
    when c.fbs + c.fbo > 0 then 'selling'
    else 'notSelling'
  end,
  c.moderate,
  case when c.archived then 'archived' when c.moderate = 'approved' and c.fbs + c.fbo > 0 then 'visible' else 'hidden' end,
  coalesce(c.info->>'currency_code', 'CNY'),
  ${money('price')},
  ${money('old_price')},
  ${money('min_price')},
  c.fbs,
  c.fbo,
  coalesce(jsonb_array_length(c.info->'errors'), 0),
  coalesce(sales.units, 0),
  round(coalesce(sales.revenue, 0), 2),
  coalesce(nullif(c.info->>'created_at', '')::timestamptz, clock_timestamp()),
  coalesce(nullif(c.info->>'updated_at', '')::timestamptz, nullif(c.info->>'created_at', '')::timestamptz, clock_timestamp()),
  false
from flat c
join mp_shops s on s.id = c.shop_id
left join sales on sales.offer_id = coalesce(c.info->>'offer_id', c.data->>'offer_id', '')
for key share of s
on conflict (id) do update set
  ${PROJECTED.map((column) => `${column} = excluded.${column}`).join(',\n  ')},
  updated_at = excluded.updated_at
where (${PROJECTED.map((column) => `products.${column}`).join(', ')})
  is distinct from (${PROJECTED.map((column) => `excluded.${column}`).join(', ')})
returning products.user_id`;

export type ProductProjectionResult = { changed: number; userId: number | null };

/**
 * Projects a shop's synced cards into `products`: those synced at or after `since`, or all when it is null.
 * The sync runs it after each page of cards (server/areas/sync/service.ts) and pushes 'products.changed'.
 */
export async function projectProducts(database: Database, shopId: number, options: { since: Date | null }): Promise<ProductProjectionResult> {
  const rows = await database.query<{ user_id: number }>(PROJECT_SQL, [shopId, options.since?.toISOString() ?? null]);
  return { changed: rows.length, userId: rows[0]?.user_id ?? null };
}

/** Tombstones the products of deleted shops (the caches that hold them drop them). */
export async function tombstoneShopProducts(database: Queryable, shopIds: readonly number[]): Promise<number> {
  const rows = await database.query(
    `update products set deleted = true, updated_at = clock_timestamp() where shop_id = any($1::int[]) and not deleted returning id`,
    [shopIds],
  );
  return rows.length;
}
