import { COST_MESSAGES, type CostImportAnswer, type CostRow } from '../../../contract/costs';
import type { Lang } from '../../../contract/errors';
import type { Database } from '../../db/database';
import type { CostLine } from './parse';

/**
 * The seller's cost prices by offer id (cost_prices). Other areas read them with `costsFor`; the promotions price
 * guard and sales analysis compute margins from them.
 */
export function createCostService(database: Database) {
  const q = database.query.bind(database);

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
      const where = `user_id = $1 and ($2::text is null or offer_id ilike $2)`;
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
      const saved = [...last].filter((e): e is [string, number] => e[1] !== null).map(([offerId, cost]) => ({ offerId, cost }));
      const removed = [...last].filter(([, cost]) => cost === null).map(([offerId]) => offerId);
      await save(userId, saved);
      if (removed.length) await q(`delete from cost_prices where user_id = $1 and offer_id = any($2::text[])`, [userId, removed]);
      return { saved: saved.length, removed: removed.length };
    },

    async importLines(userId: number, lines: readonly CostLine[], lang: Lang): Promise<CostImportAnswer> {
      const errors: CostImportAnswer['errors'] = [];
      const good = new Map<string, { line: number; cost: number }>();
      for (const line of lines) {
        if (line.problem) {
          errors.push({ line: line.line, offerId: line.offerId, message: line.problem[lang] });
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
