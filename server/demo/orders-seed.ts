import type { Database } from '../db/database';

/**
 * Seeds N deterministic orders for one user straight into the `orders` table, with set-based SQL (INSERT … SELECT
 * over generate_series, in batches), so a million rows take about a minute on PGlite instead of the hour the
 * simulator's posting sync would (`npm run seed -- --postings N`, ~15 s per 5,000).
 *
 * The rows look like synced Ozon postings of the given shops (source 'ozon'), spread over two years, with a few
 * thousand products, 13 statuses and tracking numbers on shipped ones. Every value derives from the row's number,
 * so two seedings of the same N give the same rows. Posting numbers use the middle part "0002" (the simulator's use
 * "0001"), so seeded ids (`<shopId>:<postingNumber>:<sku>`) never collide with projected ones.
 *
 * `updated_at` rises with the row number and ends an hour before the seeding, so the browser's sync takes the rows
 * in that order and its settle window (SYNC_SETTLE_MS) never re-sends them.
 */

export type SeedShop = { id: number; name: string };
export type SeedOrdersOptions = {
  userId: number;
  shops: readonly SeedShop[];
  count: number;
  /** Row numbers start after this (seeding more on top of an earlier seeding). Default: after the user's seeded rows. */
  offset?: number;
  batch?: number;
  now?: Date;
  onProgress?: (done: number) => void;
};

const STATUSES = [
  'awaiting_packaging',
  'awaiting_deliver',
  'delivering',
  'delivered',
  'delivered',
  'delivered',
  'cancelled',
  'awaiting_registration',
  'acceptance_in_progress',
  'awaiting_approve',
  'arbitration',
  'client_arbitration',
  'driver_pickup',
  'not_accepted',
  'sent_by_seller',
];

const NOUNS = ['手机壳', '数据线', '蓝牙耳机', '保温杯', '瑜伽垫', '收纳盒', '台灯', '背包', '雨伞', '拖鞋', 'Phone case', 'USB cable', 'Earbuds', 'Thermos', 'Yoga mat', 'Storage box', 'Desk lamp', 'Backpack'];
const ADJECTIVES = ['黑色', '白色', '粉色', '加厚', '便携', '防水', 'Black', 'White', 'Pink', 'Thick', 'Portable', 'Waterproof'];
const PRODUCTS = 4_000;
const WAREHOUSES = [
  ['10001', '义乌仓 Yiwu'],
  ['10002', '深圳仓 Shenzhen'],
  ['10003', '广州仓 Guangzhou'],
  ['10004', 'Москва FBS'],
] as const;

/** A row number's pseudo-random but fixed value in 0 .. m-1 (multiplicative hashing, no random()). */
const h = (salt: number, m: number) => `((((g.i + ${salt})::bigint * 2654435761) % 4294967296) % ${m})::int`;

const INSERT_SQL = `
insert into orders (id, user_id, shop_id, shop_name, posting_number, order_number, order_id, status, substatus,
  warehouse_id, warehouse_name, in_process_at, shipment_date, delivering_date, tracking_number, sku, offer_id,
  product_name, quantity, amount, currency, source, deleted, updated_at)
select
  s.shop_id || ':' || p.posting || ':' || p.sku,
  $1, s.shop_id, s.shop_name, p.posting, p.order_number, (80000000 + g.i)::text, p.status, '',
  w.id, w.name, p.in_process, p.in_process + interval '2 days', 
  case when p.status in ('delivering', 'delivered') then p.in_process + interval '5 days' end,
  case when p.status in ('delivering', 'delivered', 'driver_pickup', 'sent_by_seller') then 'RU' || lpad((${h(7, 1_000_000_000)})::text, 9, '0') || 'CN' else '' end,
  p.sku, 'OF-' || lpad(p.product::text, 5, '0'),
  ($5::text[])[1 + p.product % array_length($5::text[], 1)] || ' ' || ($6::text[])[1 + (p.product / 7) % array_length($6::text[], 1)] || ' #' || p.product,
  p.quantity, round((p.product % 500 + 9.9 + (${h(11, 100)}) / 100.0) * p.quantity, 2), case when p.product % 5 = 0 then 'RUB' else 'CNY' end,
  'ozon', false, $4::timestamptz - interval '1 hour' - ($3::bigint + $2::bigint - g.i) * interval '1 microsecond'
from generate_series($7::bigint, $8::bigint) as g(i)
cross join lateral (
  select
    lpad((70000000 + g.i)::text, 8, '0') || '-0002-1' as posting,
    (70000000 + g.i)::text as order_number,
    ($9::text[])[1 + ${h(3, STATUSES.length)}] as status,
    $4::timestamptz - interval '1 hour' - (${h(5, 730 * 24 * 60)}) * interval '1 minute' as in_process,
    ${h(1, PRODUCTS)} as product,
    (100000000 + ${h(1, PRODUCTS)})::text as sku,
    1 + ${h(13, 3)} as quantity
) p
cross join lateral (select ($10::int[])[1 + g.i % array_length($10::int[], 1)] as shop_id,
                           ($11::text[])[1 + g.i % array_length($11::text[], 1)] as shop_name) s
cross join lateral (select ($12::text[])[1 + ${h(17, WAREHOUSES.length)}] as id, ($13::text[])[1 + ${h(17, WAREHOUSES.length)}] as name) w
on conflict (id) do nothing`;

/** How many seeded rows the user has (their posting numbers carry "-0002-"). */
export async function seededOrderCount(database: Database, userId: number): Promise<number> {
  const [row] = await database.query<{ n: number }>(`select count(*)::int as n from orders where user_id = $1 and posting_number like '%-0002-1'`, [userId]);
  return row?.n ?? 0;
}

/** Inserts the rows; answers how many were new. */
export async function seedOrders(database: Database, options: SeedOrdersOptions): Promise<number> {
  const { userId, shops, count } = options;
  if (shops.length === 0) throw new Error('seedOrders needs at least one shop');
  const batch = options.batch ?? 50_000;
  const now = options.now ?? new Date();
  const offset = options.offset ?? (await seededOrderCount(database, userId));
  let inserted = 0;
  for (let from = 0; from < count; from += batch) {
    const to = Math.min(count, from + batch);
    const rows = await database.query<{ n: number }>(
      `with ins as (${INSERT_SQL} returning 1) select count(*)::int as n from ins`,
      [
        userId,
        offset,
        count,
        now.toISOString(),
        NOUNS,
        ADJECTIVES,
        offset + from + 1,
        offset + to,
        STATUSES,
        shops.map((s) => s.id),
        shops.map((s) => s.name),
        WAREHOUSES.map((w) => w[0]),
        WAREHOUSES.map((w) => w[1]),
      ],
    );
    inserted += rows[0]?.n ?? 0;
    options.onProgress?.(to);
  }
  // After a bulk load, as after any: fresh statistics for the planner, and the visibility map and hint bits set now
  // rather than by the first readers (the first full sync of a million rows would otherwise pay for it).
  await database.query('vacuum analyze orders');
  return inserted;
}
