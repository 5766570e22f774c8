import type { OzonCatalog, ValuesQuery } from '@/components/attribute-form/catalog';
import { attributeOf, nodeOf } from '../../../server/areas/create/service';
import { attributeValues, attributeValuesSearch, categoryAttribute, categoryTree } from '../../../server/marketplace/simulator/areas/categories';
import { categoryAttributeSchema, type OzonCategoryNode } from '../../../server/marketplace/ozon/schemas';

/** The form against the Ozon simulator's own catalogue: its tree, a type's attributes, and the 40,000 brands. */
export function simulatorCatalog(asked: ValuesQuery[]): OzonCatalog {
  return {
    tree: async () => categoryTree({ language: 'ZH_HANS' }).result.flatMap((node) => nodeOf(node as OzonCategoryNode) ?? []),
    attributes: async (categoryId, typeId) => categoryAttribute({ description_category_id: categoryId, type_id: typeId, language: 'ZH_HANS' }).result.map((a) => attributeOf(categoryAttributeSchema.parse(a))),
    values: async (query) => {
      asked.push(query);
      const ids = { description_category_id: query.categoryId, type_id: query.typeId, attribute_id: query.attributeId };
      if (query.search) return { values: attributeValuesSearch({ ...ids, value: query.search, limit: 50 }).result.map((v) => ({ id: Number(v.id), value: v.value, info: v.info ?? '' })), hasNext: false };
      const page = attributeValues({ ...ids, language: 'ZH_HANS', limit: 50, last_value_id: query.lastValueId });
      return { values: page.result.map((v) => ({ id: Number(v.id), value: v.value, info: v.info ?? '' })), hasNext: page.has_next ?? false };
    },
  };
}
