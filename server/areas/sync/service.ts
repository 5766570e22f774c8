import type { PushMessage } from '../../../contract/push';
import { SYNC_ENTITIES, type SyncEntity } from '../../../contract/store';
import type { Database } from '../../db/database';
import { ROLLUP_TABLES, analyzeSynced } from '../../db/statistics';
import { decryptSecret } from '../../marketplace/crypto';
import type { ClientFactory } from '../../marketplace/plugin';
import { refreshShopRollups } from '../analysis/rollups';
import { projectReturns } from '../returns/projection';
import { syncEntity, type SyncResult } from './engine';
import { projectProducts } from '../products/projection';
import { POSTINGS_PROJECTIONS, type PostingsProjection } from './projections';

/** Entities whose stored pages an area flattens into its list table, and the push that tells the user's lists. */
const ENTITY_PROJECTIONS: Partial<Record<SyncEntity, { project: PostingsProjection; push: 'products.changed' | 'returns.changed' }>> = {
  products: { project: projectProducts, push: 'products.changed' },
  returns: { project: projectReturns, push: 'returns.changed' },
};

export type SyncServiceDeps = {
  database: Database;
  secretKey: Buffer;
  clientFor: ClientFactory;
  push: (userId: number, message: PushMessage) => void;
  log: { error(object: unknown, message: string): void };
  projections?: readonly PostingsProjection[];
  leaseMs?: number;
  pageSize?: number;
  now?: () => Date;
};

export type SyncService = {
  /**
   * Queues a shop's entities after whatever this process is already running for it (one entity at a time per shop,
   * so one shop never competes with itself for its rate limits). Entities already queued are not queued twice.
   * Resolves when the queued run ends; a failed entity ends the shop's run (the rest wait for the next one).
   * `seen` (the scheduler's) gives each entity's job generation as found due: one that another run claimed since
   * (another instance ran it meanwhile) is left alone. Entities without it run whatever happened since.
   */
  runShop(shopId: number, entities?: readonly SyncEntity[], seen?: Partial<Record<SyncEntity, number>>): Promise<SyncResult[]>;
  /** Shops with a run under way or queued in this process. */
  busyShops(): number[];
  /** Stops every run between pages and releases their leases, so the next start resumes at once. */
  stop(): Promise<void>;
};

/** Entities whose pages feed the orders projection or the sales rollups. */
const ROLLED_UP: ReadonlySet<SyncEntity> = new Set(['postings', 'returns', 'finance']);

/** The tables a sync of each entity writes: its records, the area's projection, the sales rollups (analyzeSynced). */
const WRITTEN_TABLES: Record<SyncEntity, readonly string[]> = {
  warehouses: ['mp_records'],
  products: ['mp_records', 'products'],
  postings: ['mp_records', 'orders', ...ROLLUP_TABLES],
  returns: ['mp_records', 'returns', ...ROLLUP_TABLES],
  finance: ['mp_records', ...ROLLUP_TABLES],
  chats: ['mp_records'],
  promotions: ['mp_records'],
};

/** Entities queued for a shop, each with the job generation the scheduler saw (undefined: run it regardless). */
type Queued = Map<SyncEntity, number | undefined>;

type ShopRow = { id: number; user_id: number; client_id: string; api_key_enc: string; base_url: string | null; status: string };

