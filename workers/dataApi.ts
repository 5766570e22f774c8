import { createAdminApi, createNoticeApi } from './admin';
import { createTeamApi } from './team';
import { createAccessApi } from './access';
import { createApiClientsApi } from './apiClients';
import { createSigninApi } from './signin';
import type { DataApi } from './api';
import { createEventBus, type EventBus } from './events';
import { HttpClient } from './http/client';
import { createPollers, type PollerTimer } from './pollers';
import { createPushConnection, type PushSocket } from './push';
import { createOrdersArea } from './orders/area';
import { createProductsArea } from './products/area';
import { createReturnsArea } from './returns/area';
import { createSessionApi } from './session';
import { createStoreApi } from './store';
import { createChatArea } from './chat';
import { createToolsApi } from './tools';
import { createAnalysisApi } from './analysis';
import { createResearchApi } from './research';
import { createEditApi } from './edit';
import { createCollectionApi } from './collection';
import { createPluginApi } from './plugin';
import { createImagesApi } from './images';
import { createCopyApi } from './copy';
import { createCreateApi } from './create';
import { createPromotionsApi } from './promotions';
import { createFlowsApi } from './flows';

export type WorkerCoreOptions = {
  fetch?: typeof fetch;
  /** '' in the browser: the worker calls its page's own origin. */
  baseUrl?: string;
  random?: () => number;
};

/** What every area of the worker builds on: one client (one set of credentials, one refresh) and one event bus. */
export type WorkerCore = { client: HttpClient; events: EventBus };

export function createWorkerCore(options: WorkerCoreOptions = {}): WorkerCore {
  const events = createEventBus();
  const client = new HttpClient({ events, fetch: options.fetch, baseUrl: options.baseUrl ?? '', random: options.random });
  return { client, events };
}

export type DataApiOptions = {
  timer?: PollerTimer;
  /** The push channel: the page's origin (and a socket factory for tests). Without it the worker only polls. */
  push?: { origin: string; openSocket?: (url: string) => PushSocket };
  /** The orders area's engine settings and cache factory (tests). */
  orders?: Omit<Parameters<typeof createOrdersArea>[0], 'client' | 'events'>;
  /** The products area's engine settings and cache factory (tests). */
  products?: Omit<Parameters<typeof createProductsArea>[0], 'client' | 'events'>;
  /** The returns area's engine settings and cache factory (tests). */
  returns?: Omit<Parameters<typeof createReturnsArea>[0], 'client' | 'events'>;
};

/** The worker's whole surface, composed per area. Areas are added here as they are built. */
export function createDataApi(core: WorkerCore, options: DataApiOptions = {}) {
  const pollers = createPollers({ client: core.client, events: core.events, timer: options.timer });
  if (options.push) {
    const push = createPushConnection({
      client: core.client,
      events: core.events,
      ...options.push,
      // The server closes the sockets of ended sessions: check at once instead of waiting up to 75 s.
      onSessionEnded: () => void pollers.runNow('loginCheck'),
    });
    core.client.onCredentialsChange((credentials) => push.setCredentials(credentials));
  }
  const orders = createOrdersArea({ client: core.client, events: core.events, ...options.orders });
  // A session that ended (logout, another user next) leaves no orders in memory; the cache stays for the next visit.
  core.client.onCredentialsChange((credentials) => {
    if (!credentials) void orders.close().catch(() => undefined);
  });
  const products = createProductsArea({ client: core.client, events: core.events, ...options.products });
  core.client.onCredentialsChange((credentials) => {
    if (!credentials) void products.close().catch(() => undefined);
  });
  const returns = createReturnsArea({ client: core.client, events: core.events, ...options.returns });
  core.client.onCredentialsChange((credentials) => {
    if (!credentials) void returns.close().catch(() => undefined);
  });
  // A narrower scope: rows already cached may be of a shop the person no longer sees. Drop them all; the page that
  // is open opens its list again and syncs afresh.
  core.events.on('push.message', ({ message }) => {
    if (message.type !== 'scope.changed') return;
    void Promise.all([orders, products, returns].map((area) => area.close({ dropCache: true }).catch(() => undefined))).then(() =>
      core.events.emit('session.scopeChanged', {}),
    );
  });
  return {
    session: createSessionApi(core.client),
    pollers,
    store: createStoreApi(core.client),
    admin: createAdminApi(core.client),
    team: createTeamApi(core.client),
    signin: createSigninApi(core.client),
    access: createAccessApi(core.client),
    apiClients: createApiClientsApi(core.client),
    notice: createNoticeApi(core.client),
    chat: createChatArea(core.client, core.events),
    tools: createToolsApi(core.client),
    analysis: createAnalysisApi(core.client),
    research: createResearchApi(core.client, core.events),
    edit: createEditApi(core.client),
    copy: createCopyApi(core.client),
    create: createCreateApi(core.client),
    collection: createCollectionApi(core.client),
    plugin: createPluginApi(core.client),
    images: createImagesApi(core.client),
    promotions: createPromotionsApi(core.client),
    flows: createFlowsApi(core.client),
    orders,
    products,
    returns,
    subscribe: core.events.subscribe,
  } satisfies DataApi;
}
