import type { FastifyInstance } from 'fastify';
import { CREATE_ENDPOINTS } from '../../../contract/create';
import { route } from '../../http/route';
import type { ClientFactory } from '../../marketplace/plugin';
import { clientForShop } from '../store/service';
import { attributeValues, categoryAttributes, categoryTree, createProduct, createStatus, templateCard, type CreateDeps } from './service';

export type CreateRoutesOptions = {
  /** Where shop requests go; default: the marketplace plugin's factory. */
  clientFor?: ClientFactory;
};

/**
 * Ozon's categories and attributes (shared by the create and collection pages) and creating a card
 * (seller-tool /CreateProduct, administrators): every call asks Ozon with one of the caller's own shops.
 */
export async function createRoutes(app: FastifyInstance, options: CreateRoutesOptions = {}) {
  const factory = () => options.clientFor ?? app.marketplace.clientFor;
  const deps: CreateDeps = {
    database: app.database,
    now: () => app.now(),
    shopClient: async (userId, shopId) =>
      (await clientForShop({ database: app.database, secretKey: app.config.secretKey, clientFor: factory() }, userId, shopId)).client,
  };
  const E = CREATE_ENDPOINTS;
  route(app, E.categoryTree, async ({ user, input, lang }) => categoryTree(deps, user.accountId, input.shopId, lang));
  route(app, E.categoryAttribute, async ({ user, input, lang }) => categoryAttributes(deps, user.accountId, input, lang));
  route(app, E.attributeValues, async ({ user, input, lang }) => attributeValues(deps, user.accountId, input, lang));
  route(app, E.create, async ({ user, input, lang }) => createProduct(deps, user.accountId, input.shopId, input.card, lang));
  route(app, E.status, async ({ user, input, lang }) => createStatus(deps, user.accountId, input, lang));
  route(app, E.template, async ({ user, input, lang }) => templateCard(deps, user.accountId, input.shopId, input.product, lang));
}
