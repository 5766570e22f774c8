import { Alert, Button, Checkbox, Empty, Input, Select, Space, Spin, Tag, Tooltip, Typography } from 'antd';
import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fromCallback, fromPromise } from 'xstate';
import { PROMOTION_ENDPOINTS, type ActionProductListRow, type ActionRef } from '@contract/promotions';
import { listMachine, type ListEvent, type ListEventsInput, type ListSnapshot, type OpenListInput, type OpenListOutput } from '@machines/listMachine';
import type { ActionProductQuery, ActionProductsView } from '@workers/promotions';
import { appActorOptions } from '@/app/createAppActor';
import { useDataClient } from '@/app/dataClient';
import { useGranted } from '@/app/granted';
import { Money } from '@/components/money/Money';
import { COST_CURRENCY, COST_ENDPOINTS } from '@contract/costs';
import { toLang } from '@/app/i18n';
import { ListWindows } from '@/components/virtual-table/listWindows';
import { EMPTY_SELECTION, isSelected, selectedCount, type RowSelection } from '@/components/virtual-table/selection';
import { VirtualTable, type VirtualTableColumn, type VirtualTableSort } from '@/components/virtual-table/VirtualTable';
import type { PromotionActionsActor } from './promotionActions';

const WINDOW = 100;

type ActionProductListProps = {
  view: ActionProductsView;
  /** With the currency its prices are in (the shop's). */
  action: ActionRef & { title: string; currency: string };
  userId: number;
  actor: PromotionActionsActor;
  guarded: boolean;
  /** The action froze: nothing can be added or removed. */
  frozen: boolean;
};

type Filters = { search: string; onlyBelow: boolean; addModes: string[] };
const toQuery = (f: Filters, sort: VirtualTableSort): ActionProductQuery => ({
  search: f.search || undefined,
  filters: { ...(f.onlyBelow ? { guard: ['below'] } : {}), ...(f.addModes.length ? { addModes: f.addModes } : {}) },
  sort: sort ? { column: sort.column, direction: sort.direction } : null,
});

const selectLoading = (s: ListSnapshot) => s.matches('opening') || (s.matches('querying') && s.context.handle === null);

/**
 * One action's products or candidates as a big list: the worker reads them from the server into its list engine
 * (workers/promotions.ts) and the table asks for the rows on screen a window at a time (listMachine, VirtualTable).
 */
