import type { Leases } from '../../db/leases';
import { createLeasedSchedule } from '../../db/schedule';
import { advanceReuploads } from './reupload';
import type { ProductsDeps } from './service';

/**
 * The re-upload runner: the server's background job that moves every unsettled re-upload row on (reupload.ts), so a
 * batch of hundreds goes on after its browser closed and across restarts. Every `intervalMs` (and at once when a
 * batch starts or is retried) one server instance, the holder of the 'reupload-runner' lease, makes a pass: rows in
 * groups of PASS_GROUP, each row at most once a pass, each held by its own lease while it moves. A row waiting on
 * Ozon (an import task, moderation) is taken again at the next pass; the browser only reads where each row stands.
 */
export const REUPLOAD_RUNNER_LEASE = 'reupload-runner';
export const REUPLOAD_RUNNER_INTERVAL_MS = 3_000;
/** Rows held and moved on together: a group's leases (two minutes) outlast its Ozon calls. */
const PASS_GROUP = 20;

export type ReuploadRunnerOptions = {
  deps: ProductsDeps;
  leases: Leases;
  /** 0 or less: no timer and no wake-ups, `tick()` only (tests). */
  intervalMs: number;
  /** Rows of these users' product lists changed (the list's push). */
  notify: (userId: number, changed: number) => void;
  log: { error(object: unknown, message: string): void };
};

export function createReuploadRunner(options: ReuploadRunnerOptions) {
  let stopping = false;
  const schedule = createLeasedSchedule({
    leases: options.leases,
    name: REUPLOAD_RUNNER_LEASE,
    intervalMs: options.intervalMs,
    idle: undefined,
    log: options.log,
    // One pass: each unsettled row at most once; rows a batch adds meanwhile are taken by the pass's later groups.
    run: async (holding) => {
      const seen = new Set<number>();
      while (!stopping && !holding.lost) {
        const { taken, changed } = await advanceReuploads(options.deps, { skip: seen }, PASS_GROUP);
        for (const [userId, count] of changed) options.notify(userId, count);
        if (taken.length === 0) break;
        for (const id of taken) seen.add(id);
      }
    },
  });
  return {
    /** One pass now (or the one under way); resolves when it ends. */
    tick: () => schedule.tick(),
    /** A batch was started or retried: a pass now, unless the runner is off (tests tick by hand). */
    wake() {
      if (options.intervalMs > 0 && !stopping) void schedule.tick();
    },
    start: () => schedule.start(),
    async stop() {
      stopping = true;
      await schedule.stop();
    },
  };
}
export type ReuploadRunner = ReturnType<typeof createReuploadRunner>;
