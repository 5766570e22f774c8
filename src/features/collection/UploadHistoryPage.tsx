import { Alert, App, Button, Form, Space, Typography } from 'antd';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { UploadPage, UploadRecord } from '@contract/collection';
import { COPY_STATUSES } from '@contract/copy';
import { useDataClient } from '@/app/dataClient';
import { useFormats } from '@/app/formats';
import type { DataTableColumn } from '@/components/data-table/DataTable';
import { PagedTable } from '@/components/data-table/PagedTable';
import { QueryFields } from '@/components/data-table/QueryFields';
import type { TableQuery } from '@/components/data-table/pager';
import { presentFilters, usePagedList } from '@/components/data-table/usePagedList';
import { UploadOutcome } from './UploadStatus';
import { ProxiedImage } from '@/components/picture/ProxiedImage';

/** While uploads wait for Ozon the page asks again this often (the list call asks Ozon about them). */
const REFRESH_MS = 5_000;

type Filters = { status?: UploadRecord['status']; shopId?: number; search?: string };

/** /collection/upload-history: every upload of a collected product into a shop, following Ozon's import to its end. */
export function UploadHistoryPage() {
  const { t } = useTranslation('collection');
  const { time } = useFormats();
  const client = useDataClient();
  const { message } = App.useApp();
  const [form] = Form.useForm<Filters>();
  const fetchPage = useCallback(
    (query: TableQuery, filters: Filters) => client.collection.uploads({ page: query.page, rows: query.rows, ...presentFilters(filters) }),
    [client],
  );
  const list = usePagedList<Filters, UploadRecord, UploadPage>(form, { list: [], total: 0, unsettled: 0 }, fetchPage, { refreshMs: REFRESH_MS });
  const { page, act, selected } = list;

  const columns = useMemo<DataTableColumn<UploadRecord>[]>(
    () => [
      { id: 'image', header: t('history.columns.image'), cell: ({ row }) => (row.original.image ? <ProxiedImage src={row.original.image} width={44} height={44} /> : null) },
      { id: 'name', header: t('history.columns.name'), cell: ({ row }) => <Typography.Text style={{ maxWidth: 300 }} ellipsis={{ tooltip: row.original.name }}>{row.original.name}</Typography.Text> },
      { id: 'variant', header: t('history.columns.variant'), cell: ({ row }) => row.original.variant || '—' },
      { id: 'shop', header: t('history.columns.shop'), cell: ({ row }) => row.original.shopName },
      { id: 'offerId', header: t('history.columns.offerId'), cell: ({ row }) => <Typography.Text copyable style={{ fontSize: 12 }}>{row.original.offerId}</Typography.Text> },
      { id: 'price', header: t('history.columns.price'), cell: ({ row }) => `${row.original.price} ${row.original.currency}` },
      { id: 'status', header: t('history.columns.status'), cell: ({ row }) => <UploadOutcome record={row.original} /> },
      { id: 'createdAt', header: t('history.columns.createdAt'), cell: ({ row }) => time.format(row.original.createdAt) },
    ],
    [t, time],
  );

  const remove = () =>
    act(async () => {
      const count = await client.collection.removeUploads(selected.map((r) => r.id));
      void message.success(t('history.deleted', { count }));
    });

  return (
    <PagedTable<UploadRecord, Filters>
      list={list}
      form={form}
      columns={columns}
      selectable
      texts={{ loadFailed: (reason) => t('loadFailed', { reason }), retry: t('retry'), empty: t('history.empty') }}
      notice={page.unsettled > 0 && <Alert type="info" showIcon message={t('history.unsettled', { count: page.unsettled })} />}
      actions={
        <Space wrap>
          <Button danger disabled={selected.length === 0} onClick={() => void remove()}>
            {t('history.delete', { count: selected.length })}
          </Button>
        </Space>
      }
      queryFields={
        <QueryFields
          search={t('history.search')}
          choices={[{ name: 'status', placeholder: t('history.allStatuses'), options: COPY_STATUSES.map((s) => ({ value: s, label: t(`history.statuses.${s}`) })) }]}
          shops
        />
      }
    />
  );
}
