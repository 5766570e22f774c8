import { Alert, Button, Card, Col, DatePicker, Empty, Row, Segmented, Select, Skeleton, Space, Statistic, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AnalysisAnswer, AnalysisBreakdown, AnalysisFigures, AnalysisGrouping } from '@contract/analysis';
import { isApiFailure } from '@workers/api';
import { useDataClient } from '@/app/dataClient';
import { BreakdownCard } from './BreakdownCard';
import { AbcChart, CategoryChart, ShopChart, SkuBarChart, TrendChart } from './charts';
import { money, percent } from './format';
import { SkuTable } from './SkuTable';
import './analysis.css';

const DAY_FORMAT = 'YYYY-MM-DD';
type Range = [Dayjs, Dayjs];

function presets(): Record<'d7' | 'd30' | 'd90' | 'thisMonth' | 'lastMonth', Range> {
  const today = dayjs().startOf('day');
  return {
    d7: [today.subtract(6, 'day'), today],
    d30: [today.subtract(29, 'day'), today],
    d90: [today.subtract(89, 'day'), today],
    thisMonth: [today.startOf('month'), today],
    lastMonth: [today.subtract(1, 'month').startOf('month'), today.subtract(1, 'month').endOf('month').startOf('day')],
  };
}

type KpiKey = 'revenue' | 'orders' | 'units' | 'averagePrice' | 'cancellations' | 'returns' | 'commissionFees' | 'payout' | 'cost' | 'profit' | 'margin';
const KPIS: readonly KpiKey[] = ['revenue', 'orders', 'units', 'averagePrice', 'cancellations', 'returns', 'commissionFees', 'payout', 'cost', 'profit', 'margin'];
/** Figures where a rise is bad news (drawn red). */
const COSTS: ReadonlySet<KpiKey> = new Set(['cancellations', 'returns', 'commissionFees', 'cost']);
const MONEY: ReadonlySet<KpiKey> = new Set(['revenue', 'averagePrice', 'commissionFees', 'payout', 'cost', 'profit']);

function kpiValue(f: AnalysisFigures, key: KpiKey): number | null {
  if (key === 'commissionFees') return f.commission + f.fees;
  if (key === 'margin') return f.margin;
  return f[key];
}

const formatKpi = (key: KpiKey, value: number | null, currency: string) =>
  value === null ? '—' : key === 'margin' ? percent(value) : MONEY.has(key) ? money(value, currency) : value.toLocaleString();

function Kpi({ k, answer }: { k: KpiKey; answer: AnalysisAnswer }) {
  const { t } = useTranslation('analysis');
  const now = kpiValue(answer.totals, k);
  const before = kpiValue(answer.previousTotals, k);
  const change = now !== null && before !== null && before !== 0 ? (k === 'margin' ? now - before : (now - before) / Math.abs(before)) : null;
  const good = change === null || change === 0 ? null : COSTS.has(k) ? change < 0 : change > 0;
  return (
    <Card size="small" data-testid={`kpi-${k}`}>
      <Statistic title={t(`kpi.${k}`)} value={formatKpi(k, now, answer.currency)} />
      <Typography.Text type={good === null ? 'secondary' : good ? 'success' : 'danger'} style={{ fontSize: 12 }}>
        {change === null ? t('noPrevious') : `${t('vsPrevious')} ${change > 0 ? '+' : ''}${(change * 100).toFixed(1)}${k === 'margin' ? ' pp' : '%'}`}
      </Typography.Text>
    </Card>
  );
}

