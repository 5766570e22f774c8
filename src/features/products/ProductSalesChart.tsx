import { AgCharts } from 'ag-charts-react';
import { AllCartesianModule, ModuleRegistry, type AgCartesianChartOptions } from 'ag-charts-community';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProductInfo } from '@contract/products';
import { toLang } from '@/app/i18n';
import { amountAxis, dayAxis } from '@/components/charts/axes';

ModuleRegistry.registerModules([AllCartesianModule]);

/** A product's units sold per day over the last 30 days (the drawer's chart, loaded with its own chunk). */
export function ProductSalesChart({ sales }: { sales: ProductInfo['sales'] }) {
  const { t, i18n } = useTranslation('products');
  const lang = toLang(i18n.language);
  const options = useMemo<AgCartesianChartOptions<{ day: Date; units: number }>>(
    () => ({
      data: sales.map((s) => ({ day: new Date(`${s.day}T00:00:00Z`), units: s.units })),
      height: 200,
      series: [{ type: 'bar', xKey: 'day', yKey: 'units', yName: t('units') }],
      axes: { x: dayAxis(lang, 'unit-time'), y: amountAxis(lang) },
      legend: { enabled: false },
    }),
    [sales, t, lang],
  );
  return (
    <div data-testid="product-sales-chart">
      <AgCharts options={options} />
    </div>
  );
}
