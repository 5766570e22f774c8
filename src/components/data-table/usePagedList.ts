import type { FormInstance } from 'antd';
import { useCallback, useRef, useState } from 'react';
import { isApiFailure } from '@workers/api';
import type { TableQuery } from './pager';

/** A paged list read with the filters of a query form: its page, selection, load error and whether it has loaded yet. */
export function usePagedList<Filters, Row extends { id: number }, Page extends { list: Row[] }>(
  form: FormInstance<Filters>,
  empty: Page,
  fetchPage: (query: TableQuery, filters: Filters) => Promise<Page>,
) {
  const [page, setPage] = useState<Page>(empty);
  const [error, setError] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [selected, setSelected] = useState<Row[]>([]);
  const lastQuery = useRef<TableQuery>({ page: 1, rows: 20 });
  const load = useCallback(
    async (query: TableQuery = lastQuery.current) => {
      lastQuery.current = query;
      try {
        const answer = await fetchPage(query, form.getFieldsValue());
        setPage(answer);
        setError(null);
        // The selection keeps the rows still on the page, as they are now.
        setSelected((current) => current.flatMap((r) => answer.list.filter((x) => x.id === r.id)));
      } catch (failure) {
        setError(isApiFailure(failure) ? failure.message : String(failure));
      } finally {
        setLoaded(true);
      }
    },
    [fetchPage, form],
  );
  return { page, error, loaded, load, selected, setSelected };
}

/** The non-empty filters of a query form, for a list call's query. */
export function presentFilters<F extends Record<string, unknown>>(filters: F): Partial<F> {
  return Object.fromEntries(Object.entries(filters).flatMap(([key, value]) => (typeof value === 'string' ? (value.trim() ? [[key, value.trim()]] : []) : value == null ? [] : [[key, value]]))) as Partial<F>;
}
