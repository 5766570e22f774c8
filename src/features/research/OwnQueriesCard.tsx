import { Alert, Button, Card, Segmented, Table, Tag, Tooltip, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Lang } from '@contract/errors';
import { OWN_QUERIES_CACHE_MS, type OwnQueries, type OwnQuery } from '@contract/research';
import { isApiFailure } from '@workers/api';
import { useDataClient } from '@/app/dataClient';
import { timeFormat } from '@/app/formats';
import { formatCount, formatRub } from './format';

type Loaded = { status: 'loading' } | { status: 'done'; data: OwnQueries } | { status: 'failed'; message: string };

/** A query is related to a market keyword when either holds the other ("чехол" and "чехол для iphone"). */
export const isRelated = (query: string, keyword: string) => {
  const q = query.toLowerCase();
  const k = keyword.toLowerCase();
  return q.includes(k) || k.includes(q);
};

/**
 * The search queries that brought buyers to the user's own products on Ozon (/v1/analytics/product-queries), beside
 * the market's keywords: those related to the picked keyword first, or all of them. A query opens the market's
 * keywords holding it.
 */
export function OwnQueriesCard({ keyword, lang, onQuery }: { keyword: string | null; lang: Lang; onQuery: (query: string) => void }) {
  const client = useDataClient();
  const { t } = useTranslation('research');
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [scope, setScope] = useState<'matching' | 'all'>('matching');

  useEffect(() => {
    let current = true;
    setLoaded({ status: 'loading' });
    client.research.ownQueries().then(
      (data) => current && setLoaded({ status: 'done', data }),
      (failure: unknown) => current && setLoaded({ status: 'failed', message: isApiFailure(failure) ? failure.message : String(failure) }),
    );
    return () => {
      current = false;
    };
  }, [client, attempt]);

  const all = useMemo(() => (loaded.status === 'done' ? loaded.data.queries : []), [loaded]);
  const matching = useMemo(() => (keyword ? all.filter((row) => isRelated(row.query, keyword)) : all), [all, keyword]);
  const shown = keyword && scope === 'matching' ? matching : all;
  const count = (value: number) => formatCount(lang, value);
  const premium = (value: number | null, render: (value: number) => string) =>
    value === null ? <Tooltip title={t('keyword.own.premium')}>—</Tooltip> : render(value);

  const title = <span data-testid="own-queries-title">{t('keyword.own.title')}</span>;
  if (loaded.status === 'failed') {
    return (
      <Card size="small" title={title}>
        <Alert type="error" showIcon title={t('keyword.own.loadFailed', { reason: loaded.message })}
          action={<Button size="small" onClick={() => setAttempt((n) => n + 1)}>{t('keyword.own.retry')}</Button>} />
      </Card>
    );
  }
  const data = loaded.status === 'done' ? loaded.data : null;
  return (
    <Card size="small" title={title}
      extra={keyword && data && data.queries.length > 0 ? (
        <Segmented<'matching' | 'all'> size="small" value={scope} onChange={setScope}
          options={[{ value: 'matching', label: `${t('keyword.own.matching', { keyword })} (${matching.length})` }, { value: 'all', label: `${t('keyword.own.all')} (${all.length})` }]} />
      ) : null}>
      {data?.period ? (
        <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
          {t('keyword.own.intro', { from: data.period.from, to: data.period.to })}
          {data.fetchedAt ? <span data-testid="own-queries-fetched"> · {t('keyword.own.fetched', { at: timeFormat(lang).format(Date.parse(data.fetchedAt)), hours: OWN_QUERIES_CACHE_MS / 3_600_000 })}</span> : null}
        </Typography.Paragraph>
      ) : null}
      {data?.failures.map((failure) => (
        <Alert key={failure.shopId} type="warning" showIcon style={{ marginBottom: 8 }} title={t('keyword.own.failed', { shop: failure.shopName, reason: failure.message })} />
      ))}
      <Table<OwnQuery> size="small" data-testid="own-queries" rowKey={(row) => `${row.shopId}:${row.sku}:${row.query}`} loading={loaded.status === 'loading'} dataSource={shown}
        pagination={{ pageSize: 10, showSizeChanger: false, hideOnSinglePage: true }} scroll={{ x: 900 }}
        locale={{ emptyText: data?.shops === 0 ? t('keyword.own.noShops') : keyword && scope === 'matching' && all.length > 0 ? t('keyword.own.noneForKeyword', { keyword }) : t('keyword.own.none') }}
        columns={[
          { title: t('keyword.own.query'), dataIndex: 'query', render: (value: string) => <a onClick={() => onQuery(value)}>{value}</a> },
          {
            title: t('keyword.own.product'), dataIndex: 'name', ellipsis: true,
            render: (value: string, row) => (
              <span title={value}>{value} <Typography.Text type="secondary">SKU {row.sku}</Typography.Text>{data && new Set(data.queries.map((q) => q.shopId)).size > 1 ? <Tag style={{ marginLeft: 4 }}>{row.shopName}</Tag> : null}</span>
            ),
          },
          { title: t('keyword.own.searches'), dataIndex: 'searches', align: 'right', width: 110, render: count, sorter: (a, b) => a.searches - b.searches },
          { title: t('keyword.own.views'), dataIndex: 'views', align: 'right', width: 110, render: (value: number | null) => premium(value, count) },
          { title: t('keyword.own.position'), dataIndex: 'position', align: 'right', width: 100, render: (value: number | null) => premium(value, (v) => v.toFixed(1)), sorter: (a, b) => (a.position ?? Infinity) - (b.position ?? Infinity) },
          { title: t('keyword.own.conversion'), dataIndex: 'conversion', align: 'right', width: 100, render: (value: number | null) => premium(value, (v) => `${v.toFixed(2)}%`) },
          { title: t('keyword.own.orders'), dataIndex: 'orders', align: 'right', width: 80, render: count, sorter: (a, b) => a.orders - b.orders },
          { title: t('keyword.own.gmv'), dataIndex: 'gmv', align: 'right', width: 120, render: (value: number) => formatRub(lang, value), sorter: (a, b) => a.gmv - b.gmv },
        ]} />
    </Card>
  );
}
