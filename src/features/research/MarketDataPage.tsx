import { CloudUploadOutlined, FileTextOutlined, ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Descriptions, Empty, Progress, Skeleton, Space, Table, Tag, Typography, Upload } from 'antd';
import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { MARKET_IMPORT_STEPS, type MarketData, type MarketImport } from '@contract/research';
import { fileImportMachine } from '@machines/fileImportMachine';
import { isApiFailure } from '@workers/api';
import { appActorOptions } from '@/app/createAppActor';
import { useDataClient } from '@/app/dataClient';
import { toLang } from '@/app/i18n';
import { formatCount } from './format';
import './research.css';

type Loaded = { status: 'loading' } | { status: 'done'; data: MarketData } | { status: 'failed'; message: string };
const failureText = (failure: unknown) => (isApiFailure(failure) ? failure.message : String(failure));
/** How often the page reads the running import's progress. */
const PROGRESS_EVERY_MS = 1_500;

const dateTime = (ms: number) => new Date(ms).toLocaleString();
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;

/**
 * /search/market-data (administrators): the market research reads (as of which day, from where, how large), the
 * upload of a new one (the products file and the keywords file, docs/market-import.md), its progress, every refused
 * line with its file and number, and the latest imports.
 */
export function MarketDataPage() {
  const client = useDataClient();
  const { t } = useTranslation('research');
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [products, setProducts] = useState<File | null>(null);
  const [keywords, setKeywords] = useState<File | null>(null);

  const refresh = useCallback(
    () =>
      client.research.marketData().then(
        (data) => setLoaded({ status: 'done', data }),
        (failure: unknown) => setLoaded((now) => (now.status === 'done' ? now : { status: 'failed', message: failureText(failure) })),
      ),
    [client],
  );
  useEffect(() => void refresh(), [refresh]);

  const machine = useMemo(
    () => fileImportMachine.provide({ actors: { load: fromPromise<unknown, { file: File; also?: File[] }>(({ input }) => client.research.importMarket(input.file, input.also![0]!)) } }),
    [client],
  );
  const actor = useActorRef(machine, appActorOptions());
  const importing = useSelector(actor, (snapshot) => snapshot.matches('importing'));
  const failed = useSelector(actor, (snapshot) => (snapshot.matches('failed') ? snapshot.context.error : null));
  const result = useSelector(actor, (snapshot) => (snapshot.matches('done') ? (snapshot.context.result as MarketData) : null));

  useEffect(() => {
    if (result) setLoaded({ status: 'done', data: result });
  }, [result]);
  useEffect(() => {
    if (!importing) return;
    const timer = setInterval(() => void refresh(), PROGRESS_EVERY_MS);
    return () => clearInterval(timer);
  }, [importing, refresh]);

  const data = loaded.status === 'done' ? loaded.data : null;
  const latest = data?.imports[0] ?? null;
  return (
    <div className="research-page" data-testid="market-data-page">
      <Typography.Title level={4}>{t('market.title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('market.intro')}</Typography.Paragraph>
      <CurrentMarket loaded={loaded} onRetry={() => void refresh()} />
      <Card title={t('market.upload')} className="research-card">
        <Alert type="warning" showIcon message={t('market.replaces')} style={{ marginBottom: 16 }} />
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          <FilePick label={t('market.productsFile')} hint="products.csv / products.jsonl" file={products} onPick={setProducts} disabled={importing} />
          <FilePick label={t('market.keywordsFile')} hint="keywords.csv / keywords.jsonl" file={keywords} onPick={setKeywords} disabled={importing} />
          <Button
            type="primary"
            icon={<CloudUploadOutlined />}
            loading={importing}
            disabled={!products || !keywords}
            onClick={() => products && keywords && actor.send({ type: 'import', file: products, also: [keywords] })}
          >
            {importing ? t('market.importing') : t('market.start')}
          </Button>
          {importing && latest?.status === 'running' ? <RunningImport run={latest} /> : null}
          {importing && latest?.status !== 'running' ? <Typography.Text type="secondary">{t('market.sending')}</Typography.Text> : null}
          {failed ? (
            <Alert
              type="error"
              showIcon
              message={t('market.uploadFailed', { reason: failureText(failed) })}
              action={<Button size="small" icon={<ReloadOutlined />} onClick={() => actor.send({ type: 'retry' })}>{t('market.retry')}</Button>}
            />
          ) : null}
          {result && latest ? <ImportOutcome run={latest} data={result} /> : null}
        </Space>
      </Card>
      {data ? <ImportHistory imports={data.imports} /> : null}
    </div>
  );
}

function CurrentMarket({ loaded, onRetry }: { loaded: Loaded; onRetry: () => void }) {
  const { t, i18n } = useTranslation('research');
  const lang = toLang(i18n.language);
  if (loaded.status === 'loading') return <Card className="research-card"><Skeleton active paragraph={{ rows: 2 }} /></Card>;
  if (loaded.status === 'failed') {
    return (
      <Alert type="error" showIcon message={loaded.message} action={<Button size="small" onClick={onRetry}>{t('market.retry')}</Button>} style={{ marginBottom: 16 }} />
    );
  }
  const current = loaded.data.current;
  return (
    <Card title={t('market.current')} className="research-card" data-testid="market-current">
      {current ? (
        <Descriptions column={{ xs: 1, md: 3 }} size="small">
          <Descriptions.Item label={t('market.asOf')}>{current.asOf}</Descriptions.Item>
          <Descriptions.Item label={t('market.products')}>{formatCount(lang, current.products)}</Descriptions.Item>
          <Descriptions.Item label={t('market.keywords')}>{formatCount(lang, current.keywords)}</Descriptions.Item>
          <Descriptions.Item label={t('market.source')}>{current.source}</Descriptions.Item>
          <Descriptions.Item label={t('market.loadedAt')}>{dateTime(current.loadedAt)}</Descriptions.Item>
        </Descriptions>
      ) : (
        <Empty description={t('market.none')} />
      )}
    </Card>
  );
}

function FilePick({ label, hint, file, onPick, disabled }: { label: string; hint: string; file: File | null; onPick: (file: File) => void; disabled: boolean }) {
  const { t } = useTranslation('research');
  return (
    <Space wrap>
      <Typography.Text strong style={{ display: 'inline-block', minWidth: 120 }}>{label}</Typography.Text>
      <Upload accept=".csv,.jsonl" showUploadList={false} disabled={disabled} beforeUpload={(picked) => (onPick(picked), false)}>
        <Button icon={<FileTextOutlined />} disabled={disabled}>{file ? t('market.change') : t('market.choose')}</Button>
      </Upload>
      {file ? <Typography.Text>{file.name} · {megabytes(file.size)}</Typography.Text> : <Typography.Text type="secondary">{hint}</Typography.Text>}
    </Space>
  );
}

function RunningImport({ run }: { run: MarketImport }) {
  const { t, i18n } = useTranslation('research');
  const lang = toLang(i18n.language);
  const step = run.step ?? 'products';
  const percent = Math.round(((MARKET_IMPORT_STEPS.indexOf(step) + 0.5) / MARKET_IMPORT_STEPS.length) * 100);
  return (
    <div data-testid="market-import-running">
      <Progress percent={percent} status="active" showInfo={false} />
      <Typography.Text>
        {t(`market.steps.${step}`)} · {t('market.linesRead', { products: formatCount(lang, run.lines.products), keywords: formatCount(lang, run.lines.keywords) })}
        {run.errorCount > 0 ? ` · ${t('market.refusedSoFar', { count: run.errorCount })}` : ''}
      </Typography.Text>
    </div>
  );
}

/** The upload's outcome: what was loaded, or every refused line (the first 200) and why nothing changed. */
function ImportOutcome({ run, data }: { run: MarketImport; data: MarketData }) {
  const { t, i18n } = useTranslation('research');
  const lang = toLang(i18n.language);
  if (run.status === 'done' && data.current) {
    return (
      <Alert
        type="success"
        showIcon
        data-testid="market-import-done"
        message={t('market.done', { products: formatCount(lang, data.current.products), keywords: formatCount(lang, data.current.keywords), asOf: data.current.asOf })}
      />
    );
  }
  return (
    <div data-testid="market-import-failed">
      <Alert
        type="error"
        showIcon
        message={t('market.failed')}
        description={
          run.errorCount > 0
            ? t(run.errorCount > run.errors.length ? 'market.refusedMore' : 'market.refused', { count: run.errorCount, shown: run.errors.length })
            : run.message
        }
        style={{ marginBottom: 12 }}
      />
      {run.errors.length > 0 ? (
        <Table
          size="small"
          rowKey={(row) => `${row.file}:${row.line}:${row.message}`}
          dataSource={run.errors}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          columns={[
            { title: t('market.file'), dataIndex: 'file', width: 140 },
            { title: t('market.line'), dataIndex: 'line', width: 90, align: 'right' },
            { title: t('market.reason'), dataIndex: 'message' },
          ]}
        />
      ) : null}
    </div>
  );
}

function ImportHistory({ imports }: { imports: MarketImport[] }) {
  const { t, i18n } = useTranslation('research');
  const lang = toLang(i18n.language);
  const color = { running: 'processing', done: 'success', failed: 'error' } as const;
  return (
    <Card title={t('market.history')} className="research-card">
      <Table
        size="small"
        rowKey="id"
        dataSource={imports}
        pagination={false}
        locale={{ emptyText: <Empty description={t('market.noImports')} /> }}
        columns={[
          { title: t('market.started'), dataIndex: 'startedAt', render: (ms: number) => dateTime(ms), width: 190 },
          { title: t('market.by'), dataIndex: 'userName', render: (name: string | null) => name ?? t('market.byCommand'), width: 120 },
          { title: t('market.status'), dataIndex: 'status', width: 110, render: (status: MarketImport['status']) => <Tag color={color[status]}>{t(`market.statuses.${status}`)}</Tag> },
          {
            title: t('market.lines'),
            key: 'lines',
            render: (_: unknown, run: MarketImport) => t('market.linesRead', { products: formatCount(lang, run.lines.products), keywords: formatCount(lang, run.lines.keywords) }),
          },
          { title: t('market.refusedLines'), dataIndex: 'errorCount', width: 110, align: 'right', render: (n: number) => formatCount(lang, n) },
          {
            title: t('market.took'),
            key: 'took',
            width: 110,
            align: 'right',
            render: (_: unknown, run: MarketImport) => (run.finishedAt ? `${Math.max(1, Math.round((run.finishedAt - run.startedAt) / 1000))} s` : '—'),
          },
        ]}
      />
    </Card>
  );
}
