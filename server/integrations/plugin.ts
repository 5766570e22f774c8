import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createCbrClient, type CbrClient } from './cbr/client';
import { cbrSimulatorPlugin, createCbrSimulator, type CbrSimulator } from './cbr/simulator';
import { injectFetch } from '../marketplace/simulator/injectFetch';

/** Outside services other than Ozon, each with its client and, when no real address is configured, its simulator. */
export type Integrations = {
  cbr: { client: CbrClient; simulator: CbrSimulator | null };
};

declare module 'fastify' {
  interface FastifyInstance {
    integrations: Integrations;
  }
}

export type IntegrationsPluginOptions = {
  /** Replaces the Bank of Russia client (tests). */
  cbr?: CbrClient;
};

export const CBR_SIMULATOR_PREFIX = '/sim/cbr';

/**
 * The Bank of Russia's rate services: CBR_API_URL when set (in production the bank's own address by default), else
 * the simulator mounted at /sim/cbr and called in-process, as the Ozon simulator is.
 */
export const integrationsPlugin = fp(
  async function integrationsPlugin(app: FastifyInstance, options: IntegrationsPluginOptions) {
    let simulator: CbrSimulator | null = null;
    let client = options.cbr;
    if (!client && app.config.cbrApiUrl) client = createCbrClient({ baseUrl: app.config.cbrApiUrl });
    if (!client) {
      const sim = createCbrSimulator({ now: () => app.now() });
      simulator = sim;
      await app.register(cbrSimulatorPlugin, { prefix: CBR_SIMULATOR_PREFIX, simulator: sim });
      client = createCbrClient({ baseUrl: `http://embedded${CBR_SIMULATOR_PREFIX}/`, fetch: injectFetch(app) });
    }
    app.decorate('integrations', { cbr: { client, simulator } });
  },
  { name: 'integrations' },
);
