import { Alert, Button, Image, Input, Select, Space, Table, Tag } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PRODUCT_VISIBILITIES, type ProductPage, type ProductRow, type ProductVisibility } from '@contract/products';
import { isApiFailure } from '@workers/api';
import { useDataClient } from '@/app/dataClient';
import { toLang } from '@/app/i18n';
import { timeFormat } from '@/app/formats';
import { formatMoney, pictureUrl, STATUS_COLORS } from './ProductColumns';

type Query = { storeId: number | null; page: number; rows: number; search: string; visibility: ProductVisibility | undefined };
type Loaded = { key: string; page: ProductPage } | { key: string; error: string };

/**
 * /product/ozon-product-list (the spec's /product/{marketplace}-product-list): one shop's products, a page at a
 * time from the server (GET /api/ozonProduct/list), for a quick look without the cache.
 */
export function ShopProductListPage() {
  const { t, i18n } = useTranslation('products');
  const lang = toLang(i18n.language);
  const client = useDataClient();
  const [shops, setShops] = useState<{ id: number; name: string }[] | null>(null);
  const [query, setQuery] = useState<Query>({ storeId: null, page: 1, rows: 20, search: '', visibility: undefined });
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    void client.store.list().then((list) => {
      setShops(list.map((s) => ({ id: s.id, name: s.name })));
      setQuery((q) => (q.storeId === null && list[0] ? { ...q, storeId: list[0].id } : q));
    }).catch(() => setShops([]));
  }, [client]);
  const key = JSON.stringify([query, attempt]);
  useEffect(() => {
    if (query.storeId === null) return undefined;
    let current = true;
    client.products
      .list({ storeId: query.storeId, page: query.page, rows: query.rows, search: query.search || undefined, visibility: query.visibility })
      .then(
        (page) => current && setLoaded({ key, page }),
        (failure: unknown) => current && setLoaded({ key, error: isApiFailure(failure) ? failure.message : String(failure) }),
      );
    return () => {
      current = false;
    };
  }, [client, query, key]);
  const time = timeFormat(lang);
  const columns = useMemo(
    () => [
      { title: t('image'), dataIndex: 'image', width: 72, render: (url: string) => (url ? <Image src={pictureUrl(url)} width={44} height={44} style={{ objectFit: 'cover' }} /> : null) },
      { title: t('name'), dataIndex: 'name', ellipsis: true },
      { title: t('offerId'), dataIndex: 'offerId', width: 160 },
      { title: t('status'), dataIndex: 'status', width: 110, render: (status: ProductRow['status']) => <Tag color={STATUS_COLORS[status]}>{t(`statuses.${status}`)}</Tag> },
      { title: t('price'), key: 'price', width: 130, align: 'right' as const, render: (_: unknown, row: ProductRow) => formatMoney(row.price, row.currency) },
      { title: t('fbsStock'), dataIndex: 'fbsStock', width: 100, align: 'right' as const },
      { title: t('fboStock'), dataIndex: 'fboStock', width: 100, align: 'right' as const },
      { title: t('changedAt'), dataIndex: 'changedAt', width: 160, render: (value: number) => time.format(value) },
    ],
    [t, time],
  );
  const shown = loaded && loaded.key === key ? loaded : null;
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space wrap>
        <Select<number>
          aria-label={t('shopPicker')}
          placeholder={t('pickShop')}
          loading={shops === null}
          value={query.storeId ?? undefined}
          options={(shops ?? []).map((s) => ({ value: s.id, label: s.name }))}
          onChange={(storeId) => setQuery((q) => ({ ...q, storeId, page: 1 }))}
          style={{ width: 220 }}
        />
        <Input.Search aria-label={t('search')} placeholder={t('search')} allowClear onSearch={(search) => setQuery((q) => ({ ...q, search, page: 1 }))} style={{ width: 300 }} />
        <Select<ProductVisibility>
          allowClear
          aria-label={t('visibility')}
          placeholder={t('visibility')}
          value={query.visibility}
          options={PRODUCT_VISIBILITIES.map((v) => ({ value: v, label: t(`visibilities.${v}`) }))}
          onChange={(visibility) => setQuery((q) => ({ ...q, visibility, page: 1 }))}
          style={{ width: 160 }}
        />
      </Space>
      {shown && 'error' in shown ? (
        <Alert type="error" showIcon title={shown.error} action={<Button onClick={() => setAttempt((n) => n + 1)}>{t('retry')}</Button>} />
      ) : (
        <Table<ProductRow>
          rowKey="id"
          size="small"
          loading={query.storeId !== null && !shown}
          columns={columns}
          dataSource={shown && 'page' in shown ? shown.page.list : []}
          locale={{ emptyText: shops && shops.length === 0 ? t('noProducts') : t('simpleEmpty') }}
          pagination={{
            current: query.page,
            pageSize: query.rows,
            total: shown && 'page' in shown ? shown.page.total : 0,
            showSizeChanger: true,
            showTotal: (total) => t('total', { count: total }),
            onChange: (page, rows) => setQuery((q) => ({ ...q, page, rows })),
          }}
        />
      )}
    </Space>
  );
}