export function ActionProductList({ view, action, userId, actor: actions, guarded, frozen }: ActionProductListProps) {
  const { t, i18n } = useTranslation('promotions');
  const lang = toLang(i18n.language);
  const client = useDataClient();
  const [info, setInfo] = useState<{ total: number; truncated: boolean; rows: number } | null>(null);
  const [filters, setFilters] = useState<Filters>({ search: '', onlyBelow: false, addModes: [] });
  const [sort, setSort] = useState<VirtualTableSort>(null);
  const [selection, setSelection] = useState<RowSelection>(EMPTY_SELECTION);
  const windowsRef = useRef<ListWindows<ActionProductListRow> | null>(null);

  const machine = useMemo(
    () =>
      listMachine.provide({
        actors: {
          openList: fromPromise<OpenListOutput, OpenListInput>(async () => {
            const opened = await client.promotions.openProducts(view, { storeId: action.storeId, actionId: action.actionId });
            setInfo(opened);
            return { rows: opened.rows, cursor: 'read' };
          }),
          runQuery: fromPromise(async ({ input }) => client.promotions.queryProducts(view, input.query as ActionProductQuery)),
          // The rows change only when this page acts on them: the list is opened again then.
          listEvents: fromCallback<ListEvent, ListEventsInput>(() => () => undefined),
        },
      }),
    [client, view, action.storeId, action.actionId],
  );
  const list = useActorRef(machine, { ...appActorOptions(), input: { userId, view: `${view}:${action.storeId}:${action.actionId}` } });
  const handle = useSelector(list, (s) => s.context.handle);
  const total = useSelector(list, (s) => s.context.total);
  const resultVersion = useSelector(list, (s) => s.context.resultVersion);
  const loading = useSelector(list, selectLoading);
  const failed = useSelector(list, (s) => s.matches('failed'));
  const error = useSelector(list, (s) => s.context.error);

  const windows = useMemo(
    () =>
      new ListWindows<ActionProductListRow>(
        async (h, page) => (await client.promotions.windowProducts(view, h, page * WINDOW, WINDOW)).rows,
        () => list.send({ type: 'list.changed', total: list.getSnapshot().context.held }),
        WINDOW,
      ),
    [client, view, list],
  );
  windowsRef.current = windows;
  windows.show(handle, resultVersion, total);
  const onRangeChange = useMemo(() => (start: number, end: number) => windows.onRangeChange(start, end), [windows, handle, resultVersion]); // eslint-disable-line react-hooks/exhaustive-deps

  // An add or a removal moved rows between the products and the candidates the worker holds: both lists query
  // again (and the selection, of rows that may have left, is cleared).
  useEffect(() => {
    const subscription = actions.on('action.finished', () => {
      setSelection(EMPTY_SELECTION);
      void client.promotions.heldProducts(view).then((held) => list.send({ type: 'list.changed', total: held }));
    });
    return () => subscription.unsubscribe();
  }, [actions, client, view, list]);

  const requery = (next: Filters, nextSort: VirtualTableSort) => {
    list.send({ type: 'list.query', query: toQuery(next, nextSort) });
    setSelection(EMPTY_SELECTION);
  };
  const changeFilters = (change: Partial<Filters>) => {
    const next = { ...filters, ...change };
    setFilters(next);
    requery(next, sort);
  };

  const currency = action.currency;
  // Prices in the shop's currency; cost prices are kept in roubles (contract/costs.ts).
  const money2 = useCallback((n: number | null, of: string = currency) => (n === null ? t('common.none') : <Money amount={n} currency={of} />), [currency, t]);
  // Cost prices and margins are for those who may read the cost list; the server sends others neither.
  const seesCosts = useGranted()(COST_ENDPOINTS.list);
  const columns = useMemo<VirtualTableColumn<ActionProductListRow>[]>(
    () => [
      { id: 'offerId', header: t('products.offerId'), width: 140, sortable: true, cell: (r) => r.offerId || String(r.productId) },
      { id: 'name', header: t('products.name'), width: 260, sortable: true, cell: (r) => <span title={r.name}>{r.name}</span> },
      { id: 'price', header: t('products.price'), width: 100, align: 'right', sortable: true, cell: (r) => money2(r.price) },
      ...(view === 'products'
        ? [{ id: 'actionPrice', header: t('products.actionPrice'), width: 110, align: 'right' as const, sortable: true, cell: (r: ActionProductListRow) => (
            <span className={r.guard === 'below' ? 'promo-below' : undefined}>{money2(r.actionPrice)}</span>
          ) }]
        : []),
      { id: 'maxActionPrice', header: t('products.maxActionPrice'), width: 120, align: 'right', sortable: true, cell: (r) => money2(r.maxActionPrice) },
      { id: 'stock', header: t('products.stock'), width: 80, align: 'right', sortable: true, cell: (r) => r.stock },
      ...(seesCosts ? [{ id: 'cost', header: t('products.cost'), width: 100, align: 'right' as const, sortable: true, cell: (r: ActionProductListRow) => money2(r.cost, COST_CURRENCY) }] : []),
      { id: 'floor', header: t('products.floor'), width: 100, align: 'right', cell: (r) => (r.floor === null ? t('common.none') : (
          <span>
            {money2(r.floor)} {r.guard === 'below' ? <Tag color="red">{t('products.belowFloor')}</Tag> : null}
          </span>
        )) },
      ...(seesCosts
        ? [{ id: 'marginPercent', header: t('products.margin'), width: 110, align: 'right' as const, sortable: true, cell: (r: ActionProductListRow) => (r.marginPercent === null ? t('common.none') : (
            <span className={r.marginPercent < 0 ? 'promo-below' : undefined}>{r.marginPercent.toFixed(1)}%</span>
          )) }]
        : []),
      ...(view === 'products'
        ? [{ id: 'addMode', header: t('products.addMode'), width: 120, cell: (r: ActionProductListRow) => (
            <Tag color={r.addMode === 'AUTO' ? 'orange' : 'blue'}>{t(`products.modes.${r.addMode === 'AUTO' ? 'AUTO' : 'MANUAL'}`)}</Tag>
          ) }]
        : []),
    ],
    [t, money2, view, seesCosts],
  );

  /** The selected rows of the current result (read from the worker: a whole-result selection holds no rows here). */
  const selectedRows = async (): Promise<ActionProductListRow[]> => {
    if (handle === null) return [];
    const all = await client.promotions.windowProducts(view, handle, 0, total);
    return all.rows.filter((row) => isSelected(selection, row.id));
  };
  // Joining and leaving are for the roles that promote (a member's may not); the server refuses them all the same.
  const mayPromote = useGranted()(view === 'candidates' ? PROMOTION_ENDPOINTS.actionAdd : PROMOTION_ENDPOINTS.actionRemove);
  const start = async (kind: 'add' | 'remove') => {
    const rows = await selectedRows();
    actions.send({
      type: 'action.start',
      kind,
      target: { storeId: action.storeId, actionId: action.actionId },
      subjects: rows.map((r) => ({
        key: String(r.productId),
        label: `${r.offerId || r.productId} ${r.name}`.trim(),
        data: { productId: r.productId, price: r.maxActionPrice, max: r.maxActionPrice, floor: r.floor },
      })),
    });
  };
  const count = selectedCount(selection, total);

  const overlay = loading ? (
    <Space>
      <Spin />
      <Typography.Text type="secondary">{t('products.loading')}</Typography.Text>
    </Space>
  ) : failed ? (
    <Alert type="error" showIcon message={t('common.loadFailed', { message: error ?? '' })} action={<Button onClick={() => list.send({ type: 'list.retry' })}>{t('common.retry')}</Button>} />
  ) : total === 0 ? (
    <Empty description={t('products.empty')} />
  ) : undefined;

  return (
    <div className="promo-products">
      <Space wrap className="promo-toolbar">
        <Input.Search allowClear placeholder={t('common.search')} style={{ width: 260 }} onSearch={(value) => changeFilters({ search: value.trim() })} />
        {view === 'products' ? (
          <Select
            mode="multiple"
            allowClear
            style={{ minWidth: 180 }}
            placeholder={t('products.addMode')}
            value={filters.addModes}
            onChange={(addModes: string[]) => changeFilters({ addModes })}
            options={['AUTO', 'MANUAL'].map((m) => ({ value: m, label: t(`products.modes.${m as 'AUTO' | 'MANUAL'}`) }))}
          />
        ) : null}
        {guarded ? (
          <Checkbox checked={filters.onlyBelow} onChange={(e) => changeFilters({ onlyBelow: e.target.checked })}>
            {t('products.onlyBelow')}
          </Checkbox>
        ) : null}
        {!mayPromote ? null : view === 'candidates' ? (
          <Button type="primary" disabled={count === 0 || frozen} onClick={() => void start('add')}>
            {t('products.add', { n: count })}
          </Button>
        ) : (
          <Button danger disabled={count === 0 || frozen} onClick={() => void start('remove')}>
            {t('products.remove', { n: count })}
          </Button>
        )}
        <Tooltip title={t('products.marginHint')}>
          <Typography.Text type="secondary">{t('common.total', { n: total })}</Typography.Text>
        </Tooltip>
      </Space>
      {info?.truncated ? <Alert type="warning" showIcon message={t('products.truncated', { shown: info.rows, total: info.total })} /> : null}
      <VirtualTable<ActionProductListRow>
        storageKey={`promotions:${view}:${userId}`}
        label={t('products.listLabel')}
        columns={columns}
        total={total}
        rowAt={windows.rowAt}
        subscribeRows={windows.subscribe}
        rowKey={(r) => r.id}
        onRangeChange={onRangeChange}
        selection={selection}
        onSelectionChange={setSelection}
        sort={sort}
        onSortChange={(next) => {
          setSort(next);
          requery(filters, next);
        }}
        height={480}
        lang={lang}
        overlay={overlay}
      />
    </div>
  );
}
