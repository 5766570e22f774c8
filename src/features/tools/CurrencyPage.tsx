import { SwapOutlined } from '@ant-design/icons';
import { Alert, Button, Card, DatePicker, Empty, Input, Segmented, Select, Skeleton, Space, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiFailure } from '@workers/api';
import { MAIN_CURRENCIES, type ConvertAnswer, type Rate, type RatesAnswer } from '@contract/tools';
import { useDataClient } from '@/app/dataClient';
import { calendarDate, timeFormat } from '@/app/formats';
import { toLang } from '@/app/i18n';
import { DataTable, type DataTableColumn } from '@/components/data-table/DataTable';
import type { TableQuery } from '@/components/data-table/pager';
import { RateChart, type Period } from './RateChart';

const AMOUNT = /^\d{1,12}(\.\d{1,2})?$/;

function messageOf(error: unknown): string {
  return isApiFailure(error) ? error.message : String(error);
}

/** The currency's name in the user's language (the bank publishes Russian names only). */
function useCurrencyNames(lang: string, rates: RatesAnswer | null) {
  return useMemo(() => {
    const display = new Intl.DisplayNames([lang], { type: 'currency' });
    const names = new Map<string, string>();
    names.set('RUB', display.of('RUB') ?? 'RUB');
    for (const rate of rates?.rates ?? []) names.set(rate.code, display.of(rate.code) ?? rate.name);
    return names;
  }, [lang, rates]);
}

