import { App, Button, Form, Popconfirm } from 'antd';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { OnlineSession } from '@contract/team';
import { useDataClient } from '@/app/dataClient';
import { useFormats } from '@/app/formats';
import type { DataTableColumn } from '@/components/data-table/DataTable';
import { PagedTable } from '@/components/data-table/PagedTable';
import type { TableQuery } from '@/components/data-table/pager';
import { usePagedList } from '@/components/data-table/usePagedList';

type Row = OnlineSession & { id: number } & Record<string, unknown>;

/** /team/online: the organisation's open sessions with their last activity and address; end one. */
export function OnlinePage() {
  const { t } = useTranslation('team');
  const { time } = useFormats();
  const client = useDataClient();
  const { message } = App.useApp();
  const [form] = Form.useForm<Record<string, never>>();
  const fetchPage = useCallback(
    async (query: TableQuery) => {
      const page = await client.team.online(query);
      return { total: page.total, list: page.list.map((session) => ({ ...session, id: session.sessionId })) };
    },
    [client],
  );
  const list = usePagedList<Record<string, never>, Row, { list: Row[]; total: number }>(form, { list: [], total: 0 }, fetchPage);
  const { act } = list;
  const columns = useMemo<DataTableColumn<Row>[]>(
    () => [
      { id: 'name', header: t('online.name'), cell: ({ row }) => row.original.name },
      { id: 'createdAt', header: t('online.createdAt'), cell: ({ row }) => time.format(row.original.createdAt) },
      { id: 'lastSeenAt', header: t('online.lastSeenAt'), cell: ({ row }) => time.format(row.original.lastSeenAt) },
      { id: 'ip', header: t('online.ip'), cell: ({ row }) => row.original.ip || '—' },
      {
        id: 'actions',
        header: t('actions'),
        cell: ({ row }) => (
          <Popconfirm
            title={t('online.confirmEnd', { name: row.original.name })}
            onConfirm={() =>
              act(async () => {
                await client.team.endSession(row.original.sessionId);
                void message.success(t('online.ended'));
              })
            }
          >
            <Button size="small" type="link" danger>
              {t('online.end')}
            </Button>
          </Popconfirm>
        ),
      },
    ],
    [t, time, act, client, message],
  );
  return (
    <PagedTable<Row, Record<string, never>>
      list={list as never}
      form={form}
      columns={columns}
      texts={{ loadFailed: (reason) => t('loadFailed', { reason }), retry: t('retry'), empty: t('emptyHint.online') }}
      queryFields={null}
    />
  );
}
