import type { OrderColumns, OrderRow } from '../../contract/orders';

/**
 * Conversions between a chunk's rows and its columns (contract OrderColumns). The bulk path (sync, cache load)
 * never calls them; they serve the small paths: incremental changes to known rows, old row-shaped cache records.
 */

export function columnCount(columns: OrderColumns): number {
  return columns.id.length;
}

export function emptyColumns(): OrderColumns {
  return {
    id: [], shopId: [], shopName: [], postingNumber: [], orderNumber: [], orderId: [], status: [], substatus: [],
    warehouseId: [], warehouseName: [], inProcessAt: [], shipmentDate: [], deliveringDate: [], trackingNumber: [],
    sku: [], offerId: [], productName: [], quantity: [], amount: [], currency: [], source: [], updatedAt: [], deleted: [],
  };
}

const NAMES = Object.keys(emptyColumns()) as (keyof OrderColumns)[];

export function rowOfColumns(columns: OrderColumns, i: number): OrderRow {
  return {
    id: columns.id[i]!,
    shopId: columns.shopId[i]!,
    shopName: columns.shopName[i]!,
    postingNumber: columns.postingNumber[i]!,
    orderNumber: columns.orderNumber[i]!,
    orderId: columns.orderId[i]!,
    status: columns.status[i]!,
    substatus: columns.substatus[i]!,
    warehouseId: columns.warehouseId[i]!,
    warehouseName: columns.warehouseName[i]!,
    inProcessAt: columns.inProcessAt[i]!,
    shipmentDate: columns.shipmentDate[i] ?? null,
    deliveringDate: columns.deliveringDate[i] ?? null,
    trackingNumber: columns.trackingNumber[i]!,
    sku: columns.sku[i]!,
    offerId: columns.offerId[i]!,
    productName: columns.productName[i]!,
    quantity: columns.quantity[i]!,
    amount: columns.amount[i]!,
    currency: columns.currency[i]!,
    source: columns.source[i]!,
    updatedAt: columns.updatedAt[i]!,
    deleted: columns.deleted[i]!,
  };
}

export function rowsOfColumns(columns: OrderColumns): OrderRow[] {
  const rows: OrderRow[] = [];
  for (let i = 0; i < columns.id.length; i++) rows.push(rowOfColumns(columns, i));
  return rows;
}

export function columnsOfRows(rows: readonly OrderRow[]): OrderColumns {
  const columns = emptyColumns();
  const target = columns as Record<keyof OrderColumns, unknown[]>;
  for (const row of rows) for (const name of NAMES) target[name].push(row[name]);
  return columns;
}

/** Rows `from .. to - 1`, column by column. */
export function sliceColumns(columns: OrderColumns, from: number, to: number): OrderColumns {
  const slice = {} as Record<keyof OrderColumns, unknown[]>;
  for (const name of NAMES) slice[name] = columns[name].slice(from, to);
  return slice as OrderColumns;
}

/** Whether every column is an array as long as `id`: what the worker checks of a chunk instead of every value. */
export function isColumnsShape(value: unknown): value is OrderColumns {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  const length = Array.isArray(record.id) ? record.id.length : -1;
  return length >= 0 && NAMES.every((name) => Array.isArray(record[name]) && (record[name] as unknown[]).length === length);
}
