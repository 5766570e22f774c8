import { resolve } from 'node:path';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import cookie from '@fastify/cookie';
import type { Config } from './config';
import type { Database } from './db/database';
import { loggerOptions } from './http/logging';
import { accessPolicyPlugin } from './areas/access/plugin';
import { accessRoutes } from './areas/access/routes';
import { adminRoutes } from './areas/admin/routes';
import { analysisRoutes } from './areas/analysis/routes';
import { chatRoutes, type ChatRoutesOptions } from './areas/chat/routes';
import { contactsRoutes } from './areas/contacts/routes';
import { collectionRoutes, type CollectionRoutesOptions } from './areas/collection/routes';
import { pluginRoutes, type PluginRoutesOptions } from './areas/plugin/routes';
import { imageRoutes } from './areas/images/routes';
import { copyRoutes, type CopyRoutesOptions } from './areas/copy/routes';
import { createRoutes } from './areas/create/routes';
import { ordersRoutes } from './areas/orders/routes';
import { productsRoutes, type ProductsRoutesOptions } from './areas/products/routes';
import { returnsRoutes } from './areas/returns/routes';
import { noticeRoutes } from './areas/notice/routes';
import { sessionRoutes } from './areas/session/routes';
import { personScope } from './areas/session/service';
import { setPasswordHashCost } from './areas/session/passwords';
import { operationLogPlugin } from './areas/team/log';
import { signinRoutes } from './areas/signin/routes';
import { teamRoutes } from './areas/team/routes';
import { systemRoutes } from './areas/system/routes';
import { storeRoutes } from './areas/store/routes';
import { editRoutes, type EditRoutesOptions } from './areas/edit/routes';
import { toolsRoutes, type ToolsRoutesOptions } from './areas/tools/routes';
import { preferenceRoutes } from './areas/preferences/routes';
import { trackingRoutes } from './areas/tracking/routes';
import { researchRoutes } from './areas/research/routes';
import { postcodeRoutes } from './areas/postcodes/routes';
import { translateRoutes } from './areas/translate/routes';
import { flowsRoutes } from './areas/flows/routes';
import { costsRoutes } from './areas/costs/routes';
import { promotionRoutes, type PromotionRoutesOptions } from './areas/promotions/routes';
import { syncPlugin, type SyncPluginOptions } from './areas/sync/plugin';
import { integrationsPlugin, type IntegrationsPluginOptions } from './integrations/plugin';
import { messagingPlugin } from './integrations/messaging';
import { shopKeyWarningsPlugin } from './areas/store/keyExpiry';
import { marketplacePlugin, type MarketplacePluginOptions } from './marketplace/plugin';
import { apiDocsRoutes } from './plugins/apiDocs';
import { authPlugin } from './plugins/auth';
import { databasePlugin } from './plugins/database';
import { envelopePlugin } from './plugins/envelope';
import { headersPlugin } from './plugins/headers';
import { pushPlugin, type PushPluginOptions } from './plugins/push';
import { spaPlugin } from './plugins/spa';

export type AppOptions = {
  /** An opened (and migrated) database; without it the app opens the configured one and closes it on close. */
  database?: Database;
  /** The server's clock, for tests of expiry. */
  now?: () => Date;
  /** Where the built UI lives (default ./dist). */
  distDir?: string;
  logger?: FastifyServerOptions['logger'];
  /** The Ozon adapter: the embedded simulator (default) or a test's own client factory. */
  marketplace?: MarketplacePluginOptions;
  /** Marketplace sync; its scheduler is off unless given (main.ts turns it on). */
  sync?: SyncPluginOptions;
  /** Push sockets: presence timings (tests shorten them). */
  push?: PushPluginOptions;
  /** Buyer chat: how often new buyer messages are polled (tests turn the timer off and tick by hand). */
  chat?: ChatRoutesOptions;
  /** Sees every route as it is registered (tests check the routes against the endpoint objects). */
  onRoute?: (route: RouteOptions) => void;
  /** Outside services other than Ozon: a test's own clients instead of the embedded simulators. */
  integrations?: IntegrationsPluginOptions;
  /** Tools: how often the Bank of Russia's rates are read (tests turn the schedule off). */
  tools?: ToolsRoutesOptions;
  /** Products: how often the re-upload runner runs (tests turn the schedule off and tick by hand). */
  products?: ProductsRoutesOptions;
  /** Promotions: how often the price guard runs (tests turn the schedule off and tick by hand). */
  promotions?: PromotionRoutesOptions;
  /** Copies: where other sellers' cards are read (tests give their own). */
  copy?: CopyRoutesOptions;
  edit?: EditRoutesOptions;
  collection?: CollectionRoutesOptions;
  /** The browser plugin: where its build lies (tests build their own). */
  plugin?: PluginRoutesOptions;
};

