import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { OZON_ENDPOINTS, OZON_REQUESTS_PER_SECOND, type OzonEndpointName, type OzonRequest } from '../ozon/versions';
import { labelPdf, productPng, productSvg } from './assets';
import { attributeValues, attributeValuesSearch, categoryAttribute, categoryTree } from './areas/categories';
import { OZON_TEXT, SimError } from './errors';
import type { SimProduct } from './products';
import { SimShop, type SimShopConfig } from './shop';
import { invalidRequest } from './validate';

/**
 * The Ozon simulator: the Seller API's paths and JSON shapes over deterministic generated shops, with Ozon's rules
 * (statuses, label readiness, price and stock limits, paging) and switches for the failures a real client must
 * survive. The embedded default marketplace (`npm start` needs no Ozon account) and the partner of the client's tests.
 *
 * Usage: `const sim = createOzonSimulator(); app.register(ozonSimulatorPlugin, { prefix: '/sim/ozon', simulator: sim })`.
 */

/** 'lostAnswer': the request is carried out, then its answer hangs as a 'timeout' does (the client never hears). */
export type FaultKind = 'rateLimit' | 'circleOpen' | 'timeout' | 'lostAnswer' | 'serverError' | 'malformed';
export type Fault = { kind: FaultKind; count: number; /** Only requests to this Ozon path. */ path?: string; clientId?: string };

export type SimulatorControl = {
  /** Added before every answer. */
  latencyMs: number;
  /** Ozon's 50 requests/s per Client-Id and per-method limits; off only to measure the client alone. */
  enforceRateLimits: boolean;
  /** 45 s like Ozon; 0 lets tests print a label right after ship. */
  labelReadyDelayMs: number;
  /** How long import and label tasks stay pending. */
  taskDelayMs: number;
  /** Product import tasks stay pending, whatever their age, while this is on (tests hold a batch mid-way with it). */
  holdImportTasks: boolean;
  /** How long a 'timeout' fault holds the request before giving up on it. */
  timeoutHangMs: number;
  /** Pending faults, first match wins; each answers `count` requests, then is gone. */
  faults: Fault[];
};

export type SimulatorOptions = {
  seed?: string;
  shops?: SimShopConfig[];
  /** Default postings per shop (3,000). A shop's own `orders` wins; 1,000,000 is fine (generated on demand). */
  ordersPerShop?: number;
  productsPerShop?: number;
  /** Clock (tests move it). */
  now?: () => number;
  /**
   * The clock Ozon's rate limits count arrivals by: real time, whatever the business clock says. A test that holds
   * `now` still would otherwise put every request of the run into one second and refuse all after the fiftieth.
   */
  rateClock?: () => number;
  /** End of the generated history; default: the start of the current UTC day, so data is stable through a day. */
  anchor?: number;
  /**
   * The demo's own activity as the clock passes the anchor: new postings, buyer messages and promotions, and
   * postings nobody ships cancelled by Ozon (./live.ts). Off by default: tests see only what they make.
   */
  live?: boolean;
  control?: Partial<SimulatorControl>;
};

/** Where this server mounts the embedded simulator (marketplace/plugin.ts), the one loopback path baseUrl.ts lets through. */
export const SIMULATOR_PREFIX = '/sim/ozon';

export const DEFAULT_SIM_SHOPS: SimShopConfig[] = [
  { clientId: '1001', apiKey: 'sim-key-1001', name: '义乌小百货 Yiwu Goods' },
  // Its key runs out a week after the anchor: the demo's shop whose key the seller must renew soon.
  { clientId: '1002', apiKey: 'sim-key-1002', name: '深圳数码 Shenzhen Digital', keyDays: 7 },
  { clientId: '1003', apiKey: 'sim-key-1003', name: '广州服饰 Guangzhou Fashion' },
  // The demo administrator's shop (server/demo/shops.ts): small, so it adds little to the demo's first sync.
  { clientId: '1004', apiKey: 'sim-key-1004', name: '杭州家居 Hangzhou Home', orders: 300, products: 200 },
];

