import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createCbrClient, type CbrClient } from './cbr/client';
import { cbrSimulatorPlugin, createCbrSimulator, type CbrSimulator } from './cbr/simulator';
import { injectFetch } from '../marketplace/simulator/injectFetch';
import { createCainiaoClient } from './tracking/cainiao';
import { createRussianPostClient } from './tracking/russianPost';
import { createTrackingSimulator, SIM_RUSSIAN_POST_LOGIN, SIM_RUSSIAN_POST_PASSWORD, SIM_TRACK17_KEY, trackingSimulatorPlugin, type TrackingSimulator } from './tracking/simulator';
import { createTrack17Client } from './tracking/track17';
import type { CarrierClient } from './tracking/types';
import { createPochtaClient, type PochtaClient } from './pochta/client';
import { pictureSiteOf } from '../../contract/collectSources';
import { createSourceReader, type SiteAccess, type SourceReader } from './sources/reader';
import { sourceSimulatorPlugin } from './sources/simulator';
import { createYandexTranslateClient, type TranslateClient } from './translate/yandex';
import { createTranslateSimulator, SIM_YANDEX_TRANSLATE_KEY, translateSimulatorPlugin, type TranslateSimulator } from './translate/simulator';
import { pochtaSimulatorPlugin, SIM_POCHTA_TOKEN, SIM_POCHTA_USER_KEY, type PochtaSimulator } from './pochta/simulator';

