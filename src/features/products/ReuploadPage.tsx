import { Alert, App, Button, Form, Input, Modal, Progress, Select, Space, Spin, Table, Tabs, Tag, Typography } from 'antd';
import { useActorRef, useSelector } from '@xstate/react';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { PRODUCT_STATUSES, quotaLeft, type ProductRow, type ProductStatus } from '@contract/products';
import { nextOfferId, REUPLOAD_ENDPOINTS, REUPLOAD_STEPS, type ReuploadHistory, type ReuploadItem, type ReuploadStep } from '@contract/reupload';
import { selectReuploadProgress, selectReuploadStage, type reuploadMachine } from '@machines/reuploadMachine';
import type { ProductFacets, ProductQuery } from '@workers/products/area';
import { appActorOptions } from '@/app/createAppActor';
import { useDataClient } from '@/app/dataClient';
import { useFormats } from '@/app/formats';
import { toLang } from '@/app/i18n';
import { SessionContext } from '@/app/session';
import type { DataTableColumn } from '@/components/data-table/DataTable';
import { PagedTable } from '@/components/data-table/PagedTable';
import { QueryFields } from '@/components/data-table/QueryFields';
import type { TableQuery } from '@/components/data-table/pager';
import { presentFilters, usePagedList } from '@/components/data-table/usePagedList';
import { useFillHeight } from '@/components/virtual-table/useFillHeight';
import { VirtualTable, type VirtualTableSort } from '@/components/virtual-table/VirtualTable';
import { EMPTY_SELECTION, selectedCount } from '@/components/virtual-table/selection';
import { useListActor, type ListAreaClient } from '@/components/virtual-table/useListActor';
import { listOverlay, useListQuery } from '@/components/virtual-table/useListQuery';
import { useGranted } from '@/app/granted';
import { formatMoney, pictureUrl, productColumns } from './ProductColumns';
import { QuotaTable, type QuotaLine } from './QuotaTable';
import { reuploadOn } from './reupload';
import { PRODUCT_TOPICS, productRowKey, ShopFilter } from './productListParts';
import './products.css';

type ReuploadRef = ActorRefFrom<typeof reuploadMachine>;

const WINDOW_ROWS = 100;
const MIN_TABLE_HEIGHT = 240;
/** Stale cards first: the ones Ozon changed longest ago. */
const DEFAULT_SORT: VirtualTableSort = { column: 'changedAt', direction: 'asc' };
/** The columns a seller picks stale products by. */
const PICK_COLUMNS = ['image', 'name', 'offerId', 'status', 'price', 'fbsStock', 'units30d', 'shopName', 'sku', 'changedAt', 'createdAt'];


type Filters = { shopIds: number[]; statuses: ProductStatus[]; search: string };
const EMPTY_FILTERS: Filters = { shopIds: [], statuses: [], search: '' };

/** Cards under moderation cannot be re-uploaded until it ends: the picker leaves them out. */
const PICKABLE_STATUSES = PRODUCT_STATUSES.filter((s) => s !== 'moderating');

type QueryState = { filters: Filters; sort: VirtualTableSort };
const INITIAL: QueryState = { filters: EMPTY_FILTERS, sort: DEFAULT_SORT };

function toQuery({ filters, sort }: QueryState): ProductQuery {
  return {
    filters: { shopIds: filters.shopIds.length ? filters.shopIds : undefined, statuses: filters.statuses.length ? filters.statuses : PICKABLE_STATUSES },
    search: filters.search.trim() || undefined,
    sort: sort ? { column: sort.column as NonNullable<ProductQuery['sort']>['column'], direction: sort.direction } : null,
  };
}

const INITIAL_QUERY = toQuery(INITIAL);

const STEP_COLORS: Record<ReuploadStep, string> = {
  reading: 'processing',
  archiving: 'processing',
  deleting: 'processing',
  importing: 'processing',
  moderating: 'blue',
  restoring: 'processing',
  done: 'success',
  failed: 'error',
};

