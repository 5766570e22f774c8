import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createSyncScheduler, type SchedulerOptions, type SyncScheduler } from './scheduler';
import { createSyncService, type SyncService } from './service';
import type { PostingsProjection } from './projections';

declare module 'fastify' {
  interface FastifyInstance {
    sync: SyncService;
    syncScheduler: SyncScheduler | null;
  }
}

export type SyncPluginOptions = {
  /** Off unless asked for: main.ts turns it on; tests run it only when they test it. */
  scheduler?: false | SchedulerOptions;
  projections?: readonly PostingsProjection[];
  leaseMs?: number;
  pageSize?: number;
  /** The clock of the runs' windows and leases (default: real time; the demo's tests move it). */
  now?: () => Date;
};

/** The sync service (after the marketplace plugin) and, when asked, the scheduler; both stop with the server. */
export const syncPlugin = fp(
  async function syncPlugin(app: FastifyInstance, options: SyncPluginOptions) {
    const sync = createSyncService({
      database: app.database,
      secretKey: app.config.secretKey,
      clientFor: (connection) => app.marketplace.clientFor(connection),
      push: (userId, message) => app.push.toAccount(userId, message),
      log: app.log,
      projections: options.projections,
      leaseMs: options.leaseMs,
      pageSize: options.pageSize,
      now: options.now,
    });
    const scheduler = options.scheduler ? createSyncScheduler(app.database, sync, { log: app.log, ...options.scheduler }) : null;
    app.decorate('sync', sync);
    app.decorate('syncScheduler', scheduler);
    app.addHook('onReady', async () => scheduler?.start());
    // Runs stop between pages and give their leases back, so the next start resumes at once.
    app.addHook('onClose', async () => {
      scheduler?.stop();
      await sync.stop();
    });
  },
  { name: 'sync' },
);
