import { Button, Form, Typography } from 'antd';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { PERMISSION_ACTIONS } from '@contract/access';
import type { LogEntry, LogPage as LogAnswer } from '@contract/team';
import { useDataClient } from '@/app/dataClient';
import { useFormats } from '@/app/formats';
import type { DataTableColumn } from '@/components/data-table/DataTable';
import { PagedTable } from '@/components/data-table/PagedTable';
import { QueryFields } from '@/components/data-table/QueryFields';
import type { TableQuery } from '@/components/data-table/pager';
import { presentFilters, usePagedList } from '@/components/data-table/usePagedList';
import { shopNames, useTeamOverview } from './shared';

type Filters = { search?: string; module?: string; action?: (typeof PERMISSION_ACTIONS)[number]; shopId?: number };
type Row = LogEntry & Record<string, unknown>;

const json = (value: unknown) => (value === null || value === undefined ? '—' : JSON.stringify(value));

/** /team/log: every write of the organisation, who, when, from where, and the fields before and after. */
export function LogPage() {
  const { t } = useTranslation('team');
  const { time } = useFormats();
  const client = useDataClient();
  const { overview } = useTeamOverview();
  const [form] = Form.useForm<Filters>();
  const fetchPage = useCallback(
    (query: TableQuery, filters: Filters) => {
      const { search, ...rest } = presentFilters(filters);
      return client.team.log({ ...query, ...rest, ...(search ? { keyword: search } : {}) });
    },
    [client],
  );
  const list = usePagedList<Filters, LogEntry, LogAnswer>(form, { list: [], total: 0 }, fetchPage);
  const exportFile = async () => {
    const { search, ...rest } = presentFilters(form.getFieldsValue());
    const blob = await client.team.logExport({ ...rest, ...(search ? { keyword: search } : {}) });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = 'operation-log.xlsx';
    link.click();
    URL.revokeObjectURL(link.href);
  };
  const areas = overview?.catalogue.map((entry) => entry.area) ?? [];
  const columns = useMemo<DataTableColumn<Row>[]>(
    () => [
      { id: 'at', header: t('log.at'), cell: ({ row }) => time.format(row.original.at) },
      { id: 'member', header: t('log.member'), cell: ({ row }) => row.original.actorName },
      { id: 'ip', header: t('log.ip'), cell: ({ row }) => row.original.ip },
      { id: 'module', header: t('log.module'), cell: ({ row }) => (t(`areas.${row.original.module}`, { defaultValue: row.original.module }) as string) },
      { id: 'action', header: t('log.action'), cell: ({ row }) => (t(`permActions.${row.original.action}`, { defaultValue: row.original.action }) as string) },
      { id: 'record', header: t('log.record'), cell: ({ row }) => <Typography.Text style={{ maxWidth: 280, fontSize: 12 }} ellipsis={{ tooltip: row.original.record }}>{row.original.record}</Typography.Text> },
      { id: 'shops', header: t('log.shops'), cell: ({ row }) => (row.original.shopIds.length ? shopNames(overview, row.original.shopIds, '') : '—') },
      { id: 'before', header: t('log.before'), cell: ({ row }) => <Typography.Text className="team-log-change" style={{ maxWidth: 260, fontSize: 12 }} ellipsis={{ tooltip: json(row.original.before) }}>{json(row.original.before)}</Typography.Text> },
      { id: 'after', header: t('log.after'), cell: ({ row }) => <Typography.Text className="team-log-change" style={{ maxWidth: 260, fontSize: 12 }} ellipsis={{ tooltip: json(row.original.after) }}>{json(row.original.after)}</Typography.Text> },
    ],
    [t, time, overview],
  );
  return (
    <PagedTable<Row, Filters>
      list={list as never}
      form={form}
      columns={columns}
      texts={{ loadFailed: (reason) => t('loadFailed', { reason }), retry: t('retry'), empty: t('empty') }}
      notice={<Typography.Text type="secondary">{t('log.retention')}</Typography.Text>}
      actions={<Button onClick={() => void exportFile()}>{t('log.export')}</Button>}
      queryFields={
        <QueryFields
          search={t('log.search')}
          choices={[
            { name: 'module', placeholder: t('log.allModules'), options: areas.map((area) => ({ value: area, label: t(`areas.${area}`, { defaultValue: area }) as string })) },
            { name: 'action', placeholder: t('log.allActions'), options: PERMISSION_ACTIONS.map((action) => ({ value: action, label: t(`permActions.${action}`) })) },
          ]}
          shops
        />
      }
    />
  );
}
