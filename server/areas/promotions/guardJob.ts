import type { LeaseHolding, Leases } from '../../db/leases';
import type { PromotionService } from './service';

/**
 * The price guard's schedule: every `intervalMs` one server instance (the holder of the 'price-guard' lease) runs the
 * guard over every shop whose guard is on. Each shop's run also holds the shop's own lease (service.ts), so a run the
 * seller starts by hand and the scheduled one never work on one shop at once, and a removal is logged once.
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
  let timer: ReturnType<typeof setInterval> | null = null;
  let running: Promise<void> | null = null;
  let held: LeaseHolding | null = null;
  // Held across passes: another instance takes over only after two missed intervals.
  const leaseMs = Math.max(60_000, options.intervalMs * 2);

  async function pass() {
    held = held && (await options.leases.renew(held, leaseMs)) ? held : await options.leases.acquire(PRICE_GUARD_LEASE, leaseMs);
    if (!held) return;
    await options.service.runGuard({}, (error, shopId) => options.log.error({ err: error, shopId }, 'price guard run failed'));
  }

  return {
    tick(): Promise<void> {
      running ??= pass()
        .catch((error: unknown) => options.log.error({ err: error }, 'price guard pass failed'))
        .finally(() => (running = null));
      return running;
    },
    start() {
      if (options.intervalMs > 0 && !timer) {
        timer = setInterval(() => void this.tick(), options.intervalMs);
        timer.unref?.();
      }
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
      if (held) await options.leases.release(PRICE_GUARD_LEASE).catch(() => undefined);
      held = null;
    },
  };
}
export type PriceGuardJob = ReturnType<typeof createPriceGuardJob>;