/** An exact decimal string (no float in between) grouped as the language groups thousands. */
function formatAmount(value: string, lang: string): string {
  const [whole = '0', fraction] = value.split('.');
  const grouped = new Intl.NumberFormat(lang).format(BigInt(whole));
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

/**
 * /tool/currency-change: converts between any two currencies at the Bank of Russia's official rates (exact to the
 * hundredth, computed by the server), shows a pair's history as a chart and every rate of the day, and always says
 * which date the rates are for, when they were read, and when the bank could not be reached.
 */
export function CurrencyPage() {
  const client = useDataClient();
  const { t, i18n } = useTranslation('tools');
  const lang = i18n.language;
  const [date, setDate] = useState<Dayjs | null>(null);
  const [rates, setRates] = useState<RatesAnswer | null>(null);
  const [ratesError, setRatesError] = useState<string | null>(null);
  const [from, setFrom] = useState('CNY');
  const [to, setTo] = useState('RUB');
  const [amount, setAmount] = useState('1000');
  const [conversion, setConversion] = useState<ConvertAnswer | null>(null);
  const [convertError, setConvertError] = useState<string | null>(null);
  const [converting, setConverting] = useState(false);
  const [period, setPeriod] = useState<Period>('m3');
  const names = useCurrencyNames(lang, rates);
  const [tableQuery, setTableQuery] = useState<TableQuery>({ page: 1, rows: 20 });
  const rateColumns = useMemo<DataTableColumn<Rate>[]>(
    () => [
      { id: 'code', header: t('rates.code'), cell: ({ row }) => row.original.code },
      { id: 'name', header: t('rates.name'), cell: ({ row }) => names.get(row.original.code) ?? row.original.name },
      { id: 'nominal', header: t('rates.nominal'), cell: ({ row }) => row.original.nominal },
      { id: 'value', header: t('rates.value'), cell: ({ row }) => row.original.value },
      { id: 'perOne', header: t('rates.perOne'), cell: ({ row }) => (Number(row.original.value) / row.original.nominal).toFixed(6) },
    ],
    [t, names],
  );
  const isoDate = date ? date.format('YYYY-MM-DD') : undefined;

  const loadRates = useCallback(() => {
    setRatesError(null);
    client.tools.rates({ date: isoDate }).then(setRates, (error: unknown) => setRatesError(messageOf(error)));
  }, [client, isoDate]);
  useEffect(loadRates, [loadRates]);

  const amountValid = AMOUNT.test(amount.trim());
  useEffect(() => {
    if (!amountValid) return;
    let current = true;
    setConverting(true);
    const timer = setTimeout(() => {
      client.tools.convert({ from, to, amount: amount.trim(), date: isoDate }).then(
        (answer) => {
          if (!current) return;
          setConversion(answer);
          setConvertError(null);
        },
        (error: unknown) => {
          if (!current || (isApiFailure(error) && error.type === 'Aborted')) return;
          setConvertError(messageOf(error));
        },
      ).finally(() => current && setConverting(false));
    }, 250);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [client, from, to, amount, amountValid, isoDate]);

  const options = useMemo(() => {
    const codes = ['RUB', ...(rates?.rates.map((rate) => rate.code) ?? [])];
    const label = (code: string) => `${code} · ${names.get(code) ?? code}`;
    const main = MAIN_CURRENCIES.filter((code) => codes.includes(code));
    const others = codes.filter((code) => !(MAIN_CURRENCIES as readonly string[]).includes(code)).sort();
    return [
      { label: t('rates.main'), options: main.map((code) => ({ value: code, label: label(code) })) },
      { label: t('rates.others'), options: others.map((code) => ({ value: code, label: label(code) })) },
    ];
  }, [rates, names, t]);

  if (!rates && !ratesError) {
    return (
      <Card title={t('rates.converter')} aria-busy="true">
        <Typography.Text type="secondary">{t('rates.loading')}</Typography.Text>
        <Skeleton active />
      </Card>
    );
  }
  if (!rates) {
    return (
      <Card title={t('rates.converter')}>
        <Empty description={t('rates.unavailable')}>
          <Alert type="error" showIcon title={ratesError} style={{ marginBottom: 12, textAlign: 'left' }} />
          <Button onClick={loadRates}>{t('rates.retry')}</Button>
        </Empty>
      </Card>
    );
  }

  const shown = conversion && conversion.from === from && conversion.to === to ? conversion : null;
  const source = shown ?? rates;
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card title={t('rates.converter')}>
        <Space wrap align="end" size={12}>
          <label>
            <div>{t('rates.amount')}</div>
            <Input
              aria-label={t('rates.amount')}
              value={amount}
              status={amountValid ? undefined : 'error'}
              inputMode="decimal"
              style={{ width: 180 }}
              onChange={(event) => setAmount(event.target.value.replace(/[,\s]/g, ''))}
            />
          </label>
          <label>
            <div>{t('rates.from')}</div>
            <Select aria-label={t('rates.from')} showSearch value={from} options={options} style={{ width: 220 }} onChange={setFrom} optionFilterProp="label" />
          </label>
          <Button
            aria-label={t('rates.swap')}
            title={t('rates.swap')}
            icon={<SwapOutlined />}
            onClick={() => {
              setFrom(to);
              setTo(from);
            }}
          />
          <label>
            <div>{t('rates.to')}</div>
            <Select aria-label={t('rates.to')} showSearch value={to} options={options} style={{ width: 220 }} onChange={setTo} optionFilterProp="label" />
          </label>
          <label>
            <div>{t('rates.date')}</div>
            <DatePicker
              aria-label={t('rates.date')}
              value={date}
              placeholder={t('rates.latest')}
              disabledDate={(day) => day.isAfter(dayjs().add(1, 'day'), 'day') || day.isBefore('1992-07-01')}
              onChange={setDate}
            />
          </label>
        </Space>
        <div style={{ marginTop: 20 }} aria-live="polite" aria-busy={converting}>
          {convertError ? (
            <Alert type="error" showIcon title={convertError} />
          ) : shown ? (
            <>
              <Typography.Title level={3} style={{ margin: 0 }} data-testid="conversion-result">
                {formatAmount(shown.amount, lang)} {shown.from} = {formatAmount(shown.result, lang)} {shown.to}
              </Typography.Title>
              <Typography.Text>{t('rates.perUnit', { from: shown.from, to: shown.to, rate: shown.rate })}</Typography.Text>
            </>
          ) : (
            <Skeleton.Input active />
          )}
          <div>
            <Typography.Text type="secondary" data-testid="rate-source">
              {t('rates.source', { date: calendarDate(toLang(lang), source.date), fetched: timeFormat(toLang(lang)).format(Date.parse(source.fetchedAt)) })}
            </Typography.Text>
          </div>
          {source.stale ? <Alert style={{ marginTop: 8 }} type="warning" showIcon title={t('rates.stale', { date: calendarDate(toLang(lang), source.date) })} description={source.problem} /> : null}
        </div>
      </Card>

      <Card
        title={`${t('rates.history')} · ${t('rates.historyOf', { from, to })}`}
        extra={
          <Segmented<Period>
            value={period}
            onChange={setPeriod}
            options={(['m1', 'm3', 'm6', 'y1'] as const).map((value) => ({ value, label: t(`rates.periods.${value}`) }))}
          />
        }
      >
        <RateChart from={from} to={to} period={period} until={isoDate ?? rates.date} />
      </Card>

      <Card title={`${t('rates.all')} · ${rates.date}`}>
        <DataTable<Rate>
          rowKey="code"
          columns={rateColumns}
          rows={rates.rates.slice((tableQuery.page - 1) * tableQuery.rows, tableQuery.page * tableQuery.rows)}
          total={rates.rates.length}
          refresh={setTableQuery}
        />
      </Card>
    </Space>
  );
}
