import type { FastifyInstance } from 'fastify';
import { PROMOTION_ENDPOINTS } from '../../../contract/promotions';
import { createLeases } from '../../db/leases';
import { route } from '../../http/route';
import { createCostService } from '../costs/service';
import { createPriceGuardJob, PRICE_GUARD_INTERVAL_MS, type PriceGuardJob } from './guardJob';
import { createPromotionService } from './service';

export type PromotionRoutesOptions = {
  /** How often the price guard runs (default 10 min); 0 turns the timer off (tests call `tick`). */
  guardIntervalMs?: number;
  /** Hands the guard's job to a test. */
  onGuardJob?: (job: PriceGuardJob) => void;
};

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
  route(app, E.actionProducts, async ({ user, input }) => service.actionProducts(user.accountId, input, 'products'));
  route(app, E.actionCandidates, async ({ user, input }) => service.actionProducts(user.accountId, input, 'candidates'));
  route(app, E.actionAdd, async ({ user, input, lang }) => service.add(user.accountId, input, lang));
  route(app, E.actionRemove, async ({ user, input, lang }) => service.remove(user.accountId, input, lang));
  route(app, E.guardList, async ({ user }) => service.guardList(user.accountId));
  route(app, E.guardSet, async ({ user, input }) => service.guardSet(user.accountId, input));
  route(app, E.guardAction, async ({ user, input }) => service.guardAction(user.accountId, input));
  route(app, E.guardRun, async ({ user, input }) => service.guardRunFor(user.accountId, input.storeId));
  route(app, E.guardLog, async ({ user, input, lang }) => service.guardLog(user.accountId, input, lang));
  route(app, E.discountList, async ({ user, input, lang }) => service.discountList(user.accountId, input.view, lang));
  route(app, E.discountApprove, async ({ user, input, lang }) => service.discountApprove(user.accountId, input.items, lang));
  route(app, E.discountDecline, async ({ user, input, lang }) => service.discountDecline(user.accountId, input.items, lang));
}
