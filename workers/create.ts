import {
  CREATE_ENDPOINTS,
  type AttributeValuesBody,
  type AttributeValuesPage,
  type CardDraft,
  type CategoryAttribute,
  type CategoryAttributeBody,
  type CategoryNode,
  type CreateProductBody,
  type CreateStatusBody,
  type CreateTask,
  type TemplateBody,
} from '../contract/create';
import type { HttpClient } from './http/client';

/** Ozon's categories and attributes, and creating cards (workers side of contract/create.ts). */
export type CreateApi = {
  categoryTree(shopId?: number): Promise<CategoryNode[]>;
  categoryAttributes(body: CategoryAttributeBody): Promise<CategoryAttribute[]>;
  /** A page of a dictionary or a search in it; a newer search aborts the one before, and fails silently. */
  attributeValues(body: AttributeValuesBody): Promise<AttributeValuesPage>;
  /** Silent: the create action shows its own outcome. */
  create(body: CreateProductBody): Promise<CreateTask>;
  /** Asks Ozon where a create import stands; silent (a poll). */
  status(body: CreateStatusBody): Promise<CreateTask>;
  template(body: TemplateBody): Promise<CardDraft>;
};

export function createCreateApi(client: HttpClient): CreateApi {
  const E = CREATE_ENDPOINTS;
  return {
    categoryTree: (shopId) => client.call(E.categoryTree, shopId === undefined ? {} : { shopId }),
    categoryAttributes: (body) => client.call(E.categoryAttribute, body),
    attributeValues: (body) => client.call(E.attributeValues, body, { silent: true, cancelKey: `values:${body.attributeId}` }),
    create: (body) => client.call(E.create, body, { silent: true }),
    status: (body) => client.call(E.status, body),
    template: (body) => client.call(E.template, body, { silent: true }),
  };
}
