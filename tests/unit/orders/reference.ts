import { ORDER_SEARCH_COLUMNS, type OrderRow } from '../../../contract/orders';
import type { NumberRange, OrderQuery } from '../../../workers/orders/types';

/** The obvious implementation the engine must agree with: Array.filter and a stable Array.sort. */
export function referenceQuery(rowsInArrivalOrder: readonly OrderRow[], query: OrderQuery): OrderRow[] {
  const filters = query.filters ?? {};
  const anyOf = <T>(values: readonly T[] | undefined, value: T) => !values || values.length === 0 || values.includes(value);
  const within = (range: NumberRange | undefined, value: number | null) =>
    !range ||
    (range.from === undefined && range.to === undefined) ||
    (value !== null && value >= (range.from ?? -Infinity) && value <= (range.to ?? Infinity));
  const needle = (query.search ?? '').trim().toLowerCase();
  const result = rowsInArrivalOrder.filter(
    (row) =>
      !row.deleted &&
      anyOf(filters.shopIds, row.shopId) &&
      anyOf(filters.statuses, row.status) &&
      anyOf(filters.warehouseIds, row.warehouseId) &&
      anyOf(filters.sources, row.source) &&
      within(filters.inProcessAt, row.inProcessAt) &&
      within(filters.shipmentDate, row.shipmentDate) &&
      within(filters.amount, row.amount) &&
      (needle === '' || ORDER_SEARCH_COLUMNS.some((column) => row[column].toLowerCase().includes(needle))),
  );
  const sort = query.sort;
  if (!sort) return result;
  const sign = sort.direction === 'asc' ? 1 : -1;
  return result.sort((a, b) => {
    const x = a[sort.column];
    const y = b[sort.column];
    if (x === y) return 0;
    // Empty values are the largest, as in PostgreSQL.
    if (x === null) return sign;
    if (y === null) return -sign;
    return (x < y ? -1 : 1) * sign;
  });
}

/** Rows in the order they first arrived, as the engine keeps them: an update keeps its place, a re-insert goes last. */
export class ArrivalOrderModel {
  private readonly rows = new Map<string, OrderRow>();

  apply(rows: readonly OrderRow[]): void {
    for (const row of rows) {
      if (row.deleted) this.rows.delete(row.id);
      else this.rows.set(row.id, row);
    }
  }

  list(): OrderRow[] {
    return [...this.rows.values()];
  }
}
