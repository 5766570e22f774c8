import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DataTable, type DataTableColumn } from '@/components/data-table/DataTable';
import { nextQuery, INITIAL_QUERY, PAGE_SIZES } from '@/components/data-table/pager';
import { isRowSelected, toggleRow } from '@/components/data-table/selection';

type Row = { id: number; name: string };
const columns: DataTableColumn<Row>[] = [{ accessorKey: 'name', header: 'Name' }];
const rowsOf = (page: number, size: number): Row[] =>
  Array.from({ length: Math.min(size, 3) }, (_, i) => ({ id: (page - 1) * size + i + 1, name: `row ${(page - 1) * size + i + 1}` }));

describe('pager rules', () => {
  it('starts at page 1 with 20 rows and offers the spec sizes', () => {
    expect(INITIAL_QUERY).toEqual({ page: 1, rows: 20 });
    expect(PAGE_SIZES).toEqual([10, 20, 30, 40, 1000]);
  });

  it('goes back to page 1 when the size changes', () => {
    expect(nextQuery({ page: 4, rows: 20 }, { type: 'size', rows: 40 })).toEqual({ page: 1, rows: 40 });
    expect(nextQuery({ page: 4, rows: 20 }, { type: 'page', page: 5 })).toEqual({ page: 5, rows: 20 });
  });
});

describe('row selection', () => {
  it('compares rows by the key field, not by identity', () => {
    const selected = [{ id: 1, name: 'old copy' }];
    expect(isRowSelected(selected, { id: 1, name: 'fresh copy' })).toBe(true);
    expect(toggleRow(selected, { id: 1, name: 'fresh copy' })).toEqual([]);
    expect(isRowSelected([{ code: 'a' }], { code: 'a' }, 'code')).toBe(true);
  });

  it('throws "compared object lacks key" for a row without the key', () => {
    expect(() => isRowSelected([{ id: 1 }], { name: 'x' } as unknown as { id: number })).toThrow('compared object lacks key');
  });
});

describe('DataTable', () => {
  it('calls refresh on load, on page change and on size change (back to page 1)', async () => {
    const user = userEvent.setup();
    const refresh = vi.fn();
    const { rerender } = render(<DataTable columns={columns} rows={rowsOf(1, 20)} total={95} refresh={refresh} />);
    expect(refresh).toHaveBeenLastCalledWith({ page: 1, rows: 20 });
    expect(screen.getByText('row 1')).toBeInTheDocument();
    expect(screen.getByText('共 95 条')).toBeInTheDocument();

    await user.click(screen.getByTitle('3'));
    expect(refresh).toHaveBeenLastCalledWith({ page: 3, rows: 20 });
    rerender(<DataTable columns={columns} rows={rowsOf(3, 20)} total={95} refresh={refresh} />);
    expect(screen.getByText('row 41')).toBeInTheDocument();

    await user.click(screen.getByRole('combobox'));
    // Without a ConfigProvider locale antd labels the option '40 / page'; with zh_CN, '40 条/页'.
    await user.click(await screen.findByText(/^40\s*(\/|条)/));
    await waitFor(() => expect(refresh).toHaveBeenLastCalledWith({ page: 1, rows: 40 }));
  });

  it('reports selected rows and keeps them across a refresh that returns new objects', async () => {
    const user = userEvent.setup();
    const onSelectionChange = vi.fn();
    const { rerender } = render(
      <DataTable columns={columns} rows={rowsOf(1, 20)} total={3} refresh={() => {}} selectable onSelectionChange={onSelectionChange} />,
    );
    await user.click(screen.getAllByRole('checkbox', { name: '选择' })[1]!);
    expect(onSelectionChange).toHaveBeenLastCalledWith([{ id: 2, name: 'row 2' }]);
    rerender(
      <DataTable columns={columns} rows={rowsOf(1, 20)} total={3} refresh={() => {}} selectable onSelectionChange={onSelectionChange} />,
    );
    expect(screen.getAllByRole('checkbox', { name: '选择' })[1]).toBeChecked();
  });
});
