import type { FastifyInstance } from 'fastify';
import { COLLECTION_ENDPOINTS } from '../../../contract/collection';
import { route } from '../../http/route';
import type { ClientFactory } from '../../marketplace/plugin';
import type { SourceReader } from '../../integrations/sources/reader';
import { clientForShop } from '../store/service';
import { collect, formatUrls, list, remove, update, upload, uploadDelete, uploadList, type CollectionDeps } from './service';

export type CollectionRoutesOptions = {
  /** Where shop requests go; default: the marketplace plugin's factory. */
  clientFor?: ClientFactory;
  /** Where linked pages are read; default: the integrations' source reader. */
  reader?: SourceReader;
};

/** The collection and its uploads (seller-tool "Products and listing": /collection/*, /CollectProduct, /upload/*). */
export async function collectionRoutes(app: FastifyInstance, options: CollectionRoutesOptions = {}) {
  const factory = () => options.clientFor ?? app.marketplace.clientFor;
  const deps: CollectionDeps = {
    database: app.database,
    rates: { database: app.database, cbr: app.integrations.cbr.client, now: () => app.now() },
    reader: options.reader ?? app.integrations.sources.reader,
    shopClient: async (userId, shopId) => {
      const { client, shop } = await clientForShop({ database: app.database, secretKey: app.config.secretKey, clientFor: factory() }, userId, shopId);
      return { client, shopName: shop.name };
    },
  };
  const E = COLLECTION_ENDPOINTS;
  route(app, E.list, async ({ user, input }) => list(deps, user.accountId, input));
  route(app, E.update, async ({ user, input, lang }) => update(deps, user.accountId, input, lang));
  route(app, E.delete, async ({ user, input }) => remove(deps, user.accountId, input.ids));
  route(app, E.upload, async ({ user, input, lang }) => upload(deps, user.accountId, input, lang));
  route(app, E.collect, async ({ user, input, request }) => collect(deps, user.accountId, input, `${request.protocol}://${request.host}`));
  route(app, E.uploadList, async ({ user, input, lang }) => uploadList(deps, user.accountId, input, lang));
  route(app, E.uploadDelete, async ({ user, input }) => uploadDelete(deps, user.accountId, input.ids));
  route(app, E.formatUrl, async ({ input }) => formatUrls(input.urls, input.base));
}
