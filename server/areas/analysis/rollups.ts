import { ANALYSIS_TIME_ZONE } from '../../../contract/analysis';
import type { Database, Queryable } from '../../db/database';
import { ROLLUP_TABLES } from '../../db/statistics';

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
  /** One shop's days (sync); `userId` its owner, whom every rollup key starts with. */
  | { kind: 'shopDays'; shopId: number; userId: number; days: string[] }
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
  // The owner and the time range let the orders' (user, in_process_at) index narrow the scan, and the owner the
  // rollups' keys, which all start with the user.
  const range = `o.in_process_at >= (min_day::timestamp at time zone '${ROLLUP_TIME_ZONE}') and o.in_process_at < ((max_day + 1)::timestamp at time zone '${ROLLUP_TIME_ZONE}')`;
  return {
    orders: `o.user_id = $3 and o.shop_id = $1 and ${DAY_OF('o.in_process_at')} = any($2::date[]) and ${range.replaceAll('min_day', '(select min(d) from unnest($2::date[]) d)').replaceAll('max_day', '(select max(d) from unnest($2::date[]) d)')}`,
    records: `r.shop_id = $1 and ${DAY_OF("nullif(r.data#>>'{logistic,return_date}', '')::timestamptz")} = any($2::date[])`,
    rollups: 'd.user_id = $3 and d.shop_id = $1 and d.day = any($2::date[])',
    params: [scope.shopId, scope.days, scope.userId],
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
)${replaceSql({ table: 'sales_daily', keys: ['user_id', 'shop_id', 'day', 'sku', 'warehouse_id'], values: ROLLUP_VALUES, scope: where.rollups, returning: 'sku', whole: scope.kind === 'user' })}`;
  return { sql, params: where.params };
}

/**
 * The tail of a statement whose CTE `fresh` holds the rows `table` should have within `scope` (a condition on `d`):
 * the scope's rows that no longer have anything go, the rest are upserted (disjoint rows, so one statement does both
 * and a reader never sees the scope half replaced). Answers `returning` of the rows deleted or changed.
 * A sync's refresh (not `whole`: a shop's days or SKUs) finds the rows that go with `not in`, which Postgres answers
 * from a hash of `fresh` (the keys are never null, so it means `not exists`): planned from a freshly synced shop's
 * unanalyzed tables, the anti-join was a nested loop comparing every row of the scope with every fresh one
 * (quadratic, seconds for a shop's 90 days). A `whole` user's recomputation keeps the anti-join: `not in` is hashed
 * only while `fresh` fits in work_mem, and a user's rows can outgrow it.
 */
function replaceSql(target: { table: string; keys: readonly string[]; values: readonly string[]; scope: string; returning: string; whole: boolean }): string {
  const { table, keys, values, scope, returning, whole } = target;
  const tuple = (alias: string, columns: readonly string[]) => `(${columns.map((column) => `${alias}.${column}`).join(', ')})`;
  return `,
removed as (
  delete from ${table} d
  where ${scope} and ${whole ? `not exists (select 1 from fresh f where ${tuple('f', keys)} = ${tuple('d', keys)})` : `${tuple('d', keys)} not in (select ${keys.join(', ')} from fresh)`}
  returning d.${returning}
),
upserted as (
  insert into ${table} (${[...keys, ...values].join(', ')})
  select ${[...keys, ...values].join(', ')} from fresh
  on conflict (${keys.join(', ')}) do update set ${values.map((column) => `${column} = excluded.${column}`).join(', ')}
  where ${tuple(table, values)} is distinct from ${tuple('excluded', values)}
  returning ${returning}
)
select distinct ${returning} as changed from (select ${returning} from removed union all select ${returning} from upserted) x`;
}

const FIGURE_COLUMNS = ['orders', 'units', 'revenue', 'cancellations', 'returns', 'return_amount', 'commission', 'fees', 'payout'] as const;
const sums = (alias: string) => FIGURE_COLUMNS.map((column) => `sum(${alias}.${column}) as ${column}`).join(', ');

/**
 * sales_daily_totals of the scope (`where` on sales_daily `d`): the days summed over SKUs per shop and warehouse, with
 * the units' cost at the current cost prices.
 */
function totalsSql(where: string, whole: boolean): string {
  return `
