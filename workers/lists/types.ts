import type { ListRow } from '../../contract/listSchema';

export type { NumberRange } from '../../contract/listSchema';

/**
 * Strings sort by UTF-16 code units (not by pinyin): collation over a million rows costs seconds.
 * Empty values (null numbers) sort as the largest, as PostgreSQL does: last ascending, first descending.
 * Ties keep the rows' arrival order.
 */
export type ListSort<Column extends string = string> = { column: Column; direction: 'asc' | 'desc' };

/** `filters` by the schema's filter names (FiltersOf); `search` a case-insensitive substring of its search fields. */
export type ListQuery<Filters = Record<string, unknown>, Column extends string = string> = {
  filters?: Filters;
  sort?: ListSort<Column> | null;
  search?: string;
  /** One row per group instead of one per row (orders: a posting's lines), see ListGroup. */
  group?: ListGroup<Column>;
};

/**
 * Rows that share the text column `by` ('' shares nothing) answer as one: the group's first row in the result's
 * order, where at least one of its rows matched, with the number columns of `sum` added up over every live row of
 * the group and `groupRows` saying how many rows it holds.
 */
export type ListGroup<Column extends string = string> = { by: Column; sum?: readonly Column[] };
/** A row of a grouped result: how many rows its group holds. */
export type GroupedRow<Row> = Row & { groupRows?: number };

/**
 * A query's answer. A query that a newer one on the same view replaced answers `superseded` and carries no rows,
 * so an older result can never overwrite a newer one. A handle below zero is a reloaded list's head (see
 * `isHeadHandle`).
 */
export type ListQueryResult = { status: 'done'; seq: number; handle: number; total: number } | { status: 'superseded'; seq: number };

/**
 * A reloaded list's opening answer while the cache is still being read: its total and first rows are as they will
 * be once every row is in (kept with the cache), its other rows come then (their windows answer StaleHandle and the
 * list asks again).
 */
export function isHeadHandle(handle: number | null): boolean {
  return handle !== null && handle < 0;
}

/** A window of a result: `rows[i]` is the result's row `start + i`. */
export type ListWindow<Row extends ListRow = ListRow> = { handle: number; start: number; total: number; rows: GroupedRow<Row>[] };

/** Thrown (as plain data) by `window` when a handle was released or the rows it points at were reorganised. */
export type StaleHandleFailure = { type: 'StaleHandle'; handle: number };

export function isStaleHandleFailure(value: unknown): value is StaleHandleFailure {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'StaleHandle';
}

/**
 * The rows a list shows (`start` .. `end` - 1) and the size of the windows it fetches: a query answers the windows
 * holding those rows of its result with it (the last ones when the result is shorter), saving a round trip.
 */
export type RowsOnScreen = { start: number; end: number; window: number };
export type PageWindow<Row> = { page: number; rows: Row[] };

/** The windows of `window` rows that hold rows `start` .. `end` - 1 of a result of `total` rows. */
export function pagesOnScreen({ start, end, window }: RowsOnScreen, total: number): number[] {
  const last = Math.min(total, Math.max(end, 1)) - 1;
  const pages: number[] = [];
  for (let page = Math.floor(Math.min(start, last) / window); last >= 0 && page <= Math.floor(last / window); page++) pages.push(page);
  return pages;
}
