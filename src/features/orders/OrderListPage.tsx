import { DownOutlined } from '@ant-design/icons';
import { Alert, App, Button, Dropdown, Input, Segmented, Space, Spin, Tag, Typography } from 'antd';
import { lazy, memo, startTransition, Suspense, useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import { FBS_STATUSES, type FbsStatus } from '@contract/fbsStatuses';
import type { EndpointSpec } from '@contract/endpoint';
import { ORDER_ENDPOINTS, type OrderRow, type Warehouse } from '@contract/orders';
import type { OrderFacets } from '@workers/orders/area';
import type { DataClient } from '@workers/client';
import type { OrderActionKind, OrderActionSelection } from '@machines/orderActionsMachine';
import { useActorRef, useSelector } from '@xstate/react';
import { appActorOptions } from '@/app/createAppActor';
import { isHeadHandle } from '@workers/orders/types';
import { useDataClient } from '@/app/dataClient';
import { useGranted } from '@/app/granted';
import { toLang } from '@/app/i18n';
import { ControlSlot } from '@/app/layout/ControlSlot';
import { useStages } from '@/app/layout/stages';
import { SessionContext } from '@/app/session';
import { download } from '@/components/download';
import { VirtualTable, type VirtualTableSort } from '@/components/virtual-table/VirtualTable';
import { EMPTY_SELECTION, selectedCount, type RowSelection } from '@/components/virtual-table/selection';
import { orderColumns } from './OrderColumns';
import type { ChoiceFilter as ChoiceFilterControl } from './FilterControls';
import { AMOUNT_WIDTH, CHOICE_WIDTH, RANGE_WIDTH } from './filterSizes';
import { OrderDetailDrawer } from './OrderDetailDrawer';
import type { OrderActionsRef } from './OrderActionDialog';
import { orderActionsOn } from './orderActions';
import { DEFAULT_SORT, EMPTY_FILTERS, initialOrderQuery, ORDER_VIEWS, sourcesOf, toQuery, type Filters, type OrderGrouping, type Range } from './query';
import { useOrderList } from './useOrderList';
import './orders.css';

/** The shell's bars, the filters, the status row and the toolbar above the table: the table takes the rest. */
const PAGE_CHROME_HEIGHT = 336;
const MIN_TABLE_HEIGHT = 240;
const subscribeResize = (changed: () => void) => {
  window.addEventListener('resize', changed);
  return () => window.removeEventListener('resize', changed);
};
/** The window's height as a number (not `100vh` in CSS): the table knows its height before the page is laid out. */
const readWindowHeight = () => window.innerHeight;

type QueryState = { filters: Filters; search: string; sort: VirtualTableSort; grouping: OrderGrouping };

// Loaded apart: the filters' heavy controls as soon as this page's code is in (drawn after the rows,
// `useControlStages`; asked for here, not in the page's first commit, whose task it lengthened), a dialog when it
// opens.
const controlsCode = import('./FilterControls');
const ChoiceFilter = lazy(() => controlsCode.then((m) => ({ default: m.ChoiceFilter }))) as unknown as typeof ChoiceFilterControl;
const DateRange = lazy(() => controlsCode.then((m) => ({ default: m.DateRange })));
const AmountRange = lazy(() => controlsCode.then((m) => ({ default: m.AmountRange })));
const OrderActionDialog = lazy(() => import('./OrderActionDialog').then((m) => ({ default: m.OrderActionDialog })));

const orderId = (row: OrderRow) => row.id;

/** The rows an action works on: listed ids, or the whole current result except some. */
export function toActionSelection(selection: RowSelection, handle: number | null, total: number): OrderActionSelection {
  return selection.all && handle !== null ? { kind: 'all', handle, except: [...selection.ids], total } : { kind: 'ids', ids: [...selection.ids] };
}

/** /order-manager/order-list: every cached order, queried in the worker, shown by one VirtualTable. */
export function OrderListPage() {
  return <OrdersView mode="orders" />;
}

export type OrdersViewProps = { mode: 'orders' | 'records'; toolbar?: (context: OrdersToolbarContext) => React.ReactNode };
export type OrdersToolbarContext = {
  selection: RowSelection;
  handle: number | null;
  total: number;
  clearSelection: () => void;
  selectedRows: () => Promise<OrderRow[]>;
  openEditor: (row: OrderRow | null) => void;
};

/**
 * The page around the table. What changes often stays low in the tree: rows arriving and scrolling render only the
 * table body (it subscribes to the window cache itself), a keystroke renders the search box and sends one query,
 * and the filter bar and the action buttons render only when their own values change.
 */
export function OrdersView({ mode, toolbar }: OrdersViewProps) {
  const { i18n } = useTranslation();
  const lang = toLang(i18n.language);
  const { t } = useTranslation('orders');
  const client = useDataClient();
  const userId = SessionContext.useSelector((s) => s.context.user.id) ?? 0;
  const sources = useMemo(() => sourcesOf(mode), [mode]);
  const [filters, setFilters] = useState<Filters>(EMPTY_FILTERS);
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<VirtualTableSort>(DEFAULT_SORT);
  const initial = useMemo(() => initialOrderQuery(mode), []); // eslint-disable-line react-hooks/exhaustive-deps
  const [grouping, setGrouping] = useState<OrderGrouping>('lines');
  const current = useRef<QueryState>({ filters: EMPTY_FILTERS, search: '', sort: DEFAULT_SORT, grouping: 'lines' });
  const { actor, view, rowAt, subscribeRows, onRangeChange } = useOrderList(client, userId, ORDER_VIEWS[mode], initial);
  const { total, handle, sync, synced, loading, failed, error, held } = view;
  // A reload's opening answer from the head kept with the cache: the rest of its rows are still being read.
  const filling = isHeadHandle(handle);
  const [selection, setSelection] = useState<RowSelection>(EMPTY_SELECTION);
  const [detail, setDetail] = useState<OrderRow | null>(null);
  const [facets, setFacets] = useState<OrderFacets>({ shops: [], warehouses: [] });
  const [statusCounts, setStatusCounts] = useState<StatusCounts>(NO_COUNTS);
  const actions = useOrderActions(client, () => setSelection(EMPTY_SELECTION));
  const windowHeight = useSyncExternalStore(subscribeResize, readWindowHeight);
  // The list is drawn: rows, or the answer that there are none, or its failure (what the overlay tells apart).
  const controls = useControlStages(failed || (!loading && (total > 0 || synced)));

  // The query is sent from the event itself, before React renders the new filter values: the worker answers while
  // the page renders, instead of after it.
  const requery = useCallback(
    (change: Partial<QueryState>, options: { deferred?: boolean } = {}) => {
      const next = { ...current.current, ...change };
      current.current = next;
      actor.send({ type: 'list.query', query: toQuery(next.filters, next.search, next.sort, sources, next.grouping) });
      setSelection(EMPTY_SELECTION);
      // A pick in a dropdown or a status toggle re-renders its control as a transition: the rows the worker answers
      // with render first. Typed fields stay urgent (a deferred controlled input loses keys).
      if (change.filters && options.deferred) startTransition(() => setFilters(next.filters));
      else if (change.filters) setFilters(next.filters);
      if (change.search !== undefined) setSearch(next.search);
      if (change.sort !== undefined) setSort(next.sort);
      if (change.grouping !== undefined) setGrouping(next.grouping);
    },
    [actor, sources],
  );

  // Asked again as rows arrive (a sync's every chunk); the filter bar re-renders only when a shop or warehouse came
  // or went.
  useEffect(() => {
    void client.orders
      .facets()
      .then((next) => setFacets((shown) => (sameFacets(shown, next) ? shown : next)))
      .catch(() => undefined);
  }, [client, held]);

  // The counts on the status tabs, from the worker (the query without its status filter), once the rows and the
  // query have been still for a moment: a load's every chunk would count a growing cache again.
  useEffect(() => {
    const timer = setTimeout(() => {
      const { filters: f, search: s, sort: o, grouping: g } = current.current;
      void client.orders
        .statusCounts(toQuery(f, s, o, sources, g))
        .then((next) => next && setStatusCounts((shown) => (sameCounts(shown, next) ? shown : next)))
        .catch(() => undefined);
    }, COUNTS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [client, sources, held, total, filters, search, grouping]);

  const columns = useMemo(() => orderColumns(t, lang, mode), [t, lang, mode]);
  const count = selectedCount(selection, total);
  const patch = useCallback(
    (change: Partial<Filters>, options?: { deferred?: boolean }) => requery({ filters: { ...current.current.filters, ...change } }, options),
    [requery],
  );
  const reset = useCallback(() => requery({ filters: EMPTY_FILTERS, search: '' }), [requery]);
  const closeDetail = useCallback(() => setDetail(null), []);
  const changeSearch = useCallback((value: string) => requery({ search: value }), [requery]);
  // Opened from a return (?search=<posting number>): the list finds that posting, in a tab kept open too.
  const wanted = new URLSearchParams(useSearch()).get('search');
  useEffect(() => {
    if (wanted && wanted !== current.current.search) changeSearch(wanted);
  }, [wanted, changeSearch]);
  const changeSort = useCallback((value: VirtualTableSort) => requery({ sort: value }), [requery]);
  const changeGrouping = useCallback((value: OrderGrouping) => requery({ grouping: value }), [requery]);

  const selectedRows = async (): Promise<OrderRow[]> => {
    if (!selection.all) return (await Promise.all([...selection.ids].map((id) => client.orders.get(id)))).filter((row): row is OrderRow => row !== null);
    if (handle === null) return [];
    const window = await client.orders.window(handle, 0, Math.min(total, 1_000));
    return window.rows.filter((row) => !selection.ids.has(row.id));
  };

  // The action bar keeps one function across renders and reaches the current selection through this ref.
  const acting = useRef({ selection, handle, total });
  useLayoutEffect(() => {
    acting.current = { selection, handle, total };
  });
  const act = useCallback(
    (kind: OrderActionKind) => {
      const { selection: selected, handle: result, total: count } = acting.current;
      actions.send({ type: 'action.start', kind, selection: toActionSelection(selected, result, count) });
    },
    [actions],
  );

  const postingLines = useCallback((id: string) => client.orders.postingLines(id), [client]);
  const postingDetail = useCallback((id: string) => client.orders.posting(id), [client]);
  // From the detail drawer: the posting's own lines.
  const actOn = useCallback(
    (kind: OrderActionKind, ids: string[]) => {
      setDetail(null);
      actions.send({ type: 'action.start', kind, selection: { kind: 'ids', ids } });
    },
    [actions],
  );

  const toolbarContext: OrdersToolbarContext = {
    selection,
    handle,
    total,
    clearSelection: () => setSelection(EMPTY_SELECTION),
    selectedRows,
    openEditor: () => undefined,
  };

  const overlay = useMemo(
    () =>
      failed ? (
        <Alert type="error" showIcon title={t('failed')} description={error} action={<Button onClick={() => actor.send({ type: 'list.retry' })}>{t('retry')}</Button>} />
      ) : loading || (total === 0 && !synced) ? (
        // A first visit has an empty cache: until the first sync ends, no rows means "not here yet", not "none".
        <Spin tip={t('loading')}><div style={{ width: 200, height: 60 }} /></Spin>
      ) : total === 0 && !sync ? (
        <Typography.Text type="secondary">{t('empty')}</Typography.Text>
      ) : null,
    [failed, error, loading, total, synced, sync, t, actor],
  );

  return (
    <div className="orders-page">
      {/* Plain boxes, not an antd Form: Form.Item's status contexts and layout effects made the page's first commit
          a long task, and these fields have nothing to validate. */}
      <div className="orders-filters" role="search">
        <SearchBox value={search} onChange={changeSearch} />
        <FilterBar mode={mode} filters={filters} facets={facets} drawn={controls} onPatch={patch} onReset={reset} />
      </div>
      <StatusFilter value={filters.statuses} counts={statusCounts} onPatch={patch} />

      <div className="orders-toolbar">
        {mode === 'orders' ? (
          <Space wrap>
            <GroupingSwitch value={grouping} onChange={changeGrouping} />
            <ActionBar count={count} onAction={act} />
          </Space>
        ) : (
          <Space wrap>{toolbar?.(toolbarContext)}</Space>
        )}
        {/* Right to left in the order they matter: the total, the selection, then what is under way. */}
        <div className="orders-counts" role="status">
          <Typography.Text data-testid="orders-total">
            {mode === 'records' ? t('total', { count: total }) : grouping === 'postings' ? t('totalPostings', { count: total }) : t('totalLines', { count: total })}
          </Typography.Text>
          {count > 0 && <Typography.Text strong>{t('selected', { count })}</Typography.Text>}
          {sync && <Typography.Text type="secondary">{t('syncing', { count: sync.rows })}</Typography.Text>}
          {filling && <Typography.Text type="secondary">{t('loadingCache')}</Typography.Text>}
        </div>
      </div>

      <VirtualTable<OrderRow>
        storageKey={`orders:${mode}:${userId}`}
        label={mode === 'records' ? t('recordLabel') : t('listLabel')}
        columns={columns}
        total={total}
        rowAt={rowAt}
        subscribeRows={subscribeRows}
        rowKey={orderId}
        onRangeChange={onRangeChange}
        selection={selection}
        onSelectionChange={setSelection}
        sort={sort}
        onSortChange={changeSort}
        onRowOpen={setDetail}
        height={Math.max(MIN_TABLE_HEIGHT, windowHeight - PAGE_CHROME_HEIGHT)}
        lang={lang}
        overlay={overlay}
        busy={filling}
      />
      <OrderDetailDrawer row={detail} lang={lang} onClose={closeDetail} postingLines={postingLines} postingDetail={postingDetail} onAction={mode === 'orders' ? actOn : undefined} />
      {mode === 'orders' && <ActionDialogSlot actor={actions} warehouses={client.orders.warehouses} />}
    </div>
  );
}

type SearchBoxProps = { value: string; onChange: (value: string) => void };

/** The search text: a keystroke renders this box and nothing else of the filter form. */
const SearchBox = memo(function SearchBox({ value, onChange }: SearchBoxProps) {
  const { t } = useTranslation('orders');
  return (
    <Input role="searchbox" aria-label={t('search')} placeholder={t('search')} allowClear value={value} onChange={(event) => onChange(event.target.value)} style={{ width: 320 }} />
  );
});

type Patch = (change: Partial<Filters>, options?: { deferred?: boolean }) => void;
type FilterBarProps = { mode: OrdersViewProps['mode']; filters: Filters; facets: OrderFacets; drawn: number; onPatch: Patch; onReset: () => void };

/** The filter bar's heavy controls, drawn in this order: shop, warehouse, the two date ranges, the amounts. */
const CONTROL_STAGES = 4;

/**
 * How many of the filter bar's heavy controls are drawn: none until their code is in and the list's first answer is
 * on screen, then one more per painted frame. antd's Select, RangePicker and InputNumber are costly to mount, and a
 * multiple Select sizes its input in a layout effect, forcing a layout of whatever the page has not laid out yet:
 * mounted beside the first rows, or all in one commit, they made one long task; one per frame after the rows, each
 * mount is short and lays out little but itself.
 */
function useControlStages(listDrawn: boolean): number {
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    let live = true;
    void controlsCode.then(() => live && setLoaded(true));
    return () => {
      live = false;
    };
  }, []);
  return useStages(listDrawn && loaded ? CONTROL_STAGES : 0);
}

/**
 * The filters; each field renders only when its own value changes (antd's Select and RangePicker are not cheap).
 * Memoised: the list's counts change with every sync chunk, the filters and their choices seldom.
 */
const FilterBar = memo(function FilterBar({ mode, filters, facets, drawn, onPatch, onReset }: FilterBarProps) {
  const { t } = useTranslation('orders');
  const shopOptions = useMemo(() => facets.shops.map((shop) => ({ value: shop.id, label: shop.name })), [facets.shops]);
  const warehouseOptions = useMemo(() => facets.warehouses.map((w) => ({ value: w.id, label: w.name || w.id })), [facets.warehouses]);
  return (
    <>
      {mode === 'orders' && (
        <ControlSlot ready={drawn > 0} width={CHOICE_WIDTH}>
          <ChoiceFilter<number> field="shopIds" label={t('shop')} value={filters.shopIds} options={shopOptions} onPatch={onPatch} />
        </ControlSlot>
      )}
      {mode === 'orders' && (
        <ControlSlot ready={drawn > 1} width={CHOICE_WIDTH}>
          <ChoiceFilter<string> field="warehouseIds" label={t('warehouse')} value={filters.warehouseIds} options={warehouseOptions} onPatch={onPatch} />
        </ControlSlot>
      )}
      <DateFilter field="inProcess" label={t('inProcessAt')} value={filters.inProcess} ready={drawn > 2} onPatch={onPatch} />
      {mode === 'orders' && <DateFilter field="shipment" label={t('shipmentDate')} value={filters.shipment} ready={drawn > 2} onPatch={onPatch} />}
      <AmountFilter from={filters.amountFrom} to={filters.amountTo} ready={drawn > 3} onPatch={onPatch} />
      <Button onClick={onReset}>{t('reset')}</Button>
    </>
  );
});

const sameFacets = (a: OrderFacets, b: OrderFacets) =>
  a.shops.length === b.shops.length &&
  a.warehouses.length === b.warehouses.length &&
  a.shops.every((shop, i) => shop.id === b.shops[i]!.id && shop.name === b.shops[i]!.name) &&
  a.warehouses.every((warehouse, i) => warehouse.id === b.warehouses[i]!.id && warehouse.name === b.warehouses[i]!.name);

type StatusCounts = Partial<Record<FbsStatus, number>>;
const NO_COUNTS: StatusCounts = {};
/** How long the rows and the query stay still before the status tabs are counted again. */
const COUNTS_DELAY_MS = 250;
const sameCounts = (a: StatusCounts, b: StatusCounts) => FBS_STATUSES.every((status) => a[status] === b[status]);

type StatusFilterProps = { value: FbsStatus[]; counts: StatusCounts; onPatch: Patch };

/**
 * The statuses as a row of toggles, "all" first: one click picks or drops a status, and the row re-renders in
 * well under a millisecond (a multiple Select measured its tags and re-laid itself out on every pick).
 */
const StatusFilter = memo(function StatusFilter({ value, counts, onPatch }: StatusFilterProps) {
  const { t } = useTranslation('orders');
  const all = FBS_STATUSES.reduce((sum, status) => sum + (counts[status] ?? 0), 0);
  // Beside the name, not in it: a toggle is named by its status alone (what a screen reader announces as the
  // checkbox, and what the browser tests and the bench pick it by), the count shown for the eye.
  const count = (n: number | undefined) => <span className="order-status-filter__count" aria-hidden="true">{t('count', { count: n ?? 0 })}</span>;
  return (
    <div className="order-status-filter" role="group" aria-label={t('status')}>
      <span className="order-status-filter__label">{t('status')}:</span>
      <Tag.CheckableTag checked={value.length === 0} onChange={() => value.length > 0 && onPatch({ statuses: [] }, { deferred: true })}>
        {t('allStatuses')} {count(all)}
      </Tag.CheckableTag>
      {FBS_STATUSES.map((status) => (
        <Tag.CheckableTag key={status} checked={value.includes(status)}
          onChange={(on) => onPatch({ statuses: on ? [...value, status] : value.filter((chosen) => chosen !== status) }, { deferred: true })}>
          {t(`statuses.${status}`)} {count(counts[status])}
        </Tag.CheckableTag>
      ))}
    </div>
  );
});

/** A filter with a visible label, as antd's inline form lays one out ("label: field"). */
function LabelledFilter({ label, children }: { label: string; children: React.ReactNode }) {
  const id = useId();
  return (
    <div className="orders-filter" role="group" aria-labelledby={id}>
      <span id={id} className="orders-filter__label">{label}:</span>
      {children}
    </div>
  );
}

type DateFilterProps = { field: 'inProcess' | 'shipment'; label: string; value: Range; ready: boolean; onPatch: (change: Partial<Filters>) => void };

const DateFilter = memo(function DateFilter({ field, label, value, ready, onPatch }: DateFilterProps) {
  return (
    <LabelledFilter label={label}>
      <ControlSlot ready={ready} width={RANGE_WIDTH}>
        <DateRange value={value} onChange={(next) => onPatch({ [field]: next })} />
      </ControlSlot>
    </LabelledFilter>
  );
});

type AmountFilterProps = { from: number | null; to: number | null; ready: boolean; onPatch: (change: Partial<Filters>) => void };

const AmountFilter = memo(function AmountFilter({ from, to, ready, onPatch }: AmountFilterProps) {
  const { t } = useTranslation('orders');
  return (
    <LabelledFilter label={t('amount')}>
      <ControlSlot ready={ready} width={2 * AMOUNT_WIDTH}>
        <AmountRange from={from} to={to} onPatch={onPatch} />
      </ControlSlot>
    </LabelledFilter>
  );
});

type GroupingSwitchProps = { value: OrderGrouping; onChange: (value: OrderGrouping) => void };

/** Lines or postings: the same rows, one per product line or one per posting (its lines inside). */
const GroupingSwitch = memo(function GroupingSwitch({ value, onChange }: GroupingSwitchProps) {
  const { t } = useTranslation('orders');
  return (
    <Segmented<OrderGrouping>
      aria-label={t('grouping')}
      value={value}
      onChange={onChange}
      options={[
        { value: 'lines', label: t('byLines') },
        { value: 'postings', label: t('byPostings') },
      ]}
    />
  );
});

/** The call each batch action makes, whose permission decides whether its button shows. */
const ACTION_ENDPOINTS: Record<OrderActionKind, EndpointSpec> = {
  ship: ORDER_ENDPOINTS.ship,
  tracking: ORDER_ENDPOINTS.addTrackNumber,
  labels: ORDER_ENDPOINTS.labelPdf,
  stock: ORDER_ENDPOINTS.updateStock,
  cancel: ORDER_ENDPOINTS.cancel,
  pickingPdf: ORDER_ENDPOINTS.pickingList,
  pickingXlsx: ORDER_ENDPOINTS.pickingList,
};

type ActionBarProps = { count: number; onAction: (kind: OrderActionKind) => void };

/** The batch actions: disabled until rows are selected, each saying how many rows it acts on. */
const ActionBar = memo(function ActionBar({ count, onAction }: ActionBarProps) {
  const { t } = useTranslation('orders');
  const granted = useGranted();
  const label = (kind: OrderActionKind) => (count > 0 ? t('actions.withCount', { action: t(`actions.${kind}`), count }) : t(`actions.${kind}`));
  // Only the actions the person's role grants (a member's); the server refuses the others all the same.
  const shown = (kind: OrderActionKind) => granted(ACTION_ENDPOINTS[kind]);
  return (
    <Space wrap>
      {shown('ship') && <Button type="primary" disabled={count === 0} onClick={() => onAction('ship')}>{label('ship')}</Button>}
      {shown('tracking') && <Button disabled={count === 0} onClick={() => onAction('tracking')}>{label('tracking')}</Button>}
      {shown('labels') && <Button disabled={count === 0} onClick={() => onAction('labels')}>{label('labels')}</Button>}
      {shown('pickingPdf') && (
        <Dropdown
          disabled={count === 0}
          trigger={['click']}
          menu={{
            items: [
              { key: 'pickingPdf', label: t('actions.pickingPdf') },
              { key: 'pickingXlsx', label: t('actions.pickingXlsx') },
            ],
            onClick: ({ key }) => onAction(key as 'pickingPdf' | 'pickingXlsx'),
          }}
        >
          <Button disabled={count === 0}>
            {count > 0 ? t('actions.withCount', { action: t('actions.picking'), count }) : t('actions.picking')} <DownOutlined />
          </Button>
        </Dropdown>
      )}
      {shown('stock') && <Button disabled={count === 0} onClick={() => onAction('stock')}>{label('stock')}</Button>}
      {shown('cancel') && <Button danger disabled={count === 0} onClick={() => onAction('cancel')}>{label('cancel')}</Button>}
    </Space>
  );
});

/** The action's dialog, its code loaded when an action first starts (antd's Form and Modal are not needed before). */
function ActionDialogSlot({ actor, warehouses }: { actor: OrderActionsRef; warehouses: () => Promise<Warehouse[]> }) {
  const active = useSelector(actor, (snapshot) => !snapshot.matches('idle'));
  return <Suspense fallback={null}>{active && <OrderActionDialog actor={actor} warehouses={warehouses} />}</Suspense>;
}

/**
 * The page's order-actions actor on the data worker. The page hears how an action ended: a run with nothing left
 * undone closes with a message (a ship also clears the selection, whose rows have left the list); a label file is
 * downloaded. Anything not done keeps the dialog open with the reasons.
 */
function useOrderActions(client: DataClient, clearSelection: () => void): OrderActionsRef {
  const { t } = useTranslation('orders');
  const { message } = App.useApp();
  const texts = useRef(t);
  texts.current = t;
  const machine = useMemo(() => orderActionsOn(client, { noWarehouse: () => texts.current('actions.noWarehouse') }), [client]);
  const actor = useActorRef(machine, { ...appActorOptions(), input: {} });
  const latest = useRef({ t, message, clearSelection });
  latest.current = { t, message, clearSelection };
  useEffect(() => {
    const finished = actor.on('action.finished', ({ kind, done, failed }) => {
      const { context } = actor.getSnapshot();
      if (failed > 0 || Object.values(context.outcomes).some((o) => o.status !== 'done')) return;
      void latest.current.message.success(latest.current.t(`actions.done.${kind}`, { count: done }));
      if (kind === 'ship' || kind === 'cancel') latest.current.clearSelection();
      actor.send({ type: 'action.close' });
    });
    const file = actor.on('action.file', ({ file: { name, type, bytes } }) => download(name, new Blob([bytes], { type })));
    return () => {
      finished.unsubscribe();
      file.unsubscribe();
    };
  }, [actor]);
  return actor;
}
