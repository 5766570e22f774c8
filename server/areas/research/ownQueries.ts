import { OWN_QUERIES_CACHE_MS, OWN_QUERIES_DAYS, OWN_QUERIES_DETAIL_SKUS, OWN_QUERIES_LAG_DAYS, OWN_QUERIES_PRODUCTS, type OwnProductQueries, type OwnQueries, type OwnQuery } from '../../../contract/research';
import { shopScopeSql } from '../team/shopScope';
import { localized, textIn, type Lang } from '../../../contract/errors';
import type { Database } from '../../db/database';
import { PRODUCT_QUERIES_PAGE_SIZE, PRODUCT_QUERIES_PER_SKU, PRODUCT_QUERIES_SKUS_PER_CALL, type OzonClient } from '../../marketplace/ozon/client';
import { isOzonError } from '../../marketplace/ozon/errors';

const DAY_MS = 86_400_000;
/** Pages of details read per shop: OWN_QUERIES_DETAIL_SKUS SKUs × 15 queries at 100 a page. */
const DETAIL_PAGES = Math.ceil((OWN_QUERIES_DETAIL_SKUS * PRODUCT_QUERIES_PER_SKU) / PRODUCT_QUERIES_PAGE_SIZE);

export type OwnQueriesDeps = { database: Database; clientOf: (userId: number, shopId: number) => Promise<OzonClient>; now?: () => number };

type Shop = { id: number; name: string };
type ShopAnswer = { period: { from: string; to: string }; products: OwnProductQueries[]; queries: OwnQuery[] };

/**
 * The search queries behind the user's own products on Ozon, for the keyword page: per active shop, its sellable SKUs
 * (the best sellers first, at most the 1,000 one call takes) with their searches over the last four weeks that Ozon
 * has computed, and the queries of the most searched ones. A shop Ozon refuses is reported and the others answered.
 */
export async function ownQueries(deps: OwnQueriesDeps, userId: number, lang: Lang): Promise<OwnQueries> {
  const shops = await deps.database.query<Shop>(`select id, name from mp_shops where user_id = $1 and status = 'active'${shopScopeSql('id')} order by id`, [userId]);
  const end = Math.floor(((deps.now ?? Date.now)() - OWN_QUERIES_LAG_DAYS * DAY_MS) / DAY_MS) * DAY_MS;
  const period = { date_from: new Date(end - OWN_QUERIES_DAYS * DAY_MS).toISOString(), date_to: new Date(end - 1).toISOString() };
  const answers = await Promise.allSettled(shops.map((shop) => keptShopQueries(deps, userId, shop, period)));
  const result: OwnQueries = { period: null, shops: shops.length, products: [], queries: [], failures: [], fetchedAt: null };
  answers.forEach((answer, i) => {
    const shop = shops[i]!;
    if (answer.status === 'rejected') {
      const texts = isOzonError(answer.reason) ? answer.reason.texts : localized('operationFailed');
      result.failures.push({ shopId: shop.id, shopName: shop.name, message: textIn(texts, lang) });
      return;
    }
    if (!answer.value) return;
    result.period ??= answer.value.period;
    if (result.fetchedAt === null || answer.value.fetchedAt < result.fetchedAt) result.fetchedAt = answer.value.fetchedAt;
    result.products.push(...answer.value.products);
    result.queries.push(...answer.value.queries);
  });
  result.products.sort((a, b) => b.searches - a.searches);
  result.queries.sort((a, b) => b.searches - a.searches);
  return result;
}

/**
 * A shop's answer for the period: the one kept in research_own_queries while younger than OWN_QUERIES_CACHE_MS
 * (the shop's current name on its rows), else Ozon's, kept. A refusal is not kept: the next call asks again.
 */