/** Role names and the path prefixes each grants (Ozon's roles are coarser; enough to refuse a method). */
const ROLE_PATHS: Record<string, string[]> = {
  Admin: ['/'],
  'Posting FBS': ['/v2/warehouse', '/v4/posting', '/v3/posting', '/v2/posting', '/v1/posting', '/v2/fbs', '/v1/returns', '/v2/returns'],
  Product: ['/v3/product', '/v4/product', '/v1/product', '/v2/products', '/v5/product', '/v1/description-category', '/v2/warehouse'],
  Promotion: ['/v1/actions'],
  Chat: ['/v3/chat', '/v1/chat', '/v2/chat'],
  Analytics: ['/v1/analytics'],
  Finance: ['/v3/finance'],
};

export function createOzonSimulator(options: SimulatorOptions = {}) {
  const now = options.now ?? Date.now;
  const anchor = options.anchor ?? Math.floor(now() / 86_400_000) * 86_400_000;
  const seed = options.seed ?? 'ozon-sim';
  const control: SimulatorControl = {
    latencyMs: 0,
    enforceRateLimits: true,
    labelReadyDelayMs: 45_000,
    taskDelayMs: 2_000,
    holdImportTasks: false,
    timeoutHangMs: 120_000,
    faults: [],
    ...options.control,
  };
  const shops = new Map<string, SimShop>();
  const findSku = (sku: number): SimProduct | undefined => {
    for (const shop of shops.values()) {
      const p = shop.productBySku(sku);
      if (p) return p;
    }
    return undefined;
  };
  const env = { now, live: options.live ?? false, labelReadyDelayMs: () => control.labelReadyDelayMs, taskDelayMs: () => control.taskDelayMs, holdImportTasks: () => control.holdImportTasks, findSku };
  const addShop = (config: SimShopConfig) => {
    const shop = new SimShop(
      { ...config, orders: config.orders ?? options.ordersPerShop, products: config.products ?? options.productsPerShop },
      seed,
      anchor,
      env,
    );
    shops.set(config.clientId, shop);
    return shop;
  };
  for (const config of options.shops ?? DEFAULT_SIM_SHOPS) addShop(config);

  // Fixed windows: a second for the overall limit, a minute for per-method limits.
  const windows = new Map<string, { window: number; count: number }>();
  const rateClock = options.rateClock ?? Date.now;
  const countIn = (key: string, windowMs: number) => {
    const window = Math.floor(rateClock() / windowMs);
    const entry = windows.get(key);
    if (!entry || entry.window !== window) {
      windows.set(key, { window, count: 1 });
      return 1;
    }
    return ++entry.count;
  };

  let requests = 0;
  const byPath = new Map<string, number>();
  return {
    control,
    shops,
    addShop,
    shop(clientId: string): SimShop {
      const shop = shops.get(clientId);
      if (!shop) throw new Error(`no simulated shop ${clientId}`);
      return shop;
    },
    fail(kind: FaultKind, count = 1, where: Omit<Fault, 'kind' | 'count'> = {}) {
      control.faults.push({ kind, count, ...where });
    },
    /** Requests answered (or refused) so far: tests read how many retries a call took. */
    get requestCount() {
      return requests;
    },
    /** Requests so far by Ozon path: tests read how many calls of each kind an action of ours made. */
    requestsByPath(): ReadonlyMap<string, number> {
      return new Map(byPath);
    },
    countRequest(path?: string) {
      requests++;
      if (path) byPath.set(path, (byPath.get(path) ?? 0) + 1);
    },
    takeFault(clientId: string, path: string): FaultKind | undefined {
      const fault = control.faults.find((f) => f.count > 0 && (!f.path || f.path === path) && (!f.clientId || f.clientId === clientId));
      if (!fault) return undefined;
      fault.count--;
      control.faults = control.faults.filter((f) => f.count > 0);
      return fault.kind;
    },
    /** Ozon's own rate limits, as a refusal or nothing. */
    checkRate(clientId: string, path: string, perMinute?: number): SimError | undefined {
      if (!control.enforceRateLimits) return undefined;
      if (countIn(clientId, 1_000) > OZON_REQUESTS_PER_SECOND) return new SimError(429, OZON_TEXT.rateLimit);
      if (perMinute && countIn(`${clientId} ${path}`, 60_000) > perMinute) return new SimError(429, OZON_TEXT.rateLimit);
      return undefined;
    },
    now,
  };
}
export type OzonSimulator = ReturnType<typeof createOzonSimulator>;

