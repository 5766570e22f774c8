import type { OrderChunk } from '../../contract/orderChunk';
import type { OrderRow } from '../../contract/orders';
import { listLoaded, loadList, syncList, type FetchListChunk, type LoadListOptions, type ReceivedFrame as ListReceivedFrame } from '../lists/sync';

/** Orders' cache load and sync: the list's (workers/lists/sync.ts) under the names the order area uses. */
export { loadList as loadOrders, listLoaded as ordersLoaded, syncList as syncOrders };
export type { ListSyncProgress as OrderSyncProgress } from '../lists/sync';
export type ReceivedFrame = ListReceivedFrame<OrderChunk>;
export type LoadOrdersOptions = LoadListOptions;
export type FetchOrderChunk = FetchListChunk<OrderRow>;