/** /product/oz-reupload-product: pick stale products, delist and re-upload them, follow each to its end; the history. */
export function ReuploadPage() {
  const { t } = useTranslation('products');
  const client = useDataClient();
  const { message } = App.useApp();
  const machine = useMemo(() => reuploadOn(client), [client]);
  const actor = useActorRef(machine, { ...appActorOptions(), input: {} });
  const [tab, setTab] = useState('pick');
  const [historyVersion, setHistoryVersion] = useState(0);
  useEffect(() => {
    const finished = actor.on('reupload.finished', ({ done, failed }) => {
      setHistoryVersion((v) => v + 1);
      if (failed === 0 && done > 0) void message.success(t('reupload.done', { count: done }));
    });
    return () => finished.unsubscribe();
  }, [actor, message, t]);
  return (
    <div className="products-page">
      <Alert type="info" showIcon title={t('reupload.intro')} />
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          { key: 'pick', label: t('reupload.pickTab'), children: <ReuploadPicker actor={actor} /> },
          { key: 'history', label: t('reupload.historyTab'), children: <ReuploadHistoryTable actor={actor} version={historyVersion} /> },
        ]}
      />
      <ReuploadDialog actor={actor} />
    </div>
  );
}

function ReuploadPicker({ actor }: { actor: ReuploadRef }) {
  const { i18n, t } = useTranslation('products');
  const lang = toLang(i18n.language);
  const client = useDataClient();
  const userId = SessionContext.useSelector((s) => s.context.user.id) ?? 0;
  // A member whose role does not publish sees the list and the history, not the action (the server refuses it too).
  const mayStart = useGranted()(REUPLOAD_ENDPOINTS.reUpload);
  const area = client.products as unknown as ListAreaClient<ProductRow, ProductQuery>;
  const { actor: list, view, rowAt, subscribeRows, onRangeChange } = useListActor({ client, area, topics: PRODUCT_TOPICS, userId, view: 'reupload', initialQuery: INITIAL_QUERY, windowRows: WINDOW_ROWS });
  const { total, handle, sync, held } = view;
  const { state: { filters, sort }, requery, patch, changeSort, selection, setSelection } = useListQuery(list, INITIAL, toQuery);
  const [facets, setFacets] = useState<ProductFacets>({ shops: [] });
  const { fillRef, height } = useFillHeight(MIN_TABLE_HEIGHT);
  useEffect(() => {
    void client.products.facets().then(setFacets).catch(() => undefined);
  }, [client, held]);
  const stage = useSelector(actor, selectReuploadStage);
  useEffect(() => {
    if (stage === 'starting') setSelection(EMPTY_SELECTION);
  }, [stage, setSelection]);

  const columns = useMemo(() => {
    const all = productColumns(t, lang, () => undefined);
    return PICK_COLUMNS.flatMap((id) => {
      const column = all.find((c) => c.id === id);
      if (!column) return [];
      return id === 'price' ? [{ ...column, cell: (row: ProductRow) => formatMoney(row.price, row.currency) }] : [column];
    });
  }, [t, lang]);
  const count = selectedCount(selection, total);
  const start = () =>
    actor.send({
      type: 'reupload.start',
      selection: selection.all && handle !== null ? { kind: 'all', handle, except: [...selection.ids], total } : { kind: 'ids', ids: [...selection.ids] },
    });
  const overlay = listOverlay(view, () => list.send({ type: 'list.retry' }), { failed: t('failed'), retry: t('retry'), loading: t('loading'), empty: filters === EMPTY_FILTERS ? t('noProducts') : t('empty') });

  return (
    <div className="products-page">
      <div className="products-filters" role="search">
        <Input role="searchbox" aria-label={t('search')} placeholder={t('search')} allowClear value={filters.search} onChange={(event) => patch({ search: event.target.value })} style={{ width: 300 }} />
        <ShopFilter facets={facets} value={filters.shopIds} onChange={(shopIds) => patch({ shopIds })} />
        <Select<ProductStatus[]>
          mode="multiple"
          aria-label={t('status')}
          placeholder={t('allStatuses')}
          value={filters.statuses}
          options={PICKABLE_STATUSES.map((s) => ({ value: s, label: t(`statuses.${s}`) }))}
          onChange={(statuses) => patch({ statuses })}
          style={{ minWidth: 200 }}
          maxTagCount="responsive"
        />
        <Button onClick={() => requery({ filters: EMPTY_FILTERS })}>{t('reset')}</Button>
      </div>
      <div className="products-toolbar">
        {mayStart && (
          <Button type="primary" disabled={count === 0} onClick={start}>
            {count > 0 ? t('reupload.startCount', { count }) : t('reupload.start')}
          </Button>
        )}
        <Space role="status">
          {sync && <Typography.Text type="secondary">{t('syncing', { count: sync.rows })}</Typography.Text>}
          {count > 0 && <Typography.Text strong>{t('selected', { count })}</Typography.Text>}
          <Typography.Text>{t('total', { count: total })}</Typography.Text>
        </Space>
      </div>
      <div ref={fillRef}>
      <VirtualTable<ProductRow>
        storageKey={`reupload:${userId}`}
        label={t('reupload.listLabel')}
        columns={columns}
        total={total}
        rowAt={rowAt}
        subscribeRows={subscribeRows}
        rowKey={productRowKey}
        onRangeChange={onRangeChange}
        selection={selection}
        onSelectionChange={setSelection}
        sort={sort}
        onSortChange={changeSort}
        rowHeight={52}
        height={height}
        lang={lang}
        overlay={overlay}
      />
      </div>
    </div>
  );
}

