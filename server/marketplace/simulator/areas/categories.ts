import type { z } from 'zod';
import type { CategoryLanguage } from '../../ozon/client';
import type { categoryAttributeResponseSchema, categoryTreeResponseSchema, OzonCategoryNode } from '../../ozon/schemas';
import { attributesFor, CATEGORY_TREE, findLeaf, type SimCategory, type SimLanguage } from '../catalog';
import { badRequest } from '../errors';

/**
 * Ozon area "description categories": /v1/description-category/tree and /attribute over the fixed catalogue in
 * ../catalog.ts. Stateless: every shop sees the same tree. Bodies arrive checked against Ozon's request schema.
 */
export type CategoryTreeRequest = { language?: CategoryLanguage };
export type CategoryAttributeRequest = { description_category_id: number | string; type_id: number | string; language?: CategoryLanguage };

const languageOf = (value: CategoryLanguage | undefined): SimLanguage => (value === 'ZH_HANS' ? 'zh' : value === 'EN' ? 'en' : 'ru');

function treeNode(c: SimCategory, language: SimLanguage): OzonCategoryNode {
  return {
    description_category_id: c.categoryId,
    category_name: c.names[language],
    disabled: false,
    children: [
      ...c.children.map((child) => treeNode(child, language)),
      ...c.types.map((t) => ({ type_id: t.typeId, type_name: t.names[language], disabled: false, children: [] })),
    ],
  };
}

export function categoryTree(body: CategoryTreeRequest): z.input<typeof categoryTreeResponseSchema> {
  return { result: CATEGORY_TREE.map((c) => treeNode(c, languageOf(body.language))) };
}

export function categoryAttribute(body: CategoryAttributeRequest): z.input<typeof categoryAttributeResponseSchema> {
  if (!findLeaf(Number(body.description_category_id), Number(body.type_id))) throw badRequest('description_category_id and type_id must name a leaf type');
  return { result: attributesFor(languageOf(body.language)) };
}
