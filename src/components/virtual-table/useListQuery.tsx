import { Alert, Button, Spin, Typography } from 'antd';
import { useCallback, useRef, useState, type ReactNode } from 'react';
import type { ListEvent } from '@machines/listMachine';
import type { ListQuery } from '@workers/lists/types';
import { EMPTY_SELECTION, type RowSelection } from './selection';
import type { VirtualTableSort } from './VirtualTable';
import type { ListView } from './useListActor';

/** What a page over a cached list queries by: its filters and sort, and whatever else it adds (a search box ...). */
export type ListQueryState = { filters: object; sort: VirtualTableSort };

/**
 * The query of a page over a cached list (useListActor) and its selection. A change is sent to the list actor from the
 * event itself, before React renders the new values, and clears the selection (it named rows of the old result).
 */
export function useListQuery<State extends ListQueryState, Query extends ListQuery<object>>(
  actor: { send: (event: ListEvent) => void },
  initial: State,
  toQuery: (state: State) => Query,
) {
  const [state, setState] = useState(initial);
  const [selection, setSelection] = useState<RowSelection>(EMPTY_SELECTION);
  const current = useRef(initial);
  const toQueryRef = useRef(toQuery);
  toQueryRef.current = toQuery;
  const requery = useCallback(
    (change: Partial<State>) => {
      const next = { ...current.current, ...change };
      current.current = next;
      actor.send({ type: 'list.query', query: toQueryRef.current(next) });
      setSelection(EMPTY_SELECTION);
      setState(next);
    },
    [actor],
  );
  /** Some filters changed; the others stay. */
  const patch = useCallback((change: Partial<State['filters']>) => requery({ filters: { ...current.current.filters, ...change } } as Partial<State>), [requery]);
  const changeSort = useCallback((sort: VirtualTableSort) => requery({ sort } as Partial<State>), [requery]);
  return { state, current, requery, patch, changeSort, selection, setSelection };
}

export type ListOverlayTexts = { failed: string; retry: string; loading: string; empty: string };

/**
 * What a cached list shows over its table instead of rows: its failure with a retry, loading (a first visit's empty
 * cache counts as loading until its first sync ends: no rows then means "not here yet", not "none"), or that nothing
 * matches; null while there are rows to show.
 */
export function listOverlay(view: ListView, onRetry: () => void, texts: ListOverlayTexts): ReactNode {
  const { failed, error, loading, total, synced, sync } = view;
  if (failed) return <Alert type="error" showIcon title={texts.failed} description={error} action={<Button onClick={onRetry}>{texts.retry}</Button>} />;
  if (loading || (total === 0 && !synced)) {
    return (
      <Spin tip={texts.loading}>
        <div style={{ width: 200, height: 60 }} />
      </Spin>
    );
  }
  if (total === 0 && !sync) return <Typography.Text type="secondary">{texts.empty}</Typography.Text>;
  return null;
}