type HandledName = Exclude<OzonEndpointName, 'roles' | 'packageLabel'>;
/**
 * One Ozon call's answer. `body` has passed Ozon's request schema (./validate.ts) before a handler sees it, so it has
 * that call's request type, generated from the same schema (../ozon/request-types.ts): a handler reading a field Ozon
 * does not define fails the type check.
 */
type Handler<N extends HandledName> = (shop: SimShop, body: OzonRequest<N>, baseUrl: string) => unknown;

const HANDLERS: { [N in HandledName]: Handler<N> } = {
  warehouseList: (s, b) => s.areas.postings.warehouseList(b),
  postingFbsList: (s, b) => s.areas.postings.postingList({ kind: 'list', body: b }),
  postingFbsUnfulfilledList: (s, b) => s.areas.postings.postingList({ kind: 'unfulfilled', body: b }),
  postingFbsGet: (s, b) => s.areas.postings.postingGet(b),
  postingFbsShip: (s, b) => s.areas.postings.ship(b),
  postingFbsCancelReason: (s, b) => s.areas.postings.cancelReasons(b),
  postingFbsCancel: (s, b) => s.areas.postings.cancel(b),
  trackingNumberSet: (s, b) => s.areas.postings.setTracking(b),
  packageLabelCreate: (s, b) => s.areas.postings.labelCreate(b),
  packageLabelGet: (s, b, base) => s.areas.postings.labelGet(b, base),
  productList: (s, b) => s.areas.products.productList(b),
  productInfoList: (s, b, base) => s.areas.products.productInfoList(b, base),
  productInfoAttributes: (s, b, base) => s.areas.products.productAttributes(b, base),
  productImport: (s, b, base) => s.areas.products.productImport(b, base),
  productImportInfo: (s, b) => s.areas.products.importInfo(b),
  productImportBySku: (s, b) => s.areas.products.importBySku(b),
  productArchive: (s, b) => s.areas.products.archive(b),
  productUnarchive: (s, b) => s.areas.products.unarchive(b),
  productsDelete: (s, b) => s.areas.products.deleteProducts(b),
  productInfoPrices: (s, b) => s.areas.pricesStocks.prices(b),
  productImportPrices: (s, b) => s.areas.pricesStocks.importPrices(b),
  productsStocks: (s, b) => s.areas.pricesStocks.updateStocks(b),
  productInfoStocks: (s, b) => s.areas.pricesStocks.stocks(b),
  productPicturesImport: (s, b, base) => s.areas.products.picturesImport(b, base),
  productInfoLimit: (s) => s.areas.products.limits(),
  categoryTree: (_s, b) => categoryTree(b),
  categoryAttribute: (_s, b) => categoryAttribute(b),
  categoryAttributeValues: (_s, b) => attributeValues(b),
  categoryAttributeValuesSearch: (_s, b) => attributeValuesSearch(b),
  actions: (s) => s.areas.promotions.actionList(),
  actionCandidates: (s, b) => s.areas.promotions.actionProducts(b, 'candidates'),
  actionProducts: (s, b) => s.areas.promotions.actionProducts(b, 'products'),
  actionProductsActivate: (s, b) => s.areas.promotions.actionActivate(b),
  actionProductsDeactivate: (s, b) => s.areas.promotions.actionDeactivate(b),
  discountTaskList: (s, b) => s.areas.promotions.discountTaskList(b),
  discountTaskApprove: (s, b) => s.areas.promotions.discountTaskApprove(b),
  discountTaskDecline: (s, b) => s.areas.promotions.discountTaskDecline(b),
  returnsList: (s, b) => s.areas.returns.returnsList(b),
  rfbsReturnsList: (s, b) => s.areas.returns.rfbsList(b),
  rfbsReturnGet: (s, b, base) => s.areas.returns.rfbsGet(b, base),
  rfbsReturnActionSet: (s, b) => s.areas.returns.rfbsActionSet(b),
  chatList: (s, b) => s.areas.chat.chatList(b),
  chatHistory: (s, b) => s.areas.chat.chatHistory(b),
  chatSendMessage: (s, b) => s.areas.chat.chatSend(b),
  chatSendFile: (s, b) => s.areas.chat.chatSendFile(b),
  chatRead: (s, b) => s.areas.chat.chatRead(b),
  chatStart: (s, b) => s.areas.chat.chatStart(b),
  analyticsData: (s, b) => s.areas.analytics.analytics(b),
  financeTransactionList: (s, b) => s.areas.analytics.finance(b),
  productQueries: (s, b) => s.areas.analytics.productQueries(b),
  productQueriesDetails: (s, b) => s.areas.analytics.productQueriesDetails(b),
};

