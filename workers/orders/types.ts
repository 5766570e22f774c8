import type { OrderColumn, OrderFilters, OrderRow } from '../../contract/orders';
import type { ListQuery, ListQueryResult, ListSort, ListWindow } from '../lists/types';

export { isHeadHandle, isStaleHandleFailure, type NumberRange, type StaleHandleFailure } from '../lists/types';
export type { OrderFilters };

/** Orders' queries and answers: the list engine's (workers/lists/types.ts) over ORDER_LIST. */
export type OrderSort = ListSort<OrderColumn>;
/** `search`: case-insensitive substring over posting number, order number, sku, offer id, product name, tracking number. */
export type OrderQuery = ListQuery<OrderFilters, OrderColumn>;
export type OrderQueryResult = ListQueryResult;
export type OrderWindow = ListWindow<OrderRow>;
