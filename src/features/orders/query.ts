import type { Dayjs } from 'dayjs';
import type { FbsStatus, OrderColumn, OrderSource } from '@contract/orders';
import type { OrderQuery } from '@workers/orders/types';
import type { VirtualTableSort } from '@/components/virtual-table/VirtualTable';

/** What the order pages ask the worker: their filters, the query they make of them, and where they start. */

export type Range = [Dayjs | null, Dayjs | null] | null;
/** Every filter but the search text, which changes per keystroke and lives in its own state (see SearchBox). */
export type Filters = {
  shopIds: number[];
  statuses: FbsStatus[];
  warehouseIds: string[];
  inProcess: Range;
  shipment: Range;
  amountFrom: number | null;
  amountTo: number | null;
};

export type OrdersMode = 'orders' | 'records';
/** The order list by product line (a posting with three products is three rows) or by posting (one row each). */
export type OrderGrouping = 'lines' | 'postings';
/** Postings: one row per posting number, its lines' quantities and amounts added up (the worker groups). */
export const POSTING_GROUP = { by: 'postingNumber', sum: ['quantity', 'amount'] } as const;

export const EMPTY_FILTERS: Filters = { shopIds: [], statuses: [], warehouseIds: [], inProcess: null, shipment: null, amountFrom: null, amountTo: null };
export const DEFAULT_SORT: VirtualTableSort = { column: 'inProcessAt', direction: 'desc' };

/** The worker's name for each page's list: queries of one view supersede each other. */
export const ORDER_VIEWS: Record<OrdersMode, string> = { orders: 'orderList', records: 'recordList' };
/** The routes of the two order pages. */
export const ORDER_PAGE_PATHS: Record<OrdersMode, string> = { orders: '/order-manager/order-list', records: '/order-manager/record-list' };

export const sourcesOf = (mode: OrdersMode): OrderSource[] | undefined => (mode === 'records' ? ['manual'] : undefined);

const range = (value: Range) => (value ? { from: value[0]?.startOf('day').valueOf(), to: value[1]?.endOf('day').valueOf() } : undefined);

export function toQuery(filters: Filters, search: string, sort: VirtualTableSort, sources: OrderSource[] | undefined, grouping: OrderGrouping = 'lines'): OrderQuery {
  return {
    ...(grouping === 'postings' ? { group: POSTING_GROUP } : {}),
    filters: {
      shopIds: filters.shopIds,
      statuses: filters.statuses,
      warehouseIds: filters.warehouseIds,
      sources,
      inProcessAt: range(filters.inProcess),
      shipmentDate: range(filters.shipment),
      amount: filters.amountFrom === null && filters.amountTo === null ? undefined : { from: filters.amountFrom ?? undefined, to: filters.amountTo ?? undefined },
    },
    search,
    sort: sort ? { column: sort.column as OrderColumn, direction: sort.direction } : null,
  };
}

/** The query a page opens with: no filter, no search, newest first. */
export const initialOrderQuery = (mode: OrdersMode): OrderQuery => toQuery(EMPTY_FILTERS, '', DEFAULT_SORT, sourcesOf(mode));

/** Rows per window the lists fetch from the worker (the first one comes with the first answer). */
export const ORDER_WINDOW_ROWS = 100;
