import { AgCharts } from 'ag-charts-react';
import { AllCommunityModule, ModuleRegistry, type AgCartesianChartOptions, type AgPolarChartOptions } from 'ag-charts-community';
import { Card, Empty } from 'antd';
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { AnalysisAnswer } from '@contract/analysis';
import { toLang } from '@/app/i18n';
import { amountAxis, dayAxis, labelsOn } from '@/components/charts/axes';

ModuleRegistry.registerModules([AllCommunityModule]);

const HEIGHT = 300;

/**
 * Each chart's data is also on its element (`data-chart`), so the browser tests read what is drawn, not pixels. A
 * chart with nothing to draw says why (`empty`) instead of showing an empty frame.
 */
function ChartCard({ title, testId, data, empty, cardRef, children }: {
  title: string;
  testId: string;
  data: unknown;
  empty?: string | null;
  cardRef?: React.Ref<HTMLDivElement>;
  children: React.ReactNode;
}) {
  return (
    <Card ref={cardRef} size="small" title={title} data-testid={testId} data-chart={JSON.stringify(data)}>
      {empty ? (
        <div style={{ height: HEIGHT, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} data-testid={`${testId}-empty`} />
        </div>
      ) : (
        children
      )}
    </Card>
  );
}

const day = (bucket: string) => new Date(`${bucket}T00:00:00Z`);
/** The UI's language and the t of the analysis texts. */
function useChartTexts() {
  const { t, i18n } = useTranslation('analysis');
  return { t, lang: toLang(i18n.language) };
}

export function TrendChart({ answer }: { answer: AnalysisAnswer }) {
  const { t, lang } = useChartTexts();
  const card = useRef<HTMLDivElement>(null);
  const data = useMemo(
    () => answer.series.map((p) => ({ bucket: p.bucket, previousBucket: p.previousBucket, current: p.current.revenue, previous: p.previous.revenue })),
    [answer],
  );
  const options = useMemo<AgCartesianChartOptions>(
    () => ({
      // Drawn over this period's days; the previous period's value sits beside the same step of this one.
      data: data.map((point) => ({ ...point, day: day(point.bucket) })),
      height: HEIGHT,
      series: [
        { type: 'line', xKey: 'day', yKey: 'current', yName: t('charts.current'), marker: { enabled: data.length <= 31 } },
        { type: 'line', xKey: 'day', yKey: 'previous', yName: t('charts.previous'), lineDash: [4, 4], marker: { enabled: false } },
      ],
      axes: { x: dayAxis(lang, 'time'), y: amountAxis(lang, answer.currency, 'left', labelsOn(() => card.current)) },
      legend: { position: 'bottom' },
    }),
    [data, t, lang, answer.currency],
  );
  return (
    <ChartCard cardRef={card} title={t('charts.trend')} testId="chart-trend" data={data} empty={data.length === 0 ? t('empty.noOrders') : null}>
      <AgCharts options={options} />
    </ChartCard>
  );
}

export function ShopChart({ answer }: { answer: AnalysisAnswer }) {
  const { t, lang } = useChartTexts();
  const data = useMemo(() => answer.byShop.map((s) => ({ shop: s.name, revenue: s.revenue, profit: s.profit })), [answer]);
  const options = useMemo<AgCartesianChartOptions>(
    () => ({
      data,
      height: HEIGHT,
      series: [
        { type: 'bar', xKey: 'shop', yKey: 'revenue', yName: t('kpi.revenue') },
        { type: 'bar', xKey: 'shop', yKey: 'profit', yName: t('kpi.profit') },
      ],
      axes: { x: { type: 'category', position: 'bottom' }, y: amountAxis(lang, answer.currency) },
      legend: { position: 'bottom' },
    }),
    [data, t, lang, answer.currency],
  );
  return (
    <ChartCard title={t('charts.shops')} testId="chart-shops" data={data} empty={data.length === 0 ? t('empty.noOrders') : null}>
      <AgCharts options={options} />
    </ChartCard>
  );
}

export function SkuBarChart({ answer, end }: { answer: AnalysisAnswer; end: 'top' | 'bottom' }) {
  const { t, lang } = useChartTexts();
  const data = useMemo(() => {
    const skus = end === 'top' ? answer.topSkus : answer.bottomSkus;
    return skus.map((s) => ({ sku: s.offerId || s.sku, revenue: s.revenue }));
  }, [answer, end]);
  const options = useMemo<AgCartesianChartOptions>(
    () => ({
      data,
      height: HEIGHT,
      series: [{ type: 'bar', direction: 'horizontal', xKey: 'sku', yKey: 'revenue', yName: t('kpi.revenue'), fill: end === 'top' ? '#1677ff' : '#fa8c16' }],
      axes: { x: { type: 'category', position: 'left' }, y: amountAxis(lang, answer.currency, 'bottom') },
      legend: { enabled: false },
    }),
    [data, t, end, lang, answer.currency],
  );
  return (
    <ChartCard title={t(end === 'top' ? 'charts.top' : 'charts.bottom')} testId={`chart-${end}`} data={data} empty={data.length === 0 ? t('empty.noSkus') : null}>
      <AgCharts options={options} />
    </ChartCard>
  );
}

export function CategoryChart({ answer }: { answer: AnalysisAnswer }) {
  const { t } = useChartTexts();
  const data = useMemo(
    () => answer.categories.map((c) => ({ category: c.name || t('charts.uncategorized'), revenue: c.revenue, share: Math.round(c.share * 1000) / 10 })),
    [answer, t],
  );
  const options = useMemo<AgPolarChartOptions>(
    () => ({ data, height: HEIGHT, series: [{ type: 'donut', angleKey: 'revenue', legendItemKey: 'category', innerRadiusRatio: 0.6 }], legend: { position: 'right' } }),
    [data],
  );
  return (
    <ChartCard title={t('charts.categories')} testId="chart-categories" data={data} empty={data.length === 0 ? t('empty.noOrders') : null}>
      <AgCharts options={options} />
    </ChartCard>
  );
}

export function AbcChart({ answer }: { answer: AnalysisAnswer }) {
  const { t, lang } = useChartTexts();
  const data = useMemo(
    () => answer.abc.map((c) => ({ abc: t('charts.abcClass', { abc: c.abc, n: c.skus }), revenue: c.revenue, share: Math.round(c.share * 1000) / 10, skus: c.skus })),
    [answer, t],
  );
  const options = useMemo<AgCartesianChartOptions>(
    () => ({
      data,
      height: HEIGHT,
      series: [{ type: 'bar', xKey: 'abc', yKey: 'revenue', yName: t('kpi.revenue'), label: { formatter: ({ datum }: { datum: { share: number } }) => `${datum.share}%` } }],
      axes: { x: { type: 'category', position: 'bottom' }, y: amountAxis(lang, answer.currency) },
      legend: { enabled: false },
    }),
    [data, t, lang, answer.currency],
  );
  return (
    <ChartCard title={t('charts.abc')} testId="chart-abc" data={data} empty={data.every((c) => c.skus === 0) ? t('empty.noSkus') : null}>
      <AgCharts options={options} />
    </ChartCard>
  );
}
