import { ORDER_LIST, type OrderRow } from '../../contract/orders';
import { ListEngine, type ListEngineOptions } from '../lists/engine';
import type { OrderQuery } from './types';

export { yieldToEventLoop } from '../lists/engine';
export type OrderEngineOptions = ListEngineOptions;

/** The order list's engine: the list engine over ORDER_LIST. */
export class OrderEngine extends ListEngine<OrderRow, OrderQuery> {
  constructor(options: ListEngineOptions = {}) {
    super(ORDER_LIST, options);
  }
}