export function createSyncService(deps: SyncServiceDeps): SyncService {
  /** Per shop, the run under way or last queued, and what it has still queued (with the generation seen, if any). */
  const chains = new Map<number, { done: Promise<SyncResult[]>; queued: Queued }>();
  const controller = new AbortController();
  const projections = deps.projections ?? POSTINGS_PROJECTIONS;

  const shopGone = async (shopId: number) => (await deps.database.query(`select 1 from mp_shops where id = $1`, [shopId])).length === 0;

  async function run(shopId: number, queued: Queued): Promise<SyncResult[]> {
    const results: SyncResult[] = [];
    const [shop] = await deps.database.query<ShopRow>(`select id, user_id, client_id, api_key_enc, base_url, status from mp_shops where id = $1`, [shopId]);
    // Deleted meanwhile, or waiting for the seller to re-authorize its key.
    if (!shop || shop.status !== 'active') return results;
    const client = deps.clientFor({
      clientId: shop.client_id,
      apiKey: decryptSecret(deps.secretKey, shop.api_key_enc),
      baseUrl: shop.base_url,
      lane: 'background',
    });
    // In SYNC_ENTITIES order: warehouses and products before the postings that refer to them.
    for (const entity of SYNC_ENTITIES.filter((e) => queued.has(e))) {
      const seenGeneration = queued.get(entity);
      queued.delete(entity);
      if (controller.signal.aborted) break;
      let result: SyncResult;
      const tables = WRITTEN_TABLES[entity];
      // A shop's first sync of the entity (none finished yet): its rows are new to the planner's statistics.
      const [job] = await deps.database.query<{ watermark: unknown }>(`select watermark from mp_sync_jobs where shop_id = $1 and entity = $2`, [shopId, entity]);
      const first = !job?.watermark;
      try {
        result = await syncEntity(deps.database, shopId, client, entity, {
          signal: controller.signal,
          seenGeneration,
          leaseMs: deps.leaseMs,
          pageSize: deps.pageSize,
          now: deps.now,
          onProgress: (progress) => deps.push(shop.user_id, { type: 'sync.progress', ...progress }),
          afterChunk: async (_records, syncedAt) => {
            // Only the page just stored: projecting everything synced in the last minute made every page of a
            // first sync project all the pages before it again.
            if (entity === 'postings') {
              for (const project of projections) {
                const { changed, userId } = await project(deps.database, shopId, { since: syncedAt });
                if (changed > 0 && userId !== null) deps.push(userId, { type: 'orders.changed', shopId });
              }
            }
            const own = ENTITY_PROJECTIONS[entity];
            if (own) {
              const { changed, userId } = await own.project(deps.database, shopId, { since: syncedAt });
              if (changed > 0 && userId !== null) deps.push(userId, { type: own.push, shopId });
            }
            // The sales rollups of the days the page touches (after the orders projection they are computed from).
            if (ROLLED_UP.has(entity)) await refreshShopRollups(deps.database, shopId, syncedAt);
            // A large first sync: the pages still to come are planned from what the ones before stored.
            await analyzeSynced(deps.database, tables, 'grown');
          },
        });
      } catch (error) {
        // The seller deleted the shop while it synced: its rows went with it, nothing is left to report.
        if (await shopGone(shopId)) break;
        throw error;
      }
      results.push(result);
      if (result.status === 'done') await analyzeSynced(deps.database, tables, first ? 'first' : 'changed');
      // Stopped runs gave their lease back; a lost one belongs to the run that took it over.
      if (result.status === 'stopped' || result.status === 'lost') break;
      if (result.status === 'failed') {
        if (!(await shopGone(shopId))) deps.log.error({ err: result.error, shopId, entity }, 'sync failed');
        break;
      }
    }
    return results;
  }

  return {
    runShop(shopId, entities = SYNC_ENTITIES, seen) {
      const current = chains.get(shopId);
      const wanted = (list: readonly SyncEntity[]): Queued => new Map(list.map((e) => [e, seen?.[e]]));
      if (current) {
        // One asked for by hand that is still queued with a generation runs whatever happens before it.
        if (!seen) for (const e of entities) if (current.queued.has(e)) current.queued.set(e, undefined);
        const fresh = entities.filter((e) => !current.queued.has(e));
        if (fresh.length === 0) return current.done;
        // Chain after the run under way; the new set starts empty of what that run still has queued.
        const queued = wanted(fresh);
        const done = current.done.catch(() => []).then(() => run(shopId, queued));
        const entry = { done, queued };
        chains.set(shopId, entry);
        void done.finally(() => chains.get(shopId) === entry && chains.delete(shopId)).catch(() => undefined);
        return done;
      }
      const queued = wanted(entities);
      const done = run(shopId, queued);
      const entry = { done, queued };
      chains.set(shopId, entry);
      void done.finally(() => chains.get(shopId) === entry && chains.delete(shopId)).catch(() => undefined);
      return done;
    },
    busyShops: () => [...chains.keys()],
    async stop() {
      controller.abort();
      await Promise.allSettled([...chains.values()].map((c) => c.done));
    },
  };
}
