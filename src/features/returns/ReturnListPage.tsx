import { Button, DatePicker, Input, Select, Space, Tag, Typography } from 'antd';
import { useActorRef } from '@xstate/react';
import { fromPromise } from 'xstate';
import dayjs, { type Dayjs } from 'dayjs';
import { memo, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import { RETURN_SCHEMES, type ReturnDetail, type ReturnRow, type ReturnScheme, type RfbsAction } from '@contract/returns';
import { returnActionMachine } from '@machines/returnActionMachine';
import type { DataClient } from '@workers/client';
import { isHeadHandle } from '@workers/lists/types';
import type { ReturnFacets, ReturnQuery } from '@workers/returns/area';
import { appActorOptions } from '@/app/createAppActor';
import { useDataClient } from '@/app/dataClient';
import { toLang } from '@/app/i18n';
import { SessionContext } from '@/app/session';
import { useFillHeight } from '@/components/virtual-table/useFillHeight';
import { VirtualTable, type VirtualTableSort } from '@/components/virtual-table/VirtualTable';
import { listenerOf, useListActor, type ListAreaClient, type ListTopics } from '@/components/virtual-table/useListActor';
import { listOverlay, useListQuery } from '@/components/virtual-table/useListQuery';
import { ReturnActionDialog } from './ReturnActionDialog';
import { reasonLabel, returnColumns, statusLabel } from './ReturnColumns';
import { ReturnDrawer } from './ReturnDrawer';
import './returns.css';

const WINDOW_ROWS = 100;
const MIN_TABLE_HEIGHT = 240;
const DEFAULT_SORT: VirtualTableSort = { column: 'returnedAt', direction: 'desc' };

type Filters = { shopIds: number[]; schemes: ReturnScheme[]; statuses: string[]; reasons: string[]; dates: [Dayjs, Dayjs] | null };
const EMPTY_FILTERS: Filters = { shopIds: [], schemes: [], statuses: [], reasons: [], dates: null };

/** The two lists: FBS and FBO returns; and every scheme with rFBS requests and their decisions. */
type Variant = { schemes: readonly ReturnScheme[]; view: string; decisions: boolean };
const CLASSIC: Variant = { schemes: ['FBS', 'FBO'], view: 'returns', decisions: false };
const WITH_RFBS: Variant = { schemes: RETURN_SCHEMES, view: 'returnsNew', decisions: true };

type QueryState = { filters: Filters; search: string; sort: VirtualTableSort };

export function toReturnQuery(variant: Variant, { filters, search, sort }: QueryState): ReturnQuery {
  return {
    filters: {
      shopIds: filters.shopIds.length ? filters.shopIds : undefined,
      schemes: filters.schemes.length ? filters.schemes : [...variant.schemes],
      statuses: filters.statuses.length ? filters.statuses : undefined,
      reasons: filters.reasons.length ? filters.reasons : undefined,
      returnedAt: filters.dates ? { from: filters.dates[0].startOf('day').valueOf(), to: filters.dates[1].endOf('day').valueOf() } : undefined,
    },
    search: search.trim() || undefined,
    sort: sort ? { column: sort.column as NonNullable<ReturnQuery['sort']>['column'], direction: sort.direction } : null,
  };
}

const TOPICS: ListTopics = {
  changed: (client, listener) => client.subscribe('returns.changed', listenerOf(listener)),
  progress: (client, listener) => client.subscribe('returns.syncProgress', listenerOf(listener)),
  failed: (client, listener) => client.subscribe('returns.syncFailed', listenerOf((event) => listener(event.failure.message))),
};

const returnKey = (row: ReturnRow) => row.id;

/** /return/return-list: FBS and FBO returns of every shop. */
export function ReturnListPage() {
  return <Returns variant={CLASSIC} />;
}

/** /return/return-list-new: returns of every scheme, rFBS requests with the seller's decisions on them. */
export function ReturnListNewPage() {
  return <Returns variant={WITH_RFBS} />;
}

function Returns({ variant }: { variant: Variant }) {
  const { i18n, t } = useTranslation('returns');
  const lang = toLang(i18n.language);
  const client = useDataClient();
  const userId = SessionContext.useSelector((s) => s.context.user.id) ?? 0;
  const wanted = new URLSearchParams(useSearch()).get('search') ?? '';
  const [initial] = useState<QueryState>(() => ({ filters: EMPTY_FILTERS, search: wanted, sort: DEFAULT_SORT }));
  const initialQuery = useMemo(() => toReturnQuery(variant, initial), [variant, initial]);
  const area = client.returns as unknown as ListAreaClient<ReturnRow, ReturnQuery>;
  const { actor, view, rowAt, subscribeRows, onRangeChange } = useListActor({ client, area, topics: TOPICS, userId, view: variant.view, initialQuery, windowRows: WINDOW_ROWS });
  const { total, handle, sync, held } = view;
  const toQuery = useCallback((state: QueryState) => toReturnQuery(variant, state), [variant]);
  const { state: { filters, search, sort }, current, requery, patch, changeSort, selection, setSelection } = useListQuery(actor, initial, toQuery);
  const [open, setOpen] = useState<ReturnRow | null>(null);
  const [facets, setFacets] = useState<ReturnFacets>({ shops: [], statuses: [], reasons: [] });
  const { fillRef, height } = useFillHeight(MIN_TABLE_HEIGHT);
  const decisions = useDecisions(client);

  useEffect(() => {
    void client.returns.facets().then(setFacets).catch(() => undefined);
  }, [client, held]);

  // Opened from an order (?search=<posting number>): the list shows that posting's returns, even in a kept tab.
  useEffect(() => {
    if (wanted && wanted !== current.current.search) requery({ search: wanted });
  }, [wanted, requery, current]);
  const columns = useMemo(() => returnColumns(t, lang, variant.decisions, setOpen), [t, lang, variant.decisions]);
  const statuses = useMemo(
    () => facets.statuses.filter((s) => s.status).map((s) => ({ value: s.status, label: statusLabel(t, { status: s.status, statusName: s.name }) })),
    [facets.statuses, t],
  );

  const filling = isHeadHandle(handle);
  const noFilters = filters === EMPTY_FILTERS && search === '';
  const overlay = listOverlay(view, () => actor.send({ type: 'list.retry' }), { failed: t('failed'), retry: t('retry'), loading: t('loading'), empty: noFilters ? t('noReturns') : t('empty') });

  return (
    <div className="returns-page">
      <div className="returns-filters" role="search">
        <Input role="searchbox" aria-label={t('search')} placeholder={t('search')} allowClear value={search} onChange={(event) => requery({ search: event.target.value })} style={{ width: 340 }} />
        <Select<number[]>
          mode="multiple"
          aria-label={t('shop')}
          placeholder={t('allShops')}
          value={filters.shopIds}
          options={facets.shops.map((s) => ({ value: s.id, label: s.name }))}
          onChange={(shopIds) => patch({ shopIds })}
          style={{ minWidth: 180 }}
          maxTagCount="responsive"
        />
        <Select<string[]>
          mode="multiple"
          aria-label={t('status')}
          placeholder={t('allStatuses')}
          value={filters.statuses}
          options={statuses}
          onChange={(next) => patch({ statuses: next })}
          style={{ minWidth: 180 }}
          maxTagCount="responsive"
          optionFilterProp="label"
        />
        <Select<string[]>
          mode="multiple"
          aria-label={t('reason')}
          placeholder={t('allReasons')}
          value={filters.reasons}
          options={facets.reasons.map((r) => ({ value: r, label: reasonLabel(t, r) }))}
          onChange={(reasons) => patch({ reasons })}
          style={{ minWidth: 180 }}
          maxTagCount="responsive"
          optionFilterProp="label"
        />
        <DatePicker.RangePicker
          aria-label={t('dates')}
          placeholder={[t('from'), t('to')]}
          value={filters.dates}
          onChange={(dates) => patch({ dates: dates && dates[0] && dates[1] ? [dates[0], dates[1]] : null })}
          disabledDate={(day) => day.isAfter(dayjs().endOf('day'))}
        />
        <Button onClick={() => requery({ filters: EMPTY_FILTERS, search: '' })}>{t('reset')}</Button>
      </div>
      <SchemeFilter schemes={variant.schemes} value={filters.schemes} onChange={(schemes) => patch({ schemes })} />
      <div className="returns-toolbar">
        <span />
        <Space role="status">
          {filling && <Typography.Text type="secondary">{t('loadingCache')}</Typography.Text>}
          {sync && <Typography.Text type="secondary">{t('syncing', { count: sync.rows })}</Typography.Text>}
          <Typography.Text data-testid="returns-total">{t('total', { count: total })}</Typography.Text>
        </Space>
      </div>
      <div ref={fillRef}>
        <VirtualTable<ReturnRow>
          storageKey={`${variant.view}:${userId}`}
          label={t('listLabel')}
          columns={columns}
          total={total}
          rowAt={rowAt}
          subscribeRows={subscribeRows}
          rowKey={returnKey}
          onRangeChange={onRangeChange}
          selection={selection}
          onSelectionChange={setSelection}
          sort={sort}
          onSortChange={changeSort}
          onRowOpen={setOpen}
          height={height}
          lang={lang}
          overlay={overlay}
          busy={filling}
        />
      </div>
      <ReturnDrawer client={client} row={open} lang={lang} version={decisions.version} onClose={() => setOpen(null)} onAction={variant.decisions ? decisions.start : undefined} />
      {variant.decisions && <ReturnActionDialog actor={decisions.actor} row={decisions.row} detail={decisions.detail} />}
    </div>
  );
}

const SchemeFilter = memo(function SchemeFilter({ schemes, value, onChange }: { schemes: readonly ReturnScheme[]; value: ReturnScheme[]; onChange: (value: ReturnScheme[]) => void }) {
  const { t } = useTranslation('returns');
  return (
    <div className="returns-filters" role="group" aria-label={t('scheme')}>
      <span>{t('scheme')}:</span>
      <Tag.CheckableTag checked={value.length === 0} onChange={() => value.length > 0 && onChange([])}>{t('allSchemes')}</Tag.CheckableTag>
      {schemes.map((scheme) => (
        <Tag.CheckableTag key={scheme} checked={value.includes(scheme)} onChange={(on) => onChange(on ? [...value, scheme] : value.filter((s) => s !== scheme))}>
          {t(`schemes.${scheme}`)}
        </Tag.CheckableTag>
      ))}
    </div>
  );
});

/** The rFBS decision actor of the page, with the request it is about and that request's details (rejection reasons). */
function useDecisions(client: DataClient) {
  const machine = useMemo(
    () => returnActionMachine.provide({ actors: { runReturnAction: fromPromise(async ({ input }) => client.returns.rfbsAction(input.body)) } }),
    [client],
  );
  const actor = useActorRef(machine, appActorOptions());
  const [row, setRow] = useState<ReturnRow | null>(null);
  const [detail, setDetail] = useState<ReturnDetail | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const subscription = actor.subscribe((snapshot) => {
      if (snapshot.matches('done')) setVersion((v) => v + 1);
    });
    return () => subscription.unsubscribe();
  }, [actor]);
  const start = useCallback(
    (target: ReturnRow, action: RfbsAction) => {
      setRow(target);
      setDetail(null);
      if (action === 'reject') void client.returns.detail(target.id).then(setDetail).catch(() => undefined);
      actor.send({ type: 'action.start', subject: { id: target.id, action, label: action } });
    },
    [actor, client],
  );
  return { actor, row, detail, version, start };
}
