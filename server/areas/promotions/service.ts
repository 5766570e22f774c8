import { eachLang, textIn, type Lang, type Localized, type ZhEnText } from '../../../contract/errors';
import { shopScopeSql } from '../team/shopScope';
import {
  marginPercent,
  PROMOTION_MESSAGES,
  type ActionProductRow,
  type ActionRow,
  type ActionStatus,
  type DiscountTaskRow,
  type DiscountView,
  type GuardLogRow,
  type GuardRunAnswer,
  type PriceGuard,
  type PriceGuardMode,
  type ProductOutcome,
  type ShopProblem,
  type TaskOutcome,
} from '../../../contract/promotions';
import type { Database } from '../../db/database';
import { whileHolding, type LeaseHolding, type Leases } from '../../db/leases';
import { ApiError } from '../../http/errors';
import { decryptSecret } from '../../marketplace/crypto';
import type { DiscountTaskStatus, OzonClient } from '../../marketplace/ozon/client';
import { isOzonError } from '../../marketplace/ozon/errors';
import type { OzonAction, OzonActionProduct, OzonDiscountTask } from '../../marketplace/ozon/schemas';
import { ACTION_PRODUCTS_PER_CALL, DISCOUNT_TASKS_PER_CALL } from '../../marketplace/ozon/versions';
import type { ClientFactory } from '../../marketplace/plugin';
import type { CostService } from '../costs/service';

/**
 * Ozon actions of every shop of a seller, their products and candidates, joining and leaving, the price guard and
 * buyers' discount requests (contract/promotions.ts). Everything is read from Ozon when asked (the synced copy in
 * mp_records stands in for a shop's action list when Ozon cannot be reached), and every change goes to Ozon in its
 * batch sizes with an outcome per product or request.
 *
 * The guard's floor for a product: the shop's minimum price (absolute), or its offer's cost price plus the margin
 * (margin; no cost price, no floor). Nothing joins an action, and no discount request is approved, below it; the
 * scheduled run (./guardJob.ts) removes what Ozon joined below it by itself, and logs each removal once.
 */
export type PromotionDeps = {
  database: Database;
  secretKey: Buffer;
  clientFor: ClientFactory;
  costs: CostService;
  now: () => Date;
  /** Per-shop leases: one guard run at a time per shop, whichever instance or trigger starts it. */
  leases: Leases;
};

type ShopRow = { id: number; user_id: number; name: string; client_id: string; api_key_enc: string; base_url: string | null; status: string };
type GuardRow = { shop_id: number; enabled: boolean; mode: string; min_price: string; margin_percent: string; last_run_at: Date | null };
type ProductInfo = { offerId: string; name: string };

/** Pages of an action's products the lists read at most (50,000 products). */
const MAX_PRODUCT_PAGES = 50;
/** How old the synced copy of an action may be for a join or leave to be checked against it. */
const ACTION_FRESH_MS = 10 * 60_000;
/** How long one batch's chunks share the candidates read so far (a batch of 1,000 takes seconds). */
const CANDIDATES_FRESH_MS = 2 * 60_000;
const CANDIDATE_CACHE = 20;
/** Pages of discount tasks per status read at most. */
const MAX_TASK_PAGES = 20;
const PENDING: DiscountTaskStatus[] = ['NEW', 'SEEN'];
const DECIDED: DiscountTaskStatus[] = ['APPROVED', 'PARTLY_APPROVED', 'DECLINED', 'AUTO_DECLINED', 'DECLINED_BY_USER'];
/** How long one shop's guard run may hold its lease. */
const SHOP_GUARD_LEASE_MS = 5 * 60_000;

const money = (n: number) => n.toFixed(2);
const round2 = (n: number) => Math.round(n * 100) / 100;
const timeOf = (iso: string | null | undefined) => {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isFinite(t) && t > 0 ? t : null;
};
const fill = (text: Localized, params: Record<string, string | Localized>): Localized => {
  const one = (lang: Lang) => text[lang].replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    return value === undefined ? whole : typeof value === 'string' ? value : value[lang];
  });
  return eachLang(one);
};
const shopGuardLease = (shopId: number) => `price-guard-shop-${shopId}`;

function failureText(error: unknown): Localized {
  if (isOzonError(error)) return error.texts;
  const text = error instanceof Error ? error.message : String(error);
  return fill(PROMOTION_MESSAGES.marketplaceFailed, { reason: text });
}
function marketplaceFailure(error: unknown): never {
  if (isOzonError(error)) throw new ApiError(error.code, error.texts);
  throw error;
}

export function actionStatus(start: number | null, end: number | null, now: number): ActionStatus {
  if (start !== null && now < start) return 'upcoming';
  if (end !== null && now > end) return 'ended';
  return 'running';
}

/** The floor of the price guard for one product: null when the guard is off for it or has none for it. */
export function floorFor(guard: Pick<PriceGuard, 'enabled' | 'mode' | 'minPrice' | 'marginPercent'>, actionOff: boolean, cost: number | null): number | null {
  if (!guard.enabled || actionOff) return null;
  if (guard.mode === 'absolute') return guard.minPrice > 0 ? guard.minPrice : null;
  return cost === null ? null : round2(cost * (1 + guard.marginPercent / 100));
}

