import { Button, Select, Space } from 'antd';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProductRow } from '@contract/products';
import type { ProductActionKind } from '@machines/productActionsMachine';
import { useGranted } from '@/app/granted';
import { ACTION_ENDPOINTS, ACTION_KINDS } from './productActions';
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

/**
 * The product list's batch actions, disabled until rows are selected; only those the person's role grants (a
 * member's) are shown, the server refuses the others all the same.
 */
export const ProductActionBar = memo(function ProductActionBar({ count, onAction }: { count: number; onAction: (kind: ProductActionKind) => void }) {
  const { t } = useTranslation('products');
  const granted = useGranted();
  const label = (kind: ProductActionKind) => (count > 0 ? t('actions.withCount', { action: t(`actions.${kind}`), count }) : t(`actions.${kind}`));
  return (
    <Space wrap>
      {ACTION_KINDS.filter((kind) => granted(ACTION_ENDPOINTS[kind])).map((kind) => (
        <Button key={kind} type={kind === 'price' ? 'primary' : 'default'} danger={kind === 'deleteArchive'} disabled={count === 0} onClick={() => onAction(kind)}>
          {label(kind)}
        </Button>
      ))}
    </Space>
  );
});
