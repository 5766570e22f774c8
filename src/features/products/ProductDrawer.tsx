import { Alert, Descriptions, Drawer, Empty, Image, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { lazy, memo, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Lang } from '@contract/errors';
import type { ProductInfo, ProductRow } from '@contract/products';
import { isApiFailure } from '@workers/api';
import type { DataClient } from '@workers/client';
import { timeFormat } from '@/app/formats';
import { formatMoney, pictureUrl, STATUS_COLORS } from './ProductColumns';

/**
 * The sales chart's code (ag-charts, about 1.5 MB) loads when a drawer first shows a chart: in the list's own chunk
 * its parse and run were part of the main thread's long task while the page booted.
 */
const SalesChart = lazy(() => import('./ProductSalesChart').then((m) => ({ default: m.ProductSalesChart })));

type ProductDrawerProps = { client: DataClient; row: ProductRow | null; lang: Lang; onClose: () => void };

type Loaded = { id: string; info: ProductInfo } | { id: string; error: string };

/** A product's card: pictures, prices, stock per warehouse, Ozon's errors, attributes and 30 days of sales. */
export const ProductDrawer = memo(function ProductDrawer({ client, row, lang, onClose }: ProductDrawerProps) {
  const { t } = useTranslation('products');
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const id = row?.id ?? null;
  useEffect(() => {
    if (id === null) return undefined;
    let current = true;
    client.products.info(id).then(
      (info) => current && setLoaded({ id, info }),
      (failure: unknown) => current && setLoaded({ id, error: isApiFailure(failure) ? failure.message : String(failure) }),
    );
    return () => {
      current = false;
    };
  }, [client, id]);
  const shown = loaded && loaded.id === id ? loaded : null;
  return (
    <Drawer open={row !== null} onClose={onClose} title={row ? `${t('detail')} · ${row.offerId}` : t('detail')} size="large" destroyOnHidden>
      {row && (
        <Space direction="vertical" size="large" style={{ width: '100%' }} data-testid="product-drawer">
          <Typography.Title level={5} style={{ margin: 0 }}>{row.name}</Typography.Title>
          <Descriptions column={2} bordered size="small">
            <Descriptions.Item label={t('status')}>
              <Tag color={STATUS_COLORS[row.status]}>{t(`statuses.${row.status}`)}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('visibility')}>{t(`visibilities.${row.visibility}`)}</Descriptions.Item>
            <Descriptions.Item label={t('shop')}>{row.shopName}</Descriptions.Item>
            <Descriptions.Item label={t('sku')}>{row.sku || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('price')}>{formatMoney(row.price, row.currency)}</Descriptions.Item>
            <Descriptions.Item label={t('oldPrice')}>{formatMoney(row.oldPrice, row.currency)}</Descriptions.Item>
            <Descriptions.Item label={t('minPrice')}>{formatMoney(row.minPrice, row.currency)}</Descriptions.Item>
            <Descriptions.Item label={t('fboStock')}>{row.fboStock}</Descriptions.Item>
            <Descriptions.Item label={t('createdAt')}>{timeFormat(lang).format(row.createdAt)}</Descriptions.Item>
            <Descriptions.Item label={t('changedAt')}>{timeFormat(lang).format(row.changedAt)}</Descriptions.Item>
          </Descriptions>
          {!shown ? <Skeleton active /> : 'error' in shown ? <Alert type="error" showIcon title={t('loadFailed')} description={shown.error} /> : <Details info={shown.info} />}
        </Space>
      )}
    </Drawer>
  );
});

function Details({ info }: { info: ProductInfo }) {
  const { t } = useTranslation('products');
  return (
    <>
      <section>
        <Typography.Title level={5}>{t('images')}</Typography.Title>
        {info.images.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
        ) : (
          <Image.PreviewGroup>
            <Space wrap>{info.images.map((url) => <Image key={url} src={pictureUrl(url)} width={88} height={88} style={{ objectFit: 'cover' }} />)}</Space>
          </Image.PreviewGroup>
        )}
      </section>
      <section>
        <Typography.Title level={5}>{t('stocks')}</Typography.Title>
        <Table
          size="small"
          pagination={false}
          rowKey="warehouseId"
          dataSource={info.stocks}
          columns={[
            { title: t('warehouse'), dataIndex: 'warehouseName' },
            { title: t('present'), dataIndex: 'present', align: 'right' },
          ]}
        />
      </section>
      <section>
        <Typography.Title level={5}>{t('errors')}</Typography.Title>
        {info.errors.length === 0 ? (
          <Typography.Text type="secondary">{t('noErrors')}</Typography.Text>
        ) : (
          info.errors.map((error, k) => <Alert key={k} type="error" showIcon title={error.attribute ? `${error.attribute}: ${error.message}` : error.message} style={{ marginBottom: 8 }} />)
        )}
      </section>
      <section>
        <Typography.Title level={5}>{t('sales')}</Typography.Title>
        <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height: 200 }} />}>
          <SalesChart sales={info.sales} />
        </Suspense>
      </section>
      <section>
        <Typography.Title level={5}>{t('attributes')}</Typography.Title>
        {info.attributes.length === 0 ? (
          <Typography.Text type="secondary">{t('noAttributes')}</Typography.Text>
        ) : (
          <Descriptions column={1} size="small" bordered>
            {info.attributes.map((a) => (
              <Descriptions.Item key={a.id} label={`#${a.id}`}>{a.values.join(', ')}</Descriptions.Item>
            ))}
          </Descriptions>
        )}
      </section>
    </>
  );
}
