import { App, type FormInstance } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { isApiFailure } from '@workers/api';
import type { TableQuery } from './pager';

const messageOf = (failure: unknown) => (isApiFailure(failure) ? failure.message : String(failure));

/** A page of a server-paged list; `unsettled` counts its rows still waiting for the marketplace, when it has such. */
export type ListPage<Row> = { list: Row[]; total: number; unsettled?: number };

/**
 * A paged list read with the filters of a query form: its page, selection, load error and whether it has loaded yet.
 * With `refreshMs`, a page whose rows wait for the marketplace (`unsettled` > 0) is read again that often until none
 * does (the list call is what asks the marketplace about them).
 */
export function usePagedList<Filters, Row extends { id: number }, Page extends ListPage<Row>>(
  form: FormInstance<Filters>,
  empty: Page,
  fetchPage: (query: TableQuery, filters: Filters) => Promise<Page>,
  { refreshMs }: { refreshMs?: number } = {},
) {
  const { message } = App.useApp();
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
        setError(messageOf(failure));
      } finally {
        setLoaded(true);
      }
    },
    [fetchPage, form],
  );

  useEffect(() => {
    if (!refreshMs || !page.unsettled) return;
    const timer = setTimeout(() => void load(), refreshMs);
    return () => clearTimeout(timer);
  }, [page, load, refreshMs]);

  /** A batch action on the list (delete, retry ...): its failure as a message, then the list read again either way. */
  const act = useCallback(
    async (work: () => Promise<void>) => {
      try {
        await work();
      } catch (failure) {
        void message.error(messageOf(failure));
      }
      await load();
    },
    [load, message],
  );
  return { page, error, loaded, load, act, selected, setSelected };
}

export type PagedList<Row extends { id: number }, Page extends ListPage<Row> = ListPage<Row>> = ReturnType<typeof usePagedList<never, Row, Page>>;

/** The non-empty filters of a query form, for a list call's query. */
export function presentFilters<F extends Record<string, unknown>>(filters: F): Partial<F> {
  return Object.fromEntries(Object.entries(filters).flatMap(([key, value]) => (typeof value === 'string' ? (value.trim() ? [[key, value.trim()]] : []) : value == null ? [] : [[key, value]]))) as Partial<F>;
}
