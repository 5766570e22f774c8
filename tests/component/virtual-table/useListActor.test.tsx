import { act, renderHook, waitFor } from '@testing-library/react';
import type { DataClient } from '@workers/client';
import type { ListQuery, ListQueryResult, ListWindow } from '@workers/lists/types';
import { useListActor, type ListAreaClient, type ListTopics } from '@/components/virtual-table/useListActor';

type Row = { id: string; deleted: boolean };
const WINDOW = 50;
const TOTAL = 120;

/** A list area as a page reaches it through Comlink: every read of `client.returns` is a new proxy object. */
function fakeArea() {
  const windows: [number, number][] = [];
  const methods: ListAreaClient<Row, ListQuery<object>> = {
    open: async () => ({ rows: TOTAL, cursor: null }),
    query: async (): Promise<ListQueryResult> => ({ status: 'done', seq: 1, handle: 7, total: TOTAL }),
    window: async (handle, start, count): Promise<ListWindow<Row>> => {
      windows.push([handle, start]);
      return { handle, start, total: TOTAL, rows: Array.from({ length: Math.min(count, TOTAL - start) }, (_, i) => ({ id: `r${start + i}`, deleted: false })) };
    },
    progress: async () => null,
    shown: async () => undefined,
  };
  return { windows, proxy: () => ({ ...methods }) };
}

const silent = async () => () => undefined;
const topics: ListTopics = { changed: silent, progress: silent, failed: silent };

describe('useListActor', () => {
  it('keeps the rows it fetched when the page renders again with a new proxy of the same area', async () => {
    const area = fakeArea();
    const { result, rerender } = renderHook(() =>
      useListActor({ client: {} as DataClient, area: area.proxy(), topics, userId: 1, view: 'test', initialQuery: {}, windowRows: WINDOW }),
    );
    await waitFor(() => expect(result.current.view.handle).toBe(7));
    act(() => result.current.onRangeChange(0, 20));
    await waitFor(() => expect(result.current.rowAt(0)).toEqual({ id: 'r0', deleted: false }));
    const fetched = area.windows.length;
    for (let i = 0; i < 3; i++) rerender();
    // The rows on screen are still there, and nothing was fetched again.
    expect(result.current.rowAt(0)).toEqual({ id: 'r0', deleted: false });
    act(() => result.current.onRangeChange(0, 20));
    expect(area.windows.length).toBe(fetched);
  });
});