const StepTag = memo(function StepTag({ item }: { item: Pick<ReuploadItem, 'step' | 'failedStep'> }) {
  const { t } = useTranslation('products');
  return (
    <Space size={4} wrap>
      <Tag color={STEP_COLORS[item.step]}>{t(`reupload.steps.${item.step}`)}</Tag>
      {item.step === 'failed' && item.failedStep && <Typography.Text type="secondary">{t('reupload.failedAt', { step: t(`reupload.steps.${item.failedStep}`) })}</Typography.Text>}
    </Space>
  );
});

function Reasons({ item }: { item: Pick<ReuploadItem, 'errors'> }) {
  if (item.errors.length === 0) return null;
  return (
    <ul className="reupload-reasons">
      {item.errors.map((e, k) => (
        <li key={k}>
          {e.attribute ? <Typography.Text strong>{e.attribute}: </Typography.Text> : null}
          {e.message}
        </li>
      ))}
    </ul>
  );
}

function ProductCell({ item }: { item: Pick<ReuploadItem, 'image' | 'name' | 'shopName'> }) {
  return (
    <Space>
      {item.image ? <img className="product-thumb" src={pictureUrl(item.image)} alt="" /> : <span className="product-thumb product-thumb--none" />}
      <span>
        <Typography.Text ellipsis={{ tooltip: item.name }} style={{ width: 220, display: 'block' }}>{item.name}</Typography.Text>
        <Typography.Text type="secondary" ellipsis style={{ width: 220, display: 'block' }}>{item.shopName}</Typography.Text>
      </span>
    </Space>
  );
}

