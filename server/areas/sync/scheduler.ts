import { SYNC_ENTITIES, type SyncEntity } from '../../../contract/store';
import type { Database } from '../../db/database';
import type { SyncService } from './service';

export type SchedulerOptions = {
  /** Where a look that failed (the database away) is told; the next tick looks again. */
  log?: { error(object: unknown, message: string): void };
  /** How often the scheduler looks for due jobs. */
  tickMs?: number;
  /** How long after a finished run an entity is synced again. */
  intervals?: Partial<Record<SyncEntity, number>>;
  /** Shops syncing at once from this process; each shop's own rate limits are kept by the shared per-Client-Id limiter. */
  maxShopsAtOnce?: number;
  /** A failing job waits base × 2^(failures − 1), at most max, before it is tried again. */
  backoff?: { baseMs: number; maxMs: number };
  now?: () => Date;
};

const MINUTE = 60_000;
/** Postings and chats change by the minute; catalogue, returns, finance and promotions much more slowly. */
export const DEFAULT_SYNC_INTERVALS: Record<SyncEntity, number> = {
  postings: 2 * MINUTE,
  chats: 1 * MINUTE,
  warehouses: 60 * MINUTE,
  products: 30 * MINUTE,
  returns: 30 * MINUTE,
  /** Ozon books transactions as postings are delivered; the sales analysis reads commission and payout from them. */
  finance: 30 * MINUTE,
  promotions: 60 * MINUTE,
};

type JobState = {
  shop_id: number;
  entity: SyncEntity;
  status: string | null;
  finished_at: Date | string | null;
  lease_until: Date | string | null;
  failures: number | null;
  /** The job's claims so far (0 when it has no row yet): the claim is made only if it is still this. */
  generation: number;
};

export type SyncScheduler = {
  start(): void;
  /** Stops ticking (runs under way are the sync service's to stop). */
  stop(): void;
  /** One look for due jobs; answers the shops it started. Tests call it instead of waiting for the timer. */
  tick(): Promise<number[]>;
};

/** Which of a shop's entities are due, by its jobs' state. Exported for tests. */
export function dueEntities(jobs: Omit<JobState, 'generation'>[], now: number, intervals: Record<SyncEntity, number>, backoff: { baseMs: number; maxMs: number }): SyncEntity[] {
  const at = (v: Date | string | null) => (v === null ? null : new Date(v).getTime());
  return jobs
    .filter((job) => {
      const finished = at(job.finished_at);
      switch (job.status) {
        case null:
        case 'idle':
          return finished === null || finished + intervals[job.entity] <= now;
        // A run whose lease ran out was killed (or its server was): resume it from its cursor.
        case 'running':
          return (at(job.lease_until) ?? 0) < now;
        case 'failed': {
          const wait = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.max(0, (job.failures ?? 1) - 1));
          return finished === null || finished + wait <= now;
        }
        default:
          return finished === null || finished + intervals[job.entity] <= now;
      }
    })
    .map((job) => job.entity);
}

/**
 * Keeps every active shop's entities fresh: re-runs each on its interval, resumes jobs whose lease expired, backs off
 * failing jobs, and starts at most `maxShopsAtOnce` shops at a time. Shops whose key failed are left alone until the
 * seller re-authorizes them. Several server instances may each run one: the jobs' leases keep them apart.
 */
export function createSyncScheduler(database: Database, sync: SyncService, options: SchedulerOptions = {}): SyncScheduler {
  const tickMs = options.tickMs ?? 15_000;
  const intervals = { ...DEFAULT_SYNC_INTERVALS, ...options.intervals };
  const maxShops = options.maxShopsAtOnce ?? 3;
  const backoff = options.backoff ?? { baseMs: MINUTE, maxMs: 60 * MINUTE };
  const now = options.now ?? (() => new Date());
  let timer: ReturnType<typeof setTimeout> | null = null;
  let ticking: Promise<number[]> | null = null;
  /** When the earliest lease of another instance's run ends (the last look's finding), if any. */
  let wakeAt: number | null = null;

  async function look(): Promise<number[]> {
    const jobs = await database.query<JobState>(
      `select s.id as shop_id, e.entity, j.status, j.finished_at, j.lease_until, j.failures, coalesce(j.generation, 0) as generation
       from mp_shops s cross join unnest($1::text[]) as e(entity)
       left join mp_sync_jobs j on j.shop_id = s.id and j.entity = e.entity
       where s.status = 'active'
       order by s.id`,
      [SYNC_ENTITIES],
    );
    const byShop = new Map<number, JobState[]>();
    for (const job of jobs) byShop.set(job.shop_id, [...(byShop.get(job.shop_id) ?? []), job]);
    const busy = new Set(sync.busyShops());
    const started: number[] = [];
    const time = now().getTime();
    // A run of another instance whose lease ends before the next tick (its instance may have died): look again then,
    // so a killed run is resumed within its lease rather than a lease and a tick.
    wakeAt = null;
    for (const job of jobs) {
      const until = job.status === 'running' && job.lease_until !== null ? new Date(job.lease_until).getTime() : null;
      if (until !== null && until >= time && !busy.has(job.shop_id)) wakeAt = Math.min(wakeAt ?? Infinity, until);
    }
    for (const [shopId, shopJobs] of byShop) {
      if (busy.has(shopId)) continue;
      if (busy.size + started.length >= maxShops) break;
      const due = dueEntities(shopJobs, time, intervals, backoff);
      if (due.length === 0) continue;
      started.push(shopId);
      // Each claim checks the job is as found here: one another instance ran meanwhile is not run again.
      const seen = Object.fromEntries(shopJobs.filter((job) => due.includes(job.entity)).map((job) => [job.entity, job.generation]));
      // Failures are recorded on the job (and pushed); nothing to do with them here.
      void sync.runShop(shopId, due, seen).catch(() => undefined);
    }
    return started;
  }

  const schedule = () => {
    // Just past the lease's end (the claim compares with `<`).
    const untilWake = wakeAt === null ? tickMs : Math.max(50, wakeAt - now().getTime() + 50);
    timer = setTimeout(() => {
      void scheduler.tick().finally(() => timer !== null && schedule());
    }, Math.min(tickMs, untilWake));
    timer.unref?.();
  };

  const scheduler: SyncScheduler = {
    start() {
      if (timer) return;
      // The first look at once: demo shops sync right after start.
      timer = setTimeout(() => undefined, 0);
      void scheduler.tick().finally(() => timer !== null && schedule());
    },
    stop() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
    tick() {
      // Never two looks at once: the second would start what the first just started. A look that fails starts
      // nothing and never rejects (it runs on a timer): the next tick looks again.
      ticking ??= look()
        .catch((error: unknown) => {
          options.log?.error({ err: error }, 'sync scheduler: the look for due jobs failed');
          return [];
        })
        .finally(() => (ticking = null));
      return ticking;
    },
  };
  return scheduler;
}
