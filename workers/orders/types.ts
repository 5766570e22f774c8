import type { FbsStatus, OrderColumn, OrderRow, OrderSource } from '../../contract/orders';

/** Inclusive at both ends; an open end is left out. Rows without a value never match a range. */
export type NumberRange = { from?: number; to?: number };

/** Every filter narrows (AND); a list filter matches any of its values; an empty list filters nothing. */
export type OrderFilters = {
  shopIds?: number[];
  statuses?: FbsStatus[];
  warehouseIds?: string[];
  sources?: OrderSource[];
  inProcessAt?: NumberRange;
  shipmentDate?: NumberRange;
  amount?: NumberRange;
};

/**
 * Strings sort by UTF-16 code units (not by pinyin): collation over a million rows costs seconds.
 * Empty values (null dates) sort as the largest, as PostgreSQL does: last ascending, first descending.
 * Ties keep the rows' arrival order.
 */
export type OrderSort = { column: OrderColumn; direction: 'asc' | 'desc' };

export type OrderQuery = {
  filters?: OrderFilters;
  sort?: OrderSort | null;
  /** Case-insensitive substring over posting number, order number, sku, offer id, product name, tracking number. */
  search?: string;
};

/**
 * A query's answer. A query that a newer one on the same view replaced answers `superseded` and carries no rows,
 * so an older result can never overwrite a newer one. A handle below zero is a reloaded list's head (see
 * `isHeadHandle`).
 */
export type OrderQueryResult =
  | { status: 'done'; seq: number; handle: number; total: number }
  | { status: 'superseded'; seq: number };

/**
 * A reloaded list's opening answer while the cache is still being read: its total and first rows are as they will
 * be once every row is in (kept with the cache), its other rows come then (their windows answer StaleHandle and the
 * list asks again).
 */
export function isHeadHandle(handle: number | null): boolean {
  return handle !== null && handle < 0;
}

/** A window of a result: `rows[i]` is the result's row `start + i`. */
export type OrderWindow = { handle: number; start: number; total: number; rows: OrderRow[] };

/** Thrown (as plain data) by `window` when a handle was released or the rows it points at were reorganised. */
export type StaleHandleFailure = { type: 'StaleHandle'; handle: number };

export function isStaleHandleFailure(value: unknown): value is StaleHandleFailure {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'StaleHandle';
}