/** The batch's steps: confirm with the quotas and the new offer id rule, progress per product, outcome with Ozon's reasons. */
function ReuploadDialog({ actor }: { actor: ReuploadRef }) {
  const { t } = useTranslation('products');
  const stage = useSelector(actor, selectReuploadStage);
  const progress = useSelector(actor, selectReuploadProgress);
  const error = useSelector(actor, (s) => s.context.error);
  const items = useSelector(actor, (s) => s.context.items);
  const refused = useSelector(actor, (s) => s.context.refused);
  const subjects = useSelector(actor, (s) => s.context.subjects);
  const open = stage !== 'idle';
  const following = stage === 'following' || stage === 'starting' || stage === 'retrying';
  const canRetry = items.some((i) => i.step === 'failed' && i.failedStep !== null);
  const close = () => actor.send({ type: stage === 'confirming' || stage === 'preparing' ? 'reupload.cancel' : 'reupload.close' });
  const labelOf = new Map(subjects.map((s) => [s.id, s.label]));

  const footer =
    stage === 'confirming' ? (
      <Space>
        <Button onClick={close}>{t('cancel')}</Button>
        <Button type="primary" onClick={() => actor.send({ type: 'reupload.confirm' })}>{t('reupload.run')}</Button>
      </Space>
    ) : stage === 'failed' ? (
      <Space>
        <Button onClick={close}>{t('confirm.close')}</Button>
        <Button type="primary" onClick={() => actor.send({ type: 'reupload.retry' })}>{t('reupload.retry')}</Button>
      </Space>
    ) : stage === 'outcome' ? (
      <Space>
        {canRetry && <Button onClick={() => actor.send({ type: 'reupload.retry' })}>{t('reupload.retryFailed')}</Button>}
        <Button type="primary" onClick={close}>{t('reupload.close')}</Button>
      </Space>
    ) : following ? (
      <Button onClick={close}>{t('reupload.later')}</Button>
    ) : (
      <Button onClick={close}>{t('confirm.close')}</Button>
    );

  const title = stage === 'confirming' || stage === 'preparing' || stage === 'empty' ? t('reupload.confirmTitle', { count: subjects.length }) : t('reupload.progressTitle');
  return (
    <Modal open={open} title={title} onCancel={close} footer={footer} width={stage === 'confirming' ? 720 : 960} destroyOnHidden maskClosable={false}>
      {stage === 'preparing' && <Spin tip={t('reupload.preparing')}><div style={{ height: 80 }} /></Spin>}
      {stage === 'empty' && <Alert type="warning" showIcon title={t('reupload.empty')} />}
      {stage === 'confirming' && <ConfirmBody actor={actor} />}
      {stage === 'failed' && <Alert type="error" showIcon title={t('reupload.startFailed', { reason: error ?? '' })} />}
      {(following || stage === 'outcome') && (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Progress percent={progress.total ? Math.round(((progress.done + progress.failed) / progress.total) * 100) : 0} status={following ? 'active' : progress.failed > 0 ? 'exception' : 'success'} />
          <Typography.Text data-testid="reupload-progress">{t('reupload.progress', progress)}</Typography.Text>
          {following && <Typography.Text type="secondary">{t('reupload.following')}</Typography.Text>}
          {error && <Alert type="warning" showIcon title={t('reupload.askFailed', { reason: error })} />}
          <Table<ReuploadItem>
            size="small"
            rowKey="id"
            pagination={false}
            scroll={{ y: 420 }}
            dataSource={items}
            columns={[
              { key: 'product', title: t('reupload.product'), width: 290, render: (_, item) => <ProductCell item={item} /> },
              { key: 'offer', title: `${t('reupload.oldOffer')} → ${t('reupload.newOffer')}`, width: 220, render: (_, item) => <span>{item.oldOfferId} → <Typography.Text strong>{item.newOfferId}</Typography.Text></span> },
              { key: 'step', title: t('reupload.step'), width: 200, render: (_, item) => <StepTag item={item} /> },
              { key: 'old', title: t('reupload.oldCard'), width: 90, render: (_, item) => t(`reupload.oldCards.${item.oldCard}`) },
              { key: 'reasons', title: t('reupload.reasons'), render: (_, item) => <Reasons item={item} /> },
            ]}
          />
          {refused.length > 0 && (
            <Alert
              type="error"
              title={t('reupload.refused')}
              description={
                <ul className="reupload-reasons">
                  {refused.map((r) => (
                    <li key={r.id}>
                      <Typography.Text strong>{labelOf.get(r.id) ?? r.id}</Typography.Text>: {r.message}
                    </li>
                  ))}
                </ul>
              }
            />
          )}
        </Space>
      )}
    </Modal>
  );
}

