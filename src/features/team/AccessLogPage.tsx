import { Button, Form, Tag, Typography } from 'antd';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DECISIONS, type AccessLogEntry, type AccessLogPage as AccessLogAnswer, type Decision } from '@contract/accessPolicy';
import { useDataClient } from '@/app/dataClient';
import { useFormats } from '@/app/formats';
import type { DataTableColumn } from '@/components/data-table/DataTable';
import { PagedTable } from '@/components/data-table/PagedTable';
import { QueryFields } from '@/components/data-table/QueryFields';
import type { TableQuery } from '@/components/data-table/pager';
import { presentFilters, usePagedList } from '@/components/data-table/usePagedList';
import { OneLine } from './shared';

type Filters = { search?: string; decision?: Decision };
type Row = AccessLogEntry & Record<string, unknown>;
const DECISION_COLOURS: Record<Decision, string> = { allow: 'green', deny: 'red', stepUp: 'orange', wouldDeny: 'gold' };

/** /team/access-log: what the access policies logged (operationTime, operator, address, operationType, decision, policy). */
export function AccessLogPage() {
  const { t } = useTranslation('access');
  const { t: tt } = useTranslation('team');
  const { time } = useFormats();
  const client = useDataClient();
  const [form] = Form.useForm<Filters>();
  const queryOf = (filters: Filters) => {
    const { search, ...rest } = presentFilters(filters);
    return { ...rest, ...(search ? { keyword: search } : {}) };
  };
  const fetchPage = useCallback((query: TableQuery, filters: Filters) => client.access.log({ ...query, ...queryOf(filters) }), [client]);
  const list = usePagedList<Filters, AccessLogEntry, AccessLogAnswer>(form, { list: [], total: 0 }, fetchPage);
  const exportFile = async () => {
    const blob = await client.access.logExport(queryOf(form.getFieldsValue()));
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = 'access-log.xlsx';
    link.click();
    URL.revokeObjectURL(link.href);
  };
  const columns = useMemo<DataTableColumn<Row>[]>(
    () => [
      { id: 'operationTime', header: t('log.operationTime'), cell: ({ row }) => <OneLine>{time.format(row.original.operationTime)}</OneLine> },
      { id: 'operator', header: t('log.operator'), cell: ({ row }) => <OneLine>{row.original.operator}</OneLine> },
      { id: 'ip', header: t('log.ip'), cell: ({ row }) => row.original.ip },
      {
        id: 'operationType',
        header: t('log.operationType'),
        cell: ({ row }) => (
          <span>
            {tt(`areas.${row.original.area}`, { defaultValue: row.original.area })} · <Typography.Text code>{row.original.call}</Typography.Text>
          </span>
        ),
      },
      { id: 'decision', header: t('log.decision'), cell: ({ row }) => <Tag color={DECISION_COLOURS[row.original.decision]}>{t(`decisions.${row.original.decision}`)}</Tag> },
      { id: 'policy', header: t('log.policy'), cell: ({ row }) => row.original.policyName || '—' },
    ],
    [t, tt, time],
  );
  return (
    <PagedTable<Row, Filters>
      list={list as never}
      form={form}
      columns={columns}
      texts={{ loadFailed: (reason) => tt('loadFailed', { reason }), retry: tt('retry'), empty: t('log.empty') }}
      notice={<Typography.Text type="secondary">{t('log.retention')}</Typography.Text>}
      actions={<Button onClick={() => void exportFile()}>{t('log.export')}</Button>}
      queryFields={<QueryFields search={t('log.search')} searchWidth={240} choices={[{ name: 'decision', placeholder: t('log.allDecisions'), options: DECISIONS.map((decision) => ({ value: decision, label: t(`decisions.${decision}`) })) }]} />}
    />
  );
}
