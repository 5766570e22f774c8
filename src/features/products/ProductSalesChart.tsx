import { AgCharts } from 'ag-charts-react';
import { AllCartesianModule, ModuleRegistry, type AgCartesianChartOptions } from 'ag-charts-community';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProductInfo } from '@contract/products';

ModuleRegistry.registerModules([AllCartesianModule]);

/** A product's units sold per day over the last 30 days (the drawer's chart, loaded with its own chunk). */
export function ProductSalesChart({ sales }: { sales: ProductInfo['sales'] }) {
  const { t } = useTranslation('products');
  const options = useMemo<AgCartesianChartOptions<{ day: Date; units: number }>>(
    () => ({
      data: sales.map((s) => ({ day: new Date(`${s.day}T00:00:00Z`), units: s.units })),
      height: 200,
      series: [{ type: 'bar', xKey: 'day', yKey: 'units', yName: t('units') }],
      axes: { x: { type: 'time', position: 'bottom' }, y: { type: 'number', position: 'left' } },
      legend: { enabled: false },
    }),
    [sales, t],
  );
  return (
    <div data-testid="product-sales-chart">
      <AgCharts options={options} />
    </div>
  );
}
