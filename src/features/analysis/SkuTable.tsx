import { Alert, Button, Card, Input, Select, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType, SorterResult, SortOrder } from 'antd/es/table/interface';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AbcClass, AnalysisAnswer, AnalysisFigures, AnalysisSku, AnalysisSkuPage, AnalysisSkuSort } from '@contract/analysis';
import { isApiFailure } from '@workers/api';
import { useDataClient } from '@/app/dataClient';
import { download } from '@/components/download';
import { money, percent } from './format';

type SkuTableProps = { answer: AnalysisAnswer; shopIds: number[] };
type Sorting = { sort: AnalysisSkuSort; order: 'asc' | 'desc' };

const failureText = (failure: unknown) => (isApiFailure(failure) ? failure.message : String(failure));

/** The period's SKUs, a page at a time from the server (sorted, searched and narrowed there), exportable whole. */
export function SkuTable({ answer, shopIds }: SkuTableProps) {
  const { t } = useTranslation('analysis');
  const client = useDataClient();
  const { from, to } = answer.period;
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState(20);
  const [sorting, setSorting] = useState<Sorting>({ sort: 'revenue', order: 'desc' });
  const [search, setSearch] = useState('');
  const [abc, setAbc] = useState<AbcClass | undefined>(undefined);
  const [data, setData] = useState<AnalysisSkuPage | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [exporting, setExporting] = useState<'xlsx' | 'csv' | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);

  // A new period, shop set, sort, search or class starts again from the first page.
  const [scope, setScope] = useState('');
  const nextScope = JSON.stringify([from, to, shopIds, sorting, search, abc]);
  if (scope !== nextScope) {
    setScope(nextScope);
    setPage(1);
  }

  useEffect(() => {
    let current = true;
    setLoading(true);
    setError(null);
    client.analysis.skus({ from, to, shopIds, page, rows, ...sorting, search: search || undefined, abc }).then(
      (result) => current && (setData(result), setLoading(false)),
      (failure: unknown) => current && (setError(failureText(failure)), setLoading(false)),
    );
    return () => {
      current = false;
    };
  }, [client, from, to, shopIds, page, rows, sorting, search, abc, answer]);

  const exportAs = useCallback(
    (format: 'xlsx' | 'csv') => {
      setExporting(format);
      setExportError(null);
      client.analysis
        .exportSkus({ from, to, shopIds, ...sorting, search: search || undefined, abc, format })
        .then(
          (bytes) => download(`sales-${from}-${to}.${format}`, new Blob([bytes], { type: format === 'csv' ? 'text/csv;charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' })),
          (failure: unknown) => setExportError(failureText(failure)),
        )
        .finally(() => setExporting(null));
    },
    [client, from, to, shopIds, sorting, search, abc],
  );

  const shopName = (id: number) => answer.shops.find((s) => s.id === id)?.name ?? '';
  const m = (n: number) => money(n, answer.currency);
  const sortOrder = (key: AnalysisSkuSort): SortOrder => (sorting.sort === key ? (sorting.order === 'asc' ? 'ascend' : 'descend') : null);
  const num = (key: keyof AnalysisFigures & AnalysisSkuSort, title: string, format: (n: number) => string = (n) => n.toLocaleString()) => ({
    title,
    dataIndex: key,
    key,
    align: 'right' as const,
    sorter: true,
    sortOrder: sortOrder(key),
    render: (v: number | null) => (v === null ? '—' : format(v)),
  });
  const columns: ColumnsType<AnalysisSku> = [
    { title: t('table.sku'), dataIndex: 'sku', key: 'sku', fixed: 'left', width: 120, sorter: true, sortOrder: sortOrder('sku') },
    { title: t('table.offerId'), dataIndex: 'offerId', key: 'offerId', width: 120, sorter: true, sortOrder: sortOrder('offerId') },
    { title: t('table.name'), dataIndex: 'name', key: 'name', ellipsis: true, width: 220, sorter: true, sortOrder: sortOrder('name') },
    { title: t('table.shop'), dataIndex: 'shopId', key: 'shop', width: 140, render: (id: number) => shopName(id) },
    { title: t('table.abc'), dataIndex: 'abc', key: 'abc', width: 70, render: (cls: string) => <Tag color={cls === 'A' ? 'green' : cls === 'B' ? 'gold' : 'default'}>{cls}</Tag> },
    num('revenue', t('kpi.revenue'), m),
    num('orders', t('kpi.orders')),
    num('units', t('kpi.units')),
    num('averagePrice', t('kpi.averagePrice'), m),
    num('cancellations', t('kpi.cancellations')),
    num('returns', t('kpi.returns')),
    num('commission', t('kpi.commissionFees'), m),
    num('payout', t('kpi.payout'), m),
    { ...num('cost', t('kpi.cost'), m), render: (v: number, row: AnalysisSku) => (row.costMissing ? <Tag>{t('table.costMissing')}</Tag> : m(v)) },
    num('profit', t('kpi.profit'), m),
    num('margin', t('kpi.margin'), percent),
  ];

  return (
    <Card
      size="small"
      title={t('table.title')}
      extra={
        <Space>
          <Button size="small" loading={exporting === 'xlsx'} onClick={() => exportAs('xlsx')} data-testid="export-xlsx">
            {t('table.exportXlsx')}
          </Button>
          <Button size="small" loading={exporting === 'csv'} onClick={() => exportAs('csv')} data-testid="export-csv">
            {t('table.exportCsv')}
          </Button>
        </Space>
      }
    >
      <Space orientation="vertical" size={8} style={{ width: '100%' }}>
        <Space wrap>
          <Input.Search allowClear placeholder={t('table.search')} style={{ width: 260 }} onSearch={(value) => setSearch(value.trim())} data-testid="sku-search" />
          <Select<AbcClass | 'all'>
            style={{ width: 140 }}
            value={abc ?? 'all'}
            onChange={(value) => setAbc(value === 'all' ? undefined : value)}
            options={[{ value: 'all', label: t('table.abcAll') }, ...(['A', 'B', 'C'] as const).map((cls) => ({ value: cls, label: `${cls}` }))]}
            data-testid="sku-abc"
          />
          {data ? <Typography.Text type="secondary">{t('table.total', { n: data.total })}</Typography.Text> : null}
        </Space>
        {error ? <Alert type="error" showIcon title={error} /> : null}
        {exportError ? <Alert type="error" showIcon closable title={t('table.exportFailed', { reason: exportError })} /> : null}
        <Table<AnalysisSku>
          className="analysis-table"
          rowKey="sku"
          size="small"
          columns={columns}
          dataSource={data?.list ?? []}
          loading={loading}
          scroll={{ x: 'max-content' }}
          pagination={{ current: page, pageSize: rows, total: data?.total ?? 0, showSizeChanger: true, pageSizeOptions: [20, 50, 100, 200] }}
          onChange={(pagination, _filters, sorter) => {
            const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<AnalysisSku> | undefined;
            const key = (s?.order ? s.columnKey : undefined) as AnalysisSkuSort | undefined;
            const next: Sorting = key ? { sort: key, order: s?.order === 'ascend' ? 'asc' : 'desc' } : { sort: 'revenue', order: 'desc' };
            if (next.sort !== sorting.sort || next.order !== sorting.order) setSorting(next);
            else {
              setPage(pagination.current ?? 1);
              setRows(pagination.pageSize ?? rows);
            }
          }}
          data-testid="sku-table"
        />
      </Space>
    </Card>
  );
}
