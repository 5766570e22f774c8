import { Alert, Descriptions, Drawer, Empty, Skeleton, Table, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MarketProductRow, ProductDetail } from '@contract/research';
import { isApiFailure } from '@workers/api';
import { useDataClient } from '@/app/dataClient';
import { toLang } from '@/app/i18n';
import { formatCount, formatDay, formatGrowth, formatRub } from './format';
import { HistoryChart } from './HistoryChart';
import { ScoreExplained } from './ScoreParts';

/** A market product: its figures, sales and price history, the keywords it ranks for and its score explained. */
export function MarketProductDrawer({ row, onClose }: { row: MarketProductRow | null; onClose: () => void }) {
  const client = useDataClient();
  const { t, i18n } = useTranslation('research');
  const lang = toLang(i18n.language);
  const [detail, setDetail] = useState<{ sku: number; data: ProductDetail } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const sku = row?.sku ?? null;

  useEffect(() => {
    if (sku === null) return;
    let current = true;
    setError(null);
    client.research.productDetail(sku).then(
      (data) => current && setDetail({ sku, data }),
      (failure: unknown) => current && setError(isApiFailure(failure) ? failure.message : String(failure)),
    );
    return () => {
      current = false;
    };
  }, [client, sku]);

  const data = detail && detail.sku === sku ? detail.data : null;
  return (
    <Drawer open={row !== null} onClose={onClose} size={720} title={row?.name ?? t('drawer.title')} destroyOnHidden>
      {row && (
        <Descriptions size="small" column={3} items={[
          { key: 'sku', label: 'SKU', children: row.sku },
          { key: 'price', label: t('columns.price'), children: formatRub(lang, row.price) },
          { key: 'seller', label: t('columns.seller'), children: `${row.sellerName} (${row.sellerCountry})` },
          { key: 'brand', label: t('columns.brand'), children: row.brand },
          { key: 'sales30', label: t('columns.sales', { n: 30 }), children: formatCount(lang, row.sales30) },
          { key: 'revenue30', label: t('columns.revenue', { n: 30 }), children: formatRub(lang, row.revenue30) },
          { key: 'growth', label: t('columns.growth'), children: formatGrowth(row.growth) },
          { key: 'rating', label: t('columns.rating'), children: row.rating === null ? '—' : `${row.rating.toFixed(1)} (${formatCount(lang, row.reviews)})` },
          { key: 'firstSeen', label: t('columns.firstSeen'), children: formatDay(row.firstSeen) },
        ]} />
      )}
      {error ? (
        <Alert type="error" showIcon title={error} />
      ) : !data ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <>
          <Typography.Title level={5}>{t('drawer.sales')}</Typography.Title>
          <HistoryChart from={data.from} values={data.sales} name="sales" kind="bar" empty={t('drawer.noSales', { n: data.sales.length })} />
          <Typography.Title level={5}>{t('drawer.prices')}</Typography.Title>
          <HistoryChart from={data.from} values={data.prices} name="prices" kind="line" currency="RUB" height={180} empty={t('drawer.noPrices')} />
          <Typography.Title level={5}>{t('drawer.keywords')}</Typography.Title>
          {data.keywords.length === 0 ? (
            <Empty description={t('drawer.noKeywords')} image={Empty.PRESENTED_IMAGE_SIMPLE} />
          ) : (
            <Table size="small" rowKey="keyword" pagination={false} dataSource={data.keywords} scroll={{ y: 240 }} columns={[
              { title: t('keyword.keyword'), dataIndex: 'keyword' },
              { title: t('drawer.position'), dataIndex: 'position', width: 80, align: 'right' },
              { title: t('drawer.freq30'), dataIndex: 'freq30', width: 130, align: 'right', render: (value: number) => formatCount(lang, value) },
            ]} />
          )}
          <Typography.Title level={5}>{t('drawer.score')}</Typography.Title>
          <ScoreExplained row={data.product} />
        </>
      )}
    </Drawer>
  );
}
