import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AREA_ROLES, isPermitted } from '../../contract/access';
import { AUTH_HEADERS } from '../../contract/envelope';
import { authenticate } from '../areas/session/service';
import fp from 'fastify-plugin';
import type { Database } from '../db/database';
import { baseUrlFetch, baseUrlPolicy } from './baseUrl';
import { createOzonClient, OZON_PRODUCTION_URL, type OzonClient, type OzonClientOptions } from './ozon/client';
import type { RequestLane } from './ozon/limiter';
import { injectFetch } from './simulator/injectFetch';
import { createOzonSimulator, DEFAULT_SIM_SHOPS, ozonSimulatorPlugin, SIMULATOR_PREFIX, type OzonSimulator, type SimulatorOptions } from './simulator/plugin';

/** What a shop's Ozon client is made from. */
export type ShopConnection = {
  clientId: string;
  apiKey: string;
  baseUrl: string | null;
  /** 'background' for sync, pollers and scheduled jobs: they leave part of the shop's rate budget to people. */
  lane?: RequestLane;
};
export type ClientFactory = (connection: ShopConnection) => OzonClient;

export type Marketplace = {
  /** The embedded simulator, or null when it is off (config.ozonSimulator) or a test gave its own factory. */
  simulator: OzonSimulator | null;
  /** The shop's base URL, else OZON_API_URL, else the embedded simulator in-process, else Ozon's production API. */
  clientFor: ClientFactory;
};

declare module 'fastify' {
  interface FastifyInstance {
    marketplace: Marketplace;
  }
}

export type MarketplacePluginOptions = {
  /** Replaces the client factory (tests point shops at a simulator of their own). */
  clientFor?: ClientFactory;
  /** false: no embedded simulator. Default: one, sized by the persisted demo scale (`readDemoScale`). */
  simulator?: OzonSimulator | false;
  /** Options of the default simulator (over the persisted demo scale). */
  simulatorOptions?: SimulatorOptions;
  /** Where the embedded simulator is mounted (default /sim/ozon). */
  simulatorPrefix?: string;
  /** Timeout and retry settings of every shop's client (tests shorten them). */
  clientOptions?: Pick<OzonClientOptions, 'timeoutMs' | 'retry'>;
};

export { SIMULATOR_PREFIX };
/** mp_settings key of the demo scale that `npm run seed -- --orders N` persists. */
export const DEMO_SCALE_KEY = 'simulator.scale';
export type DemoScale = { orders: Record<string, number> };

export async function readDemoScale(database: Database): Promise<DemoScale | null> {
  const [row] = await database.query<{ value: DemoScale }>(`select value from mp_settings where key = $1`, [DEMO_SCALE_KEY]);
  return row?.value ?? null;
}

export async function writeDemoScale(database: Database, scale: DemoScale): Promise<void> {
  await database.query(
    `insert into mp_settings (key, value, updated_at) values ($1, $2::jsonb, now())
     on conflict (key) do update set value = excluded.value, updated_at = excluded.updated_at`,
    [DEMO_SCALE_KEY, JSON.stringify(scale)],
  );
}

/** The simulator's options for a persisted demo scale: shop 1001 with a million postings is generated on demand. */
export function simulatorOptionsFor(scale: DemoScale | null): SimulatorOptions {
  return { shops: DEFAULT_SIM_SHOPS.map((shop) => ({ ...shop, orders: scale?.orders[shop.clientId] ?? shop.orders })) };
}

/**
 * The marketplace adapter of this server.
 *
 * The embedded Ozon simulator runs only when asked for (config.ozonSimulator: outside production unless OZON_API_URL
 * is set; in production only with OZON_SIMULATOR=on). Then the server mounts it at /sim/ozon (the real Seller API's
 * paths and JSON shapes; shops Client-Id 1001, 1002, 1003 with Api-Key sim-key-1001 ... 1003) and shops without their
 * own base URL call it in-process (`inject`, no socket). Its control endpoints (/sim/ozon/__sim/control: latency, rate
 * limits, faults; /__sim/trigger/posting and /message) exist only when NODE_ENV is not production, and answer only
 * calls from this machine or an administrator's (simulatorControlGuard). Without it, shops
 * without a base URL call OZON_API_URL, else Ozon's production API.
 * `npm run seed -- --orders N` persists how many postings shop 1001 holds; the next start serves that many.
 * A real shop only needs its own Client-Id and Api-Key, with OZON_API_URL (or its base URL) at https://api-seller.ozon.ru.
 */
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;
const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * Whether a call to the simulator's switches (faults, latency, rate limits) may change them: one from this machine
 * (the app's own in-process calls, a developer's or a test's), or an administrator's. A request that came through a
 * proxy (it names its client) is not taken for this machine's: a reverse proxy on the same host forwards everyone.
 */
export function simulatorControlGuard(app: FastifyInstance) {
  return async (request: FastifyRequest): Promise<boolean> => {
    const forwarded = request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined || request.headers['x-real-ip'] !== undefined;
    if (LOOPBACK.test(request.ip) && !forwarded) return true;
    const token = header(request.headers[AUTH_HEADERS.token]);
    if (!token) return false;
    const user = await authenticate(app, token, header(request.headers[AUTH_HEADERS.userId])).catch(() => null);
    return user !== null && isPermitted(AREA_ROLES.admin, user.rolePermissions);
  };
}

export const marketplacePlugin = fp(
  async function marketplacePlugin(app: FastifyInstance, options: MarketplacePluginOptions) {
    const prefix = options.simulatorPrefix ?? SIMULATOR_PREFIX;
    let simulator: OzonSimulator | null = null;
    // An instance handed in (tests) is mounted as given; otherwise configuration decides (OZON_SIMULATOR).
    const mount = options.simulator ? true : options.simulator === undefined && !options.clientFor && app.config.ozonSimulator;
    if (mount) {
      const sim = options.simulator || createOzonSimulator({ ...simulatorOptionsFor(await readDemoScale(app.database)), ...options.simulatorOptions });
      simulator = sim;
      await app.register(ozonSimulatorPlugin, { prefix, simulator: sim, admin: !app.config.production, controlGuard: simulatorControlGuard(app) });
    }
    const inProcess = injectFetch(app);
    const clientFor: ClientFactory =
      options.clientFor ??
      (({ clientId, apiKey, baseUrl, lane }) => {
        const target = baseUrl ?? app.config.ozonApiUrl ?? (simulator ? null : OZON_PRODUCTION_URL);
        // A shop's own base URL is connected to only at addresses checked at the moment of the call (baseUrl.ts).
        return target
          ? createOzonClient({ ...options.clientOptions, baseUrl: target, clientId, apiKey, lane, ...(baseUrl ? { fetch: baseUrlFetch(baseUrlPolicy(app), baseUrl) } : {}) })
          : createOzonClient({ ...options.clientOptions, baseUrl: `http://simulator${prefix}`, clientId, apiKey, lane, fetch: inProcess });
      });
    app.decorate('marketplace', { simulator, clientFor });
  },
  { name: 'marketplace' },
);
