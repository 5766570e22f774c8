import { Alert, Button, Checkbox, DatePicker, Input, InputNumber, Segmented, Space, Spin, TreeSelect, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PERIODS, PRODUCT_SORTS, type CategoryNode, type MarketProductRow, type Period, type PotentialPart, type PotentialQuery } from '@contract/research';
import { isApiFailure } from '@workers/api';
import type { MarketProductQuery, ResearchListName, ResearchRun } from '@workers/research';
import type { ResearchExportColumn } from '@workers/researchExport';
import { useDataClient } from '@/app/dataClient';
import { toLang } from '@/app/i18n';
import { SessionContext } from '@/app/session';
import { useFillHeight } from '@/components/virtual-table/useFillHeight';
import { VirtualTable, type VirtualTableSort } from '@/components/virtual-table/VirtualTable';
import { listenerOf, useListActor, type ListAreaClient, type ListTopics } from '@/components/virtual-table/useListActor';
import { MarketProductDrawer } from './MarketProductDrawer';
import { formatCount } from './format';
import { researchColumns } from './researchColumns';
import { isLockedOut, ResearchLocked } from './ResearchLocked';
import { ResearchExport } from './ResearchExport';
import { PARTS } from './ScoreParts';
import './research.css';

const WINDOW_ROWS = 100;

type Bound = number | null;
type Filters = {
  categoryId: number | null;
  period: Period;
  price: [Bound, Bound];
  sales: [Bound, Bound];
  revenue: [Bound, Bound];
  growth: [Bound, Bound];
  ratingMin: Bound;
  reviews: [Bound, Bound];
  brand: string;
  seller: string;
  firstSeen: [string, string] | null;
  newDays: number;
  scoreMin: Bound;
  parts: Record<PotentialPart, Bound>;
};
const EMPTY: Filters = {
  categoryId: null, period: 30, price: [null, null], sales: [null, null], revenue: [null, null], growth: [null, null], ratingMin: null,
  reviews: [null, null], brand: '', seller: '', firstSeen: null, newDays: 30, scoreMin: null, parts: { demand: null, competition: null, reviews: null, price: null },
};

const opt = (value: Bound) => (value === null ? undefined : value);
type ServerSort = NonNullable<PotentialQuery['sort']>;
const sortFor = (list: ResearchListName): ServerSort => (list === 'potential' ? { column: 'potentialScore', direction: 'desc' } : { column: 'sales30', direction: 'desc' });
const SERVER_SORTS: readonly string[] = PRODUCT_SORTS;

/** The server query of the filters (the sort the server uses to pick the first rows is the table's, when it can). */
export function serverQuery(list: ResearchListName, f: Filters, sort: VirtualTableSort): PotentialQuery & { newDays?: number } {
  const query: PotentialQuery & { newDays?: number } = {
    categoryId: f.categoryId ?? undefined, period: f.period,
    priceMin: opt(f.price[0]), priceMax: opt(f.price[1]), salesMin: opt(f.sales[0]), salesMax: opt(f.sales[1]),
    revenueMin: opt(f.revenue[0]), revenueMax: opt(f.revenue[1]), growthMin: opt(f.growth[0]), growthMax: opt(f.growth[1]),
    ratingMin: opt(f.ratingMin), reviewsMin: opt(f.reviews[0]), reviewsMax: opt(f.reviews[1]),
    brand: f.brand.trim() || undefined, seller: f.seller.trim() || undefined,
    firstSeenFrom: f.firstSeen?.[0], firstSeenTo: f.firstSeen?.[1],
    sort: sort && SERVER_SORTS.includes(sort.column) ? (sort as ServerSort) : sortFor(list),
    limit: 2_000,
  };
  if (list === 'fresh') query.newDays = f.newDays;
  if (list === 'potential') {
    query.scoreMin = opt(f.scoreMin);
    query.demandMin = opt(f.parts.demand);
    query.competitionMin = opt(f.parts.competition);
    query.reviewsPartMin = opt(f.parts.reviews);
    query.pricePartMin = opt(f.parts.price);
  }
  return query;
}

type TreeNode = { value: number; title: string; children: TreeNode[] };
const toTree = (nodes: CategoryNode[]): TreeNode[] => nodes.map((node) => ({ value: node.id, title: node.name, children: toTree(node.children) }));

/** `exact`: the count asked apart when the run's stopped at COUNT_CAP (undefined while it runs). */
type RunState = { status: 'running' } | { status: 'done'; run: ResearchRun; exact?: number } | { status: 'failed'; message: string } | { status: 'locked' };

