import { Alert, App, Button, Form, Space, Typography } from 'antd';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { COPY_STATUSES, type CopyRecord, type HistoryPage } from '@contract/copy';
import { useDataClient } from '@/app/dataClient';
import type { DataTableColumn } from '@/components/data-table/DataTable';
import { PagedTable } from '@/components/data-table/PagedTable';
import { QueryFields } from '@/components/data-table/QueryFields';
import type { TableQuery } from '@/components/data-table/pager';
import { presentFilters, usePagedList } from '@/components/data-table/usePagedList';
import { useFormats } from '@/app/formats';
import { CopyReasons, CopyStatusTag } from './CopyStatus';
import { ProxiedImage } from '@/components/picture/ProxiedImage';

/** While records wait for Ozon the page asks again this often. */
const REFRESH_MS = 5_000;

type Filters = { status?: CopyRecord['status']; shopId?: number; search?: string };

/** /copy/copy-history: the caller's copies. */
export function CopyHistoryPage() {
  return <HistoryTable scope="own" />;
}

/** /order-manager/all-copy-history: every user's copies (administrators). */
export function AllCopyHistoryPage() {
  return <HistoryTable scope="all" />;
}

function HistoryTable({ scope }: { scope: 'own' | 'all' }) {
  const { t } = useTranslation('copy');
  const { time } = useFormats();
  const client = useDataClient();
  const { message, modal } = App.useApp();
  const [form] = Form.useForm<Filters>();
  const fetchPage = useCallback(
    (query: TableQuery, filters: Filters) => {
      const input = { page: query.page, rows: query.rows, ...presentFilters(filters) };
      return scope === 'all' ? client.copy.allHistory(input) : client.copy.history(input);
    },
    [client, scope],
  );
  const list = usePagedList<Filters, CopyRecord, HistoryPage>(form, { list: [], total: 0, unsettled: 0 }, fetchPage, { refreshMs: REFRESH_MS });
  const { page, act, selected } = list;

  const columns = useMemo<DataTableColumn<CopyRecord>[]>(
    () => [
      { id: 'image', header: t('columns.image'), cell: ({ row }) => (row.original.image ? <ProxiedImage src={row.original.image} width={40} height={40} /> : null) },
      { id: 'name', header: t('columns.name'), cell: ({ row }) => <Typography.Text style={{ maxWidth: 280 }} ellipsis={{ tooltip: row.original.name }}>{row.original.name}</Typography.Text> },
      { id: 'sku', header: t('columns.sku'), cell: ({ row }) => row.original.sku },
      ...(scope === 'all' ? [{ id: 'user', header: t('columns.user'), cell: ({ row }) => row.original.userName ?? '' } satisfies DataTableColumn<CopyRecord>] : []),
      { id: 'shop', header: t('columns.shop'), cell: ({ row }) => row.original.shopName },
      { id: 'offerId', header: t('columns.offerId'), cell: ({ row }) => row.original.offerId },
      { id: 'price', header: t('columns.targetPrice'), cell: ({ row }) => `${row.original.price} ${row.original.currency}` },
      { id: 'mode', header: t('columns.mode'), cell: ({ row }) => t(`modes.${row.original.mode}`) },
      { id: 'status', header: t('columns.status'), cell: ({ row }) => <CopyStatusTag status={row.original.status} /> },
      { id: 'reason', header: t('columns.reason'), cell: ({ row }) => <CopyReasons errors={row.original.errors} /> },
      { id: 'attempts', header: t('columns.attempts'), cell: ({ row }) => row.original.attempts },
      { id: 'createdAt', header: t('columns.createdAt'), cell: ({ row }) => time.format(row.original.createdAt) },
    ],
    [t, scope, time],
  );

  const failed = selected.filter((r) => r.status === 'failed');

  return (
    <PagedTable<CopyRecord, Filters>
      list={list}
      form={form}
      columns={columns}
      selectable={scope === 'own'}
      texts={{ loadFailed: (reason) => t('history.loadFailed', { reason }), retry: t('retry'), empty: t('history.empty') }}
      notice={page.unsettled > 0 && <Alert type="info" showIcon message={t('history.unsettled', { count: page.unsettled })} />}
      actions={
        scope === 'own' && (
          <Space wrap>
            <Button disabled={failed.length === 0} onClick={() => void act(async () => void (await client.copy.retry(failed.map((r) => r.id))))}>
              {t('history.retry', { count: failed.length })}
            </Button>
            <Button
              danger
              disabled={selected.length === 0}
              onClick={() =>
                void act(async () => {
                  const count = await client.copy.remove(selected.map((r) => r.id));
                  void message.success(t('history.deleted', { count }));
                })
              }
            >
              {t('history.delete', { count: selected.length })}
            </Button>
            <Button
              danger
              type="text"
              disabled={page.total === 0}
              onClick={() =>
                modal.confirm({
                  content: t('history.deleteAllConfirm'),
                  onOk: () =>
                    act(async () => {
                      const count = await client.copy.removeAll();
                      void message.success(t('history.deleted', { count }));
                    }),
                })
              }
            >
              {t('history.deleteAll')}
            </Button>
          </Space>
        )
      }
      queryFields={
        <QueryFields
          search={t('history.search')}
          choices={[{ name: 'status', placeholder: t('history.allStatuses'), options: COPY_STATUSES.map((s) => ({ value: s, label: t(`statuses.${s}`) })) }]}
          shops={scope === 'own'}
        />
      }
    />
  );
}
