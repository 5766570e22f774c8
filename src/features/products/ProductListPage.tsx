import { DownloadOutlined } from '@ant-design/icons';
import { App, Button, Checkbox, Dropdown, Input, InputNumber, Select, Space, Tag, Typography } from 'antd';
import { useActorRef, useSelector } from '@xstate/react';
import { lazy, memo, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { message as catalogue } from '@contract/errors';
import { PRODUCT_STATUSES, PRODUCT_VISIBILITIES, quotaResetText, type ProductRow, type ProductStatus, type ProductVisibility, type ProductWarehouse } from '@contract/products';
import type { ProductActionKind } from '@machines/productActionsMachine';
import { isApiFailure } from '@workers/api';
import type { DataClient } from '@workers/client';
import { isHeadHandle } from '@workers/lists/types';
import type { ProductExportColumn, ProductFacets, ProductQuery } from '@workers/products/area';
import { appActorOptions } from '@/app/createAppActor';
import { useDataClient } from '@/app/dataClient';
import { toLang } from '@/app/i18n';
import { ControlSlot } from '@/app/layout/ControlSlot';
import { useStages } from '@/app/layout/stages';
import { SessionContext } from '@/app/session';
import { download } from '@/components/download';
import { useFillHeight } from '@/components/virtual-table/useFillHeight';
import { VirtualTable, type VirtualTableSort } from '@/components/virtual-table/VirtualTable';
import { EMPTY_SELECTION, selectedCount } from '@/components/virtual-table/selection';
import { listenerOf, useListActor, type ListAreaClient } from '@/components/virtual-table/useListActor';
import { listOverlay, useListQuery } from '@/components/virtual-table/useListQuery';
import type { ProductActionsRef } from './ProductActionDialog';
import { formatMoney, productColumns, type PriceEditing } from './ProductColumns';
import type { PriceValues } from './PriceCellEditor';
import { productActionsOn } from './productActions';
import { ProductActionBar, PRODUCT_TOPICS, productRowKey, ShopFilter } from './productListParts';
import './products.css';

// Loaded when first needed, not with the page: the drawer (antd's Descriptions, Table, Image), the inline price
// editor and the batch actions' dialog (Modal, Form, List, Progress) made the page's first task longer.
const dialogCode = () => import('./ProductActionDialog');
const ProductActionDialog = lazy(() => dialogCode().then((m) => ({ default: m.ProductActionDialog })));
const PriceCellEditor = lazy(() => import('./PriceCellEditor').then((m) => ({ default: m.PriceCellEditor })));
const ProductDrawer = lazy(() => import('./ProductDrawer').then((m) => ({ default: m.ProductDrawer })));

const WINDOW_ROWS = 100;
const MIN_TABLE_HEIGHT = 240;
/** The staged filter controls: how many, and their fixed widths (their places are kept while they come). */
const FILTER_STAGES = 3;
const SHOP_WIDTH = 200;
const VISIBILITY_WIDTH = 160;
const PRICE_WIDTH = 110;
const DEFAULT_SORT: VirtualTableSort = { column: 'changedAt', direction: 'desc' };

type Filters = {
  shopIds: number[];
  statuses: ProductStatus[];
  visibilities: ProductVisibility[];
  priceFrom: number | null;
  priceTo: number | null;
  inStock: boolean;
  hasErrors: boolean;
};
const EMPTY_FILTERS: Filters = { shopIds: [], statuses: [], visibilities: [], priceFrom: null, priceTo: null, inStock: false, hasErrors: false };

type QueryState = { filters: Filters; search: string; sort: VirtualTableSort };
const INITIAL: QueryState = { filters: EMPTY_FILTERS, search: '', sort: DEFAULT_SORT };

export function toProductQuery({ filters, search, sort }: QueryState): ProductQuery {
  const price = filters.priceFrom !== null || filters.priceTo !== null ? { from: filters.priceFrom ?? undefined, to: filters.priceTo ?? undefined } : undefined;
  return {
    filters: {
      shopIds: filters.shopIds.length ? filters.shopIds : undefined,
      statuses: filters.statuses.length ? filters.statuses : undefined,
      visibilities: filters.visibilities.length ? filters.visibilities : undefined,
      price,
      fbsStock: filters.inStock ? { from: 1 } : undefined,
      errorCount: filters.hasErrors ? { from: 1 } : undefined,
    },
    search: search.trim() || undefined,
    sort: sort ? { column: sort.column as NonNullable<ProductQuery['sort']>['column'], direction: sort.direction } : null,
  };
}
const INITIAL_QUERY = toProductQuery(INITIAL);

/** /product/oz-product-list: every product of the seller's shops, cached and queried in the worker, in one VirtualTable. */
export function ProductListPage() {
  const { i18n, t } = useTranslation('products');
  const lang = toLang(i18n.language);
  const client = useDataClient();
  const { message } = App.useApp();
  const userId = SessionContext.useSelector((s) => s.context.user.id) ?? 0;
  const area = client.products as unknown as ListAreaClient<ProductRow, ProductQuery>;
  const { actor, view, rowAt, subscribeRows, onRangeChange } = useListActor({ client, area, topics: PRODUCT_TOPICS, userId, view: 'products', initialQuery: INITIAL_QUERY, windowRows: WINDOW_ROWS });
  const [detail, setDetail] = useState<ProductRow | null>(null);
  const [editing, setEditing] = useState<ProductRow | null>(null);
  const { total, handle, sync, held, loading, failed, synced } = view;
  // The filter bar's antd Selects and InputNumbers are drawn after the first rows, one per painted frame (stages.ts):
  // mounted with the page, a multiple Select's input sizing forced a layout of the whole page inside its first commit.
  const drawn = useStages(failed || (!loading && (total > 0 || synced)) ? FILTER_STAGES : 0);
  const opened = useOnceTrue(detail !== null);
  const { state: { filters, search, sort }, requery, patch, changeSort, selection, setSelection } = useListQuery(actor, INITIAL, toProductQuery);
  const [facets, setFacets] = useState<ProductFacets>({ shops: [] });
  const [warehouses, setWarehouses] = useState<ProductWarehouse[]>([]);
  const { fillRef, height } = useFillHeight(MIN_TABLE_HEIGHT);

  const actions = useProductActions(client, () => setSelection(EMPTY_SELECTION));
  useEffect(() => {
    // Asked again as the cache fills; kept when the same, so the memoised filter bar is not drawn again for nothing.
    void client.products
      .facets()
      .then((next) => setFacets((shown) => (sameShops(shown, next) ? shown : next)))
      .catch(() => undefined);
  }, [client, held]);
  useEffect(() => {
    void client.products.warehouses().then(setWarehouses).catch(() => undefined);
  }, [client]);

  const editingId = editing?.id ?? null;
  const columns = useMemo(() => {
    const editor: PriceEditing =
      editingId === null
        ? null
        : {
            id: editingId,
            editor: (row) => (
              <Suspense fallback={formatMoney(row.price, row.currency)}>
                <PriceCellEditor row={row} lang={lang} onSave={savePrice} onClose={() => setEditing(null)} />
              </Suspense>
            ),
          };
    return productColumns(t, lang, setEditing, editor);
    // savePrice sends to the actions actor, which stays.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [t, lang, editingId]);
  const count = selectedCount(selection, total);

  const act = (kind: ProductActionKind) => {
    // A price left open in its cell would float over the batch's dialog.
    setEditing(null);
    actions.send({
      type: 'action.start',
      kind,
      selection: selection.all && handle !== null ? { kind: 'all', handle, except: [...selection.ids], total } : { kind: 'ids', ids: [...selection.ids] },
    });
  };
  function savePrice(row: ProductRow, { price, oldPrice, minPrice }: PriceValues) {
    setEditing(null);
    actions.send({ type: 'action.start', kind: 'price', selection: { kind: 'ids', ids: [row.id] }, params: { price, oldPrice, minPrice } });
  }
  useEffect(() => {
    const finished = actions.on('action.finished', ({ kind, done, failed: refused }) => {
      if (refused > 0) return;
      void message.success(t('done', { action: t(`actions.${kind}`), count: done }));
      actions.send({ type: 'action.close' });
    });
    return () => finished.unsubscribe();
  }, [actions, message, t]);

  // The current result as Excel or CSV, built in the worker; the toast counts the rows written.
  const exportAs = async (format: ExportFormat) => {
    if (handle === null) return;
    const key = 'products-export';
    const statusNames = Object.fromEntries(PRODUCT_STATUSES.map((s) => [s, t(`statuses.${s}`)]));
    const visibilityNames = Object.fromEntries(PRODUCT_VISIBILITIES.map((v) => [v, t(`visibilities.${v}`)]));
    const header: ProductExportColumn[] = columns
      .filter((c) => c.id !== 'image')
      .map((c) => ({ id: c.id as ProductExportColumn['id'], header: c.header, labels: c.id === 'status' ? statusNames : c.id === 'visibility' ? visibilityNames : undefined }));
    const progress = listenerOf((done: number, all: number) => void message.loading({ key, content: t('exporting', { done, total: all }), duration: 0 }));
    void message.loading({ key, content: t('exporting', { done: 0, total }), duration: 0 });
    try {
      // The worker answers the file as a Blob of its type: it crosses by reference, no copy on this thread.
      const file =
        format === 'xlsx' ? await client.products.exportXlsx(handle, header, t('exportSheet'), progress) : await client.products.exportCsv(handle, header, progress);
      download(`products-${new Date().toISOString().slice(0, 10)}.${format}`, file);
      void message.success({ key, content: t('exported', { total }) });
    } catch (failure) {
      void message.error({ key, content: isApiFailure(failure) ? failure.message : t('exportFailed') });
    }
  };

  const uploadImage = useCallback(async (file: File) => (await client.products.uploadImage(file, file.name)).url, [client]);

  const filling = isHeadHandle(handle);
  const noFilters = filters === EMPTY_FILTERS && search === '';
  const overlay = listOverlay(view, () => actor.send({ type: 'list.retry' }), { failed: t('failed'), retry: t('retry'), loading: t('loading'), empty: noFilters ? t('noProducts') : t('empty') });

  return (
    <div className="products-page">
      <FilterBar filters={filters} search={search} facets={facets} drawn={drawn} requery={requery} patch={patch} />
      <StatusFilter value={filters.statuses} onChange={(statuses) => patch({ statuses })} />
      <div className="products-toolbar">
        <Space wrap>
          <ProductActionBar count={count} onAction={act} />
          <Dropdown
            disabled={handle === null || isHeadHandle(handle) || total === 0}
            menu={{ items: EXPORT_FORMATS.map((format) => ({ key: format, label: t(`exportAs.${format}`) })), onClick: ({ key }) => void exportAs(key as ExportFormat) }}
          >
            <Button icon={<DownloadOutlined />}>{t('export')}</Button>
          </Dropdown>
        </Space>
        <Space role="status">
          {filling && <Typography.Text type="secondary">{t('loadingCache')}</Typography.Text>}
          {sync && <Typography.Text type="secondary">{t('syncing', { count: sync.rows })}</Typography.Text>}
          {count > 0 && <Typography.Text strong>{t('selected', { count })}</Typography.Text>}
          <Typography.Text data-testid="products-total">{t('total', { count: total })}</Typography.Text>
        </Space>
      </div>
      <div ref={fillRef}>
        <VirtualTable<ProductRow>
          storageKey={`products:${userId}`}
          label={t('listLabel')}
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
          onRowOpen={setDetail}
          rowHeight={52}
          height={height}
          lang={lang}
          overlay={overlay}
          busy={filling}
        />
      </div>
      <Suspense fallback={null}>
        {opened && <ProductDrawer client={client} row={detail} lang={lang} onClose={() => setDetail(null)} />}
        <ActionDialogSlot actor={actions} lang={lang} warehouses={warehouses} uploadImage={uploadImage} />
      </Suspense>
    </div>
  );
}

type FilterBarProps = {
  filters: Filters;
  search: string;
  facets: ProductFacets;
  /** How many of the staged controls are drawn (useStages). */
  drawn: number;
  requery: (change: Partial<QueryState>) => void;
  patch: (change: Partial<Filters>) => void;
};

/** The search and filters. Memoised: the list's counts change with every sync chunk, the filters seldom. */
const FilterBar = memo(function FilterBar({ filters, search, facets, drawn, requery, patch }: FilterBarProps) {
  const { t } = useTranslation('products');
  return (
    <div className="products-filters" role="search">
      <Input role="searchbox" aria-label={t('search')} placeholder={t('search')} allowClear value={search} onChange={(event) => requery({ search: event.target.value })} style={{ width: 300 }} />
      <ControlSlot ready={drawn > 0} width={SHOP_WIDTH}>
        <ShopFilter facets={facets} value={filters.shopIds} onChange={(shopIds) => patch({ shopIds })} width={SHOP_WIDTH} />
      </ControlSlot>
      <ControlSlot ready={drawn > 1} width={VISIBILITY_WIDTH}>
        <Select<ProductVisibility[]>
          mode="multiple"
          aria-label={t('visibility')}
          placeholder={t('visibility')}
          value={filters.visibilities}
          options={PRODUCT_VISIBILITIES.map((v) => ({ value: v, label: t(`visibilities.${v}`) }))}
          onChange={(visibilities) => patch({ visibilities })}
          style={{ width: VISIBILITY_WIDTH }}
          maxTagCount="responsive"
        />
      </ControlSlot>
      <ControlSlot ready={drawn > 2} width={2 * PRICE_WIDTH}>
        <Space.Compact>
          <InputNumber aria-label={t('priceFrom')} placeholder={t('priceFrom')} min={0} value={filters.priceFrom} onChange={(priceFrom) => patch({ priceFrom })} style={{ width: PRICE_WIDTH }} />
          <InputNumber aria-label={t('priceTo')} placeholder={t('priceTo')} min={0} value={filters.priceTo} onChange={(priceTo) => patch({ priceTo })} style={{ width: PRICE_WIDTH }} />
        </Space.Compact>
      </ControlSlot>
      <Checkbox checked={filters.inStock} onChange={(event) => patch({ inStock: event.target.checked })}>{t('inStock')}</Checkbox>
      <Checkbox checked={filters.hasErrors} onChange={(event) => patch({ hasErrors: event.target.checked })}>{t('hasErrors')}</Checkbox>
      <Button onClick={() => requery({ filters: EMPTY_FILTERS, search: '' })}>{t('reset')}</Button>
    </div>
  );
});

const sameShops = (a: ProductFacets, b: ProductFacets) =>
  a.shops.length === b.shops.length && a.shops.every((shop, i) => shop.id === b.shops[i]!.id && shop.name === b.shops[i]!.name);

/** The batch actions' dialog, mounted once an action starts (its code is loaded then). */
function ActionDialogSlot({ actor, ...props }: ComponentProps<typeof ProductActionDialog>) {
  const active = useSelector(actor, (snapshot) => !snapshot.matches('idle'));
  return active ? <ProductActionDialog actor={actor} {...props} /> : null;
}

/** True from the first render where `value` is, on: a drawer or dialog stays mounted once opened, for its closing motion. */
function useOnceTrue(value: boolean): boolean {
  const [once, setOnce] = useState(value);
  if (value && !once) setOnce(true);
  return once || value;
}

const StatusFilter = memo(function StatusFilter({ value, onChange }: { value: ProductStatus[]; onChange: (value: ProductStatus[]) => void }) {
  const { t } = useTranslation('products');
  return (
    <div className="products-status-filter" role="group" aria-label={t('status')}>
      <span>{t('status')}:</span>
      <Tag.CheckableTag checked={value.length === 0} onChange={() => value.length > 0 && onChange([])}>{t('allStatuses')}</Tag.CheckableTag>
      {PRODUCT_STATUSES.map((status) => (
        <Tag.CheckableTag key={status} checked={value.includes(status)} onChange={(on) => onChange(on ? [...value, status] : value.filter((s) => s !== status))}>
          {t(`statuses.${status}`)}
        </Tag.CheckableTag>
      ))}
    </div>
  );
});


const EXPORT_FORMATS = ['xlsx', 'csv'] as const;
type ExportFormat = (typeof EXPORT_FORMATS)[number];

function useProductActions(client: DataClient, clearSelection: () => void): ProductActionsRef {
  const { t, i18n } = useTranslation('products');
  const lang = toLang(i18n.language);
  const machine = useMemo(
    () =>
      productActionsOn(client, {
        picturesFailed: (urls) => t('imageAction.failed', { urls: urls.join(', ') }),
        quotaShort: (left, need, resetAt) => catalogue('dailyUpdateLimit', lang, { left: String(left), need: String(need), at: quotaResetText(resetAt) }),
        noWarehouse: catalogue('shopHasNoWarehouse', lang),
      }),
    [client, t, lang],
  );
  const actor = useActorRef(machine, appActorOptions());
  const latest = useRef(clearSelection);
  latest.current = clearSelection;
  return actor;
}
