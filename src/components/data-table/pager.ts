/** The table query state and its rules (chat-widget spec §3, §4, §9). */

export const PAGE_SIZES = [10, 20, 30, 40, 1000] as const;
export const DEFAULT_PAGE_SIZE = 20;

export type TableQuery = { page: number; rows: number };

export const INITIAL_QUERY: TableQuery = { page: 1, rows: DEFAULT_PAGE_SIZE };

export type PagerChange = { type: 'page'; page: number } | { type: 'size'; rows: number } | { type: 'query' };

/** Changing the page size, or running a new query, goes back to page 1. */
export function nextQuery(query: TableQuery, change: PagerChange): TableQuery {
  switch (change.type) {
    case 'page':
      return { ...query, page: Math.max(1, change.page) };
    case 'size':
      return { page: 1, rows: change.rows };
    case 'query':
      return { ...query, page: 1 };
  }
}
