import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  addStoreBodySchema,
  STORE_PATHS,
  storeIdBodySchema,
  storeIdsBodySchema,
  SYNC_ENTITIES,
  syncOrderListBodySchema,
  updateStoreBodySchema,
  type SyncEntity,
} from '../../../contract/store';
import { ok } from '../../http/envelope';
import { requireUser } from '../../plugins/auth';
import { addStore, applyStore, archiveProducts, deleteStores, listStores, updateStore, type StoreDeps } from './service';

type Body<S extends z.ZodType> = { Body: z.output<S> };

/**
 * Shops (seller-tool §7 "Shops"), the sync triggers and the one-click archives (§2.4); every call is gated on the
 * 'store' area. Needs the marketplace and sync plugins (server/app.ts registers them first).
 */
export async function storeRoutes(app: FastifyInstance) {
  const deps: StoreDeps = { database: app.database, secretKey: app.config.secretKey, clientFor: (connection) => app.marketplace.clientFor(connection) };
  const config = { area: 'store' } as const;

  /** In the background: progress and the outcome reach the user as 'sync.progress' pushes. */
  const startSync = (storeId: number, entities: readonly SyncEntity[]) => {
    app.sync.runShop(storeId, entities).catch((error: unknown) => app.log.error({ err: error, storeId }, 'sync failed'));
  };

  app.get(STORE_PATHS.list, { config }, async (request) => ok(await listStores(deps, requireUser(request.user).id, request.lang)));

  app.post<Body<typeof addStoreBodySchema>>(STORE_PATHS.add, { config, schema: { body: addStoreBodySchema } }, async (request) => {
    const store = await addStore(deps, requireUser(request.user).id, request.body, request.lang);
    startSync(store.id, SYNC_ENTITIES);
    return ok(store);
  });

  app.post<Body<typeof updateStoreBodySchema>>(STORE_PATHS.update, { config, schema: { body: updateStoreBodySchema } }, async (request) => {
    const store = await updateStore(deps, requireUser(request.user).id, request.body, request.lang);
    // A new key or base URL may be a different shop's data: sync it now.
    if (request.body.apiKey !== undefined || request.body.baseUrl !== undefined) startSync(store.id, SYNC_ENTITIES);
    return ok(store);
  });

  const removeStores = async (userId: number, ids: number[]) => {
    const count = await deleteStores(deps, userId, ids);
    if (count > 0) app.push.toUser(userId, { type: 'orders.changed' });
    return ok(count);
  };

  app.post<Body<typeof storeIdBodySchema>>(STORE_PATHS.delete, { config, schema: { body: storeIdBodySchema } }, async (request) =>
    removeStores(requireUser(request.user).id, [request.body.id]),
  );

  app.post<Body<typeof storeIdsBodySchema>>(STORE_PATHS.multiDelete, { config, schema: { body: storeIdsBodySchema } }, async (request) =>
    removeStores(requireUser(request.user).id, request.body.ids),
  );

  app.post<Body<typeof storeIdBodySchema>>(STORE_PATHS.apply, { config, schema: { body: storeIdBodySchema } }, async (request) => {
    const store = await applyStore(deps, requireUser(request.user).id, request.body.id, request.lang);
    startSync(store.id, SYNC_ENTITIES);
    return ok(store);
  });

  app.post<Body<typeof storeIdBodySchema>>(STORE_PATHS.syncNow, { config, schema: { body: storeIdBodySchema } }, async (request) => {
    const stores = (await listStores(deps, requireUser(request.user).id, request.lang)).filter((s) => s.id === request.body.id && s.status === 'active');
    for (const store of stores) startSync(store.id, SYNC_ENTITIES);
    return ok({ storeIds: stores.map((s) => s.id) });
  });

  app.post<Body<typeof syncOrderListBodySchema>>(STORE_PATHS.syncOrderList, { config: { area: 'orders' }, schema: { body: syncOrderListBodySchema } }, async (request) => {
    const user = requireUser(request.user);
    const stores = (await listStores(deps, user.id, request.lang)).filter((s) => s.status === 'active' && (request.body.storeId === undefined || s.id === request.body.storeId));
    for (const store of stores) startSync(store.id, ['postings']);
    return ok({ storeIds: stores.map((s) => s.id) });
  });

  app.post<Body<typeof storeIdBodySchema>>(STORE_PATHS.removeDownToArch, { config, schema: { body: storeIdBodySchema } }, async (request) =>
    ok(await archiveProducts(deps, requireUser(request.user).id, request.body.id, 'removed')),
  );

  app.post<Body<typeof storeIdBodySchema>>(STORE_PATHS.removeFailToArch, { config, schema: { body: storeIdBodySchema } }, async (request) =>
    ok(await archiveProducts(deps, requireUser(request.user).id, request.body.id, 'failed')),
  );
}
