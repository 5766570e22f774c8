import { Alert, Button, Space, Spin, Typography, type FormInstance } from 'antd';
import type { ReactNode } from 'react';
import { DataTable, type DataTableColumn } from './DataTable';
import type { ListPage, PagedList } from './usePagedList';

export type PagedTableTexts = { loadFailed: (reason: string) => string; retry: string; empty: string };

type PagedTableProps<Row extends { id: number }, Filters> = {
  /** The list from usePagedList. */
  list: PagedList<Row, ListPage<Row>>;
  /** The query form the list reads its filters from; `queryFields` are its fields. */
  form: FormInstance<Filters>;
  columns: DataTableColumn<Row>[];
  queryFields: ReactNode;
  selectable?: boolean;
  texts: PagedTableTexts;
  /** Between the load error and the table: notices about the rows, then the batch buttons. */
  notice?: ReactNode;
  actions?: ReactNode;
};

/**
 * A server-paged list page's body: its load error with a retry, notices and batch buttons, the query form and table
 * (paged and selected through usePagedList), and in place of the rows: a spinner until the first answer, then what it
 * says when nothing matches.
 */
export function PagedTable<Row extends { id: number }, Filters>({ list, form, columns, queryFields, selectable = false, texts, notice, actions }: PagedTableProps<Row, Filters>) {
  const { page, error, loaded, load, selected, setSelected } = list;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      {error && <Alert type="error" showIcon message={texts.loadFailed(error)} action={<Button onClick={() => void load()}>{texts.retry}</Button>} />}
      {notice}
      {actions}
      <DataTable<Row>
        rowKey="id"
        columns={columns}
        rows={page.list}
        total={page.total}
        refresh={(query) => void load(query)}
        selectable={selectable}
        selected={selected}
        onSelectionChange={setSelected}
        form={form}
        onReset={() => form.resetFields()}
        queryFields={queryFields}
        emptyText={!loaded ? <Spin size="small" /> : error ? <Typography.Text type="secondary">—</Typography.Text> : <Typography.Text type="secondary">{texts.empty}</Typography.Text>}
      />
    </Space>
  );
}
