import { tableFeatures, useTable, type ColumnDef } from '@tanstack/react-table';
import { Button, Checkbox, Form, Pagination, Space, type FormInstance } from 'antd';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { INITIAL_QUERY, PAGE_SIZES, nextQuery, type PagerChange, type TableQuery } from './pager';
import { DEFAULT_ROW_KEY, isRowSelected, rowKeyOf, togglePage, toggleRow } from './selection';
import type { AppLang } from '@/app/i18n';
import { useComponentTexts } from '../useComponentTexts';

export const dataTableFeatures = tableFeatures({});
export type DataTableColumn<T extends Record<string, unknown>> = ColumnDef<typeof dataTableFeatures, T>;

export type DataTableProps<T extends Record<string, unknown>> = {
  columns: DataTableColumn<T>[];
  /** The current page's rows, as the host fetched them in refresh. */
  rows: T[];
  total: number;
  /** Called with the query state on load, page change, size change and query; the host fetches and passes rows back. */
  refresh: (query: TableQuery) => void;
  /** Query form fields (antd Form.Item children); the table adds the query and reset buttons. */
  queryFields?: ReactNode;
  /** The form the query fields fill, when the host reads them (its refresh reads `form.getFieldsValue()`). */
  form?: FormInstance;
  onReset?: () => void;
  selectable?: boolean;
  rowKey?: string;
  selected?: T[];
  onSelectionChange?: (selected: T[]) => void;
  initialQuery?: Partial<TableQuery>;
  /** The language of its own labels when not the app's (useComponentTexts). */
  lang?: AppLang;
  /** What the table says when it has no rows (loading, nothing matches and why); its own "no data" otherwise. */
  emptyText?: ReactNode;
};

export function DataTable<T extends Record<string, unknown>>({
  columns,
  rows,
  total,
  refresh,
  queryFields,
  form,
  onReset,
  selectable = false,
  rowKey = DEFAULT_ROW_KEY,
  selected,
  onSelectionChange,
  initialQuery,
  lang,
  emptyText,
}: DataTableProps<T>) {
  const t = useComponentTexts(lang);
  const [query, setQuery] = useState<TableQuery>({ ...INITIAL_QUERY, ...initialQuery });
  const [ownSelection, setOwnSelection] = useState<T[]>([]);
  const selection = selected ?? ownSelection;
  const refreshRef = useRef(refresh);
  refreshRef.current = refresh;

  const table = useTable({ features: dataTableFeatures, columns, data: rows });

  useEffect(() => {
    refreshRef.current(query);
  }, [query]);

  const change = (c: PagerChange) => {
    const next = nextQuery(query, c);
    // A repeated query on the same page still refreshes: the form's filters may have changed.
    if (next.page === query.page && next.rows === query.rows) refreshRef.current(next);
    else setQuery(next);
  };

  const setSelection = (next: T[]) => {
    if (selected === undefined) setOwnSelection(next);
    onSelectionChange?.(next);
  };

  const pageAllSelected = rows.length > 0 && rows.every((row) => isRowSelected(selection, row, rowKey));
  const pageSomeSelected = rows.some((row) => isRowSelected(selection, row, rowKey));

  return (
    <div className="data-table">
      {queryFields && (
        <Form form={form} layout="inline" onFinish={() => change({ type: 'query' })} style={{ marginBottom: 12 }}>
          {queryFields}
          <Form.Item>
            <Space>
              <Button type="primary" htmlType="submit">
                {t('dataTable.query')}
              </Button>
              <Button
                onClick={() => {
                  onReset?.();
                  change({ type: 'query' });
                }}
              >
                {t('dataTable.reset')}
              </Button>
            </Space>
          </Form.Item>
        </Form>
      )}
      <table style={{ width: '100%', borderCollapse: 'collapse' }}>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {selectable && (
                <th style={{ width: 40 }}>
                  <Checkbox
                    aria-label={t('dataTable.selectAll')}
                    checked={pageAllSelected}
                    indeterminate={!pageAllSelected && pageSomeSelected}
                    onChange={() => setSelection(togglePage(selection, rows, rowKey))}
                  />
                </th>
              )}
              {group.headers.map((header) => (
                <th key={header.id} style={{ textAlign: 'left', padding: 8, borderBottom: '1px solid #f0f0f0' }}>
                  {header.isPlaceholder ? null : <table.FlexRender header={header} />}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={rowKeyOf(row.original, rowKey)}>
              {selectable && (
                <td>
                  <Checkbox
                    aria-label={t('dataTable.selectRow')}
                    checked={isRowSelected(selection, row.original, rowKey)}
                    onChange={() => setSelection(toggleRow(selection, row.original, rowKey))}
                  />
                </td>
              )}
              {row.getAllCells().map((cell) => (
                <td key={cell.id} style={{ padding: 8, borderBottom: '1px solid #f0f0f0' }}>
                  <table.FlexRender cell={cell} />
                </td>
              ))}
            </tr>
          ))}
          {rows.length === 0 && (
            <tr>
              <td colSpan={columns.length + (selectable ? 1 : 0)} style={{ textAlign: 'center', padding: 16 }}>
                {emptyText ?? t('dataTable.empty')}
              </td>
            </tr>
          )}
        </tbody>
      </table>
      <Pagination
        style={{ marginTop: 12, justifyContent: 'flex-end' }}
        current={query.page}
        pageSize={query.rows}
        total={total}
        showTotal={(total) => t('dataTable.total', { total })}
        showSizeChanger
        pageSizeOptions={PAGE_SIZES.map(String)}
        showQuickJumper
        onChange={(page, size) => {
          if (size !== query.rows) change({ type: 'size', rows: size });
          else change({ type: 'page', page });
        }}
      />
    </div>
  );
}
