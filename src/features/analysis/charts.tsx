import { AgCharts } from 'ag-charts-react';
import { AllCommunityModule, ModuleRegistry, type AgCartesianChartOptions, type AgPolarChartOptions } from 'ag-charts-community';
import { Card } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { AnalysisAnswer } from '@contract/analysis';

ModuleRegistry.registerModules([AllCommunityModule]);

const HEIGHT = 300;

/** Each chart's data is also on its element (`data-chart`), so the browser tests read what is drawn, not pixels. */
function ChartCard({ title, testId, data, children }: { title: string; testId: string; data: unknown; children: React.ReactNode }) {
  return (
    <Card size="small" title={title} data-testid={testId} data-chart={JSON.stringify(data)}>
      {children}
    </Card>
  );
}

export function TrendChart({ answer }: { answer: AnalysisAnswer }) {
  const { t } = useTranslation('analysis');
  const data = useMemo(
    () => answer.series.map((p) => ({ bucket: p.bucket, previousBucket: p.previousBucket, current: p.current.revenue, previous: p.previous.revenue })),
    [answer],
  );
  const options = useMemo<AgCartesianChartOptions>(
    () => ({
      data,
      height: HEIGHT,
      series: [
        { type: 'line', xKey: 'bucket', yKey: 'current', yName: t('charts.current'), marker: { enabled: data.length <= 31 } },
        { type: 'line', xKey: 'bucket', yKey: 'previous', yName: t('charts.previous'), lineDash: [4, 4], marker: { enabled: false } },
      ],
      axes: { x: { type: 'category', position: 'bottom' }, y: { type: 'number', position: 'left' } },
      legend: { position: 'bottom' },
    }),
    [data, t],
  );
  return (
    <ChartCard title={t('charts.trend')} testId="chart-trend" data={data}>
      <AgCharts options={options} />
    </ChartCard>
  );
}

export function ShopChart({ answer }: { answer: AnalysisAnswer }) {
  const { t } = useTranslation('analysis');
  const data = useMemo(() => answer.byShop.map((s) => ({ shop: s.name, revenue: s.revenue, profit: s.profit })), [answer]);
  const options = useMemo<AgCartesianChartOptions>(
    () => ({
      data,
      height: HEIGHT,
      series: [
        { type: 'bar', xKey: 'shop', yKey: 'revenue', yName: t('kpi.revenue') },
        { type: 'bar', xKey: 'shop', yKey: 'profit', yName: t('kpi.profit') },
      ],
      legend: { position: 'bottom' },
    }),
    [data, t],
  );
  return (
    <ChartCard title={t('charts.shops')} testId="chart-shops" data={data}>
      <AgCharts options={options} />
    </ChartCard>
  );
}

export function SkuBarChart({ answer, end }: { answer: AnalysisAnswer; end: 'top' | 'bottom' }) {
  const { t } = useTranslation('analysis');
  const data = useMemo(() => {
    const skus = end === 'top' ? answer.topSkus : answer.bottomSkus;
    return skus.map((s) => ({ sku: s.offerId || s.sku, revenue: s.revenue }));
  }, [answer, end]);
  const options = useMemo<AgCartesianChartOptions>(
    () => ({
      data,
      height: HEIGHT,
      series: [{ type: 'bar', direction: 'horizontal', xKey: 'sku', yKey: 'revenue', yName: t('kpi.revenue'), fill: end === 'top' ? '#1677ff' : '#fa8c16' }],
      legend: { enabled: false },
    }),
    [data, t, end],
  );
  return (
    <ChartCard title={t(end === 'top' ? 'charts.top' : 'charts.bottom')} testId={`chart-${end}`} data={data}>
      <AgCharts options={options} />
    </ChartCard>
  );
}

export function CategoryChart({ answer }: { answer: AnalysisAnswer }) {
  const { t } = useTranslation('analysis');
  const data = useMemo(
    () => answer.categories.map((c) => ({ category: c.name || t('charts.uncategorized'), revenue: c.revenue, share: Math.round(c.share * 1000) / 10 })),
    [answer, t],
  );
  const options = useMemo<AgPolarChartOptions>(
    () => ({ data, height: HEIGHT, series: [{ type: 'donut', angleKey: 'revenue', legendItemKey: 'category', innerRadiusRatio: 0.6 }], legend: { position: 'right' } }),
    [data],
  );
  return (
    <ChartCard title={t('charts.categories')} testId="chart-categories" data={data}>
      <AgCharts options={options} />
    </ChartCard>
  );
}

export function AbcChart({ answer }: { answer: AnalysisAnswer }) {
  const { t } = useTranslation('analysis');
  const data = useMemo(
    () => answer.abc.map((c) => ({ abc: t('charts.abcClass', { abc: c.abc, n: c.skus }), revenue: c.revenue, share: Math.round(c.share * 1000) / 10, skus: c.skus })),
    [answer, t],
  );
  const options = useMemo<AgCartesianChartOptions>(
    () => ({
      data,
      height: HEIGHT,
      series: [{ type: 'bar', xKey: 'abc', yKey: 'revenue', yName: t('kpi.revenue'), label: { formatter: ({ datum }: { datum: { share: number } }) => `${datum.share}%` } }],
      legend: { enabled: false },
    }),
    [data, t],
  );
  return (
    <ChartCard title={t('charts.abc')} testId="chart-abc" data={data}>
      <AgCharts options={options} />
    </ChartCard>
  );
}
