import { Alert, Card, Empty, Input, Skeleton, Table, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { KeywordDetail, KeywordResult, KeywordRow, MarketProductRow } from '@contract/research';
import { isApiFailure } from '@workers/api';
import { useDataClient } from '@/app/dataClient';
import { toLang } from '@/app/i18n';
import type { Lang } from '@contract/errors';
import { formatCount, formatGrowth, formatRub } from './format';
import { HistoryChart } from './HistoryChart';
import { MarketProductDrawer } from './MarketProductDrawer';
import { OwnQueriesCard } from './OwnQueriesCard';
import { ResearchExport } from './ResearchExport';
import { isLockedOut, ResearchLocked } from './ResearchLocked';
import './research.css';

type Loaded<T> = { status: 'loading' } | { status: 'done'; data: T } | { status: 'failed'; message: string };
const failureText = (failure: unknown) => (isApiFailure(failure) ? failure.message : String(failure));
const aborted = (failure: unknown) => isApiFailure(failure) && failure.type === 'Aborted';

/** /search/key-word: keywords matching a text, then one keyword's searches per day, related keywords and products. */
export function KeywordPage() {
  const client = useDataClient();
  const { t, i18n } = useTranslation('research');
  const lang = toLang(i18n.language);
  const [text, setText] = useState('');
  const [draft, setDraft] = useState('');
  // Locked: the server refused the user's roles (a paid period ran out); the page shows that rather than an error.
  const [list, setList] = useState<Loaded<KeywordResult> | { status: 'locked' }>({ status: 'loading' });
  const [picked, setPicked] = useState<string | null>(null);
  const [detail, setDetail] = useState<Loaded<KeywordDetail> | null>(null);
  const [product, setProduct] = useState<MarketProductRow | null>(null);

  useEffect(() => {
    let current = true;
    setList({ status: 'loading' });
    // Each keystroke's search aborts the previous one (the endpoint is cancellable), in the database too.
    client.research.keywords({ text }).then(
      (data) => current && setList({ status: 'done', data }),
      (failure: unknown) => current && !aborted(failure) && setList(isLockedOut(failure) ? { status: 'locked' } : { status: 'failed', message: failureText(failure) }),
    );
    return () => {
      current = false;
    };
  }, [client, text]);

  useEffect(() => {
    if (!picked) return;
    let current = true;
    setDetail({ status: 'loading' });
    client.research.keywordDetail(picked).then(
      (data) => current && setDetail({ status: 'done', data }),
      (failure: unknown) => current && !aborted(failure) && (isLockedOut(failure) ? setList({ status: 'locked' }) : setDetail({ status: 'failed', message: failureText(failure) })),
    );
    return () => {
      current = false;
    };
  }, [client, picked]);

  useEffect(() => () => void client.research.cancelDetails().catch(() => undefined), [client]);

  const count = (value: number) => formatCount(lang, value);
  const figures = [
    { title: t('keyword.freq7'), dataIndex: 'freq7', align: 'right' as const, render: count },
    { title: t('keyword.freq30'), dataIndex: 'freq30', align: 'right' as const, render: count },
    { title: t('keyword.growth'), dataIndex: 'growth', align: 'right' as const, render: formatGrowth },
  ];
  const rows = list.status === 'done' ? list.data.rows : [];

  if (list.status === 'locked') {
    return (
      <div className="research-page">
        <ResearchLocked />
      </div>
    );
  }
  return (
    <div className="research-page">
      <Input.Search aria-label={t('keyword.searchPlaceholder')} placeholder={t('keyword.searchPlaceholder')} allowClear enterButton style={{ maxWidth: 480 }} value={draft}
        onSearch={(value) => setText(value.trim())} onChange={(event) => {
          setDraft(event.target.value);
          if (event.target.value === '') setText('');
        }} />
      <div className="research-keyword-layout">
        <Card size="small" title={t('keyword.title')} extra={
          <ResearchExport disabled={list.status !== 'done' || rows.length === 0} fileName="research-keywords" cancel={client.research.cancelExport}
            start={(format, onProgress) => client.research.exportList('keywords', { text }, format, [
              { id: 'keyword', header: t('keyword.keyword') }, { id: 'freq7', header: t('keyword.freq7') }, { id: 'freq30', header: t('keyword.freq30') }, { id: 'growth', header: t('keyword.growth') },
            ], t('export.sheet.keywords'), onProgress)} />
        }>
          {list.status === 'failed' ? (
            <Alert type="error" showIcon title={list.message} />
          ) : (
            <Table<KeywordRow> size="small" rowKey="keyword" loading={list.status === 'loading'} dataSource={rows} pagination={{ pageSize: 20, showSizeChanger: false }}
              locale={{ emptyText: list.status === 'done' && list.data.asOf === null ? t('noMarket') : t('keyword.none') }}
              onRow={(row) => ({ onClick: () => setPicked(row.keyword), className: row.keyword === picked ? 'ant-table-row-selected' : '', style: { cursor: 'pointer' } })}
              columns={[{ title: t('keyword.keyword'), dataIndex: 'keyword', render: (value: string) => <a>{value}</a> }, ...figures]} />
          )}
        </Card>
        <div>
          {!detail ? (
            <Card><Empty description={t('keyword.pick')} /></Card>
          ) : detail.status === 'failed' ? (
            <Alert type="error" showIcon title={detail.message} />
          ) : detail.status === 'loading' ? (
            <Card><Skeleton active paragraph={{ rows: 10 }} /></Card>
          ) : (
            <KeywordDetailView detail={detail.data} lang={lang} onPick={setPicked} onProduct={setProduct} />
          )}
        </div>
      </div>
      <OwnQueriesCard keyword={picked} lang={lang} onQuery={(query) => {
        setDraft(query);
        setText(query);
      }} />
      <MarketProductDrawer row={product} onClose={() => setProduct(null)} />
    </div>
  );
}

function KeywordDetailView({ detail, lang, onPick, onProduct }: { detail: KeywordDetail; lang: Lang; onPick: (keyword: string) => void; onProduct: (row: MarketProductRow) => void }) {
  const { t } = useTranslation('research');
  const k = detail.keyword;
  return (
    <Card size="small" title={<span data-testid="keyword-title">{k.keyword}</span>}>
      <div className="research-figures">
        <Typography.Text>{t('keyword.freq7')}: <strong>{formatCount(lang, k.freq7)}</strong></Typography.Text>
        <Typography.Text>{t('keyword.freq30')}: <strong>{formatCount(lang, k.freq30)}</strong></Typography.Text>
        <Typography.Text>{t('keyword.freq90')}: <strong>{formatCount(lang, k.freq90)}</strong></Typography.Text>
        <Typography.Text>{t('keyword.growth')}: <strong>{formatGrowth(k.growth)}</strong></Typography.Text>
        <Typography.Text>{t('keyword.results')}: <strong>{formatCount(lang, k.results)}</strong></Typography.Text>
      </div>
      <Typography.Title level={5}>{t('keyword.history')}</Typography.Title>
      <HistoryChart from={detail.from} values={detail.frequency} name="frequency" kind="bar" empty={t('keyword.noSearches', { n: detail.frequency.length })} />
      <Typography.Title level={5}>{t('keyword.products')}</Typography.Title>
      <Table<MarketProductRow & { position: number }> size="small" rowKey="key" pagination={false} dataSource={detail.products}
        onRow={(row) => ({ onClick: () => onProduct(row), style: { cursor: 'pointer' } })}
        columns={[
          { title: t('keyword.position'), dataIndex: 'position', width: 60 },
          { title: t('columns.name'), dataIndex: 'name', render: (value: string) => <a>{value}</a> },
          { title: t('columns.price'), dataIndex: 'price', align: 'right', render: (value: number) => formatRub(lang, value) },
          { title: t('columns.sales', { n: 30 }), dataIndex: 'sales30', align: 'right', render: (value: number) => formatCount(lang, value) },
          { title: t('columns.seller'), dataIndex: 'sellerName', render: (value: string, row) => `${value} (${row.sellerCountry})` },
        ]} />
      <Typography.Title level={5}>{t('keyword.related')}</Typography.Title>
      <Table<KeywordRow & { shared: number }> size="small" rowKey="keyword" pagination={false} dataSource={detail.related}
        locale={{ emptyText: t('keyword.none') }}
        columns={[
          { title: t('keyword.keyword'), dataIndex: 'keyword', render: (value: string) => <a onClick={() => onPick(value)}>{value}</a> },
          { title: t('keyword.shared'), dataIndex: 'shared', align: 'right' },
          { title: t('keyword.freq30'), dataIndex: 'freq30', align: 'right', render: (value: number) => formatCount(lang, value) },
          { title: t('keyword.growth'), dataIndex: 'growth', align: 'right', render: formatGrowth },
        ]} />
    </Card>
  );
}
