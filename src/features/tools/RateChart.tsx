import { Alert, Empty, Skeleton } from 'antd';
import { AgCharts } from 'ag-charts-react';
import { AllCartesianModule, ModuleRegistry, type AgCartesianChartOptions } from 'ag-charts-community';
import dayjs from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { HistoryAnswer } from '@contract/tools';
import { isApiFailure } from '@workers/api';
import { useDataClient } from '@/app/dataClient';
import { toLang } from '@/app/i18n';
import { dayAxis } from '@/components/charts/axes';

ModuleRegistry.registerModules([AllCartesianModule]);

export type Period = 'm1' | 'm3' | 'm6' | 'y1';
const MONTHS: Record<Period, number> = { m1: 1, m3: 3, m6: 6, y1: 12 };

type Point = { date: Date; rate: number };

/** Roubles per unit on each date of a history (the rouble itself is 1 on every date). */
function perUnit(history: HistoryAnswer | null): Map<string, number> | null {
  if (!history) return null;
  return new Map(history.points.map((point) => [point.date, Number(point.value) / point.nominal]));
}

/**
 * One unit of `from` in `to` over a period, from the bank's rates of both against the rouble (a cross rate on each
 * date both were set), drawn with ag-charts.
 */
export function RateChart({ from, to, period, until }: { from: string; to: string; period: Period; until: string }) {
  const client = useDataClient();
  const { t, i18n } = useTranslation('tools');
  const lang = toLang(i18n.language);
  const [histories, setHistories] = useState<{ key: string; from: HistoryAnswer | null; to: HistoryAnswer | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const start = dayjs(until).subtract(MONTHS[period], 'month').format('YYYY-MM-DD');
  const key = `${from}|${to}|${start}|${until}`;

  useEffect(() => {
    if (from === to) return;
    let current = true;
    setError(null);
    const load = (code: string) => (code === 'RUB' ? Promise.resolve(null) : client.tools.history({ code, from: start, to: until }));
    Promise.all([load(from), load(to)]).then(
      ([fromHistory, toHistory]) => current && setHistories({ key, from: fromHistory, to: toHistory }),
      (failure: unknown) => current && setError(isApiFailure(failure) ? failure.message : String(failure)),
    );
    return () => {
      current = false;
    };
  }, [client, from, to, start, until, key]);

  const points = useMemo<Point[]>(() => {
    if (!histories || histories.key !== key) return [];
    const fromRates = perUnit(histories.from);
    const toRates = perUnit(histories.to);
    const dates = [...(fromRates ?? toRates ?? new Map<string, number>()).keys()];
    const result: Point[] = [];
    for (const date of dates) {
      const a = fromRates ? fromRates.get(date) : 1;
      const b = toRates ? toRates.get(date) : 1;
      if (a !== undefined && b !== undefined && b > 0) result.push({ date: new Date(`${date}T00:00:00Z`), rate: a / b });
    }
    return result;
  }, [histories, key]);

  const options = useMemo<AgCartesianChartOptions<Point>>(
    () => ({
      data: points,
      height: 320,
      series: [{ type: 'line', xKey: 'date', yKey: 'rate', yName: t('rates.historyOf', { from, to }), marker: { enabled: false } }],
      axes: {
        x: dayAxis(lang, 'time'),
        y: { type: 'number', position: 'left', label: { formatter: ({ value }: { value: number }) => value.toPrecision(5) } },
      },
      legend: { enabled: false },
    }),
    [points, from, to, t, lang],
  );

  if (from === to) return <Empty description={t('rates.sameCurrency')} />;
  if (error) return <Alert type="error" showIcon title={error} />;
  if (!histories || histories.key !== key) return <Skeleton active />;
  const incomplete = histories.from?.complete === false || histories.to?.complete === false;
  return (
    <div data-testid="rate-chart">
      {incomplete ? <Alert type="warning" showIcon title={t('rates.incomplete')} style={{ marginBottom: 8 }} /> : null}
      {points.length === 0 ? <Empty description={t('rates.noHistory')} /> : <AgCharts options={options} />}
    </div>
  );
}