/** Sales analysis (`/analyze/sale-analyze`): a period of the seller's shops against the period before. */
export function SaleAnalyzePage() {
  const { t } = useTranslation('analysis');
  const client = useDataClient();
  const ranges = useMemo(presets, []);
  const [range, setRange] = useState<Range>(ranges.d30);
  const [shopIds, setShopIds] = useState<number[]>([]);
  const [groupBy, setGroupBy] = useState<AnalysisGrouping>('day');
  const [breakdown, setBreakdown] = useState<AnalysisBreakdown>('category');
  const [answer, setAnswer] = useState<AnalysisAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [attempt, setAttempt] = useState(0);
  const from = range[0].format(DAY_FORMAT);
  const to = range[1].format(DAY_FORMAT);

  useEffect(() => {
    let current = true;
    setLoading(true);
    setError(null);
    client.analysis.analyze({ from, to, shopIds, groupBy, breakdown }).then(
      (data) => {
        if (!current) return;
        setAnswer(data);
        setLoading(false);
      },
      (failure: unknown) => {
        if (!current) return;
        setError(isApiFailure(failure) ? failure.message : String(failure));
        setLoading(false);
      },
    );
    return () => {
      current = false;
    };
  }, [client, from, to, shopIds, groupBy, breakdown, attempt]);

  const filters = (
    <Card size="small">
      <Space wrap size={16}>
        <Space>
          <Typography.Text>{t('period')}</Typography.Text>
          <DatePicker.RangePicker
            value={range}
            allowClear={false}
            disabledDate={(d) => d.isAfter(dayjs(), 'day')}
            presets={(Object.keys(ranges) as (keyof typeof ranges)[]).map((k) => ({ label: t(`presets.${k}`), value: ranges[k] }))}
            onChange={(value) => value?.[0] && value[1] && setRange([value[0], value[1]])}
            data-testid="period"
          />
        </Space>
        <Space>
          <Typography.Text>{t('shops')}</Typography.Text>
          <Select
            mode="multiple"
            allowClear
            style={{ minWidth: 240 }}
            placeholder={t('allShops')}
            value={shopIds}
            onChange={setShopIds}
            options={(answer?.shops ?? []).map((s) => ({ value: s.id, label: s.name }))}
            data-testid="shops"
          />
        </Space>
        <Segmented<AnalysisGrouping>
          value={groupBy}
          onChange={setGroupBy}
          options={(['day', 'week', 'month'] as const).map((g) => ({ value: g, label: t(`groupings.${g}`) }))}
        />
        {answer ? <Typography.Text type="secondary">{t('previous', answer.previous)}</Typography.Text> : null}
      </Space>
    </Card>
  );

  let body: React.ReactNode;
  if (error) {
    body = <Alert type="error" showIcon title={error} action={<Button onClick={() => setAttempt((n) => n + 1)}>{t('retry')}</Button>} />;
  } else if (!answer) {
    body = (
      <Card aria-busy="true">
        <Typography.Text type="secondary">{t('loading')}</Typography.Text>
        <Skeleton active />
      </Card>
    );
  } else if (answer.shops.length === 0) {
    body = <Empty description={t('empty.noShops')} data-testid="analysis-empty" />;
  } else {
    body = (
      <Space orientation="vertical" size={16} style={{ width: '100%', opacity: loading ? 0.6 : 1 }} aria-busy={loading}>
        {answer.costMissing > 0 ? <Alert type="warning" showIcon title={t('costNotSet', { n: answer.costMissing })} /> : null}
        {answer.costRate ? <Typography.Text type="secondary">{t('costRate', { date: answer.costRate.date, rate: answer.costRate.rate.toFixed(4) })}</Typography.Text> : null}
        <Row gutter={[12, 12]}>
          {KPIS.map((k) => (
            <Col key={k} xs={12} sm={8} md={6} xl={4}>
              <Kpi k={k} answer={answer} />
            </Col>
          ))}
        </Row>
        {answer.totals.orders === 0 && answer.totals.returns === 0 ? (
          <Empty description={t('empty.noOrders')} data-testid="analysis-empty" />
        ) : (
          <>
            <TrendChart answer={answer} />
            <Row gutter={[12, 12]}>
              <Col xs={24} lg={12}>
                <ShopChart answer={answer} />
              </Col>
              <Col xs={24} lg={12}>
                <CategoryChart answer={answer} />
              </Col>
              <Col xs={24} lg={12}>
                <SkuBarChart answer={answer} end="top" />
              </Col>
              <Col xs={24} lg={12}>
                <SkuBarChart answer={answer} end="bottom" />
              </Col>
              <Col xs={24}>
                <AbcChart answer={answer} />
              </Col>
            </Row>
            <BreakdownCard answer={answer} breakdown={breakdown} onChange={setBreakdown} />
            <SkuTable answer={answer} shopIds={shopIds} />
          </>
        )}
      </Space>
    );
  }

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="sale-analyze">
      {filters}
      {body}
    </Space>
  );
}