export type OzonSimulatorPluginOptions = {
  simulator?: OzonSimulator;
  /** Same as createOzonSimulator's, when no simulator is given. */
  simulatorOptions?: SimulatorOptions;
  /** The control and trigger endpoints under `/__sim` (off on a production server). */
  admin?: boolean;
  /**
   * Who may call the control and trigger endpoints (fault switches, latency, rate limits, made-up postings); without
   * it anyone who reaches the simulator may. The server lets loopback and administrators through
   * (marketplace/plugin.ts).
   */
  controlGuard?: (request: FastifyRequest) => Promise<boolean>;
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Request body limits. Ozon documents none in bytes; these hold every documented item limit (100 product cards with
 * their attributes, 1,000 prices) with room to spare, and a chat file (base64) of the 10 MB the app accepts.
 * They are the same in and outside production: the simulator is never looser than the API it stands in for.
 */
export const SIM_BODY_LIMIT = 1024 * 1024;
export const SIM_FILE_BODY_LIMIT = 16 * 1024 * 1024;

export const ozonSimulatorPlugin: FastifyPluginAsync<OzonSimulatorPluginOptions> = async (app, options) => {
  const sim = options.simulator ?? createOzonSimulator(options.simulatorOptions);
  const prefix = app.prefix;
  const baseUrlOf = (request: FastifyRequest) => `${request.protocol}://${request.host}${prefix}`;

  const refuse = (reply: FastifyReply, error: SimError) =>
    reply.code(error.status).type('application/json').send({ code: error.code, message: error.message, details: [] });

  // Everything under the prefix answers in Ozon's error shape, not ours: malformed JSON, a body over the limit, an
  // unknown path, and any failure of the simulator itself.
  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, 'ozon simulator failed');
    return refuse(reply, new SimError(status, status === 500 ? OZON_TEXT.internal : error.message));
  });
  app.setNotFoundHandler((_request, reply) => refuse(reply, new SimError(404, 'Not Found')));

  /** Holds the request until the client gives up (or long after it should have), then answers 504. */
  async function hangUp(reply: FastifyReply): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, sim.control.timeoutHangMs);
      // The response's close, not the request's: a request 'closes' as soon as its body has been read.
      reply.raw.on('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    refuse(reply, new SimError(504, 'Gateway Timeout', 4));
  }
  /** Requests whose 'lostAnswer' fault comes after they were carried out. */
  const answerLost = new WeakSet<FastifyRequest>();

  /** Auth, roles, faults and rate limits in Ozon's order; answers the refusal itself and returns undefined. */
  async function admit(request: FastifyRequest, reply: FastifyReply, path: string, perMinute?: number): Promise<SimShop | undefined> {
    sim.countRequest(path);
    if (sim.control.latencyMs > 0) await sleep(sim.control.latencyMs);
    const clientId = String(request.headers['client-id'] ?? '');
    const apiKey = String(request.headers['api-key'] ?? '');
    const shop = sim.shops.get(clientId);
    if (!shop || shop.config.apiKey !== apiKey) {
      refuse(reply, new SimError(401, OZON_TEXT.invalidKey));
      return undefined;
    }
    shop.catchUp();
    if (shop.config.keyState === 'deactivated') {
      refuse(reply, new SimError(403, OZON_TEXT.deactivated));
      return undefined;
    }
    if (shop.config.keyState === 'ipRestricted') {
      refuse(reply, new SimError(403, OZON_TEXT.ipRestricted));
      return undefined;
    }
    const fault = sim.takeFault(clientId, path);
    if (fault === 'timeout') {
      await hangUp(reply);
      return undefined;
    }
    if (fault === 'lostAnswer') answerLost.add(request);
    if (fault === 'rateLimit') {
      refuse(reply, new SimError(429, OZON_TEXT.rateLimit));
      return undefined;
    }
    if (fault === 'circleOpen') {
      refuse(reply, new SimError(503, OZON_TEXT.circleOpen, 14));
      return undefined;
    }
    if (fault === 'serverError') {
      refuse(reply, new SimError(500, OZON_TEXT.internal));
      return undefined;
    }
    if (fault === 'malformed') {
      // A body cut off mid-way, as a broken proxy delivers it.
      reply.code(200).type('application/json').send('{"result":{"items":[{"id":');
      return undefined;
    }
    const roles = shop.config.roles ?? ['Admin'];
    if (path !== OZON_ENDPOINTS.roles.path && !roles.some((r) => (ROLE_PATHS[r] ?? []).some((prefixPath) => path.startsWith(prefixPath)))) {
      refuse(reply, new SimError(403, OZON_TEXT.missingRole));
      return undefined;
    }
    const limited = sim.checkRate(clientId, path, perMinute);
    if (limited) {
      refuse(reply, limited);
      return undefined;
    }
    return shop;
  }

  app.post(OZON_ENDPOINTS.roles.path, async (request, reply) => {
    const shop = await admit(request, reply, OZON_ENDPOINTS.roles.path);
    if (!shop) return reply;
    const roles = shop.config.roles ?? ['Admin'];
    return {
      roles: roles.map((name) => ({
        name,
        methods: Object.values(OZON_ENDPOINTS)
          .map((e) => e.path)
          .filter((p) => (ROLE_PATHS[name] ?? []).some((prefixPath) => p.startsWith(prefixPath))),
      })),
      expires_at: shop.expiresAt(),
    };
  });

  app.post(OZON_ENDPOINTS.packageLabel.path, { bodyLimit: SIM_BODY_LIMIT }, async (request, reply) => {
    const shop = await admit(request, reply, OZON_ENDPOINTS.packageLabel.path);
    if (!shop) return reply;
    const invalid = invalidRequest(OZON_ENDPOINTS.packageLabel.path, request.body ?? {});
    if (invalid) return refuse(reply, invalid);
    try {
      const postings = shop.areas.postings.labelPostings((request.body as OzonRequest<'packageLabel'>).posting_number);
      const pdf = await labelPdf(postings);
      return reply.type('application/pdf').send(Buffer.from(pdf));
    } catch (error) {
      if (error instanceof SimError) return refuse(reply, error);
      throw error;
    }
  });

  for (const [name, handler] of Object.entries(HANDLERS) as [HandledName, Handler<HandledName>][]) {
    const endpoint: { path: string; method: 'GET' | 'POST'; perMinute?: number } = OZON_ENDPOINTS[name];
    app.route({
      method: endpoint.method,
      url: endpoint.path,
      // A chat file arrives inline as base64: a third larger than the 10 MB the app takes.
      bodyLimit: name === 'chatSendFile' ? SIM_FILE_BODY_LIMIT : SIM_BODY_LIMIT,
      handler: async (request, reply) => {
        const shop = await admit(request, reply, endpoint.path, endpoint.perMinute);
        if (!shop) return reply;
        const invalid = endpoint.method === 'POST' ? invalidRequest(endpoint.path, request.body ?? {}) : undefined;
        if (invalid) return refuse(reply, invalid);
        try {
          // Validated above against the call's request schema: the one place a body takes its call's type.
          const body = (request.body && typeof request.body === 'object' ? request.body : {}) as never;
          const answer = handler(shop, body, baseUrlOf(request));
          if (answerLost.has(request)) {
            await hangUp(reply);
            return reply;
          }
          return reply.type('application/json').send(answer);
        } catch (error) {
          if (error instanceof SimError) return refuse(reply, error);
          throw error;
        }
      },
    });
  }

  // Files Ozon would host on its CDN: product pictures and label PDFs of async tasks.
  app.get<{ Params: { name: string } }>('/assets/img/:name', async (request, reply) => {
    const m = /^([\w-]{1,64})\.(png|svg)$/.exec(request.params.name);
    if (!m) return reply.code(404).send();
    reply.header('cache-control', 'public, max-age=86400');
    return m[2] === 'svg' ? reply.type('image/svg+xml').send(productSvg(m[1]!)) : reply.type('image/png').send(productPng(m[1]!));
  });
  app.get<{ Params: { clientId: string; file: string } }>('/assets/labels/:clientId/:file', async (request, reply) => {
    const shop = sim.shops.get(request.params.clientId);
    const task = shop?.areas.postings.labelTask(Number(request.params.file.replace(/\.pdf$/, '')));
    if (!shop || !task) return reply.code(404).send();
    try {
      return reply.type('application/pdf').send(Buffer.from(await labelPdf(shop.areas.postings.labelPostings(task.postings))));
    } catch (error) {
      if (error instanceof SimError) return refuse(reply, error);
      throw error;
    }
  });

  if (options.admin ?? true) {
    const guard = options.controlGuard;
    if (guard) {
      app.addHook('onRequest', async (request, reply) => {
        if (!request.url.startsWith(`${prefix}/__sim/`) || (await guard(request))) return;
        return reply.code(403).send({ code: 7, message: "the simulator's switches answer loopback or an administrator only", details: [] });
      });
    }
    app.get('/__sim/control', async () => ({ ...sim.control, shops: [...sim.shops.values()].map((s) => ({ clientId: s.clientId, orders: s.orderCount, products: s.products.length })) }));
    app.post<{ Body: Partial<SimulatorControl> & { fault?: Fault } }>('/__sim/control', async (request) => {
      const { fault, ...rest } = request.body ?? {};
      for (const key of ['latencyMs', 'labelReadyDelayMs', 'taskDelayMs', 'timeoutHangMs'] as const) {
        if (typeof rest[key] === 'number') sim.control[key] = rest[key];
      }
      if (typeof rest.enforceRateLimits === 'boolean') sim.control.enforceRateLimits = rest.enforceRateLimits;
      if (typeof rest.holdImportTasks === 'boolean') sim.control.holdImportTasks = rest.holdImportTasks;
      if (Array.isArray(rest.faults)) sim.control.faults = rest.faults;
      if (fault) sim.fail(fault.kind, fault.count, { path: fault.path, clientId: fault.clientId });
      return { ok: true };
    });
    // `imageUrl`: the buyer sends a picture another site holds (`img[<url>]` in the message).
    app.post<{ Body: { clientId: string; chatId?: string; text?: string; imageUrl?: string } }>('/__sim/trigger/message', async (request, reply) => {
      const shop = sim.shops.get(String(request.body?.clientId));
      if (!shop) return reply.code(404).send({ message: 'no such shop' });
      try {
        return shop.addBuyerMessage(request.body.chatId, request.body.text, request.body.imageUrl);
      } catch (error) {
        if (error instanceof SimError) return refuse(reply, error);
        throw error;
      }
    });
    app.post<{ Body: { clientId: string; actionId: number; productId?: number; price?: number } }>('/__sim/trigger/autoJoin', async (request, reply) => {
      const shop = sim.shops.get(String(request.body?.clientId));
      if (!shop) return reply.code(404).send({ message: 'no such shop' });
      try {
        return shop.areas.promotions.autoJoin(Number(request.body.actionId), request.body.productId, request.body.price);
      } catch (error) {
        if (error instanceof SimError) return refuse(reply, error);
        throw error;
      }
    });
    app.post<{ Body: { clientId: string; productId?: number; requestedPrice?: number } }>('/__sim/trigger/discountTask', async (request, reply) => {
      const shop = sim.shops.get(String(request.body?.clientId));
      if (!shop) return reply.code(404).send({ message: 'no such shop' });
      return shop.areas.promotions.addDiscountTask(request.body.productId, request.body.requestedPrice);
    });
    app.post<{ Body: { clientId: string } }>('/__sim/trigger/posting', async (request, reply) => {
      const shop = sim.shops.get(String(request.body?.clientId));
      if (!shop) return reply.code(404).send({ message: 'no such shop' });
      return shop.addPosting();
    });
  }
};
