import type { z } from 'zod';
import type { attributeValuesResponseSchema, attributeValuesSearchResponseSchema, categoryAttributeResponseSchema, categoryTreeResponseSchema, OzonCategoryNode } from '../../ozon/schemas';
import { attributesFor, CATEGORY_TREE, dictionaryFor, findLeaf, type DictionaryValue, type LeafType, type SimCategory, type SimLanguage } from '../catalog';
import type { OzonRequest } from '../../ozon/versions';
import { badRequest } from '../errors';
import { checkLimit, type Answer } from '../wire';

/**
 * Ozon area "description categories": /v1/description-category/tree and /attribute over the fixed catalogue in
 * ../catalog.ts. Stateless: every shop sees the same tree. Bodies arrive checked against Ozon's request schema.
 */

/** Ozon's page limits: 2,000 values a page, 100 found values a search. */
export const ATTRIBUTE_VALUES_LIMIT = 2_000;
export const ATTRIBUTE_VALUES_SEARCH_LIMIT = 100;

const languageOf = (value: OzonRequest<'categoryTree'>['language']): SimLanguage => (value === 'ZH_HANS' ? 'zh' : value === 'EN' ? 'en' : 'ru');

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

export function categoryTree(body: OzonRequest<'categoryTree'>): z.input<typeof categoryTreeResponseSchema> {
  return { result: CATEGORY_TREE.map((c) => treeNode(c, languageOf(body.language))) };
}

function leafOf(body: OzonRequest<'categoryAttribute'>): LeafType {
  const leaf = findLeaf(Number(body.description_category_id), Number(body.type_id));
  if (!leaf) throw badRequest('description_category_id and type_id must name a leaf type');
  return leaf;
}

function dictionaryOf(body: OzonRequest<'categoryAttributeValues' | 'categoryAttributeValuesSearch'>, language: SimLanguage): readonly DictionaryValue[] {
  const values = dictionaryFor(Number(body.attribute_id), leafOf(body), language);
  if (!values) throw badRequest('attribute_id has no dictionary in this category');
  return values;
}

/** A dictionary's values in id order, paged by `last_value_id` (the last id of the previous page). */
export function attributeValues(body: OzonRequest<'categoryAttributeValues'>): Answer<typeof attributeValuesResponseSchema> {
  const limit = checkLimit(body.limit, ATTRIBUTE_VALUES_LIMIT);
  const values = dictionaryOf(body, languageOf(body.language));
  const after = body.last_value_id === undefined ? 0 : Number(body.last_value_id);
  // Ids ascend in every dictionary, so the page starts past the first id above `after`.
  let start = 0;
  let end = values.length;
  while (start < end) {
    const mid = (start + end) >> 1;
    if (values[mid]!.id <= after) start = mid + 1;
    else end = mid;
  }
  return { result: values.slice(start, start + limit), has_next: start + limit < values.length };
}

/** Values containing `value` (case-insensitive), at most `limit`. */
export function attributeValuesSearch(body: OzonRequest<'categoryAttributeValuesSearch'>): Answer<typeof attributeValuesSearchResponseSchema> {
  const limit = checkLimit(body.limit, ATTRIBUTE_VALUES_SEARCH_LIMIT);
  const needle = body.value.trim().toLowerCase();
  if (needle.length === 0) throw badRequest('value must not be empty');
  const found: DictionaryValue[] = [];
  for (const v of dictionaryOf(body, 'ru')) {
    if (v.value.toLowerCase().includes(needle) || v.info.toLowerCase().includes(needle)) found.push(v);
    if (found.length >= limit) break;
  }
  return { result: found };
}

export function categoryAttribute(body: OzonRequest<'categoryAttribute'>): z.input<typeof categoryAttributeResponseSchema> {
  leafOf(body);
  return { result: attributesFor(languageOf(body.language)) };
}
