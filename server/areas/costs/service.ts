import { COST_MESSAGES, type CostImportAnswer, type CostRow } from '../../../contract/costs';
import { eachLang, type Lang } from '../../../contract/errors';
import type { Database } from '../../db/database';
import { ApiError } from '../../http/errors';
import { currentShopScope } from '../team/shopScope';
import type { CostLine } from './parse';

/** Offer ids a refusal names; the rest are counted. */
const SHOWN_OFFERS = 5;

/**
 * The seller's cost prices by offer id (cost_prices). Other areas read them with `costsFor`; the promotions price
 * guard and sales analysis compute margins from them.
 *
 * A member scoped to some shops (the request's shop scope) sees the costs of their shops' products, and changes
 * only those of offer ids no shop outside their scope sells: one cost counts for every shop of the seller, so
 * changing a shared offer id's would change another shop's margins.
 */
export function createCostService(database: Database) {
  const q = database.query.bind(database);

  /** The offer ids of `offerIds` the caller may not change (none for a caller who sees every shop). */
  async function outsideScope(userId: number, offerIds: readonly string[]): Promise<Set<string>> {
    const scope = currentShopScope();
    if (scope === null || offerIds.length === 0) return new Set();
    // Both probes walk products_shop_offer_idx: the scope's shops, and the account's other shops named outright.
    const rows = await q<{ offer_id: string }>(
      `with outside as (select coalesce(array_agg(id), '{}') as ids from mp_shops where user_id = $1 and not (id = any($3::int[])))
       select o as offer_id from unnest($2::text[]) as t(o)
       where not exists (select 1 from products p where p.shop_id = any($3::int[]) and p.offer_id = o and p.user_id = $1 and not p.deleted)
          or exists (select 1 from products p, outside where p.shop_id = any(outside.ids) and p.offer_id = o and p.user_id = $1 and not p.deleted)`,
      [userId, [...new Set(offerIds)], [...scope]],
    );
    return new Set(rows.map((row) => row.offer_id));
  }

  /** Upserts in one statement per thousand (unnest), so a 20,000-line import is a few round trips. */
  async function save(userId: number, items: readonly { offerId: string; cost: number }[]) {
    for (let i = 0; i < items.length; i += 1000) {
      const batch = items.slice(i, i + 1000);
      await q(
        `insert into cost_prices (user_id, offer_id, cost, updated_at)
         select $1, o, c, now() from unnest($2::text[], $3::numeric[]) as t(o, c)
         on conflict (user_id, offer_id) do update set cost = excluded.cost, updated_at = now()`,
        [userId, batch.map((b) => b.offerId), batch.map((b) => b.cost.toFixed(2))],
      );
    }
  }

  return {
    async list(userId: number, query: { page: number; rows: number; search?: string }): Promise<{ list: CostRow[]; total: number }> {
      const search = query.search ? `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
      const scope = currentShopScope();
      const scoped =
        scope === null
          ? ''
          : ` and exists (select 1 from products p where p.shop_id = any('{${scope.filter(Number.isSafeInteger).join(',')}}'::int[]) and p.offer_id = cost_prices.offer_id and p.user_id = cost_prices.user_id and not p.deleted)`;
      const where = `user_id = $1 and ($2::text is null or offer_id ilike $2)${scoped}`;
      const [count] = await q<{ n: number }>(`select count(*)::int as n from cost_prices where ${where}`, [userId, search]);
      const rows = await q<{ offer_id: string; cost: string; updated_at: Date }>(
        `select offer_id, cost, updated_at from cost_prices where ${where} order by offer_id limit $3 offset $4`,
        [userId, search, query.rows, (query.page - 1) * query.rows],
      );
      return {
        list: rows.map((r) => ({ offerId: r.offer_id, cost: Number(r.cost), currency: 'RUB', updatedAt: new Date(r.updated_at).getTime() })),
        total: count?.n ?? 0,
      };
    },

    async set(userId: number, items: readonly { offerId: string; cost: number | null }[]) {
      // The last entry of an offer id counts.
      const last = new Map(items.map((item) => [item.offerId, item.cost]));
      // Nothing is written when any offer id is not the caller's.
      const refused = [...(await outsideScope(userId, [...last.keys()]))];
      if (refused.length > 0) {
        const shown = refused.slice(0, SHOWN_OFFERS).join(', ') + (refused.length > SHOWN_OFFERS ? ` …(${refused.length})` : '');
        throw new ApiError(401, eachLang((lang) => `${COST_MESSAGES.offerOutsideShops[lang]}${lang === 'zh' ? '：' : ': '}${shown}`), 'items');
      }
      const saved = [...last].filter((e): e is [string, number] => e[1] !== null).map(([offerId, cost]) => ({ offerId, cost }));
      const removed = [...last].filter(([, cost]) => cost === null).map(([offerId]) => offerId);
      await save(userId, saved);
      if (removed.length) await q(`delete from cost_prices where user_id = $1 and offer_id = any($2::text[])`, [userId, removed]);
      return { saved: saved.length, removed: removed.length };
    },

    async importLines(userId: number, lines: readonly CostLine[], lang: Lang): Promise<CostImportAnswer> {
      const errors: CostImportAnswer['errors'] = [];
      const good = new Map<string, { line: number; cost: number }>();
      const refused = await outsideScope(userId, lines.filter((line) => !line.problem).map((line) => line.offerId));
      for (const line of lines) {
        if (line.problem || refused.has(line.offerId)) {
          errors.push({ line: line.line, offerId: line.offerId, message: (line.problem ?? COST_MESSAGES.offerOutsideShops)[lang] });
          continue;
        }
        const earlier = good.get(line.offerId);
        if (earlier) errors.push({ line: earlier.line, offerId: line.offerId, message: COST_MESSAGES.duplicateOffer[lang] });
        good.set(line.offerId, { line: line.line, cost: line.cost });
      }
      await save(userId, [...good].map(([offerId, { cost }]) => ({ offerId, cost })));
      return { saved: good.size, lines: lines.length, errors: errors.sort((a, b) => a.line - b.line) };
    },

    /** The user's cost price of each offer id that has one. */
    async costsFor(userId: number, offerIds: readonly string[]): Promise<Map<string, number>> {
      if (offerIds.length === 0) return new Map();
      const rows = await q<{ offer_id: string; cost: string }>(`select offer_id, cost from cost_prices where user_id = $1 and offer_id = any($2::text[])`, [
        userId,
        [...new Set(offerIds)],
      ]);
      return new Map(rows.map((r) => [r.offer_id, Number(r.cost)]));
    },
  };
}
export type CostService = ReturnType<typeof createCostService>;