/**
 * The whole server as one Fastify instance, not listening: main.ts listens, tests `inject()`.
 * Order: external services, app-wide behaviour (envelope, auth, push), then the areas' routes.
 */
export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  setPasswordHashCost(config.passwordHashCost);
  const app = Fastify({
    logger: loggerOptions(config.logLevel, options.logger),
    // One line per request (the in-process simulator's included) drowns the start-up output and the real warnings:
    // requests are logged from LOG_LEVEL=debug on; failures are logged by the error handler at every level.
    logController: new LogController({ disableRequestLogging: !['debug', 'trace'].includes(config.logLevel) }),
    // Behind a reverse proxy the client address (login-failure limit) comes from X-Forwarded-For, believed only
    // from the configured proxies: anyone else could name a new address per try.
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    bodyLimit: 10 * 1024 * 1024,
  });
  const { onRoute } = options;
  if (onRoute) app.addHook('onRoute', (route) => onRoute(route));

  await app.register(databasePlugin, { config, database: options.database, now: options.now });
  await app.register(cookie);
  await app.register(headersPlugin);
  await app.register(envelopePlugin);
  await app.register(accessPolicyPlugin);
  await app.register(authPlugin);
  await app.register(operationLogPlugin);
  await app.register(pushPlugin, { scopeOf: (userId) => personScope(app, userId), ...options.push });
  await app.register(spaPlugin, { distDir: options.distDir ?? resolve('dist') });
  await app.register(marketplacePlugin, options.marketplace ?? {});
  await app.register(integrationsPlugin, options.integrations ?? {});
  await app.register(messagingPlugin);
  await app.register(shopKeyWarningsPlugin);
  await app.register(syncPlugin, options.sync ?? {});

  await app.register(systemRoutes);
  await app.register(sessionRoutes);
  await app.register(adminRoutes);
  await app.register(noticeRoutes);
  await app.register(storeRoutes);
  await app.register(ordersRoutes);
  await app.register(productsRoutes, options.products ?? {});
  await app.register(returnsRoutes);
  await app.register(chatRoutes, options.chat ?? {});
  await app.register(contactsRoutes);
  await app.register(apiDocsRoutes);
  await app.register(toolsRoutes, options.tools ?? {});
  await app.register(preferenceRoutes);
  await app.register(trackingRoutes);
  await app.register(postcodeRoutes);
  await app.register(translateRoutes);
  await app.register(flowsRoutes);
  await app.register(analysisRoutes);
  await app.register(promotionRoutes, options.promotions ?? {});
  await app.register(costsRoutes);
  await app.register(copyRoutes, options.copy ?? {});
  await app.register(collectionRoutes, options.collection ?? {});
  await app.register(pluginRoutes, options.plugin ?? {});
  await app.register(imageRoutes);
  await app.register(createRoutes);
  await app.register(researchRoutes);
  await app.register(teamRoutes);
  await app.register(signinRoutes);
  await app.register(accessRoutes);
  await app.register(editRoutes, options.edit ?? {});
  // Later areas register here: one plugin per area, mirroring the spec's call list.
  return app;
}
