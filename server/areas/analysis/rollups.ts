import { ANALYSIS_TIME_ZONE } from '../../../contract/analysis';
import type { Database } from '../../db/database';

/**
 * The sales rollups (`sales_daily`, server/db/tables/analysis.ts): recomputed from what sync stores, per shop and
 * day, so they always equal a recomputation from the raw orders, returns and finance transactions.
 *
 * WHEN: sync calls `refreshShopRollups` after each committed page of postings, returns and finance transactions
 * (server/areas/sync/service.ts) with the page's `synced_at`: the days those records touch are recomputed whole.
 * `rollupUser` recomputes everything of a user (the start-up backfill, the orders seeder).
 */

/** Days are China days: the sellers' working day, the one the analysis's periods are given in. */
export const ROLLUP_TIME_ZONE = ANALYSIS_TIME_ZONE;

const DAY_OF = (timestamp: string) => `((${timestamp}) at time zone '${ROLLUP_TIME_ZONE}')::date`;

type Scope =
  /** One shop's days (sync). */
  | { kind: 'shopDays'; shopId: number; days: string[] }
  /** All of a user's rows. */
  | { kind: 'user'; userId: number };

/** Where clauses of the scope over orders (`o`), synced records (`r`) and the rollups themselves (`d`). */
function scopeSql(scope: Scope): { orders: string; records: string; rollups: string; params: unknown[] } {
  if (scope.kind === 'user') {
    return {
      orders: 'o.user_id = $1',
      records: 'r.shop_id in (select id from mp_shops where user_id = $1)',
      rollups: 'd.user_id = $1',
      params: [scope.userId],
    };
  }
  // The time range lets the orders' (user, in_process_at) and (shop, posting) indexes narrow the scan.
  const range = `o.in_process_at >= (min_day::timestamp at time zone '${ROLLUP_TIME_ZONE}') and o.in_process_at < ((max_day + 1)::timestamp at time zone '${ROLLUP_TIME_ZONE}')`;
  return {
    orders: `o.shop_id = $1 and ${DAY_OF('o.in_process_at')} = any($2::date[]) and ${range.replaceAll('min_day', '(select min(d) from unnest($2::date[]) d)').replaceAll('max_day', '(select max(d) from unnest($2::date[]) d)')}`,
    records: `r.shop_id = $1 and ${DAY_OF("nullif(r.data#>>'{logistic,return_date}', '')::timestamptz")} = any($2::date[])`,
    rollups: 'd.shop_id = $1 and d.day = any($2::date[])',
    params: [scope.shopId, scope.days],
  };
}

const ROLLUP_VALUES = ['warehouse_name', 'offer_id', 'product_name', 'orders', 'units', 'revenue', 'cancellations', 'returns', 'return_amount', 'commission', 'fees', 'payout'] as const;

