import { useMemo } from 'react';
import type { AttributeValuesPage, CategoryAttribute, CategoryNode } from '@contract/create';
import { useDataClient } from '@/app/dataClient';

/** A dictionary page or search of one attribute of the chosen type. */
export type ValuesQuery = { categoryId: number; typeId: number; attributeId: number; search?: string; lastValueId?: number };

/**
 * Where the form reads Ozon's categories from: the app gives `useOzonCatalog(shopId)` (the data worker), tests a
 * fake over the simulator's catalogue.
 */
export type OzonCatalog = {
  tree(): Promise<CategoryNode[]>;
  attributes(categoryId: number, typeId: number): Promise<CategoryAttribute[]>;
  values(query: ValuesQuery): Promise<AttributeValuesPage>;
};

/** The catalogue through the data worker, asked with the given shop's key (absent: the caller's first shop). */
export function useOzonCatalog(shopId?: number): OzonCatalog {
  const client = useDataClient();
  return useMemo<OzonCatalog>(
    () => ({
      tree: () => client.create.categoryTree(shopId),
      attributes: (categoryId, typeId) => client.create.categoryAttributes({ shopId, categoryId, typeId }),
      values: (query) => client.create.attributeValues({ shopId, ...query }),
    }),
    [client, shopId],
  );
}