with fresh as (
  select d.user_id, d.shop_id, d.day, d.warehouse_id, max(d.warehouse_name) as warehouse_name, ${sums('d')},
         coalesce(sum(d.units * c.cost), 0) as cost_rub
  from sales_daily d
  left join cost_prices c on c.user_id = d.user_id and c.offer_id = d.offer_id
  where ${where}
  group by 1, 2, 3, 4
)${replaceSql({ table: 'sales_daily_totals', keys: ['user_id', 'shop_id', 'day', 'warehouse_id'], values: ['warehouse_name', ...FIGURE_COLUMNS, 'cost_rub'], scope: where, returning: 'day', whole })}`;
}

/**
 * A SKU's days in the scope (`where` on sales_daily `d`, whole SKUs): its sums per day over warehouses, with the
 * largest offer id and name of the day.
 */
const skuDaysSql = (where: string) => `
  select d.user_id, d.shop_id, d.sku, d.day, max(d.offer_id) as offer_id, max(d.product_name) as product_name, ${sums('d')}
  from sales_daily d where ${where}
  group by 1, 2, 3, 4`;

/**
 * sales_sku_weekly of the scope: each SKU's running sums at every Sunday from its first day's week to before its last
 * day. The weeks it sold in are summed and run up; each then also stands for the weeks without a sale up to the next.
 */
function weeklySql(where: string, whole: boolean): string {
  const running = ['days', ...FIGURE_COLUMNS].map((column) => `sum(${column}) over sku_weeks as ${column}`).join(', ');
  return `
with weeks as (
  select user_id, shop_id, sku, day + 7 - extract(isodow from day)::int as week_end, max(day) as last_in_week,
         count(*)::int as days, ${FIGURE_COLUMNS.map((column) => `sum(${column}) as ${column}`).join(', ')}
  from (${skuDaysSql(where)}) x
  group by 1, 2, 3, 4
),
runs as (
  select user_id, shop_id, sku, week_end, ${running},
         lead(week_end) over sku_weeks as next_end, max(last_in_week) over (partition by user_id, shop_id, sku) as last_day
  from weeks
  window sku_weeks as (partition by user_id, shop_id, sku order by week_end)
),
fresh as (
  select r.user_id, r.shop_id, r.sku, r.week_end + 7 * n as week_end, ${['days', ...FIGURE_COLUMNS].map((column) => `r.${column}`).join(', ')}
  from runs r
  cross join lateral generate_series(0, (least(coalesce(r.next_end - 7, r.last_day - 1), r.last_day - 1) - r.week_end) / 7) n
  where r.week_end < r.last_day
)${replaceSql({ table: 'sales_sku_weekly', keys: ['user_id', 'shop_id', 'sku', 'week_end'], values: ['days', ...FIGURE_COLUMNS], scope: where, returning: 'sku', whole })}`;
}

/** sales_sku_span of the scope (`where` on `d`, whole SKUs): first and last day, the last day's names, all-time sums. */
function spanSql(where: string, whole: boolean): string {
  return `
