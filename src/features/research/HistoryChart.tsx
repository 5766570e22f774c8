import { AgCharts } from 'ag-charts-react';
import { AllCartesianModule, ModuleRegistry, type AgCartesianChartOptions } from 'ag-charts-community';
import { Empty } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { toLang } from '@/app/i18n';
import { amountAxis, dayAxis } from '@/components/charts/axes';

ModuleRegistry.registerModules([AllCartesianModule]);

type Point = { date: Date; value: number };
const DAY_MS = 86_400_000;

/**
 * A daily series from its first day, drawn with ag-charts (bars for counts, a line for prices). Every chart of one
 * `from` and length covers the same days (one band a day), so a drawer's charts line up; with nothing but zeros it
 * says `empty` instead.
 */
export function HistoryChart({ from, values, name, kind, empty, currency, height = 220 }: {
  from: string;
  values: number[];
  name: string;
  kind: 'bar' | 'line';
  /** Why there is nothing to draw, shown when every value is 0. */
  empty: string;
  /** The values' currency, for an axis of amounts. */
  currency?: string;
  height?: number;
}) {
  const { i18n } = useTranslation();
  const lang = toLang(i18n.language);
  const nothing = values.every((value) => value === 0);
  const options = useMemo<AgCartesianChartOptions<Point>>(() => {
    const start = Date.parse(`${from}T00:00:00Z`);
    const data = values.map((value, day) => ({ date: new Date(start + day * DAY_MS), value }));
    return {
      data,
      height,
      series: [kind === 'bar' ? { type: 'bar', xKey: 'date', yKey: 'value', yName: name } : { type: 'line', xKey: 'date', yKey: 'value', yName: name, marker: { enabled: false }, interpolation: { type: 'step' } }],
      axes: { x: dayAxis(lang, 'unit-time', { from: start, to: start + Math.max(0, values.length - 1) * DAY_MS }), y: amountAxis(lang, currency) },
      legend: { enabled: false },
    } as AgCartesianChartOptions<Point>;
  }, [from, values, name, kind, height, lang, currency]);
  return (
    <div data-testid={`chart-${name}`} data-points={values.length} data-sum={values.reduce((a, b) => a + b, 0)}>
      {nothing ? (
        <div style={{ height, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} />
        </div>
      ) : (
        <AgCharts options={options} />
      )}
    </div>
  );
}
