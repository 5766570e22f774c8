import type { FastifyInstance } from 'fastify';
import { STORE_ENDPOINTS, SYNC_ENTITIES, type SyncEntity } from '../../../contract/store';
import { route } from '../../http/route';
import { baseUrlPolicy, checkBaseUrl } from '../../marketplace/baseUrl';
import { addStore, applyStore, archiveProducts, deleteStores, listStores, updateStore, type StoreDeps } from './service';

/**
 * Shops (seller-tool §7 "Shops"), the sync triggers and the one-click archives (§2.4); every call is gated on the
 * 'store' area. Needs the marketplace and sync plugins (server/app.ts registers them first).
 */
export async function storeRoutes(app: FastifyInstance) {
  const deps: StoreDeps = {
    database: app.database,
    secretKey: app.config.secretKey,
    clientFor: (connection) => app.marketplace.clientFor(connection),
    checkBaseUrl: (baseUrl) => checkBaseUrl(baseUrlPolicy(app), baseUrl),
  };

  /** In the background: progress and the outcome reach the user as 'sync.progress' pushes. */
  const startSync = (storeId: number, entities: readonly SyncEntity[]) => {
    app.sync.runShop(storeId, entities).catch((error: unknown) => app.log.error({ err: error, storeId }, 'sync failed'));
  };

  const E = STORE_ENDPOINTS;

  route(app, E.list, async ({ user, lang }) => listStores(deps, user.accountId, lang));

  route(app, E.add, async ({ user, input, lang }) => {
    const store = await addStore(deps, user.accountId, input, lang);
    startSync(store.id, SYNC_ENTITIES);
    return store;
  });

  route(app, E.update, async ({ user, input, lang }) => {
    const store = await updateStore(deps, user.accountId, input, lang);
    // A new key or base URL may be a different shop's data: sync it now.
    if (input.apiKey !== undefined || input.baseUrl !== undefined) startSync(store.id, SYNC_ENTITIES);
    return store;
  });

  const removeStores = async (userId: number, ids: number[]) => {
    const count = await deleteStores(deps, userId, ids);
    if (count > 0) {
      app.push.toAccount(userId, { type: 'orders.changed' });
      app.push.toAccount(userId, { type: 'products.changed' });
      app.push.toAccount(userId, { type: 'returns.changed' });
    }
    return count;
  };

  route(app, E.delete, async ({ user, input }) => removeStores(user.accountId, [input.id]));

  route(app, E.multiDelete, async ({ user, input }) => removeStores(user.accountId, input.ids));

  route(app, E.apply, async ({ user, input, lang }) => {
    const store = await applyStore(deps, user.accountId, input.id, lang);
    startSync(store.id, SYNC_ENTITIES);
    return store;
  });

  route(app, E.syncNow, async ({ user, input, lang }) => {
    const stores = (await listStores(deps, user.accountId, lang)).filter((s) => s.id === input.id && s.status === 'active');
    for (const store of stores) startSync(store.id, SYNC_ENTITIES);
    return { storeIds: stores.map((s) => s.id) };
  });

  route(app, E.syncOrderList, async ({ user, input, lang }) => {
    const stores = (await listStores(deps, user.accountId, lang)).filter((s) => s.status === 'active' && (input.storeId === undefined || s.id === input.storeId));
    for (const store of stores) startSync(store.id, ['postings']);
    return { storeIds: stores.map((s) => s.id) };
  });

  route(app, E.removeDownToArch, async ({ user, input }) => archiveProducts(deps, user.accountId, input.id, 'removed'));

  route(app, E.removeFailToArch, async ({ user, input }) => archiveProducts(deps, user.accountId, input.id, 'failed'));
}
