import { act, render, renderHook, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App, Button, Form } from 'antd';
import type { ReactNode } from 'react';
import type { ListEvent } from '@machines/listMachine';
import type { DataClient } from '@workers/client';
import { DataClientProvider } from '@/app/dataClient';
import type { DataTableColumn } from '@/components/data-table/DataTable';
import { PagedTable } from '@/components/data-table/PagedTable';
import { QueryFields } from '@/components/data-table/QueryFields';
import type { TableQuery } from '@/components/data-table/pager';
import { usePagedList, type ListPage } from '@/components/data-table/usePagedList';
import type { VirtualTableSort } from '@/components/virtual-table/VirtualTable';
import { useListQuery } from '@/components/virtual-table/useListQuery';
import { pickOption } from '../renderApp';

type Row = { id: number; name: string };
type Filters = { search?: string };
const columns: DataTableColumn<Row>[] = [{ accessorKey: 'name', header: 'Name' }];
const texts = { loadFailed: (reason: string) => `failed: ${reason}`, retry: 'Retry', empty: 'Nothing here' };

/** A page of the shared paged list over `fetchPage`, with one batch action that runs `work`. */
function ListPageUnderTest({ fetchPage, refreshMs, work }: { fetchPage: (query: TableQuery, filters: Filters) => Promise<ListPage<Row>>; refreshMs?: number; work?: () => Promise<void> }) {
  const [form] = Form.useForm<Filters>();
  const list = usePagedList<Filters, Row, ListPage<Row>>(form, { list: [], total: 0 }, fetchPage, { refreshMs });
  return (
    <PagedTable<Row, Filters>
      list={list}
      form={form}
      columns={columns}
      selectable
      texts={texts}
      actions={work && <Button onClick={() => void list.act(work)}>Act</Button>}
      queryFields={<Form.Item name="search" />}
    />
  );
}

const inApp = (node: ReactNode) => render(<App>{node}</App>);

describe('PagedTable with usePagedList', () => {
  it('shows a load failure with a retry that reads the page again, and "nothing here" only once an answer says so', async () => {
    const user = userEvent.setup();
    const answers: { done: (page: ListPage<Row>) => void; fail: (error: Error) => void }[] = [];
    const fetchPage = vi.fn(() => new Promise<ListPage<Row>>((done, fail) => answers.push({ done, fail })));
    inApp(<ListPageUnderTest fetchPage={fetchPage} />);
    await waitFor(() => expect(answers).toHaveLength(1));
    expect(screen.queryByText('Nothing here')).not.toBeInTheDocument();
    act(() => answers[0]!.fail(new Error('server down')));
    await screen.findByText('failed: Error: server down');
    expect(screen.queryByText('Nothing here')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(answers).toHaveLength(2));
    act(() => answers[1]!.done({ list: [], total: 0 }));
    await screen.findByText('Nothing here');
    expect(screen.queryByText('failed: Error: server down')).not.toBeInTheDocument();
  });

  it('reads the page again while rows wait for the marketplace, and stops once none does', async () => {
    const pages: ListPage<Row>[] = [
      { list: [{ id: 1, name: 'importing' }], total: 1, unsettled: 1 },
      { list: [{ id: 1, name: 'still importing' }], total: 1, unsettled: 1 },
      { list: [{ id: 1, name: 'listed' }], total: 1, unsettled: 0 },
    ];
    const fetchPage = vi.fn(async () => pages[Math.min(fetchPage.mock.calls.length - 1, pages.length - 1)]!);
    inApp(<ListPageUnderTest fetchPage={fetchPage} refreshMs={20} />);
    await screen.findByText('listed');
    await new Promise((done) => setTimeout(done, 100));
    expect(fetchPage).toHaveBeenCalledTimes(3);
  });

  it('a batch action that fails says why and reads the list again', async () => {
    const user = userEvent.setup();
    const fetchPage = vi.fn(async () => ({ list: [{ id: 1, name: 'row 1' }], total: 1 }));
    inApp(<ListPageUnderTest fetchPage={fetchPage} work={() => Promise.reject(new Error('refused'))} />);
    await screen.findByText('row 1');
    await user.click(screen.getByRole('button', { name: 'Act' }));
    await screen.findByText('Error: refused');
    await waitFor(() => expect(fetchPage).toHaveBeenCalledTimes(2));
  });
});