with days as materialized (${skuDaysSql(where)}),
fresh as (
  select s.user_id, s.shop_id, s.sku, s.first_day, s.last_day, l.offer_id, l.product_name, s.days, ${FIGURE_COLUMNS.map((column) => `s.${column}`).join(', ')}
  from (
    select user_id, shop_id, sku, min(day) as first_day, max(day) as last_day, count(*)::int as days,
           ${FIGURE_COLUMNS.map((column) => `sum(${column}) as ${column}`).join(', ')}
    from days group by 1, 2, 3
  ) s
  join days l on (l.user_id, l.shop_id, l.sku, l.day) = (s.user_id, s.shop_id, s.sku, s.last_day)
)${replaceSql({ table: 'sales_sku_span', keys: ['user_id', 'shop_id', 'sku'], values: ['first_day', 'last_day', 'offer_id', 'product_name', 'days', ...FIGURE_COLUMNS], scope: where, returning: 'sku', whole })}`;
}

/** A fingerprint of a user's cost prices (SQL over `cost_prices` of user $1). */
const COST_FINGERPRINT = `(select count(*) || ':' || coalesce(sum(hashtext(offer_id || '=' || cost::text)::bigint), 0) || ':' || coalesce(max(updated_at)::text, '')
  from cost_prices where user_id = $1)`;

/** Records a change of a user's rollups (and, when given, the cost prices their cost was computed with). */
async function bumpRollupState(database: Queryable, userId: number, costFingerprint?: string): Promise<number> {
  const [row] = await database.query<{ version: number }>(
    `insert into sales_rollup_state (user_id, cost_fingerprint, version) values ($1, coalesce($2, ''), 1)
     on conflict (user_id) do update set version = sales_rollup_state.version + 1,
       cost_fingerprint = coalesce($2, sales_rollup_state.cost_fingerprint)
     returning version`,
    [userId, costFingerprint ?? null],
  );
  return row?.version ?? 0;
}

/**
 * Makes a user's sales_daily_totals' cost follow the cost prices changed since it was computed (the seller edited or
 * imported some): one pass over the user's rollups, only when the fingerprint moved. The fingerprint is read first,
 * so a change made meanwhile leaves a stale one stored and is caught by the next call. Answers the state the user's
 * rollups are at (changes whenever they do).
 */
export async function refreshRollupCosts(database: Database, userId: number): Promise<string> {
  const [state] = await database.query<{ print: string; stored: string | null; version: number | null }>(
    `select ${COST_FINGERPRINT} as print, s.cost_fingerprint as stored, s.version
     from (select 1) x left join sales_rollup_state s on s.user_id = $1`,
    [userId],
  );
  const print = state?.print ?? '';
  if (state?.stored === print) return `${state.version}`;
  await database.query(
    `update sales_daily_totals t set cost_rub = coalesce(x.cost_rub, 0)
     from sales_daily_totals t2
     left join (
       select d.shop_id, d.day, d.warehouse_id, sum(d.units * c.cost) as cost_rub
       from sales_daily d join cost_prices c on c.user_id = d.user_id and c.offer_id = d.offer_id
       where d.user_id = $1
       group by 1, 2, 3
     ) x on (x.shop_id, x.day, x.warehouse_id) = (t2.shop_id, t2.day, t2.warehouse_id)
     where t2.user_id = $1 and (t.user_id, t.shop_id, t.day, t.warehouse_id) = (t2.user_id, t2.shop_id, t2.day, t2.warehouse_id)
       and t.cost_rub is distinct from coalesce(x.cost_rub, 0)`,
    [userId],
  );
  return `${await bumpRollupState(database, userId, print)}`;
}

/**
 * One transaction: the daily rows and what is derived from them (totals, running totals, spans) change together. A
 * refresh cut short after the daily rows (a crash, a failed statement) would leave the next one seeing no change in
 * them, and the derived rows would never be repaired.
 */
async function rollup(database: Database, scope: Scope): Promise<void> {
  const { sql, params } = rollupSql(scope);
  await database.transaction(async (tx) => {
    if (scope.kind === 'user') {
      const [cost] = await tx.query<{ print: string }>(`select ${COST_FINGERPRINT} as print`, params);
      await tx.query(sql, params);
      await tx.query(totalsSql('d.user_id = $1', true), params);
      await tx.query(weeklySql('d.user_id = $1', true), params);
      await tx.query(spanSql('d.user_id = $1', true), params);
      await bumpRollupState(tx, scope.userId, cost?.print ?? '');
      return;
    }
    const changed = await tx.query<{ changed: string }>(sql, params);
    // The days' totals are recomputed whole (a day is a few rows); the running totals of the SKUs whose rows changed.
    await tx.query(totalsSql(scopeSql(scope).rollups, false), params);
    if (changed.length === 0) return;
    // The user's id lets the statements use the indexes that start with it.
    const skus = [scope.userId, scope.shopId, changed.map((row) => row.changed)];
    const ofSkus = 'd.user_id = $1 and d.shop_id = $2 and d.sku = any($3::text[])';
    await tx.query(weeklySql(ofSkus, false), skus);
    await tx.query(spanSql(ofSkus, false), skus);
    await bumpRollupState(tx, scope.userId);
  });
}

/** Recomputes the rollups of one shop's days. */
export async function rollupShopDays(database: Database, shopId: number, days: readonly string[]): Promise<void> {
  if (days.length === 0) return;
  // The owner: of the shop, or, for a shop deleted meanwhile, of the rows it left (its orders stay as tombstones).
  const [owner] = await database.query<{ user_id: number | null }>(
    `select coalesce((select user_id from mp_shops where id = $1), (select user_id from orders where shop_id = $1 limit 1),
       (select user_id from sales_daily where shop_id = $1 limit 1)) as user_id`,
    [shopId],
  );
  if (owner?.user_id != null) await rollup(database, { kind: 'shopDays', shopId, userId: owner.user_id, days: [...days] });
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
  for (const table of ROLLUP_TABLES) await database.query(`analyze ${table}`);
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
export const ROLLUP_VERSION = 3;
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