function rollupSql(scope: Scope): { sql: string; params: unknown[] } {
  const where = scopeSql(scope);
  const sql = `
with
o as (
  select o.user_id, o.shop_id, ${DAY_OF('o.in_process_at')} as day, o.sku, o.warehouse_id, o.warehouse_name, o.offer_id,
         o.product_name, o.status, o.quantity, o.amount::numeric as amount, o.posting_number,
         case when sum(o.amount) over posting > 0 then o.amount::numeric / sum(o.amount) over posting
              else 1.0 / count(*) over posting end as share
  from orders o
  where not o.deleted and ${where.orders}
  window posting as (partition by o.shop_id, o.posting_number)
),
sold as (
  select user_id, shop_id, day, sku, warehouse_id, max(warehouse_name) as warehouse_name, max(offer_id) as offer_id,
         max(product_name) as product_name, count(*)::int as orders,
         coalesce(sum(quantity) filter (where status <> 'cancelled'), 0)::int as units,
         coalesce(sum(amount) filter (where status <> 'cancelled'), 0) as revenue,
         (count(*) filter (where status = 'cancelled'))::int as cancellations,
         0 as returns, 0::numeric as return_amount, 0::numeric as commission, 0::numeric as fees, 0::numeric as payout
  from o group by 1, 2, 3, 4, 5
),
fin as (
  select o.user_id, o.shop_id, o.day, o.sku, o.warehouse_id, max(o.warehouse_name), max(o.offer_id), max(o.product_name),
         0, 0, 0::numeric, 0, 0, 0::numeric,
         sum(f.commission * o.share), sum(f.fees * o.share), sum(f.payout * o.share)
  from o
  cross join lateral (
    select -sum(coalesce((r.data->>'sale_commission')::numeric, 0)) as commission,
           -sum(coalesce((r.data->>'delivery_charge')::numeric, 0) + coalesce((r.data->>'return_delivery_charge')::numeric, 0)
                + coalesce((select sum((s->>'price')::numeric) from jsonb_array_elements(coalesce(r.data->'services', '[]'::jsonb)) s), 0)) as fees,
           sum((r.data->>'amount')::numeric) as payout
    from mp_records r
    where r.shop_id = o.shop_id and r.entity = 'finance' and r.data#>>'{posting,posting_number}' = o.posting_number
    having count(*) > 0
  ) f
  group by 1, 2, 3, 4, 5
),
ret as (
  select s.user_id, r.shop_id, ${DAY_OF("nullif(r.data#>>'{logistic,return_date}', '')::timestamptz")} as day,
         coalesce(r.data#>>'{product,sku}', '') as sku, coalesce(w.warehouse_id, '') as warehouse_id,
         max(coalesce(w.warehouse_name, '')), max(coalesce(r.data#>>'{product,offer_id}', '')), max(coalesce(r.data#>>'{product,name}', '')),
         0, 0, 0::numeric, 0,
         sum(coalesce((r.data#>>'{product,quantity}')::int, 1))::int,
         sum(coalesce((r.data#>>'{product,price,price}')::numeric, 0) * coalesce((r.data#>>'{product,quantity}')::int, 1)),
         0::numeric, 0::numeric, 0::numeric
  from mp_records r
  join mp_shops s on s.id = r.shop_id
  left join lateral (
    select o.warehouse_id, o.warehouse_name from orders o
    where o.shop_id = r.shop_id and o.posting_number = r.data->>'posting_number' and o.sku = r.data#>>'{product,sku}'
    limit 1
  ) w on true
  where r.entity = 'returns' and r.data->>'type' <> 'Cancellation' and nullif(r.data#>>'{logistic,return_date}', '') is not null
    and ${where.records}
  group by 1, 2, 3, 4, 5
),
fresh as (
  select user_id, shop_id, day, sku, warehouse_id, max(warehouse_name) as warehouse_name, max(offer_id) as offer_id,
         max(product_name) as product_name, sum(orders)::int as orders, sum(units)::int as units,
         round(sum(revenue), 2) as revenue, sum(cancellations)::int as cancellations, sum(returns)::int as returns,
         round(sum(return_amount), 2) as return_amount, round(sum(commission), 2) as commission, round(sum(fees), 2) as fees,
         round(sum(payout), 2) as payout
  from (select * from sold union all select * from fin union all select * from ret) x
  group by 1, 2, 3, 4, 5
),
-- Rows of the scope that no longer have anything go; the rest are upserted (one statement, disjoint rows).
removed as (
  delete from sales_daily d
  where ${where.rollups}
    and not exists (select 1 from fresh f where (f.user_id, f.shop_id, f.day, f.sku, f.warehouse_id) = (d.user_id, d.shop_id, d.day, d.sku, d.warehouse_id))
  returning 1
)
insert into sales_daily (user_id, shop_id, day, sku, warehouse_id, warehouse_name, offer_id, product_name, orders, units,
  revenue, cancellations, returns, return_amount, commission, fees, payout)
select * from fresh
on conflict (user_id, shop_id, day, sku, warehouse_id) do update set
  ${ROLLUP_VALUES.map((column) => `${column} = excluded.${column}`).join(', ')}
where (${ROLLUP_VALUES.map((column) => `sales_daily.${column}`).join(', ')}) is distinct from (${ROLLUP_VALUES.map((column) => `excluded.${column}`).join(', ')})`;
  return { sql, params: where.params };
}