/** Outside services other than Ozon, each with its client and, when no real address is configured, its simulator. */
export type Integrations = {
  cbr: { client: CbrClient; simulator: CbrSimulator | null };
  /** Outside parcel-tracking services; null: not configured here (its numbers say so). */
  tracking: { russianPost: CarrierClient | null; cainiao: CarrierClient | null; track17: CarrierClient | null; simulator: TrackingSimulator | null };
  /** Russian Post's post-office service; null client: not configured here. */
  pochta: { client: PochtaClient | null; simulator: PochtaSimulator | null };
  /**
   * The product pages the link collector reads (Ozon's storefront, 1688); `picture` maps a picture on a simulated
   * site's hosts to the simulator (for the image proxy), null for any other.
   */
  sources: { reader: SourceReader; simulated: boolean; picture: (url: URL) => { href: string; fetch: typeof fetch } | null };
  /** Russian ↔ Chinese translation (Yandex Cloud Translate or its simulator); null client: not configured here. */
  translate: { client: TranslateClient | null; simulator: TranslateSimulator | null };
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

export const TRACKING_SIMULATOR_PREFIX = '/sim/tracking';

export const POCHTA_SIMULATOR_PREFIX = '/sim/pochta';

async function pochtaService(app: FastifyInstance): Promise<Integrations['pochta']> {
  const { url, token, userKey } = app.config.pochta;
  if (url) return { client: token && userKey ? createPochtaClient({ baseUrl: url, token, userKey }) : null, simulator: null };
  if (app.config.production) return { client: null, simulator: null };
  const simulator: PochtaSimulator = { down: false, calls: 0 };
  await app.register(pochtaSimulatorPlugin, { prefix: POCHTA_SIMULATOR_PREFIX, simulator });
  const client = createPochtaClient({ baseUrl: `http://embedded${POCHTA_SIMULATOR_PREFIX}`, token: SIM_POCHTA_TOKEN, userKey: SIM_POCHTA_USER_KEY, fetch: injectFetch(app) });
  return { client, simulator };
}

export const TRANSLATE_SIMULATOR_PREFIX = '/sim/yandex-translate';

/** Yandex Cloud Translate at its address with the configured key, or (no address, outside production) its simulator. */
async function translateService(app: FastifyInstance): Promise<Integrations['translate']> {
  const { url, apiKey, folderId } = app.config.translate;
  if (url) return { client: apiKey ? createYandexTranslateClient({ baseUrl: url, apiKey, folderId }) : null, simulator: null };
  if (app.config.production) return { client: null, simulator: null };
  const simulator = createTranslateSimulator();
  await app.register(translateSimulatorPlugin, { prefix: TRANSLATE_SIMULATOR_PREFIX, simulator });
  const client = createYandexTranslateClient({
    baseUrl: `http://embedded${TRANSLATE_SIMULATOR_PREFIX}`,
    apiKey: SIM_YANDEX_TRANSLATE_KEY,
    provider: 'simulator',
    fetch: injectFetch(app),
  });
  return { client, simulator };
}

/** Each tracking service at its configured address, or (none configured, outside production) at the simulator. */
async function trackingServices(app: FastifyInstance): Promise<Integrations['tracking']> {
  const config = app.config.tracking;
  const needsSimulator = !config.russianPost.url || !config.cainiao.url || !config.track17.url;
  let simulator: TrackingSimulator | null = null;
  let simBase = '';
  const simFetch = injectFetch(app);
  if (needsSimulator && !app.config.production) {
    simulator = createTrackingSimulator(app.now().getTime());
    await app.register(trackingSimulatorPlugin, { prefix: TRACKING_SIMULATOR_PREFIX, simulator, now: () => app.now().getTime() });
    simBase = `http://embedded${TRACKING_SIMULATOR_PREFIX}`;
  }
  const rp = config.russianPost;
  const russianPost = rp.url
    ? rp.login && rp.password
      ? createRussianPostClient({ baseUrl: rp.url, login: rp.login, password: rp.password })
      : null
    : simulator && createRussianPostClient({ baseUrl: `${simBase}/russianpost`, login: SIM_RUSSIAN_POST_LOGIN, password: SIM_RUSSIAN_POST_PASSWORD, fetch: simFetch });
  const cainiao = config.cainiao.url
    ? createCainiaoClient({ baseUrl: config.cainiao.url })
    : simulator && createCainiaoClient({ baseUrl: `${simBase}/cainiao`, fetch: simFetch });
  const t17 = config.track17;
  const track17 = t17.url
    ? t17.key
      ? createTrack17Client({ baseUrl: t17.url, apiKey: t17.key })
      : null
    : simulator && createTrack17Client({ baseUrl: `${simBase}/17track`, apiKey: SIM_TRACK17_KEY, fetch: simFetch });
  return { russianPost, cainiao, track17, simulator };
}

export const SOURCES_SIMULATOR_PREFIX = '/sim/sources';

/** Each source site at its configured address; outside production the unconfigured ones at the saved-page simulator. */
async function sourceSites(app: FastifyInstance): Promise<Integrations['sources']> {
  const configured = app.config.collectSites;
  const simulated = !app.config.production && (!configured.ozon || !configured['1688']);
  if (simulated) await app.register(sourceSimulatorPlugin, { prefix: SOURCES_SIMULATOR_PREFIX });
  const simFetch = injectFetch(app);
  const access = (site: 'ozon' | '1688'): SiteAccess | null => {
    const url = configured[site];
    if (url) return { base: url, fetch, simulated: false };
    return simulated ? { base: `http://embedded${SOURCES_SIMULATOR_PREFIX}/${site}`, fetch: simFetch, simulated: true } : null;
  };
  const sites = { ozon: access('ozon'), '1688': access('1688') };
  const picture = (url: URL) => {
    const site = pictureSiteOf(url);
    const reached = site && sites[site];
    if (!reached?.simulated) return null;
    const file = encodeURIComponent(url.pathname.split('/').pop() || 'picture');
    return { href: `http://embedded${SOURCES_SIMULATOR_PREFIX}/${site}/picture/${file}`, fetch: simFetch };
  };
  return { reader: createSourceReader(sites), simulated, picture };
}

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
    app.decorate('integrations', { cbr: { client, simulator }, tracking: await trackingServices(app), pochta: await pochtaService(app), sources: await sourceSites(app), translate: await translateService(app) });
  },
  { name: 'integrations' },
);
