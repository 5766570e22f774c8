import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ProductRow } from '@contract/products';
import type { ProductFacets } from '@workers/products/area';
import { listenerOf, type ListTopics } from '@/components/virtual-table/useListActor';

/** What the product pages over the cached list share: the worker's topics, the row key, the shop filter. */
export const PRODUCT_TOPICS: ListTopics = {
  changed: (client, listener) => client.subscribe('products.changed', listenerOf(listener)),
  progress: (client, listener) => client.subscribe('products.syncProgress', listenerOf(listener)),
  failed: (client, listener) => client.subscribe('products.syncFailed', listenerOf((event) => listener(event.failure.message))),
};

export const productRowKey = (row: ProductRow) => row.id;

export function ShopFilter({ facets, value, onChange, width }: { facets: ProductFacets; value: number[]; onChange: (shopIds: number[]) => void; width?: number }) {
  const { t } = useTranslation('products');
  return (
    <Select<number[]>
      mode="multiple"
      aria-label={t('shop')}
      placeholder={t('allShops')}
      value={value}
      options={facets.shops.map((s) => ({ value: s.id, label: s.name }))}
      onChange={onChange}
      style={width === undefined ? { minWidth: 200 } : { width }}
      maxTagCount="responsive"
    />
  );
}