async function rollup(database: Database, scope: Scope): Promise<void> {
  const { sql, params } = rollupSql(scope);
  await database.query(sql, params);
}

/** Recomputes the rollups of one shop's days. */
export async function rollupShopDays(database: Database, shopId: number, days: readonly string[]): Promise<void> {
  if (days.length > 0) await rollup(database, { kind: 'shopDays', shopId, days: [...days] });
}

/** Recomputes every rollup of a user. */
export async function rollupUser(database: Database, userId: number): Promise<void> {
  await rollup(database, { kind: 'user', userId });
}

/**
 * Fresh planner statistics after a bulk fill: without them the planner takes a period's hundred thousand rows for
 * ten and sorts them on disk instead of hashing them.
 */
export async function analyzeRollups(database: Database): Promise<void> {
  await database.query('analyze sales_daily');
}

/** The China days that a shop's postings, returns and finance transactions synced at or after `since` fall on. */
async function touchedDays(database: Database, shopId: number, since: Date): Promise<string[]> {
  const rows = await database.query<{ day: string }>(
    `select distinct day::text as day from (
       select ${DAY_OF("(r.data->>'in_process_at')::timestamptz")} as day from mp_records r
       where r.shop_id = $1 and r.entity = 'postings' and r.synced_at >= $2
       union all
       select ${DAY_OF("nullif(r.data#>>'{logistic,return_date}', '')::timestamptz")} from mp_records r
       where r.shop_id = $1 and r.entity = 'returns' and r.synced_at >= $2
       union all
       select ${DAY_OF('o.in_process_at')} from mp_records r
       join orders o on o.shop_id = r.shop_id and o.posting_number = r.data#>>'{posting,posting_number}'
       where r.shop_id = $1 and r.entity = 'finance' and r.synced_at >= $2
     ) x where day is not null`,
    [shopId, since.toISOString()],
  );
  return rows.map((row) => row.day);
}

/**
 * After a committed page of postings (already projected into orders), returns or finance transactions: recomputes the
 * days its records touch. Idempotent, so a resumed run handing the same page again changes nothing.
 */
export async function refreshShopRollups(database: Database, shopId: number, since: Date): Promise<void> {
  await rollupShopDays(database, shopId, await touchedDays(database, shopId, since));
}

/** Bumped when the rollups' definition changes: the next start recomputes every user's rows (`backfillRollups`). */
export const ROLLUP_VERSION = 1;
const VERSION_KEY = 'analysis.rollupVersion';

/**
 * Fills the rollups from the data already stored (a database from before the rollups, or a definition change), once
 * per ROLLUP_VERSION. Answers the users recomputed.
 */
export async function backfillRollups(database: Database): Promise<number> {
  const [stored] = await database.query<{ value: number }>(`select value from mp_settings where key = $1`, [VERSION_KEY]);
  if (stored && Number(stored.value) >= ROLLUP_VERSION) return 0;
  const users = await database.query<{ user_id: number }>(
    `select distinct user_id from orders union select distinct user_id from mp_shops`,
  );
  for (const { user_id } of users) await rollupUser(database, user_id);
  await analyzeRollups(database);
  await database.query(
    `insert into mp_settings (key, value, updated_at) values ($1, $2::jsonb, now())
     on conflict (key) do update set value = excluded.value, updated_at = excluded.updated_at`,
    [VERSION_KEY, JSON.stringify(ROLLUP_VERSION)],
  );
  return users.length;
}
