import type { LeaseHolding, Leases } from './leases';

/**
 * Background work that runs every `intervalMs` on one server instance at a time: the holder of the lease `name`.
 * The lease is held across runs (another instance takes over only after two missed intervals) and renewed while a
 * run works, so a long run keeps it. A run that throws is logged and the next interval tries again.
 */
export type LeasedScheduleOptions<T> = {
  leases: Leases;
  name: string;
  /** 0 or less: no timer, `tick()` only (tests). */
  intervalMs: number;
  /** One run; `holding.lost` turns true once another instance took the lease over (the run should end). */
  run: (holding: { readonly lost: boolean }) => Promise<T>;
  /** What a tick answers when this instance does not hold the lease, or the run failed. */
  idle: T;
  log: { error(object: unknown, message: string): void };
};

export function createLeasedSchedule<T>(options: LeasedScheduleOptions<T>) {
  let timer: ReturnType<typeof setInterval> | null = null;
  let running: Promise<T> | null = null;
  let held: LeaseHolding | null = null;
  const leaseMs = Math.max(60_000, options.intervalMs * 2);

  async function once(): Promise<T> {
    held = held && (await options.leases.renew(held, leaseMs)) ? held : await options.leases.acquire(options.name, leaseMs);
    if (!held) return options.idle;
    const renewing = options.leases.keepRenewing(held, leaseMs);
    try {
      return await options.run(renewing);
    } finally {
      renewing.stop();
    }
  }

  return {
    /** One run now, or the one under way. */
    tick(): Promise<T> {
      running ??= once()
        .catch((error: unknown) => {
          options.log.error({ err: error, job: options.name }, 'background job failed');
          return options.idle;
        })
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
      if (held) await options.leases.release(options.name).catch(() => undefined);
      held = null;
    },
  };
}
