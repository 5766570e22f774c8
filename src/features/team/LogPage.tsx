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
import { changeLines, type ChangeTexts } from './logChanges';
import { OneLine, shopNames, useTeamOverview } from './shared';

type Filters = { search?: string; module?: string; action?: (typeof PERMISSION_ACTIONS)[number]; shopId?: number };
type Row = LogEntry & Record<string, unknown>;


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
  const changeTexts = useMemo<ChangeTexts>(
    () => ({
      label: (key) => t(`fields.${key}`, { defaultValue: '' }) || null,
      shops: (ids) => shopNames(overview, ids, t),
      byRole: t('member.shopsByRole'),
      allShops: t('allShops'),
      separator: t('listSeparator'),
      yes: t('yes'),
      no: t('no'),
      status: (value) => t(`member.${value}`, { defaultValue: value }),
      dataScope: (value) => t(`role.scopes.${value}`, { defaultValue: value }),
      permission: (value) => {
        const [area = '', action = ''] = value.split(':');
        return `${t(`areas.${area}`, { defaultValue: area })}·${t(`permActions.${action}`, { defaultValue: action })}`;
      },
    }),
    [t, overview],
  );
  const columns = useMemo<DataTableColumn<Row>[]>(
    () => [
      { id: 'at', header: t('log.at'), cell: ({ row }) => <OneLine>{time.format(row.original.at)}</OneLine> },
      { id: 'member', header: t('log.member'), cell: ({ row }) => row.original.actorName },
      { id: 'ip', header: t('log.ip'), cell: ({ row }) => row.original.ip },
      { id: 'module', header: t('log.module'), cell: ({ row }) => <OneLine>{t(`areas.${row.original.module}`, { defaultValue: row.original.module })}</OneLine> },
      { id: 'action', header: t('log.action'), cell: ({ row }) => <OneLine>{t(`permActions.${row.original.action}`, { defaultValue: row.original.action })}</OneLine> },
      { id: 'record', header: t('log.record'), cell: ({ row }) => <Typography.Text style={{ maxWidth: 220, fontSize: 12 }} ellipsis={{ tooltip: row.original.record }}>{row.original.record}</Typography.Text> },
      { id: 'shops', header: t('log.shops'), cell: ({ row }) => (row.original.shopIds.length ? shopNames(overview, row.original.shopIds, t) : '—') },
      {
        id: 'changes',
        header: t('log.changes'),
        cell: ({ row }) => {
          const lines = changeLines(row.original.before, row.original.after, changeTexts);
          if (lines.length === 0) return '—';
          return (
            <div className="team-log-change" style={{ minWidth: 240, maxWidth: 420, fontSize: 12 }}>
              {lines.map((line) => (
                <div key={line.label}>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t('log.field', { label: line.label })}
                  </Typography.Text>
                  {line.text}
                </div>
              ))}
            </div>
          );
        },
      },
    ],
    [t, time, overview, changeTexts],
  );
  return (
    <PagedTable<Row, Filters>
      list={list as never}
      form={form}
      columns={columns}
      texts={{ loadFailed: (reason) => t('loadFailed', { reason }), retry: t('retry'), empty: t('emptyHint.log') }}
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
