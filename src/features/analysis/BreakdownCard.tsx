import { Card, Segmented, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { AnalysisAnswer, AnalysisBreakdown } from '@contract/analysis';
import { money, percent } from './format';

type BreakdownRow = AnalysisAnswer['breakdown'][number] & { share: number; others?: boolean };
type BreakdownCardProps = { answer: AnalysisAnswer; breakdown: AnalysisBreakdown; onChange: (breakdown: AnalysisBreakdown) => void };

/** The period by shop, category, warehouse or SKU: what each part sold, cost and earned, and its share. */
export function BreakdownCard({ answer, breakdown, onChange }: BreakdownCardProps) {
  const { t } = useTranslation('analysis');
  const rows = useMemo<BreakdownRow[]>(() => {
    const total = answer.totals.revenue;
    const share = (revenue: number) => (total > 0 ? revenue / total : 0);
    const parts: BreakdownRow[] = answer.breakdown.map((part) => ({ ...part, share: share(part.revenue) }));
    const others = answer.breakdownOthers;
    if (others) parts.push({ ...others, key: '*others', name: t('breakdown.others', { n: others.count }), share: share(others.revenue), others: true });
    return parts;
  }, [answer, t]);
  const m = (n: number) => money(n, answer.currency);
  const columns: ColumnsType<BreakdownRow> = [
    {
      title: t('breakdown.name'),
      dataIndex: 'name',
      key: 'name',
      ellipsis: true,
      render: (name: string, row) => (row.others ? <i>{name}</i> : name || (breakdown === 'category' ? t('charts.uncategorized') : row.key)),
    },
    { title: t('kpi.revenue'), dataIndex: 'revenue', key: 'revenue', align: 'right', render: m },
    { title: t('breakdown.share'), dataIndex: 'share', key: 'share', align: 'right', render: percent },
    { title: t('kpi.orders'), dataIndex: 'orders', key: 'orders', align: 'right', render: (n: number) => n.toLocaleString() },
    { title: t('kpi.units'), dataIndex: 'units', key: 'units', align: 'right', render: (n: number) => n.toLocaleString() },
    { title: t('kpi.commissionFees'), key: 'fees', align: 'right', render: (_: unknown, row) => m(row.commission + row.fees) },
    { title: t('kpi.cost'), dataIndex: 'cost', key: 'cost', align: 'right', render: m },
    { title: t('kpi.profit'), dataIndex: 'profit', key: 'profit', align: 'right', render: m },
    { title: t('kpi.margin'), dataIndex: 'margin', key: 'margin', align: 'right', render: (n: number | null) => (n === null ? '—' : percent(n)) },
  ];
  return (
    <Card
      size="small"
      title={t('breakdown.title')}
      data-testid="breakdown"
      data-chart={JSON.stringify(rows.map((r) => ({ key: r.key, name: r.name, revenue: r.revenue, share: r.share })))}
      extra={
        <Segmented<AnalysisBreakdown>
          size="small"
          value={breakdown}
          onChange={onChange}
          options={(['shop', 'category', 'warehouse', 'sku'] as const).map((b) => ({ value: b, label: t(`breakdown.by.${b}`) }))}
          data-testid="breakdown-picker"
        />
      }
    >
      <Table<BreakdownRow> className="analysis-table" rowKey="key" size="small" columns={columns} dataSource={rows} pagination={false} scroll={{ x: 'max-content', y: 360 }} />
    </Card>
  );
}
