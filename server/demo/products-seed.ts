import type { Database } from '../db/database';

/**
 * Seeds N deterministic products for one user straight into the `products` table with set-based SQL (INSERT …
 * SELECT over generate_series, in batches), for scale work on the product list (`npm run seed -- --products N`).
 * The rows look like synced Ozon cards of the given shops: five states, prices in CNY and RUB with and without an
 * old price, FBS and FBO stock, a few with Ozon's errors, 30-day sales. Every value derives from the row's number.
 * Product ids start at 3,000,000,000 and offer ids with "SEED-", so they never collide with synced cards; like a
 * synced card they have no record in mp_records, so actions on them are answered by Ozon as unknown products.
 *
 * `updated_at` rises with the row number and ends an hour before the seeding (the browser's sync takes them in order).
 */
export type SeedProductsOptions = {
  userId: number;
  shops: readonly { id: number; name: string }[];
  count: number;
  batch?: number;
  now?: Date;
  onProgress?: (done: number) => void;
};

const WORDS_RU = ['Чехол', 'Кабель USB-C', 'Наушники TWS', 'Термокружка', 'Коврик для йоги', 'Органайзер', 'Настольная лампа', 'Рюкзак', 'Зонт', 'Тапочки'];
const WORDS_ZH = ['手机壳', '数据线', '蓝牙耳机', '保温杯', '瑜伽垫', '收纳盒', '台灯', '背包', '雨伞', '拖鞋'];
const BRANDS = ['Baseus', 'Ugreen', 'Anker', 'Xiaomi', 'Remax', 'Hoco', 'Нет бренда'];

/** A row number's pseudo-random but fixed value in 0 .. m-1 (multiplicative hashing, no random()). */
const h = (salt: number, m: number) => `((((g.i + ${salt})::bigint * 2654435761) % 4294967296) % ${m})::int`;

const INSERT_SQL = `
insert into products (id, user_id, shop_id, shop_name, product_id, offer_id, sku, name, barcode, image, status, moderation,
  visibility, currency, price, old_price, min_price, fbs_stock, fbo_stock, error_count, units_30d, revenue_30d,
  created_at, changed_at, stocks, deleted, updated_at)
select
  s.shop_id || ':' || (3000000000 + g.i), $1, s.shop_id, s.shop_name, (3000000000 + g.i)::text,
  'SEED-' || lpad(g.i::text, 7, '0'),
  case when p.status in ('moderating', 'failed') then '' else (4000000000 + g.i)::text end,
  ($5::text[])[1 + ${h(3, WORDS_RU.length)}] || ' ' || ($6::text[])[1 + ${h(5, BRANDS.length)}] || ' ' || ($7::text[])[1 + ${h(3, WORDS_ZH.length)}] || ' #' || g.i,
  'OZN' || (3000000000 + g.i), '', p.status,
  case p.status when 'failed' then 'declined' when 'moderating' then 'moderating' else 'approved' end,
  case when p.status = 'archived' then 'archived' when p.status = 'selling' then 'visible' else 'hidden' end,
  case when g.i % 5 = 0 then 'RUB' else 'CNY' end,
  p.price, case when ${h(11, 10)} < 6 then round(p.price * 1.3 + 20, 2) else 0 end, case when ${h(13, 10)} < 3 then round(p.price * 0.8, 2) else 0 end,
  case when p.status = 'selling' then 1 + ${h(17, 300)} else 0 end, case when ${h(19, 5)} = 0 then ${h(23, 100)} else 0 end,
  case when p.status = 'failed' then 1 + ${h(29, 3)} else 0 end,
  p.units, round(p.units * p.price, 2),
  $4::timestamptz - (30 + ${h(31, 400)}) * interval '1 day', $4::timestamptz - ${h(37, 30 * 24 * 60)} * interval '1 minute',
  '{}'::jsonb, false,
  $4::timestamptz - interval '1 hour' - ($3::bigint + $2::bigint - g.i) * interval '1 microsecond'
from generate_series($8::bigint, $9::bigint) as g(i)
cross join lateral (
  select
    (array['selling','selling','selling','selling','selling','selling','notSelling','moderating','failed','archived'])[1 + ${h(1, 10)}] as status,
    case when ${h(2, 10)} < 3 then 30 + ${h(41, 370)} when ${h(2, 10)} < 9 then 400 + ${h(43, 9600)} else 10000 + ${h(47, 30000)} end + ${h(53, 100)} / 100.0 as price,
    case when ${h(59, 3)} = 0 then ${h(61, 60)} else 0 end as units
) p
cross join lateral (select ($10::int[])[1 + g.i % array_length($10::int[], 1)] as shop_id,
                           ($11::text[])[1 + g.i % array_length($11::text[], 1)] as shop_name) s
on conflict (id) do nothing`;

/** Inserts the rows; answers how many were new. */
export async function seedProducts(database: Database, options: SeedProductsOptions): Promise<number> {
  const { userId, shops, count } = options;
  if (shops.length === 0) throw new Error('seedProducts needs at least one shop');
  const batch = options.batch ?? 50_000;
  const now = options.now ?? new Date();
  let inserted = 0;
  for (let from = 0; from < count; from += batch) {
    const to = Math.min(count, from + batch);
    const rows = await database.query<{ n: number }>(`with ins as (${INSERT_SQL} returning 1) select count(*)::int as n from ins`, [
      userId,
      0,
      count,
      now.toISOString(),
      WORDS_RU,
      BRANDS,
      WORDS_ZH,
      from + 1,
      to,
      shops.map((s) => s.id),
      shops.map((s) => s.name),
    ]);
    inserted += rows[0]?.n ?? 0;
    options.onProgress?.(to);
  }
  await database.query('vacuum analyze products');
  return inserted;
}
