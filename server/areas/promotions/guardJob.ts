import type { Leases } from '../../db/leases';
import { createLeasedSchedule } from '../../db/schedule';
import type { PromotionService } from './service';

/**
 * The price guard's schedule (server/db/schedule.ts): every `intervalMs` one server instance (the holder of the
 * 'price-guard' lease) runs the guard over every shop whose guard is on. Each shop's run also holds the shop's own
 * lease (service.ts), so a run the seller starts by hand and the scheduled one never work on one shop at once, and a
 * removal is logged once.
 */
export const PRICE_GUARD_LEASE = 'price-guard';
export const PRICE_GUARD_INTERVAL_MS = 10 * 60_000;

export type PriceGuardJobOptions = {
  service: PromotionService;
  leases: Leases;
  /** 0 or less: no timer, `tick()` only (tests). */
  intervalMs: number;
  log: { error(object: unknown, message: string): void };
};

export function createPriceGuardJob(options: PriceGuardJobOptions) {
  return createLeasedSchedule({
    leases: options.leases,
    name: PRICE_GUARD_LEASE,
    intervalMs: options.intervalMs,
    idle: undefined,
    log: options.log,
    run: () => options.service.runGuard({}, (error, shopId) => options.log.error({ err: error, shopId }, 'price guard run failed')),
  });
}
export type PriceGuardJob = ReturnType<typeof createPriceGuardJob>;