async function keptShopQueries(deps: OwnQueriesDeps, userId: number, shop: Shop, period: { date_from: string; date_to: string }): Promise<(ShopAnswer & { fetchedAt: string }) | null> {
  const now = (deps.now ?? Date.now)();
  const [kept] = await deps.database.query<{ answer: ShopAnswer; fetched_at: Date | string }>(
    `select answer, fetched_at from research_own_queries where shop_id = $1 and date_from = $2 and date_to = $3 and fetched_at > $4`,
    [shop.id, period.date_from, period.date_to, new Date(now - OWN_QUERIES_CACHE_MS).toISOString()],
  );
  if (kept) {
    const named = <Row extends { shopName: string }>(row: Row): Row => ({ ...row, shopName: shop.name });
    const { answer } = kept;
    return { period: answer.period, products: answer.products.map(named), queries: answer.queries.map(named), fetchedAt: new Date(kept.fetched_at).toISOString() };
  }
  const answer = await shopQueries(deps, userId, shop, period);
  if (!answer) return null;
  const fetchedAt = new Date(now).toISOString();
  await deps.database.query(
    `insert into research_own_queries (shop_id, date_from, date_to, answer, fetched_at) values ($1, $2, $3, $4::jsonb, $5)
     on conflict (shop_id, date_from, date_to) do update set answer = excluded.answer, fetched_at = excluded.fetched_at`,
    [shop.id, period.date_from, period.date_to, JSON.stringify(answer), fetchedAt],
  );
  // Older periods' answers are of no further use.
  await deps.database.query(`delete from research_own_queries where shop_id = $1 and date_to < $2`, [shop.id, period.date_to]);
  return { ...answer, fetchedAt };
}

async function shopQueries(deps: OwnQueriesDeps, userId: number, shop: Shop, period: { date_from: string; date_to: string }): Promise<ShopAnswer | null> {
  const listed = await deps.database.query<{ sku: string; offer_id: string; name: string }>(
    `select sku, offer_id, name from products where user_id = $1 and shop_id = $2 and sku <> '' and not deleted
     order by units_30d desc, id limit ${PRODUCT_QUERIES_SKUS_PER_CALL}`,
    [userId, shop.id],
  );
  if (listed.length === 0) return null;
  const bySku = new Map(listed.map((row) => [row.sku, row]));
  const client = await deps.clientOf(userId, shop.id);
  const skus = listed.map((row) => row.sku);
  const summary = await client.productQueries({ ...period, skus, page: 0, page_size: OWN_QUERIES_PRODUCTS, sort_by: 'BY_SEARCHES', sort_dir: 'DESCENDING' });
  const known = (sku: string) => bySku.get(sku) ?? { offer_id: '', name: '' };
  const products = summary.items.filter((item) => item.unique_search_users > 0).map((item): OwnProductQueries => ({
    shopId: shop.id,
    shopName: shop.name,
    sku: item.sku,
    offerId: item.offer_id || known(item.sku).offer_id,
    name: item.name || known(item.sku).name,
    category: item.category,
    searches: item.unique_search_users,
    views: item.unique_view_users,
    position: item.position,
    conversion: item.view_conversion,
    gmv: item.gmv,
    currency: item.currency,
  }));
  const queries: OwnQuery[] = [];
  const top = products.slice(0, OWN_QUERIES_DETAIL_SKUS).map((product) => product.sku);
  for (let page = 0; top.length > 0 && page < DETAIL_PAGES; page++) {
    const details = await client.productQueriesDetails({ ...period, skus: top, limit_by_sku: PRODUCT_QUERIES_PER_SKU, page, page_size: PRODUCT_QUERIES_PAGE_SIZE, sort_by: 'BY_SEARCHES', sort_dir: 'DESCENDING' });
    for (const q of details.queries) {
      const product = products.find((p) => p.sku === q.sku);
      queries.push({
        shopId: shop.id,
        shopName: shop.name,
        sku: q.sku,
        offerId: product?.offerId ?? known(q.sku).offer_id,
        name: product?.name ?? known(q.sku).name,
        query: q.query,
        orders: q.order_count,
        searches: q.unique_search_users,
        views: q.unique_view_users,
        position: q.position,
        conversion: q.view_conversion,
        gmv: q.gmv,
        currency: q.currency,
      });
    }
    if (page + 1 >= details.page_count) break;
  }
  const from = summary.analytics_period?.date_from || period.date_from.slice(0, 10);
  const to = summary.analytics_period?.date_to || period.date_to.slice(0, 10);
  return { period: { from, to }, products, queries };
}