/**
 * When an action froze (Ozon's `freeze_date`), or null while it has not: from then on Ozon refuses products joining or
 * leaving it and action prices going up (only lowering a participant's price and adding stock remain).
 */
export function frozenSince(action: Pick<OzonAction, 'freeze_date'>, now: number): number | null {
  const freeze = timeOf(action.freeze_date);
  return freeze !== null && now >= freeze ? freeze : null;
}

/** The refusal of a change to a frozen action, naming when it froze (UTC, to the minute). */
const frozenText = (since: number) => fill(PROMOTION_MESSAGES.actionFrozen, { date: `${new Date(since).toISOString().slice(0, 16).replace('T', ' ')} UTC` });

export function createPromotionService(deps: PromotionDeps) {
  const q = deps.database.query.bind(deps.database);
  const shopColumns = `s.id, s.user_id, s.name, s.client_id, s.api_key_enc, s.base_url, s.status`;

  const shopsOf = (userId: number) => q<ShopRow>(`select ${shopColumns} from mp_shops s where s.user_id = $1${shopScopeSql('s.id')} order by s.id`, [userId]);
  async function ownShop(userId: number, storeId: number): Promise<ShopRow> {
    const [row] = await q<ShopRow>(`select ${shopColumns} from mp_shops s where s.id = $1 and s.user_id = $2`, [storeId, userId]);
    if (!row) throw new ApiError(404, PROMOTION_MESSAGES.storeNotFound, 'storeId');
    return row;
  }
  const clientOf = (shop: ShopRow): OzonClient =>
    deps.clientFor({ clientId: shop.client_id, apiKey: decryptSecret(deps.secretKey, shop.api_key_enc), baseUrl: shop.base_url });

  // ---- the guard's settings

  async function guardsOf(shops: readonly ShopRow[]): Promise<Map<number, PriceGuard>> {
    const ids = shops.map((s) => s.id);
    const rows = ids.length ? await q<GuardRow>(`select * from price_guards where shop_id = any($1::int[])`, [ids]) : [];
    const off = ids.length ? await q<{ shop_id: number; action_id: string | number }>(`select shop_id, action_id from price_guard_off_actions where shop_id = any($1::int[])`, [ids]) : [];
    const byShop = new Map(rows.map((r) => [r.shop_id, r]));
    // Ozon prices a seller's products, actions included, in the one currency the seller chose (CNY for many Chinese
    // sellers, RUB by default): the shop's products say which.
    const currencies = ids.length
      ? await q<{ shop_id: number; currency: string | null }>(
          `select s.id as shop_id, (select p.currency from products p where p.shop_id = s.id and not p.deleted limit 1) as currency
           from unnest($1::int[]) as s(id)`,
          [ids],
        )
      : [];
    const currencyOf = new Map(currencies.map((r) => [r.shop_id, r.currency || 'RUB']));
    return new Map(
      shops.map((shop) => {
        const row = byShop.get(shop.id);
        return [
          shop.id,
          {
            storeId: shop.id,
            storeName: shop.name,
            currency: currencyOf.get(shop.id) ?? 'RUB',
            enabled: row?.enabled ?? false,
            mode: (row?.mode === 'margin' ? 'margin' : 'absolute') as PriceGuardMode,
            minPrice: Number(row?.min_price ?? 0),
            marginPercent: Number(row?.margin_percent ?? 0),
            offActions: off.filter((o) => o.shop_id === shop.id).map((o) => Number(o.action_id)),
            lastRunAt: row?.last_run_at ? new Date(row.last_run_at).getTime() : null,
          },
        ];
      }),
    );
  }
  const guardOf = async (shop: ShopRow): Promise<PriceGuard> => (await guardsOf([shop])).get(shop.id)!;

  // ---- products: names and offer ids

  /** Offer ids and names of a shop's products: the synced catalogue, and Ozon for any it does not hold yet. */
  async function productInfo(shop: ShopRow, productIds: readonly number[], client?: OzonClient): Promise<Map<number, ProductInfo>> {
    const info = new Map<number, ProductInfo>();
    if (productIds.length === 0) return info;
    const rows = await q<{ external_id: string; offer_id: string | null; name: string | null }>(
      `select external_id, data->>'offer_id' as offer_id, data->'info'->>'name' as name
       from mp_records where shop_id = $1 and entity = 'products' and external_id = any($2::text[])`,
      [shop.id, productIds.map(String)],
    );
    for (const r of rows) info.set(Number(r.external_id), { offerId: r.offer_id ?? '', name: r.name ?? '' });
    const missing = productIds.filter((id) => !info.has(id));
    if (client && missing.length) {
      try {
        for (let i = 0; i < missing.length && i < 5_000; i += 1000) {
          for (const item of await client.productInfoList({ product_id: missing.slice(i, i + 1000) })) info.set(item.id, { offerId: item.offer_id, name: item.name });
        }
      } catch {
        // Names are a convenience: the list still shows ids.
      }
    }
    return info;
  }

  async function allProducts(client: OzonClient, actionId: number, which: 'products' | 'candidates'): Promise<{ products: OzonActionProduct[]; total: number; truncated: boolean }> {
    const products: OzonActionProduct[] = [];
    let lastId: string | undefined;
    let total = 0;
    for (let page = 0; page < MAX_PRODUCT_PAGES; page++) {
      const req = { action_id: actionId, limit: ACTION_PRODUCTS_PER_CALL, ...(lastId ? { last_id: lastId } : {}) };
      const answer = which === 'products' ? await client.actionProducts(req) : await client.actionCandidates(req);
      products.push(...answer.products);
      total = answer.total;
      if (!answer.last_id || answer.last_id === '0' || answer.products.length === 0) return { products, total, truncated: false };
      lastId = answer.last_id;
    }
    return { products, total, truncated: true };
  }

  function toActionRow(shop: ShopRow, a: OzonAction, guard: PriceGuard, now: number): ActionRow {
    const dateStart = timeOf(a.date_start);
    const dateEnd = timeOf(a.date_end);
    const off = guard.offActions.includes(a.id);
    return {
      key: `${shop.id}:${a.id}`,
      storeId: shop.id,
      storeName: shop.name,
      actionId: a.id,
      title: a.title,
      type: a.action_type,
      description: a.description,
      dateStart,
      dateEnd,
      freezeDate: timeOf(a.freeze_date),
      status: actionStatus(dateStart, dateEnd, now),
      discountType: a.discount_type ?? '',
      discountValue: a.discount_value ?? 0,
      participating: a.participating_products_count,
      candidates: a.potential_products_count,
      guarded: guard.enabled && !off,
      guardOff: off,
      currency: guard.currency,
    };
  }

  /**
   * The action a join or leave is checked against: the synced copy (mp_records 'promotions') while it is at most
   * ACTION_FRESH_MS old, else Ozon's action list. A batch of 1,000 arrives in chunks of 200 a call: the chunks read
   * the action from the copy, not Ozon's list each.
   */
  async function findAction(shop: ShopRow, client: OzonClient, actionId: number): Promise<OzonAction> {
    const [synced] = await q<{ data: OzonAction }>(
      `select data from mp_records where shop_id = $1 and entity = 'promotions' and external_id = $2 and synced_at > now() - $3 * interval '1 millisecond'`,
      [shop.id, String(actionId), ACTION_FRESH_MS],
    );
    if (synced) return synced.data;
    const actions = await client.actions().catch(marketplaceFailure);
    const action = actions.find((a) => a.id === actionId);
    if (!action) throw new ApiError(404, PROMOTION_MESSAGES.actionNotFound, 'actionId');
    return action;
  }

  /** `<shop id>|<action id>` → the candidates read so far and where Ozon's paging stopped, kept CANDIDATES_FRESH_MS. */
  const candidatePages = new Map<string, { readAt: number; read: Map<number, OzonActionProduct>; lastId: string | undefined; done: boolean }>();

  /**
   * Ozon's maximum action price of each wanted product, from the candidates, paged until every wanted one is found.
   * The next chunk of the same batch goes on from the page this one stopped at instead of paging from the start.
   */
  async function candidatesFor(shop: ShopRow, client: OzonClient, actionId: number, wanted: ReadonlyMap<number, unknown>): Promise<Map<number, OzonActionProduct>> {
    const key = `${shop.id}|${actionId}`;
    const now = deps.now().getTime();
    let pages = candidatePages.get(key);
    if (!pages || now - pages.readAt > CANDIDATES_FRESH_MS) {
      pages = { readAt: now, read: new Map(), lastId: undefined, done: false };
      candidatePages.set(key, pages);
      if (candidatePages.size > CANDIDATE_CACHE) candidatePages.delete(candidatePages.keys().next().value!);
    }
    const missing = () => [...wanted.keys()].some((id) => !pages.read.has(id));
    for (let page = 0; page < MAX_PRODUCT_PAGES && !pages.done && missing(); page++) {
      const answer = await client.actionCandidates({ action_id: actionId, limit: ACTION_PRODUCTS_PER_CALL, ...(pages.lastId ? { last_id: pages.lastId } : {}) }).catch(marketplaceFailure);
      for (const p of answer.products) pages.read.set(p.id, p);
      pages.done = !answer.last_id || answer.last_id === '0' || answer.products.length === 0;
      pages.lastId = answer.last_id;
    }
    return new Map([...wanted.keys()].flatMap((id) => (pages.read.has(id) ? [[id, pages.read.get(id)!] as const] : [])));
  }

  // ---- the guard's run

  /** Writes one removal or failure, only while `lease` is the shop's current one; false when it was lost. */
  async function logEntry(
    lease: LeaseHolding,
    userId: number,
    shop: ShopRow,
    action: OzonAction,
    p: OzonActionProduct,
    info: ProductInfo | undefined,
    guard: PriceGuard,
    floor: number,
    cost: number | null,
    outcome: 'removed' | 'failed',
    error: Localized | null,
  ) {
    if (outcome === 'failed') {
      // A removal that keeps failing is logged once per price, not at every run.
      const [last] = await q<{ outcome: string; action_price: string }>(
        `select outcome, action_price from price_guard_log where shop_id = $1 and action_id = $2 and product_id = $3 order by id desc limit 1`,
        [shop.id, action.id, p.id],
      );
      if (last && last.outcome === 'failed' && Number(last.action_price) === p.action_price) return true;
    }
    const held = whileHolding(lease, 15);
    const written = await q(
      `insert into price_guard_log (user_id, shop_id, action_id, action_title, product_id, offer_id, name, add_mode, action_price, floor, mode, cost, outcome, error)
       select $1::int, $2::int, $3::bigint, $4::text, $5::bigint, $6::text, $7::text, $8::text, $9::numeric, $10::numeric, $11::text, $12::numeric, $13::text, $14::jsonb
       where ${held.sql} returning 1`,
      [userId, shop.id, action.id, action.title, p.id, info?.offerId ?? '', info?.name ?? '', p.add_mode, money(p.action_price), money(floor), guard.mode, cost === null ? null : money(cost), outcome, error ? JSON.stringify(error) : null, ...held.params],
    );
    return written.length > 0;
  }

  /**
   * One shop's run: every guarded action's products checked, the ones below the floor removed and logged. The run
   * holds the shop's lease with an owner of its own (a run by hand and the scheduled one, on this instance or
   * another, never work on one shop at once), renewed while it works; before each removal it checks the lease is
   * still its own, and its writes are fenced by it, so a run that stalled and was taken over stops without a trace.
   */
  async function guardShop(shop: ShopRow, totals: GuardRunAnswer) {
    const lease = await deps.leases.acquireRun(shopGuardLease(shop.id), SHOP_GUARD_LEASE_MS);
    if (!lease) return;
    const heartbeat = deps.leases.keepRenewing(lease, SHOP_GUARD_LEASE_MS);
    const stillHeld = async () => !heartbeat.lost && (await deps.leases.renew(lease, SHOP_GUARD_LEASE_MS));
    try {
      const guard = await guardOf(shop);
      if (!guard.enabled) return;
      totals.shops++;
      const client = clientOf(shop);
      for (const action of await client.actions()) {
        if (guard.offActions.includes(action.id) || action.participating_products_count === 0) continue;
        totals.actions++;
        const { products } = await allProducts(client, action.id, 'products');
        totals.checked += products.length;
        const info = await productInfo(shop, products.map((p) => p.id), client);
        const costs = guard.mode === 'margin' ? await deps.costs.costsFor(shop.user_id, [...info.values()].map((i) => i.offerId).filter(Boolean)) : new Map<string, number>();
        const below = products.flatMap((p) => {
          const cost = costs.get(info.get(p.id)?.offerId ?? '') ?? null;
          const floor = floorFor(guard, false, cost);
          return floor !== null && p.action_price > 0 && p.action_price < floor ? [{ p, floor, cost }] : [];
        });
        // A frozen action keeps its products: each below its floor is logged (once per price) as not removable.
        const frozen = frozenSince(action, deps.now().getTime());
        if (frozen !== null) {
          for (const { p, floor, cost } of below) {
            totals.failed++;
            if (!(await logEntry(lease, shop.user_id, shop, action, p, info.get(p.id), guard, floor, cost, 'failed', frozenText(frozen)))) return;
          }
          continue;
        }
        for (let i = 0; i < below.length; i += ACTION_PRODUCTS_PER_CALL) {
          const batch = below.slice(i, i + ACTION_PRODUCTS_PER_CALL);
          if (!(await stillHeld())) return;
          let removed = new Set<number>();
          let rejected = new Map<number, Localized>();
          try {
            const answer = await client.actionProductsDeactivate({ action_id: action.id, product_ids: batch.map((b) => b.p.id) });
            removed = new Set(answer.product_ids);
            rejected = new Map(answer.rejected.map((r) => [r.product_id, fill(PROMOTION_MESSAGES.ozonRefused, { reason: r.reason })]));
          } catch (error) {
            const text = failureText(error);
            rejected = new Map(batch.map((b) => [b.p.id, text]));
          }
          for (const { p, floor, cost } of batch) {
            const ok = removed.has(p.id);
            if (ok) totals.removed++;
            else totals.failed++;
            const reason = ok ? null : (rejected.get(p.id) ?? fill(PROMOTION_MESSAGES.ozonRefused, { reason: '?' }));
            if (!(await logEntry(lease, shop.user_id, shop, action, p, info.get(p.id), guard, floor, cost, ok ? 'removed' : 'failed', reason))) return;
          }
        }
        if (!(await stillHeld())) return;
      }
      const held = whileHolding(lease, 2);
      await q(`update price_guards set last_run_at = now() where shop_id = $1 and ${held.sql}`, [shop.id, ...held.params]);
    } finally {
      heartbeat.stop();
      await deps.leases.release(lease);
    }
  }

  async function runGuard(filter: { userId?: number; storeId?: number }, onError?: (error: unknown, shopId: number) => void): Promise<GuardRunAnswer> {
    const shops = await q<ShopRow>(
      `select ${shopColumns} from mp_shops s join price_guards g on g.shop_id = s.id
       where g.enabled and s.status = 'active' and ($1::int is null or s.user_id = $1) and ($2::int is null or s.id = $2) order by s.id`,
      [filter.userId ?? null, filter.storeId ?? null],
    );
    const totals: GuardRunAnswer = { shops: 0, actions: 0, checked: 0, removed: 0, failed: 0 };
    for (const shop of shops) {
      try {
        await guardShop(shop, totals);
      } catch (error) {
        // One shop's marketplace trouble does not stop the others; the next run tries again.
        if (onError) onError(error, shop.id);
        else if (filter.storeId) marketplaceFailure(error);
      }
    }
    return totals;
  }

  // ---- discount requests

  async function tasksOf(client: OzonClient, statuses: readonly DiscountTaskStatus[]): Promise<OzonDiscountTask[]> {
    const tasks: OzonDiscountTask[] = [];
    for (const status of statuses) {
      for (let page = 1; page <= MAX_TASK_PAGES; page++) {
        const answer = await client.discountTaskList({ status, page, limit: DISCOUNT_TASKS_PER_CALL });
        tasks.push(...answer);
        if (answer.length < DISCOUNT_TASKS_PER_CALL) break;
      }
    }
    return tasks;
  }

  async function namesByOffer(shopId: number, offerIds: readonly string[]): Promise<Map<string, string>> {
    if (offerIds.length === 0) return new Map();
    const rows = await q<{ offer_id: string; name: string | null }>(
      `select data->>'offer_id' as offer_id, data->'info'->>'name' as name from mp_records
       where shop_id = $1 and entity = 'products' and data->>'offer_id' = any($2::text[])`,
      [shopId, [...new Set(offerIds)]],
    );
    return new Map(rows.map((r) => [r.offer_id, r.name ?? '']));
  }

  /** Groups items by shop, checking each shop is the caller's; a foreign or unknown shop fails its items. */
  async function byShop<T extends { storeId: number; taskId: number }>(userId: number, items: readonly T[], lang: Lang, outcomes: TaskOutcome[]) {
    const groups = new Map<number, T[]>();
    for (const item of items) groups.set(item.storeId, [...(groups.get(item.storeId) ?? []), item]);
    const owned: { shop: ShopRow; items: T[] }[] = [];
    for (const [storeId, group] of groups) {
      const [shop] = await q<ShopRow>(`select ${shopColumns} from mp_shops s where s.id = $1 and s.user_id = $2`, [storeId, userId]);
      if (shop) owned.push({ shop, items: group });
      else for (const item of group) outcomes.push({ storeId, taskId: item.taskId, ok: false, reason: PROMOTION_MESSAGES.storeNotFound[lang] });
    }
    return owned;
  }

  async function decideTasks(
    shop: ShopRow,
    items: readonly { taskId: number }[],
    send: (batch: number[]) => Promise<{ fail_details: { task_id: number; error_for_user: string }[] }>,
    lang: Lang,
    outcomes: TaskOutcome[],
  ) {
    const ids = items.map((i) => i.taskId);
    for (let i = 0; i < ids.length; i += DISCOUNT_TASKS_PER_CALL) {
      const batch = ids.slice(i, i + DISCOUNT_TASKS_PER_CALL);
      try {
        const answer = await send(batch);
        const failed = new Map(answer.fail_details.map((f) => [f.task_id, f.error_for_user]));
        for (const id of batch) {
          const reason = failed.get(id);
          outcomes.push({ storeId: shop.id, taskId: id, ok: reason === undefined, reason: reason === undefined ? null : fill(PROMOTION_MESSAGES.ozonRefused, { reason })[lang] });
        }
      } catch (error) {
        const text = failureText(error)[lang];
        for (const id of batch) outcomes.push({ storeId: shop.id, taskId: id, ok: false, reason: text });
      }
    }
  }

  return {
    shopsOf,
    runGuard,

    async actionList(userId: number, lang: Lang): Promise<{ actions: ActionRow[]; problems: ShopProblem[] }> {
      const shops = await shopsOf(userId);
      const guards = await guardsOf(shops);
      const now = deps.now().getTime();
      const actions: ActionRow[] = [];
      const problems: ShopProblem[] = [];
      await Promise.all(
        shops.map(async (shop) => {
          const guard = guards.get(shop.id)!;
          try {
            const live = await clientOf(shop).actions();
            for (const a of live) actions.push(toActionRow(shop, a, guard, now));
            // What the seller saw is what a join is checked against next (findAction): the copy takes it too.
            if (live.length)
              await q(
                `insert into mp_records (shop_id, entity, external_id, data, synced_at) select $1, 'promotions', a->>'id', a, now() from jsonb_array_elements($2::jsonb) a
                 on conflict (shop_id, entity, external_id) do update set data = excluded.data, synced_at = excluded.synced_at`,
                [shop.id, JSON.stringify(live)],
              );
          } catch (error) {
            // The synced copy (server/areas/sync: promotions), marked stale.
            const synced = await q<{ data: OzonAction }>(`select data from mp_records where shop_id = $1 and entity = 'promotions'`, [shop.id]);
            for (const r of synced) actions.push(toActionRow(shop, r.data, guard, now));
            problems.push({ storeId: shop.id, storeName: shop.name, message: failureText(error)[lang], stale: synced.length > 0 });
          }
        }),
      );
      const order: Record<ActionStatus, number> = { running: 0, upcoming: 1, ended: 2 };
      actions.sort((a, b) => order[a.status] - order[b.status] || (a.dateEnd ?? 0) - (b.dateEnd ?? 0) || a.storeId - b.storeId || a.actionId - b.actionId);
      return { actions, problems: problems.sort((a, b) => a.storeId - b.storeId) };
    },

    async actionInfo(userId: number, ref: { storeId: number; actionId: number }) {
      const shop = await ownShop(userId, ref.storeId);
      const action = await findAction(shop, clientOf(shop), ref.actionId);
      const guard = await guardOf(shop);
      return { action: toActionRow(shop, action, guard, deps.now().getTime()), guard };
    },

    async actionProducts(userId: number, ref: { storeId: number; actionId: number }, which: 'products' | 'candidates') {
      const shop = await ownShop(userId, ref.storeId);
      const client = clientOf(shop);
      const { products, total, truncated } = await allProducts(client, ref.actionId, which).catch(marketplaceFailure);
      const info = await productInfo(shop, products.map((p) => p.id), client);
      const guard = await guardOf(shop);
      const off = guard.offActions.includes(ref.actionId);
      const costs = await deps.costs.costsFor(userId, [...info.values()].map((i) => i.offerId).filter(Boolean));
      const rows: ActionProductRow[] = products.map((p) => {
        const i = info.get(p.id);
        const cost = costs.get(i?.offerId ?? '') ?? null;
        return {
          productId: p.id,
          offerId: i?.offerId ?? '',
          name: i?.name ?? '',
          price: p.price,
          actionPrice: which === 'products' ? p.action_price : 0,
          maxActionPrice: p.max_action_price,
          stock: p.stock,
          addMode: p.add_mode || (which === 'products' ? 'MANUAL' : 'NOT_SET'),
          cost,
          floor: floorFor(guard, off, cost),
          marginPercent: marginPercent(which === 'products' ? p.action_price : p.max_action_price, cost),
        };
      });
      return { rows, total, truncated };
    },

    async add(userId: number, input: { storeId: number; actionId: number; products: { productId: number; actionPrice: number }[] }, lang: Lang): Promise<{ outcomes: ProductOutcome[] }> {
      const shop = await ownShop(userId, input.storeId);
      const client = clientOf(shop);
      const action = await findAction(shop, client, input.actionId);
      const frozen = frozenSince(action, deps.now().getTime());
      if (frozen !== null) return { outcomes: input.products.map((p) => ({ productId: p.productId, ok: false, reason: frozenText(frozen)[lang] })) };
      const wanted = new Map(input.products.map((p) => [p.productId, p.actionPrice]));
      const candidates = await candidatesFor(shop, client, input.actionId, wanted);
      const guard = await guardOf(shop);
      const off = guard.offActions.includes(input.actionId);
      const info = guard.enabled && !off && guard.mode === 'margin' ? await productInfo(shop, [...candidates.keys()], client) : new Map<number, ProductInfo>();
      const costs = info.size ? await deps.costs.costsFor(userId, [...info.values()].map((i) => i.offerId)) : new Map<string, number>();
      const outcomes = new Map<number, ProductOutcome>();
      const send: { product_id: number; action_price: number }[] = [];
      for (const [productId, actionPrice] of wanted) {
        const candidate = candidates.get(productId);
        const refuse = (text: Localized) => outcomes.set(productId, { productId, ok: false, reason: text[lang] });
        if (!candidate) refuse(PROMOTION_MESSAGES.notCandidate);
        else if (candidate.max_action_price > 0 && actionPrice > candidate.max_action_price)
          refuse(fill(PROMOTION_MESSAGES.aboveMaxPrice, { price: money(actionPrice), max: money(candidate.max_action_price) }));
        else {
          const floor = floorFor(guard, off, costs.get(info.get(productId)?.offerId ?? '') ?? null);
          if (floor !== null && actionPrice < floor) refuse(fill(PROMOTION_MESSAGES.belowFloor, { price: money(actionPrice), floor: money(floor) }));
          else send.push({ product_id: productId, action_price: actionPrice });
        }
      }
      for (let i = 0; i < send.length; i += ACTION_PRODUCTS_PER_CALL) {
        const batch = send.slice(i, i + ACTION_PRODUCTS_PER_CALL);
        try {
          const answer = await client.actionProductsActivate({ action_id: input.actionId, products: batch });
          const joined = new Set(answer.product_ids);
          const rejected = new Map(answer.rejected.map((r) => [r.product_id, r.reason]));
          for (const { product_id } of batch) {
            const reason = joined.has(product_id) ? null : fill(PROMOTION_MESSAGES.ozonRefused, { reason: rejected.get(product_id) ?? '?' })[lang];
            outcomes.set(product_id, { productId: product_id, ok: reason === null, reason });
          }
        } catch (error) {
          const text = failureText(error)[lang];
          for (const { product_id } of batch) outcomes.set(product_id, { productId: product_id, ok: false, reason: text });
        }
      }
      return { outcomes: input.products.map((p) => outcomes.get(p.productId)!) };
    },

    async remove(userId: number, input: { storeId: number; actionId: number; productIds: number[] }, lang: Lang): Promise<{ outcomes: ProductOutcome[] }> {
      const shop = await ownShop(userId, input.storeId);
      const client = clientOf(shop);
      const action = await findAction(shop, client, input.actionId);
      const ids = [...new Set(input.productIds)];
      const frozen = frozenSince(action, deps.now().getTime());
      if (frozen !== null) return { outcomes: ids.map((productId) => ({ productId, ok: false, reason: frozenText(frozen)[lang] })) };
      const outcomes: ProductOutcome[] = [];
      for (let i = 0; i < ids.length; i += ACTION_PRODUCTS_PER_CALL) {
        const batch = ids.slice(i, i + ACTION_PRODUCTS_PER_CALL);
        try {
          const answer = await client.actionProductsDeactivate({ action_id: input.actionId, product_ids: batch });
          const removed = new Set(answer.product_ids);
          const rejected = new Map(answer.rejected.map((r) => [r.product_id, r.reason]));
          for (const id of batch)
            outcomes.push({ productId: id, ok: removed.has(id), reason: removed.has(id) ? null : fill(PROMOTION_MESSAGES.ozonRefused, { reason: rejected.get(id) ?? '?' })[lang] });
        } catch (error) {
          const text = failureText(error)[lang];
          for (const id of batch) outcomes.push({ productId: id, ok: false, reason: text });
        }
      }
      return { outcomes };
    },

    async guardList(userId: number) {
      const shops = await shopsOf(userId);
      const guards = await guardsOf(shops);
      return { guards: shops.map((s) => guards.get(s.id)!) };
    },

    async guardSet(userId: number, input: { storeId: number; enabled: boolean; mode: PriceGuardMode; minPrice: number; marginPercent: number }) {
      const shop = await ownShop(userId, input.storeId);
      await q(
        `insert into price_guards (shop_id, enabled, mode, min_price, margin_percent, updated_at) values ($1, $2, $3, $4, $5, now())
         on conflict (shop_id) do update set enabled = excluded.enabled, mode = excluded.mode, min_price = excluded.min_price,
           margin_percent = excluded.margin_percent, updated_at = now()`,
        [shop.id, input.enabled, input.mode, money(input.minPrice), input.marginPercent.toFixed(2)],
      );
      return guardOf(shop);
    },

    async guardAction(userId: number, input: { storeId: number; actionId: number; enabled: boolean }) {
      const shop = await ownShop(userId, input.storeId);
      if (input.enabled) await q(`delete from price_guard_off_actions where shop_id = $1 and action_id = $2`, [shop.id, input.actionId]);
      else await q(`insert into price_guard_off_actions (shop_id, action_id) values ($1, $2) on conflict do nothing`, [shop.id, input.actionId]);
      return guardOf(shop);
    },

    async guardRunFor(userId: number, storeId: number | undefined) {
      if (storeId !== undefined) await ownShop(userId, storeId);
      return runGuard({ userId, storeId });
    },

    async guardLog(userId: number, query: { page: number; rows: number; storeId?: number }, lang: Lang): Promise<{ list: GuardLogRow[]; total: number }> {
      const where = `l.user_id = $1 and ($2::int is null or l.shop_id = $2)`;
      const [count] = await q<{ n: number }>(`select count(*)::int as n from price_guard_log l where ${where}`, [userId, query.storeId ?? null]);
      const rows = await q<{
        id: number; created_at: Date; shop_id: number; shop_name: string; action_id: string; action_title: string; product_id: string; offer_id: string; name: string;
        add_mode: string; action_price: string; floor: string; mode: string; cost: string | null; outcome: string; error: ZhEnText | null;
      }>(
        `select l.*, s.name as shop_name from price_guard_log l join mp_shops s on s.id = l.shop_id where ${where} order by l.id desc limit $3 offset $4`,
        [userId, query.storeId ?? null, query.rows, (query.page - 1) * query.rows],
      );
      return {
        total: count?.n ?? 0,
        list: rows.map((r) => ({
          id: r.id,
          at: new Date(r.created_at).getTime(),
          storeId: r.shop_id,
          storeName: r.shop_name,
          actionId: Number(r.action_id),
          actionTitle: r.action_title,
          productId: Number(r.product_id),
          offerId: r.offer_id,
          name: r.name,
          addMode: r.add_mode,
          actionPrice: Number(r.action_price),
          floor: Number(r.floor),
          mode: r.mode === 'margin' ? 'margin' : 'absolute',
          cost: r.cost === null ? null : Number(r.cost),
          outcome: r.outcome === 'failed' ? 'failed' : 'removed',
          error: r.error ? textIn(r.error, lang) : null,
        })),
      };
    },

    async discountList(userId: number, view: DiscountView, lang: Lang): Promise<{ tasks: DiscountTaskRow[]; problems: ShopProblem[] }> {
      const shops = await shopsOf(userId);
      const guards = await guardsOf(shops);
      const tasks: DiscountTaskRow[] = [];
      const problems: ShopProblem[] = [];
      await Promise.all(
        shops.map(async (shop) => {
          try {
            const found = await tasksOf(clientOf(shop), view === 'pending' ? PENDING : DECIDED);
            const offers = found.map((t) => t.offer_id).filter(Boolean);
            const names = await namesByOffer(shop.id, offers);
            const costs = await deps.costs.costsFor(userId, offers);
            const guard = guards.get(shop.id)!;
            for (const t of found) {
              const cost = costs.get(t.offer_id) ?? null;
              tasks.push({
                key: `${shop.id}:${t.id}`,
                storeId: shop.id,
                storeName: shop.name,
                taskId: t.id,
                status: t.status,
                customerName: t.customer_name,
                userComment: t.user_comment,
                sellerComment: t.seller_comment,
                sku: t.sku,
                offerId: t.offer_id,
                name: names.get(t.offer_id) ?? '',
                requestedPrice: t.requested_price,
                approvedPrice: t.approved_price,
                basePrice: t.base_price,
                currency: guard.currency,
                quantityMin: t.requested_quantity_min,
                quantityMax: Math.max(t.requested_quantity_min, t.requested_quantity_max),
                createdAt: timeOf(t.created_at) ?? 0,
                editedTill: timeOf(t.edited_till),
                endAt: timeOf(t.end_at),
                cost,
                floor: floorFor(guard, false, cost),
                marginPercent: marginPercent(t.requested_price, cost),
              });
            }
          } catch (error) {
            problems.push({ storeId: shop.id, storeName: shop.name, message: failureText(error)[lang], stale: false });
          }
        }),
      );
      tasks.sort((a, b) => b.createdAt - a.createdAt || a.key.localeCompare(b.key));
      return { tasks, problems: problems.sort((a, b) => a.storeId - b.storeId) };
    },

    async discountApprove(
      userId: number,
      items: readonly { storeId: number; taskId: number; price: number; quantityMin: number; quantityMax: number; comment?: string }[],
      lang: Lang,
    ): Promise<{ outcomes: TaskOutcome[] }> {
      const outcomes: TaskOutcome[] = [];
      for (const { shop, items: group } of await byShop(userId, items, lang, outcomes)) {
        const client = clientOf(shop);
        let open: Map<number, OzonDiscountTask>;
        try {
          open = new Map((await tasksOf(client, PENDING)).map((t) => [t.id, t]));
        } catch (error) {
          const text = failureText(error)[lang];
          for (const item of group) outcomes.push({ storeId: shop.id, taskId: item.taskId, ok: false, reason: text });
          continue;
        }
        const guard = await guardOf(shop);
        const costs = guard.enabled && guard.mode === 'margin' ? await deps.costs.costsFor(userId, [...open.values()].map((t) => t.offer_id)) : new Map<string, number>();
        const send: typeof group = [];
        for (const item of group) {
          const task = open.get(item.taskId);
          const floor = task ? floorFor(guard, false, costs.get(task.offer_id) ?? null) : null;
          if (!task) outcomes.push({ storeId: shop.id, taskId: item.taskId, ok: false, reason: PROMOTION_MESSAGES.taskNotFound[lang] });
          else if (floor !== null && item.price < floor)
            outcomes.push({ storeId: shop.id, taskId: item.taskId, ok: false, reason: fill(PROMOTION_MESSAGES.discountBelowFloor, { price: money(item.price), floor: money(floor) })[lang] });
          else send.push(item);
        }
        const byId = new Map(send.map((s) => [s.taskId, s]));
        await decideTasks(
          shop,
          send,
          (batch) =>
            client.discountTaskApprove(
              batch.map((id) => {
                const item = byId.get(id)!;
                return { id, approved_price: item.price, approved_quantity_min: item.quantityMin, approved_quantity_max: item.quantityMax, ...(item.comment ? { seller_comment: item.comment } : {}) };
              }),
            ),
          lang,
          outcomes,
        );
      }
      return { outcomes: items.map((i) => outcomes.find((o) => o.storeId === i.storeId && o.taskId === i.taskId)!) };
    },

    async discountDecline(userId: number, items: readonly { storeId: number; taskId: number; comment?: string }[], lang: Lang): Promise<{ outcomes: TaskOutcome[] }> {
      const outcomes: TaskOutcome[] = [];
      for (const { shop, items: group } of await byShop(userId, items, lang, outcomes)) {
        const client = clientOf(shop);
        const comments = new Map(group.map((g) => [g.taskId, g.comment]));
        await decideTasks(
          shop,
          group,
          (batch) => client.discountTaskDecline(batch.map((id) => ({ id, ...(comments.get(id) ? { seller_comment: comments.get(id) } : {}) }))),
          lang,
          outcomes,
        );
      }
      return { outcomes: items.map((i) => outcomes.find((o) => o.storeId === i.storeId && o.taskId === i.taskId)!) };
    },
  };
}
export type PromotionService = ReturnType<typeof createPromotionService>;
