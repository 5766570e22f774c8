import { ORDER_LIST, type OrderRow } from '../../contract/orders';
import { ListCache, listDatabaseName, type ListCacheOptions, type ListHead } from '../lists/cache';

export type OrderHead = ListHead<OrderRow>;
export type OrderCacheOptions = ListCacheOptions;

export function orderDatabaseName(userId: number | string): string {
  return listDatabaseName(ORDER_LIST, userId);
}

/** The browser's order cache (`orders-<userId>`): the list cache over ORDER_LIST. */
export class OrderCache extends ListCache<OrderRow> {
  constructor(userId: number | string, options: ListCacheOptions = {}) {
    super(ORDER_LIST, userId, options);
  }

  /** Removes a user's order cache entirely. */
  static removeOrders(userId: number | string): Promise<void> {
    return ListCache.remove(ORDER_LIST, userId);
  }
}
