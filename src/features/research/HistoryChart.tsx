import { AgCharts } from 'ag-charts-react';
import { AllCartesianModule, ModuleRegistry, type AgCartesianChartOptions } from 'ag-charts-community';
import { useMemo } from 'react';

ModuleRegistry.registerModules([AllCartesianModule]);

type Point = { date: Date; value: number };

/** A daily series from its first day, drawn with ag-charts (bars for counts, a line for prices). */
export function HistoryChart({ from, values, name, kind, height = 220 }: { from: string; values: number[]; name: string; kind: 'bar' | 'line'; height?: number }) {
  const options = useMemo<AgCartesianChartOptions<Point>>(() => {
    const start = Date.parse(`${from}T00:00:00Z`);
    const data = values.map((value, day) => ({ date: new Date(start + day * 86_400_000), value }));
    return {
      data,
      height,
      series: [kind === 'bar' ? { type: 'bar', xKey: 'date', yKey: 'value', yName: name } : { type: 'line', xKey: 'date', yKey: 'value', yName: name, marker: { enabled: false }, interpolation: { type: 'step' } }],
      axes: { x: { type: kind === 'bar' ? 'unit-time' : 'time', position: 'bottom' }, y: { type: 'number', position: 'left' } },
      legend: { enabled: false },
    } as AgCartesianChartOptions<Point>;
  }, [from, values, name, kind, height]);
  return (
    <div data-testid={`chart-${name}`} data-points={values.length} data-sum={values.reduce((a, b) => a + b, 0)}>
      <AgCharts options={options} />
    </div>
  );
}
