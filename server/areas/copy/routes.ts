import type { FastifyInstance } from 'fastify';
import { COPY_ENDPOINTS } from '../../../contract/copy';
import { ALTERNATE_BASES, API_BASE } from '../../../contract/endpoint';
import { route } from '../../http/route';
import type { ClientFactory } from '../../marketplace/plugin';
import { SIMULATOR_PREFIX } from '../../marketplace/plugin';
import { clientForShop } from '../store/service';
import { copy, deleteRecords, deleteTemplate, history, listTemplates, preview, retry, saveTemplate, status, type CopyDeps } from './service';
import { simulatorCatalog, type SourceCatalog } from './source';

export type CopyRoutesOptions = {
  /** Where shop requests go; default: the marketplace plugin's factory. */
  clientFor?: ClientFactory;
  /** Where other sellers' cards are read; default: the embedded simulator's catalogue. */
  source?: SourceCatalog;
};

/**
 * Copying cards between shops (seller-tool "Products and listing": /CopyProduct and /history/*). The copy and
 * history calls marked `swapBase` are served under every base of ALTERNATE_BASES too (/e-api, /x-api), so the
 * browser's retry on another base reaches the same service.
 */
export async function copyRoutes(app: FastifyInstance, options: CopyRoutesOptions = {}) {
  const factory = () => options.clientFor ?? app.marketplace.clientFor;
  const deps: CopyDeps = {
    database: app.database,
    now: () => app.now(),
    rates: { database: app.database, cbr: app.integrations.cbr.client, now: () => app.now() },
    source: options.source ?? simulatorCatalog(app.marketplace.simulator, SIMULATOR_PREFIX),
    shopClient: async (userId, shopId) => {
      const { client, shop } = await clientForShop({ database: app.database, secretKey: app.config.secretKey, clientFor: factory() }, userId, shopId);
      return { client, shopName: shop.name };
    },
  };
  const E = COPY_ENDPOINTS;
  const bases = ALTERNATE_BASES.filter((base) => base !== API_BASE);

  route(app, E.templates, async ({ user }) => listTemplates(deps, user.accountId));
  route(app, E.saveTemplate, async ({ user, input }) => saveTemplate(deps, user.accountId, input));
  route(app, E.deleteTemplate, async ({ user, input }) => deleteTemplate(deps, user.accountId, input.id));
  route(app, E.preview, async ({ user: _user, input, lang }) => preview(deps, input.sources, input.rule, lang));
  route(app, E.copy, async ({ user, input, lang }) => copy(deps, user.accountId, input, lang), { bases });
  route(app, E.list, async ({ user, input, lang }) => history(deps, user.accountId, input, lang), { bases });
  route(app, E.allList, async ({ input, lang }) => history(deps, null, input, lang), { bases });
  route(app, E.status, async ({ user, input, lang }) => status(deps, user.accountId, input.ids, lang));
  route(app, E.retry, async ({ user, input, lang }) => retry(deps, user.accountId, input.ids, lang));
  route(app, E.delete, async ({ user, input }) => deleteRecords(deps, user.accountId, input.ids));
  route(app, E.deleteAll, async ({ user }) => deleteRecords(deps, user.accountId, null));
}