/** /search/hot-product-pro, /search/hot-new-product, /search/cn-product-pro and /search/potential-product. */
export function ProductResearchPage({ list }: { list: ResearchListName }) {
  const client = useDataClient();
  const { t, i18n } = useTranslation('research');
  const lang = toLang(i18n.language);
  const userId = SessionContext.useSelector((s) => s.context.user.id) ?? 0;
  const area = client.research[list] as unknown as ListAreaClient<MarketProductRow, MarketProductQuery>;
  /** Rows the worker has loaded of the sorted result (it asks for the next page as the table scrolls). */
  const [loaded, setLoaded] = useState(0);
  const topics = useMemo<ListTopics>(
    () => ({
      changed: (c, listener) =>
        c.subscribe('research.changed', listenerOf((event) => {
          if (event.list !== list) return;
          setLoaded(event.total);
          listener(event);
        })),
      progress: async () => () => undefined,
      failed: async () => () => undefined,
    }),
    [list],
  );
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [sort, setSort] = useState<VirtualTableSort>(sortFor(list));
  const [search, setSearch] = useState('');
  const [onlyCn, setOnlyCn] = useState(false);
  const [state, setState] = useState<RunState>({ status: 'running' });
  const [categories, setCategories] = useState<CategoryNode[]>([]);
  const [detail, setDetail] = useState<MarketProductRow | null>(null);
  const { fillRef, height } = useFillHeight(260);
  // The rows stay in the server's order: a sort is the server's, over the whole market (see onSortChange).
  const initial = useMemo<MarketProductQuery>(() => ({}), []);
  const { actor, view, rowAt, subscribeRows, onRangeChange } = useListActor({ client, area, topics, userId, view: list, initialQuery: initial, windowRows: WINDOW_ROWS });
  const latest = useRef({ search, onlyCn, sort });
  /** The filters of the last query run: a header sort runs them again in its order. */
  const applied = useRef<Filters>(EMPTY);
  const runs = useRef(0);

  const localQuery = useCallback(
    (change: Partial<{ search: string; onlyCn: boolean; sort: VirtualTableSort }>) => {
      const next = { ...latest.current, ...change };
      latest.current = next;
      actor.send({ type: 'list.query', query: { search: next.search.trim() || undefined, filters: next.onlyCn ? { countries: ['CN'] } : {} } });
    },
    [actor],
  );

  const run = useCallback(
    (next: Filters) => {
      const seq = ++runs.current;
      applied.current = next;
      setState({ status: 'running' });
      const query = serverQuery(list, next, latest.current.sort);
      area_run(client, list, query).then(
        (result) => {
          if (seq !== runs.current) return;
          setState({ status: 'done', run: result });
          setLoaded(result.loaded);
          // The worker announces the new rows too; this covers an answer that came before the page listened.
          actor.send({ type: 'list.changed', total: result.loaded });
          if (!result.totalCapped) return;
          // Past COUNT_CAP the answer carries an estimate; the exact count follows on its own.
          client.research[list].count(query).then(
            (exact) => seq === runs.current && setState((current) => (current.status === 'done' ? { ...current, exact } : current)),
            () => undefined,
          );
        },
        (failure: unknown) => {
          if (seq !== runs.current || (isApiFailure(failure) && failure.type === 'Aborted')) return;
          setState(isLockedOut(failure) ? { status: 'locked' } : { status: 'failed', message: isApiFailure(failure) ? failure.message : String(failure) });
        },
      );
    },
    [client, list, actor],
  );

  useEffect(() => {
    run(EMPTY);
    void client.research.categories().then(setCategories).catch(() => undefined);
    // Leaving the page stops its query in the database.
    return () => void client.research[list].cancel().catch(() => undefined);
  }, [client, list, run]);

  const patch = (change: Partial<Filters>) => setFilters((current) => ({ ...current, ...change }));
  const columns = useMemo(() => researchColumns(t, lang, filters.period, list === 'potential'), [t, lang, filters.period, list]);
  const range = (key: 'price' | 'sales' | 'revenue' | 'growth' | 'reviews', label: string, min?: number) => (
    <div className="research-filter">
      <label>{label}</label>
      <Space.Compact>
        <InputNumber aria-label={`${label} ${t('filters.min')}`} placeholder={t('filters.min')} min={min} value={filters[key][0]} onChange={(value) => patch({ [key]: [value, filters[key][1]] })} style={{ width: 96 }} />
        <InputNumber aria-label={`${label} ${t('filters.max')}`} placeholder={t('filters.max')} min={min} value={filters[key][1]} onChange={(value) => patch({ [key]: [filters[key][0], value] })} style={{ width: 96 }} />
      </Space.Compact>
    </div>
  );

  /** The file's columns: the table's (in the period last queried), the sku and the seller's country apart. */
  const exportColumns = (): ResearchExportColumn[] => [
    { id: 'sku', header: t('export.sku') },
    ...researchColumns(t, lang, applied.current.period, list === 'potential').flatMap((column) =>
      column.id === 'parts'
        ? PARTS.map((part) => ({ id: `potential${part[0]!.toUpperCase()}${part.slice(1)}`, header: t(`parts.${part}`) }))
        : column.id === 'sellerName'
          ? [{ id: 'sellerName', header: column.header }, { id: 'sellerCountry', header: t('export.country') }]
          : [{ id: column.id, header: column.header, day: column.id === 'firstSeen' }],
    ),
  ];
  const result = state.status === 'done' ? state.run : null;
  const exact = state.status === 'done' ? state.exact : undefined;
  const overlay =
    state.status === 'failed' ? (
      <Alert type="error" showIcon title={t('failed')} description={state.message} action={<Button onClick={() => run(filters)}>{t('retry')}</Button>} />
    ) : state.status === 'running' || view.loading ? (
      <Spin tip={t('loading')}><div style={{ width: 200, height: 60 }} /></Spin>
    ) : result && result.asOf === null ? (
      <Typography.Text type="secondary">{t('noMarket')}</Typography.Text>
    ) : view.total === 0 ? (
      <Typography.Text type="secondary">{t('empty')}</Typography.Text>
    ) : null;

  if (state.status === 'locked') {
    return (
      <div className="research-page">
        <ResearchLocked />
      </div>
    );
  }
  return (
    <div className="research-page">
      <Typography.Text type="secondary">{t(`intro.${list}`)}</Typography.Text>
      <form className="research-filters" role="search" onSubmit={(event) => (event.preventDefault(), run(filters))}>
        <div className="research-filter">
          <label>{t('filters.category')}</label>
          <TreeSelect aria-label={t('filters.category')} allowClear showSearch treeNodeFilterProp="title" placeholder={t('filters.allCategories')} value={filters.categoryId ?? undefined}
            treeData={toTree(categories)} onChange={(value?: number) => patch({ categoryId: value ?? null })} style={{ width: 220 }} />
        </div>
        <div className="research-filter">
          <label>{t('filters.period')}</label>
          <Segmented<Period> value={filters.period} options={PERIODS.map((n) => ({ value: n, label: t('filters.days', { n }) }))} onChange={(period) => patch({ period })} />
        </div>
        {range('price', t('filters.price'), 0)}
        {range('sales', t('filters.sales'), 0)}
        {range('revenue', t('filters.revenue'), 0)}
        {range('growth', t('filters.growth'))}
        <div className="research-filter">
          <label>{t('filters.ratingMin')}</label>
          <InputNumber aria-label={t('filters.ratingMin')} min={0} max={5} step={0.1} value={filters.ratingMin} onChange={(ratingMin) => patch({ ratingMin })} style={{ width: 96 }} />
        </div>
        {range('reviews', t('filters.reviews'), 0)}
        <div className="research-filter">
          <label>{t('filters.brand')}</label>
          <Input aria-label={t('filters.brand')} value={filters.brand} onChange={(event) => patch({ brand: event.target.value })} style={{ width: 130 }} allowClear />
        </div>
        <div className="research-filter">
          <label>{t('filters.seller')}</label>
          <Input aria-label={t('filters.seller')} value={filters.seller} onChange={(event) => patch({ seller: event.target.value })} style={{ width: 150 }} allowClear />
        </div>
        {list === 'fresh' ? (
          <div className="research-filter">
            <label>{t('filters.newDays')}</label>
            <InputNumber aria-label={t('filters.newDays')} min={1} max={365} value={filters.newDays} onChange={(newDays) => patch({ newDays: newDays ?? 30 })} style={{ width: 96 }} />
          </div>
        ) : (
          <div className="research-filter">
            <label>{t('filters.firstSeen')}</label>
            <DatePicker.RangePicker aria-label={t('filters.firstSeen')} onChange={(days: [Dayjs | null, Dayjs | null] | null) =>
              patch({ firstSeen: days?.[0] && days[1] ? [days[0].format('YYYY-MM-DD'), days[1].format('YYYY-MM-DD')] : null })} style={{ width: 240 }} />
          </div>
        )}
        {list === 'potential' && (
          <>
            <div className="research-filter">
              <label>{t('filters.scoreMin')}</label>
              <InputNumber aria-label={t('filters.scoreMin')} min={0} max={100} value={filters.scoreMin} onChange={(scoreMin) => patch({ scoreMin })} style={{ width: 96 }} />
            </div>
            {PARTS.map((part) => (
              <div className="research-filter" key={part}>
                <label>{t('filters.partMin', { part: t(`parts.${part}`) })}</label>
                <InputNumber aria-label={t('filters.partMin', { part: t(`parts.${part}`) })} min={0} max={100} value={filters.parts[part]}
                  onChange={(value) => patch({ parts: { ...filters.parts, [part]: value } })} style={{ width: 110 }} />
              </div>
            ))}
          </>
        )}
        <Space>
          <Button type="primary" htmlType="submit" loading={state.status === 'running'}>{t('filters.search')}</Button>
          <Button onClick={() => (setFilters(EMPTY), run(EMPTY))}>{t('filters.reset')}</Button>
        </Space>
      </form>
      <div className="research-toolbar">
        <Space wrap>
          <Input.Search aria-label={t('quick.search')} placeholder={t('quick.search')} allowClear value={search} style={{ width: 300 }}
            onChange={(event) => (setSearch(event.target.value), localQuery({ search: event.target.value }))} />
          {list !== 'cn' && <Checkbox checked={onlyCn} onChange={(event) => (setOnlyCn(event.target.checked), localQuery({ onlyCn: event.target.checked }))}>{t('quick.onlyCn')}</Checkbox>}
          <ResearchExport disabled={!result?.asOf || result.total === 0} fileName={`research-${list}`} cancel={client.research.cancelExport}
            start={(format, onProgress) => client.research.exportList(list, serverQuery(list, applied.current, latest.current.sort), format, exportColumns(), t(`export.sheet.${list}`), onProgress)} />
        </Space>
        <Space role="status" wrap>
          {result && result.asOf && (
            <Typography.Text data-testid="research-total">
              {exact === undefined && result.totalCapped
                ? t('estimated', { total: formatCount(lang, result.estimate ?? result.total), loaded: formatCount(lang, loaded) })
                : t('total', { total: formatCount(lang, exact ?? result.total), loaded: formatCount(lang, loaded) })}
            </Typography.Text>
          )}
          {result && (search || onlyCn) && <Typography.Text type="secondary">{t('shown', { count: view.total })}</Typography.Text>}
          {result?.asOf && <Typography.Text type="secondary">{t('asOf', { date: result.asOf })}</Typography.Text>}
        </Space>
      </div>
      <div ref={fillRef}>
        <VirtualTable<MarketProductRow>
          storageKey={`research-${list}:${userId}`}
          label={t('listLabel')}
          columns={columns}
          total={state.status === 'done' ? view.total : 0}
          rowAt={rowAt}
          subscribeRows={subscribeRows}
          rowKey={(row) => row.key}
          onRangeChange={onRangeChange}
          sort={sort}
          onSortChange={(next) => {
            // The whole market in the header's order (the list's default order when the header is cleared).
            setSort(next);
            latest.current = { ...latest.current, sort: next };
            run(applied.current);
          }}
          onRowOpen={setDetail}
          rowHeight={40}
          height={height}
          lang={lang}
          overlay={overlay}
        />
      </div>
      <MarketProductDrawer row={detail} onClose={() => setDetail(null)} />
    </div>
  );
}

/** The page's server query; a newer one of the same page aborts this one in the worker and the database. */
function area_run(client: ReturnType<typeof useDataClient>, list: ResearchListName, query: PotentialQuery & { newDays?: number }): Promise<ResearchRun> {
  return list === 'fresh' ? client.research.fresh.run(query) : client.research[list].run(query);
}

export const HotProductsPage = () => <ProductResearchPage list="hot" />;
export const NewProductsPage = () => <ProductResearchPage list="fresh" />;
export const CnProductsPage = () => <ProductResearchPage list="cn" />;
export const PotentialProductsPage = () => <ProductResearchPage list="potential" />;
