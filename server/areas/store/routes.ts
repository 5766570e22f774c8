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
} from '../../../contract/store';
import { ok } from '../../http/envelope';
import { ensureMarketplaceSchema } from '../../marketplace/db';
import { createOzonClient } from '../../marketplace/ozon/client';
import { injectFetch } from '../../marketplace/simulator/injectFetch';
import { requireUser } from '../../plugins/auth';
import { syncEntity } from '../sync/engine';
import { addStore, applyStore, clientForShop, deleteStores, listStores, updateStore, type ClientFactory, type StoreDeps } from './service';

type Body<S extends z.ZodType> = { Body: z.output<S> };

export type StoreRoutesOptions = {
  /** Where shop requests go; default: the shop's base URL, else OZON_API_URL, else the simulator at `simulatorPrefix`. */
  clientFor?: ClientFactory;
  /** Where the embedded simulator is registered on this app (default /sim/ozon). */
  simulatorPrefix?: string;
};

/** Shops (seller-tool §7 "Shops") and the sync trigger; every call is gated on the 'store' area. */
export async function storeRoutes(app: FastifyInstance, options: StoreRoutesOptions = {}) {
  await ensureMarketplaceSchema(app.database);
  const simulatorPrefix = options.simulatorPrefix ?? '/sim/ozon';
  const clientFor: ClientFactory =
    options.clientFor ??
    (({ clientId, apiKey, baseUrl }) => {
      const target = baseUrl ?? app.config.ozonApiUrl;
      return target
        ? createOzonClient({ baseUrl: target, clientId, apiKey })
        : createOzonClient({ baseUrl: `http://simulator${simulatorPrefix}`, clientId, apiKey, fetch: injectFetch(app) });
    });
  const deps: StoreDeps = { database: app.database, secretKey: app.config.secretKey, clientFor };
  const config = { area: 'store' } as const;

  /** Runs the shop's sync in the background, pushing progress to the user. */
  const startSync = (userId: number, storeId: number, entities: readonly (typeof SYNC_ENTITIES)[number][]) => {
    void (async () => {
      const { client } = await clientForShop(deps, userId, storeId);
      for (const entity of entities) {
        const result = await syncEntity(app.database, storeId, client, entity, {
          onProgress: (progress) => app.push.toUser(userId, { type: 'sync.progress', ...progress }),
        });
        if (result.status === 'failed') break;
      }
    })().catch((error: unknown) => app.log.error({ err: error, storeId }, 'sync failed'));
  };

  app.get(STORE_PATHS.list, { config }, async (request) => ok(await listStores(deps, requireUser(request.user).id, request.lang)));

  app.post<Body<typeof addStoreBodySchema>>(STORE_PATHS.add, { config, schema: { body: addStoreBodySchema } }, async (request) => {
    const user = requireUser(request.user);
    const store = await addStore(deps, user.id, request.body, request.lang);
    startSync(user.id, store.id, SYNC_ENTITIES);
    return ok(store);
  });

  app.post<Body<typeof updateStoreBodySchema>>(STORE_PATHS.update, { config, schema: { body: updateStoreBodySchema } }, async (request) =>
    ok(await updateStore(deps, requireUser(request.user).id, request.body, request.lang)),
  );

  app.post<Body<typeof storeIdBodySchema>>(STORE_PATHS.delete, { config, schema: { body: storeIdBodySchema } }, async (request) =>
    ok(await deleteStores(deps, requireUser(request.user).id, [request.body.id])),
  );

  app.post<Body<typeof storeIdsBodySchema>>(STORE_PATHS.multiDelete, { config, schema: { body: storeIdsBodySchema } }, async (request) =>
    ok(await deleteStores(deps, requireUser(request.user).id, request.body.ids)),
  );

  app.post<Body<typeof storeIdBodySchema>>(STORE_PATHS.apply, { config, schema: { body: storeIdBodySchema } }, async (request) => {
    const user = requireUser(request.user);
    const store = await applyStore(deps, user.id, request.body.id, request.lang);
    startSync(user.id, store.id, SYNC_ENTITIES);
    return ok(store);
  });

  app.post<Body<typeof syncOrderListBodySchema>>(STORE_PATHS.syncOrderList, { config: { area: 'orders' }, schema: { body: syncOrderListBodySchema } }, async (request) => {
    const user = requireUser(request.user);
    const stores = (await listStores(deps, user.id, request.lang)).filter((s) => s.status === 'active' && (request.body.storeId === undefined || s.id === request.body.storeId));
    for (const store of stores) startSync(user.id, store.id, ['postings']);
    return ok({ storeIds: stores.map((s) => s.id) });
  });
}