describe('QueryFields', () => {
  type Query = { search?: string; status?: string; shopId?: number };
  const shopsClient = { store: { list: async () => [{ id: 1, name: 'Shop A' }, { id: 2, name: 'Shop B' }] } } as unknown as DataClient;

  function QueryPage({ fetchPage }: { fetchPage: (query: TableQuery, filters: Query) => Promise<ListPage<Row>> }) {
    const [form] = Form.useForm<Query>();
    const list = usePagedList<Query, Row, ListPage<Row>>(form, { list: [], total: 0 }, fetchPage);
    const statuses = [{ value: 'listed', label: 'Listed' }, { value: 'failed', label: 'Failed' }];
    return <PagedTable<Row, Query> list={list} form={form} columns={columns} texts={texts} queryFields={<QueryFields search="Name or offer id" choices={[{ name: 'status', placeholder: 'All statuses', options: statuses }]} shops />} />;
  }

  // antd's selects are slow to open in jsdom on a loaded machine: the test gets room.
  it("reads the list with the search, the list's own select and the user's shop, and reset reads it with none", async () => {
    const user = userEvent.setup();
    const fetchPage = vi.fn(async () => ({ list: [{ id: 1, name: 'row 1' }], total: 1 }));
    render(
      <App>
        <DataClientProvider client={shopsClient}>
          <QueryPage fetchPage={fetchPage} />
        </DataClientProvider>
      </App>,
    );
    await screen.findByText('row 1');
    await user.type(screen.getByRole('textbox', { name: 'Name or offer id' }), 'cup');
    await pickOption('All statuses', 'Failed');
    await pickOption('全部店铺', 'Shop B');
    await user.click(screen.getByRole('button', { name: /^查\s*询$/ }));
    await waitFor(() => expect(fetchPage).toHaveBeenLastCalledWith({ page: 1, rows: 20 }, expect.objectContaining({ search: 'cup', status: 'failed', shopId: 2 })));

    await user.click(screen.getByRole('button', { name: /^重\s*置$/ }));
    await waitFor(() => expect(fetchPage).toHaveBeenCalledTimes(3));
    const [, filters] = fetchPage.mock.lastCall as unknown as [TableQuery, Query];
    expect([filters.search, filters.status, filters.shopId]).toEqual([undefined, undefined, undefined]);
  }, 90_000);
});

describe('useListQuery', () => {
  type State = { filters: { shop?: number; status?: string }; search: string; sort: VirtualTableSort };
  const initial: State = { filters: {}, search: '', sort: { column: 'changedAt', direction: 'desc' } };
  const toQuery = (s: State) => ({ filters: s.filters, search: s.search || undefined, sort: s.sort });

  it('sends each change as one query of the whole state, keeps the other filters, and clears the selection', () => {
    const sent: ListEvent[] = [];
    const actor = { send: (event: ListEvent) => void sent.push(event) };
    const { result } = renderHook(() => useListQuery(actor, initial, toQuery));
    act(() => result.current.setSelection({ all: false, ids: new Set(['7']) }));
    act(() => result.current.patch({ shop: 1 }));
    act(() => result.current.patch({ status: 'sold' }));
    act(() => result.current.requery({ search: 'cup' }));
    act(() => result.current.changeSort({ column: 'price', direction: 'asc' }));
    expect(sent.map((e) => (e.type === 'list.query' ? e.query : null))).toEqual([
      { filters: { shop: 1 }, search: undefined, sort: initial.sort },
      { filters: { shop: 1, status: 'sold' }, search: undefined, sort: initial.sort },
      { filters: { shop: 1, status: 'sold' }, search: 'cup', sort: initial.sort },
      { filters: { shop: 1, status: 'sold' }, search: 'cup', sort: { column: 'price', direction: 'asc' } },
    ]);
    expect(result.current.state.search).toBe('cup');
    expect(result.current.selection.ids.size).toBe(0);
  });
});
