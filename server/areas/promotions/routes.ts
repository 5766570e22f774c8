import type { FastifyInstance } from 'fastify';
import { hasPermission } from '../../../contract/access';
import { PROMOTION_ENDPOINTS } from '../../../contract/promotions';
import { createLeases } from '../../db/leases';
import { route } from '../../http/route';
import type { AuthUser } from '../session/service';
import { createCostService } from '../costs/service';
import { createPriceGuardJob, PRICE_GUARD_INTERVAL_MS, type PriceGuardJob } from './guardJob';
import { createPromotionService } from './service';

export type PromotionRoutesOptions = {
  /** How often the price guard runs (default 10 min); 0 turns the timer off (tests call `tick`). */
  guardIntervalMs?: number;
  /** Hands the guard's job to a test. */
  onGuardJob?: (job: PriceGuardJob) => void;
};

type CostBearing = { cost: number | null; marginPercent?: number | null };

/**
 * Cost prices, and the margins made of them, are the seller's: as the cost list itself (contract/costs.ts), a member
 * reads them only with the grant that changes prices. Without it the rows come with neither (the floor stays: it is
 * what the guard enforces, and what a refusal names).
 */
function costsFor(user: AuthUser) {
  const sees = hasPermission(user.permissions, 'actions:price');
  return <R extends CostBearing>(rows: R[]): R[] => (sees ? rows : rows.map((row) => ({ ...row, cost: null, ...('marginPercent' in row ? { marginPercent: null } : {}) })));
}

/** Promotions (seller-tool /action/oz-action-list): every call gated on the 'actions' area. */
export async function promotionRoutes(app: FastifyInstance, options: PromotionRoutesOptions = {}) {
  const leases = createLeases(app.database);
  const service = createPromotionService({
    database: app.database,
    secretKey: app.config.secretKey,
    clientFor: (connection) => app.marketplace.clientFor(connection),
    costs: createCostService(app.database),
    now: () => app.now(),
    leases,
  });
  const job = createPriceGuardJob({ service, leases, intervalMs: options.guardIntervalMs ?? PRICE_GUARD_INTERVAL_MS, log: app.log });
  options.onGuardJob?.(job);
  app.addHook('onReady', async () => job.start());
  app.addHook('onClose', async () => job.stop());

  const E = PROMOTION_ENDPOINTS;
  route(app, E.actionList, async ({ user, lang }) => service.actionList(user.accountId, lang));
  route(app, E.actionInfo, async ({ user, input }) => service.actionInfo(user.accountId, input));
  const productsOf = async (user: AuthUser, input: { storeId: number; actionId: number }, which: 'products' | 'candidates') => {
    const answer = await service.actionProducts(user.accountId, input, which);
    return { ...answer, rows: costsFor(user)(answer.rows) };
  };
  route(app, E.actionProducts, async ({ user, input }) => productsOf(user, input, 'products'));
  route(app, E.actionCandidates, async ({ user, input }) => productsOf(user, input, 'candidates'));
  route(app, E.actionAdd, async ({ user, input, lang }) => service.add(user.accountId, input, lang));
  route(app, E.actionRemove, async ({ user, input, lang }) => service.remove(user.accountId, input, lang));
  route(app, E.guardList, async ({ user }) => service.guardList(user.accountId));
  route(app, E.guardSet, async ({ user, input }) => service.guardSet(user.accountId, input));
  route(app, E.guardAction, async ({ user, input }) => service.guardAction(user.accountId, input));
  route(app, E.guardRun, async ({ user, input }) => service.guardRunFor(user.accountId, input.storeId));
  route(app, E.guardLog, async ({ user, input, lang }) => {
    const answer = await service.guardLog(user.accountId, input, lang);
    return { ...answer, list: costsFor(user)(answer.list) };
  });
  route(app, E.discountList, async ({ user, input, lang }) => {
    const answer = await service.discountList(user.accountId, input.view, lang);
    return { ...answer, tasks: costsFor(user)(answer.tasks) };
  });
  route(app, E.discountApprove, async ({ user, input, lang }) => service.discountApprove(user.accountId, input.items, lang));
  route(app, E.discountDecline, async ({ user, input, lang }) => service.discountDecline(user.accountId, input.items, lang));
}
