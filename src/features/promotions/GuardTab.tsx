import { Alert, App, Button, Card, Empty, Form, Input, InputNumber, Radio, Select, Space, Switch, Table, Tag, Typography, Upload } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { COST_CURRENCY, COST_ENDPOINTS, type CostImportAnswer, type CostRow } from '@contract/costs';
import { PROMOTION_ENDPOINTS, type GuardLogRow, type PriceGuard, type PriceGuardMode } from '@contract/promotions';
import { useDataClient } from '@/app/dataClient';
import { useGranted } from '@/app/granted';
import { useMoney } from '@/app/displayCurrency';
import { timeFormat } from '@/app/formats';
import { toLang } from '@/app/i18n';
import { Money } from '@/components/money/Money';

const messageOf = (error: unknown) => (typeof error === 'object' && error !== null && 'message' in error ? String((error as { message: unknown }).message) : String(error));
const LOG_ROWS = 20;
const COST_ROWS = 10;

/** One shop's guard: on or off, its rule and floor, a check now. */
function GuardCard({ guard, onSaved }: { guard: PriceGuard; onSaved: () => void }) {
  const { t, i18n } = useTranslation('promotions');
  const time = timeFormat(toLang(i18n.language));
  const client = useDataClient();
  const { message } = App.useApp();
  const [draft, setDraft] = useState(guard);
  const [busy, setBusy] = useState<'save' | 'run' | null>(null);
  // A member sees the guard; saving and checking it are for the roles that change prices (the server refuses too).
  const granted = useGranted();
  useEffect(() => setDraft(guard), [guard]);

  const save = async () => {
    setBusy('save');
    try {
      await client.promotions.setGuard({ storeId: guard.storeId, enabled: draft.enabled, mode: draft.mode, minPrice: draft.minPrice, marginPercent: draft.marginPercent });
      void message.success(t('guard.saved'));
      onSaved();
    } catch (error) {
      void message.error(messageOf(error));
    } finally {
      setBusy(null);
    }
  };
  const run = async () => {
    setBusy('run');
    try {
      const answer = await client.promotions.runGuard({ storeId: guard.storeId });
      void message.info(t('guard.ran', answer));
      onSaved();
    } catch (error) {
      void message.error(messageOf(error));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card
      size="small"
      className="promo-guard-card"
      title={guard.storeName}
      extra={
        <Space>
          <Typography.Text type="secondary" className="promo-small">
            {guard.lastRunAt ? t('guard.lastRun', { at: time.format(guard.lastRunAt) }) : t('guard.never')}
          </Typography.Text>
          {guard.offActions.length ? <Tag>{t('guard.offActions', { n: guard.offActions.length })}</Tag> : null}
        </Space>
      }
    >
      <Form layout="inline">
        <Form.Item label={t('guard.enabled')}>
          <Switch checked={draft.enabled} aria-label={`${t('guard.enabled')} ${guard.storeName}`} onChange={(enabled) => setDraft({ ...draft, enabled })} />
        </Form.Item>
        <Form.Item label={t('guard.mode')}>
          <Radio.Group value={draft.mode} onChange={(e) => setDraft({ ...draft, mode: e.target.value as PriceGuardMode })}>
            <Radio value="absolute">{t('guard.modes.absolute')}</Radio>
            <Radio value="margin">{t('guard.modes.margin')}</Radio>
          </Radio.Group>
        </Form.Item>
        {draft.mode === 'absolute' ? (
          <Form.Item label={t('guard.minPrice', { currency: guard.currency })}>
            <Space>
              <InputNumber min={0} precision={2} value={draft.minPrice} aria-label={`${t('guard.minPrice', { currency: guard.currency })} ${guard.storeName}`} onChange={(v) => setDraft({ ...draft, minPrice: v ?? 0 })} />
              <Money amount={draft.minPrice} currency={guard.currency} className="promo-small" />
            </Space>
          </Form.Item>
        ) : (
          <Form.Item label={t('guard.marginPercent')} extra={t('guard.marginNote')}>
            <InputNumber min={-100} max={1000} precision={2} value={draft.marginPercent} aria-label={`${t('guard.marginPercent')} ${guard.storeName}`} onChange={(v) => setDraft({ ...draft, marginPercent: v ?? 0 })} />
          </Form.Item>
        )}
        <Form.Item>
          <Space>
            {granted(PROMOTION_ENDPOINTS.guardSet) && (
              <Button type="primary" loading={busy === 'save'} onClick={() => void save()}>
                {t('guard.save')}
              </Button>
            )}
            {granted(PROMOTION_ENDPOINTS.guardRun) && (
              <Button disabled={!guard.enabled} loading={busy === 'run'} onClick={() => void run()}>
                {t('guard.runNow')}
              </Button>
            )}
          </Space>
        </Form.Item>
      </Form>
    </Card>
  );
}

/** The seller's cost prices: paged, searched, set one at a time, imported from a file with a reason per refused line. */
function CostPrices() {
  const { t, i18n } = useTranslation('promotions');
  const lang = toLang(i18n.language);
  const client = useDataClient();
  const { message } = App.useApp();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const granted = useGranted();
  const maySet = granted(COST_ENDPOINTS.set);
  const [data, setData] = useState<{ list: CostRow[]; total: number } | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [imported, setImported] = useState<CostImportAnswer | null>(null);
  const [form] = Form.useForm<{ offerId: string; cost: number }>();

  const reload = useCallback(() => {
    client.promotions.costs({ page, rows: COST_ROWS, search: search || undefined }).then(
      (answer) => {
        setData(answer);
        setFailed(null);
      },
      (error: unknown) => setFailed(messageOf(error)),
    );
  }, [client, page, search]);
  useEffect(reload, [reload]);

  const set = async (offerId: string, cost: number | null) => {
    try {
      await client.promotions.setCosts({ items: [{ offerId, cost }] });
      reload();
    } catch (error) {
      void message.error(messageOf(error));
    }
  };

  return (
    <Card size="small" title={t('costs.title')} className="promo-guard-card">
      <Typography.Paragraph type="secondary">{t('costs.intro')}</Typography.Paragraph>
      <Space wrap className="promo-toolbar">
        {maySet && (
          <Form form={form} layout="inline" onFinish={(values) => void set(values.offerId.trim(), values.cost).then(() => form.resetFields())}>
            <Form.Item name="offerId" rules={[{ required: true, whitespace: true, max: 50 }]}>
              <Input placeholder={t('costs.offerId')} aria-label={t('costs.offerId')} style={{ width: 180 }} />
            </Form.Item>
            <Form.Item name="cost" rules={[{ required: true }]}>
              <InputNumber min={0} max={9_999_999.99} precision={2} placeholder={t('costs.cost')} aria-label={t('costs.cost')} style={{ width: 140 }} />
            </Form.Item>
            <Button htmlType="submit">{t('costs.add')}</Button>
          </Form>
        )}
        {granted(COST_ENDPOINTS.import) && (
          <Upload
            accept=".csv,.xlsx,.txt"
            showUploadList={false}
            customRequest={({ file, onSuccess, onError }) => {
              client.promotions.importCosts(file as File).then(
                (answer) => {
                  setImported(answer);
                  onSuccess?.(answer);
                  reload();
                },
                (error: unknown) => {
                  void message.error(messageOf(error));
                  onError?.(new Error(messageOf(error)));
                },
              );
            }}
          >
            <Button>{t('costs.import')}</Button>
          </Upload>
        )}
        <Typography.Text type="secondary" className="promo-small">
          {t('costs.importHint')}
        </Typography.Text>
      </Space>
      {imported ? (
        <Alert
          closable
          onClose={() => setImported(null)}
          style={{ marginBottom: 8 }}
          type={imported.errors.length ? 'warning' : 'success'}
          showIcon
          message={t('costs.imported', { saved: imported.saved, lines: imported.lines })}
          description={
            imported.errors.length ? (
              <div>
                {t('costs.importErrors', { n: imported.errors.length })}
                <ul className="promo-small">
                  {imported.errors.slice(0, 50).map((e) => (
                    <li key={`${e.line}:${e.offerId}`}>
                      {t('costs.line', { line: e.line })} {e.offerId ? `(${e.offerId}) ` : ''}
                      {e.message}
                    </li>
                  ))}
                </ul>
              </div>
            ) : undefined
          }
        />
      ) : null}
      {failed ? <Alert type="error" showIcon message={t('common.loadFailed', { message: failed })} action={<Button onClick={reload}>{t('common.retry')}</Button>} /> : null}
      <Input.Search allowClear placeholder={t('costs.searchOffer')} style={{ width: 220, marginBottom: 8 }} onSearch={(value) => { setPage(1); setSearch(value.trim()); }} />
      <Table<CostRow>
        size="small"
        rowKey="offerId"
        loading={data === null && !failed}
        dataSource={data?.list ?? []}
        locale={{ emptyText: <Empty description={t('costs.empty')} /> }}
        pagination={{ current: page, pageSize: COST_ROWS, total: data?.total ?? 0, onChange: setPage, hideOnSinglePage: true }}
        columns={[
          { key: 'offerId', title: t('costs.offerId'), dataIndex: 'offerId' },
          { key: 'cost', title: t('costs.cost'), align: 'right', render: (_: unknown, r: CostRow) => <Money amount={r.cost} currency={r.currency} /> },
          { key: 'updatedAt', title: t('costs.updatedAt'), render: (_: unknown, r: CostRow) => timeFormat(lang).format(r.updatedAt) },
          ...(maySet
            ? [{ key: 'remove', title: '', width: 80, render: (_: unknown, r: CostRow) => <Button size="small" type="link" danger onClick={() => void set(r.offerId, null)}>{t('costs.remove')}</Button> }]
            : []),
        ]}
      />
    </Card>
  );
}

/** What the guard removed from actions, and why. */
function GuardLog({ shops, version }: { shops: PriceGuard[]; version: number }) {
  const { t, i18n } = useTranslation('promotions');
  const lang = toLang(i18n.language);
  const money = useMoney();
  const currencyOf = new Map(shops.map((s) => [s.storeId, s.currency]));
  const client = useDataClient();
  const [page, setPage] = useState(1);
  const [shop, setShop] = useState<number | null>(null);
  const [data, setData] = useState<{ list: GuardLogRow[]; total: number } | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const reload = useCallback(() => {
    client.promotions.guardLog({ page, rows: LOG_ROWS, ...(shop ? { storeId: shop } : {}) }).then(
      (answer) => {
        setData(answer);
        setFailed(null);
      },
      (error: unknown) => setFailed(messageOf(error)),
    );
  }, [client, page, shop]);
  useEffect(reload, [reload, version]);

  return (
    <Card
      size="small"
      title={t('guard.log')}
      extra={
        <Space>
          <Select
            style={{ width: 200 }}
            value={shop ?? 'all'}
            onChange={(value: number | 'all') => { setPage(1); setShop(value === 'all' ? null : value); }}
            options={[{ value: 'all', label: t('common.allShops') }, ...shops.map((s) => ({ value: s.storeId, label: s.storeName }))]}
          />
          <Button onClick={reload}>{t('common.refresh')}</Button>
        </Space>
      }
    >
      {failed ? <Alert type="error" showIcon message={t('common.loadFailed', { message: failed })} action={<Button onClick={reload}>{t('common.retry')}</Button>} /> : null}
      <Table<GuardLogRow>
        size="small"
        rowKey="id"
        loading={data === null && !failed}
        dataSource={data?.list ?? []}
        locale={{ emptyText: <Empty description={t('guard.logEmpty')} /> }}
        pagination={{ current: page, pageSize: LOG_ROWS, total: data?.total ?? 0, onChange: setPage, hideOnSinglePage: true }}
        columns={[
          { key: 'at', title: t('guard.at'), width: 150, render: (_: unknown, r: GuardLogRow) => <span className="promo-small">{timeFormat(lang).format(r.at)}</span> },
          { key: 'shop', title: t('common.shop'), dataIndex: 'storeName', width: 150 },
          { key: 'action', title: t('guard.action'), dataIndex: 'actionTitle' },
          {
            key: 'product',
            title: t('guard.product'),
            render: (_: unknown, r: GuardLogRow) => (
              <Space direction="vertical" size={0}>
                <span>{r.offerId || r.productId}</span>
                <Typography.Text type="secondary" className="promo-small" ellipsis style={{ maxWidth: 220 }}>
                  {r.name}
                </Typography.Text>
              </Space>
            ),
          },
          { key: 'mode', title: t('products.addMode'), width: 120, render: (_: unknown, r: GuardLogRow) => <Tag color={r.addMode === 'AUTO' ? 'orange' : 'blue'}>{t(`products.modes.${r.addMode === 'AUTO' ? 'AUTO' : 'MANUAL'}`)}</Tag> },
          {
            key: 'reason',
            title: t('guard.reason'),
            render: (_: unknown, r: GuardLogRow) => {
              const currency = currencyOf.get(r.storeId) ?? 'RUB';
              const price = money.format(r.actionPrice, currency).text;
              const floor = money.format(r.floor, currency).text;
              return r.mode === 'margin' && r.cost !== null
                ? t('guard.reasonMargin', { price, cost: money.format(r.cost, COST_CURRENCY).text, floor })
                : t('guard.reasonAbsolute', { price, floor });
            },
          },
          {
            key: 'outcome',
            title: t('guard.outcome'),
            width: 160,
            render: (_: unknown, r: GuardLogRow) =>
              r.outcome === 'removed' ? <Tag color="green">{t('guard.removed')}</Tag> : (
                <Space direction="vertical" size={0}>
                  <Tag color="red">{t('guard.failedOutcome')}</Tag>
                  <Typography.Text type="danger" className="promo-reason">{r.error}</Typography.Text>
                </Space>
              ),
          },
        ]}
      />
    </Card>
  );
}

/** The price guard: each shop's floor, the cost prices it may use, and its log. */
export function GuardTab() {
  const { t } = useTranslation('promotions');
  const client = useDataClient();
  // Cost prices are margins: only the roles that change prices see them (the server refuses the others' reads).
  const granted = useGranted();
  const [guards, setGuards] = useState<PriceGuard[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => {
    client.promotions.guards().then(
      (answer) => {
        setGuards(answer.guards);
        setFailed(null);
        setVersion((v) => v + 1);
      },
      (error: unknown) => setFailed(messageOf(error)),
    );
  }, [client]);
  useEffect(reload, [reload]);

  return (
    <div>
      <Alert type="info" showIcon message={t('guard.intro')} style={{ marginBottom: 12 }} />
      {failed ? <Alert type="error" showIcon message={t('common.loadFailed', { message: failed })} action={<Button onClick={reload}>{t('common.retry')}</Button>} /> : null}
      {guards?.length === 0 ? <Empty description={t('common.noShops')} /> : null}
      {guards?.map((guard) => <GuardCard key={guard.storeId} guard={guard} onSaved={reload} />)}
      {granted(COST_ENDPOINTS.list) ? <CostPrices /> : null}
      <GuardLog shops={guards ?? []} version={version} />
    </div>
  );
}