function ConfirmBody({ actor }: { actor: ReuploadRef }) {
  const { t } = useTranslation('products');
  const subjects = useSelector(actor, (s) => s.context.subjects);
  const limits = useSelector(actor, (s) => s.context.limits);
  const omitted = useSelector(actor, (s) => s.context.omitted);
  const perShop = new Map<number, number>();
  for (const s of subjects) perShop.set(s.shopId, (perShop.get(s.shopId) ?? 0) + 1);
  const example = subjects.slice(0, 3).map((s) => `${s.offerId} → ${nextOfferId(s.offerId, () => false)}`);
  // New cards count against both the day's creations and the assortment's total.
  const lines: QuotaLine[] = limits.map((l) => {
    const daily = quotaLeft(l.dailyCreate);
    const total = quotaLeft(l.total);
    const left = daily === null ? total : total === null ? daily : Math.min(daily, total);
    return { shopId: l.shopId, shopName: l.shopName, need: perShop.get(l.shopId) ?? 0, usage: l.dailyCreate.usage, limit: l.dailyCreate.limit, left, resetAt: l.dailyCreate.resetAt, error: l.error };
  });
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <QuotaTable title={t('reupload.quota')} lines={lines} />
      {lines.flatMap((l) => {
        const over = l.left === null || l.error ? 0 : l.need - l.left;
        return over > 0 ? [<Alert key={l.shopId} type="warning" showIcon title={t('reupload.quotaShort', { shop: l.shopName, left: l.left, over })} />] : [];
      })}
      <Typography.Text>
        {t('reupload.offerRule')} <Typography.Text code>{example.join('，')}</Typography.Text>
      </Typography.Text>
      <Typography.Text type="secondary">{t('reupload.oldCardNote')}</Typography.Text>
      {omitted > 0 && <Alert type="info" showIcon title={t('reupload.omitted', { count: omitted })} />}
    </Space>
  );
}

type HistoryFilters = { step?: ReuploadStep; search?: string };

const EMPTY_HISTORY: ReuploadHistory = { list: [], total: 0, openBatches: [] };

function ReuploadHistoryTable({ actor, version }: { actor: ReuploadRef; version: number }) {
  const { t } = useTranslation('products');
  const { time } = useFormats();
  const client = useDataClient();
  const [form] = Form.useForm<HistoryFilters>();
  const stage = useSelector(actor, selectReuploadStage);
  const fetchPage = useCallback(
    (query: TableQuery, filters: HistoryFilters) => client.products.reuploadHistory({ page: query.page, rows: query.rows, ...presentFilters(filters) }),
    [client],
  );
  const list = usePagedList<HistoryFilters, ReuploadItem, ReuploadHistory>(form, EMPTY_HISTORY, fetchPage);
  const { page, load } = list;
  // The table reads its first page itself; a batch that finishes while it is shown reads the page again.
  const shownVersion = useRef(version);
  useEffect(() => {
    if (version === shownVersion.current) return;
    shownVersion.current = version;
    void load();
  }, [load, version]);
  const columns = useMemo<DataTableColumn<ReuploadItem>[]>(
    () => [
      { id: 'product', header: t('reupload.product'), cell: ({ row }) => <ProductCell item={row.original} /> },
      { id: 'old', header: t('reupload.oldOffer'), cell: ({ row }) => row.original.oldOfferId },
      { id: 'new', header: t('reupload.newOffer'), cell: ({ row }) => row.original.newOfferId },
      { id: 'step', header: t('reupload.step'), cell: ({ row }) => <StepTag item={row.original} /> },
      { id: 'oldCard', header: t('reupload.oldCard'), cell: ({ row }) => t(`reupload.oldCards.${row.original.oldCard}`) },
      { id: 'reasons', header: t('reupload.reasons'), cell: ({ row }) => <Reasons item={row.original} /> },
      { id: 'time', header: t('reupload.time'), cell: ({ row }) => time.format(row.original.updatedAt) },
    ],
    [t, time],
  );
  const unsettled = page.openBatches.reduce((sum, b) => sum + b.unsettled, 0);
  const resume = () => {
    const batch = page.openBatches[0];
    if (batch) actor.send({ type: 'reupload.resume', batchId: batch.batchId });
  };
  return (
    <PagedTable<ReuploadItem, HistoryFilters>
      list={list}
      form={form}
      columns={columns}
      texts={{ loadFailed: (reason) => t('reupload.historyFailed', { reason }), retry: t('retry'), empty: t('reupload.historyEmpty') }}
      notice={
        unsettled > 0 && (
          <Alert
            type="info"
            showIcon
            title={t('reupload.openBatches', { count: unsettled })}
            action={<Button type="primary" disabled={stage !== 'idle'} onClick={resume}>{t('reupload.resume')}</Button>}
          />
        )
      }
      queryFields={
        <QueryFields
          search={t('reupload.searchHistory')}
          searchWidth={220}
          choices={[{ name: 'step', placeholder: t('reupload.allSteps'), width: 160, options: REUPLOAD_STEPS.map((s) => ({ value: s, label: t(`reupload.steps.${s}`) })) }]}
        />
      }
    />
  );
}
