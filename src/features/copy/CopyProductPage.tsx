import { Alert, App, Button, Card, Checkbox, Empty, Input, InputNumber, Modal, Progress, Select, Space, Spin, Tag, Typography } from 'antd';
import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PRICE_ROUNDINGS, SHOP_CURRENCIES, type CopyRecord, type CopySource, type PriceRule, type PriceTemplate } from '@contract/copy';
import type { Store } from '@contract/store';
import { isApiFailure } from '@workers/api';
import { selectProgress, selectStep, type CopyActionSnapshot } from '@machines/copyActionMachine';
import { appActorOptions } from '@/app/createAppActor';
import { useDataClient } from '@/app/dataClient';
import { DataTable, type DataTableColumn } from '@/components/data-table/DataTable';
import { copyActionOn } from './copyAction';
import { CopyReasons, CopyStatusTag } from './CopyStatus';
import { ProxiedImage } from '@/components/picture/ProxiedImage';

const DEFAULT_RULE: PriceRule = { currency: 'CNY', markup: '1.5', shipping: '0', fixed: '0', rounding: 'upTo9' };
const MONEY = /^\d{1,9}(\.\d{1,2})?$/;

const messageOf = (error: unknown) => (isApiFailure(error) ? error.message : String(error));
const linesOf = (text: string) => text.split(/[\n\r,，\s]+/).map((line) => line.trim()).filter(Boolean);

/**
 * /copy/copy-product: paste Ozon links or SKUs, choose shops and a pricing rule, preview every card with its price,
 * change what should differ, copy, and watch each card's import to its end on Ozon. The copy runs in the copy
 * action's actor; this page renders its steps.
 */
export function CopyProductPage() {
  const { t } = useTranslation('copy');
  const client = useDataClient();
  const { message } = App.useApp();
  const machine = useMemo(() => copyActionOn(client), [client]);
  const actor = useActorRef(machine, { ...appActorOptions(), input: {} });
  const step = useSelector(actor, selectStep);
  const [text, setText] = useState('');
  const [shops, setShops] = useState<Store[] | null>(null);
  const [shopIds, setShopIds] = useState<number[]>([]);
  const [templates, setTemplates] = useState<PriceTemplate[]>([]);
  const [templateId, setTemplateId] = useState<number | null>(null);
  const [rule, setRule] = useState<PriceRule>(DEFAULT_RULE);
  const [saving, setSaving] = useState(false);

  const loadTemplates = useCallback(async () => {
    const list = await client.copy.templates();
    setTemplates(list);
    return list;
  }, [client]);

  useEffect(() => {
    void client.store.list().then(setShops, () => setShops([]));
    void loadTemplates().then((list) => {
      const preferred = list.find((x) => x.isDefault);
      if (preferred) {
        setTemplateId(preferred.id);
        setRule(ruleOf(preferred));
      }
    }, () => undefined);
  }, [client, loadTemplates]);

  const sources = linesOf(text);
  const busy = step === 'previewing' || step === 'running' || step === 'retrying';
  const ruleValid = MONEY.test(rule.shipping) && MONEY.test(rule.fixed) && Number(rule.markup) > 0;

  const preview = () => actor.send({ type: 'copy.preview', sources: sources.slice(0, 500), rule });

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Card size="small">
        <Space direction="vertical" style={{ width: '100%' }}>
          <Typography.Text strong>{t('sources')}</Typography.Text>
          <Input.TextArea
            aria-label={t('sources')}
            value={text}
            onChange={(e) => setText(e.target.value)}
            rows={5}
            placeholder={t('sourcesPlaceholder')}
            disabled={busy}
          />
          <Typography.Text type="secondary">{t('sourcesHint')}</Typography.Text>
          <Space wrap align="end">
            <Field label={t('shops')}>
              <Select
                mode="multiple"
                aria-label={t('shops')}
                style={{ minWidth: 280 }}
                placeholder={t('shopsPlaceholder')}
                value={shopIds}
                onChange={setShopIds}
                loading={shops === null}
                notFoundContent={t('noShops')}
                options={(shops ?? []).map((s) => ({ value: s.id, label: s.name }))}
              />
            </Field>
            <Field label={t('template')}>
              <Select
                aria-label={t('template')}
                style={{ minWidth: 220 }}
                allowClear
                placeholder={t('templatePlaceholder')}
                value={templateId ?? undefined}
                onChange={(id?: number) => {
                  setTemplateId(id ?? null);
                  const chosen = templates.find((x) => x.id === id);
                  if (chosen) setRule(ruleOf(chosen));
                }}
                options={templates.map((x) => ({ value: x.id, label: x.isDefault ? `${x.name} ★` : x.name }))}
              />
            </Field>
          </Space>
          <RuleEditor rule={rule} onChange={setRule} />
          <Space wrap>
            <Button type="primary" onClick={preview} disabled={sources.length === 0 || !ruleValid || busy} loading={step === 'previewing'}>
              {t('preview')}
            </Button>
            <Button onClick={() => setSaving(true)} disabled={!ruleValid}>
              {t('saveTemplate')}
            </Button>
            {templateId !== null && (
              <Button
                danger
                type="text"
                onClick={async () => {
                  await client.copy.deleteTemplate(templateId);
                  setTemplateId(null);
                  await loadTemplates();
                }}
              >
                {t('deleteTemplate')}
              </Button>
            )}
          </Space>
        </Space>
      </Card>
      <SaveTemplateDialog
        open={saving}
        onClose={() => setSaving(false)}
        onSave={async (name, isDefault) => {
          try {
            const saved = await client.copy.saveTemplate({ ...rule, name, isDefault });
            setSaving(false);
            await loadTemplates();
            setTemplateId(saved.id);
            void message.success(t('templateSaved'));
          } catch (error) {
            void message.error(messageOf(error));
          }
        }}
      />
      <CopyStepView actor={actor} step={step} shopIds={shopIds} />
    </Space>
  );
}

const ruleOf = ({ currency, markup, shipping, fixed, rounding, oldPriceFactor }: PriceTemplate): PriceRule => ({ currency, markup, shipping, fixed, rounding, ...(oldPriceFactor ? { oldPriceFactor } : {}) });

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Space direction="vertical" size={2}>
      <Typography.Text type="secondary">{label}</Typography.Text>
      {children}
    </Space>
  );
}

function RuleEditor({ rule, onChange }: { rule: PriceRule; onChange: (rule: PriceRule) => void }) {
  const { t } = useTranslation('copy');
  const set = (patch: Partial<PriceRule>) => onChange({ ...rule, ...patch });
  const money = (key: 'shipping' | 'fixed') => (
    <Field label={t(`rule.${key}`)}>
      <Input aria-label={t(`rule.${key}`)} style={{ width: 100 }} value={rule[key]} status={MONEY.test(rule[key]) ? undefined : 'error'} onChange={(e) => set({ [key]: e.target.value.trim() })} />
    </Field>
  );
  return (
    <Space direction="vertical" size={4}>
      <Typography.Text type="secondary">{t('rule.formula')}</Typography.Text>
      <Space wrap align="end">
        <Field label={t('rule.currency')}>
          <Select aria-label={t('rule.currency')} style={{ width: 90 }} value={rule.currency} onChange={(currency) => set({ currency })} options={SHOP_CURRENCIES.map((c) => ({ value: c, label: c }))} />
        </Field>
        <Field label={t('rule.markup')}>
          <InputNumber aria-label={t('rule.markup')} min={0.01} max={999} step={0.1} value={Number(rule.markup)} onChange={(v) => set({ markup: String(v ?? 1) })} />
        </Field>
        {money('shipping')}
        {money('fixed')}
        <Field label={t('rule.rounding')}>
          <Select aria-label={t('rule.rounding')} style={{ width: 170 }} value={rule.rounding} onChange={(rounding) => set({ rounding })} options={PRICE_ROUNDINGS.map((r) => ({ value: r, label: t(`rule.roundings.${r}`) }))} />
        </Field>
        <Field label={t('rule.oldPriceFactor')}>
          <InputNumber
            aria-label={t('rule.oldPriceFactor')}
            min={1.01}
            max={10}
            step={0.1}
            placeholder={t('rule.oldPriceNone')}
            value={rule.oldPriceFactor ? Number(rule.oldPriceFactor) : null}
            onChange={(v) => {
              const { oldPriceFactor: _drop, ...rest } = rule;
              onChange(v ? { ...rest, oldPriceFactor: String(v) } : rest);
            }}
          />
        </Field>
      </Space>
    </Space>
  );
}

function SaveTemplateDialog({ open, onClose, onSave }: { open: boolean; onClose: () => void; onSave: (name: string, isDefault: boolean) => Promise<void> }) {
  const { t } = useTranslation('copy');
  const [name, setName] = useState('');
  const [isDefault, setIsDefault] = useState(false);
  const [pending, setPending] = useState(false);
  return (
    <Modal
      open={open}
      title={t('saveTemplate')}
      onCancel={onClose}
      okButtonProps={{ disabled: name.trim() === '', loading: pending }}
      onOk={async () => {
        setPending(true);
        try {
          await onSave(name.trim(), isDefault);
        } finally {
          setPending(false);
        }
      }}
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Input aria-label={t('templateName')} placeholder={t('templateName')} maxLength={40} value={name} onChange={(e) => setName(e.target.value)} />
        <Checkbox checked={isDefault} onChange={(e) => setIsDefault(e.target.checked)}>
          {t('setDefault')}
        </Checkbox>
      </Space>
    </Modal>
  );
}

type CopyActor = ReturnType<typeof useActorRef<ReturnType<typeof copyActionOn>>>;

function CopyStepView({ actor, step, shopIds }: { actor: CopyActor; step: ReturnType<typeof selectStep>; shopIds: number[] }) {
  const { t } = useTranslation('copy');
  const error = useSelector(actor, (s) => s.context.error);
  if (step === 'idle') return <Empty description={t('emptyPreview')} />;
  if (step === 'previewing') return <Spin tip={t('previewing')}><div style={{ height: 80 }} /></Spin>;
  if (step === 'failed')
    return (
      <Alert
        type="error"
        showIcon
        message={t('failedPreview', { reason: error ?? '' })}
        action={<Button onClick={() => actor.send({ type: 'action.retry' })}>{t('retry')}</Button>}
      />
    );
  if (step === 'reviewing') return <Review actor={actor} shopIds={shopIds} />;
  return <Outcome actor={actor} step={step} />;
}

function Review({ actor, shopIds }: { actor: CopyActor; shopIds: number[] }) {
  const { t } = useTranslation('copy');
  const preview = useSelector(actor, (s) => s.context.preview);
  const edits = useSelector(actor, (s) => s.context.edits);
  const excluded = useSelector(actor, (s) => s.context.excluded);
  const chosen = useSelector(actor, (s: CopyActionSnapshot) => selectProgress(s).chosen);
  const columns = useMemo<DataTableColumn<CopySource>[]>(
    () => [
      {
        id: 'pick',
        header: '',
        cell: ({ row }) =>
          row.original.state === 'ok' && row.original.sku !== null ? (
            <Checkbox
              aria-label={`${row.original.sku}`}
              checked={!excluded.includes(row.original.sku)}
              onChange={(e) => actor.send({ type: 'copy.exclude', skus: [row.original.sku!], excluded: !e.target.checked })}
            />
          ) : null,
      },
      { id: 'image', header: t('columns.image'), cell: ({ row }) => (row.original.image ? <ProxiedImage src={row.original.image} width={48} height={48} /> : null) },
      {
        id: 'name',
        header: t('columns.name'),
        cell: ({ row }) => {
          const item = row.original;
          if (item.state !== 'ok' || item.sku === null) return <Typography.Text type="secondary">{item.input}</Typography.Text>;
          return (
            <Input
              aria-label={`${t('columns.name')} ${item.sku}`}
              style={{ minWidth: 260 }}
              value={edits[item.sku]?.name ?? item.name}
              onChange={(e) => actor.send({ type: 'copy.edit', sku: item.sku!, edit: { name: e.target.value } })}
            />
          );
        },
      },
      { id: 'sku', header: t('columns.sku'), cell: ({ row }) => row.original.sku ?? '' },
      { id: 'category', header: t('columns.category'), cell: ({ row }) => row.original.categoryName },
      { id: 'sourcePrice', header: t('columns.sourcePrice'), cell: ({ row }) => (row.original.price ? `${row.original.price} ${row.original.currency}` : '') },
      {
        id: 'targetPrice',
        header: t('columns.targetPrice'),
        cell: ({ row }) => {
          const item = row.original;
          if (item.state !== 'ok' || item.sku === null) return null;
          const value = edits[item.sku]?.price ?? item.targetPrice;
          return (
            <Space direction="vertical" size={0}>
              <Input
                aria-label={`${t('columns.targetPrice')} ${item.sku}`}
                style={{ width: 110 }}
                value={value}
                status={MONEY.test(value) && Number(value) > 0 ? undefined : 'error'}
                onChange={(e) => actor.send({ type: 'copy.edit', sku: item.sku!, edit: { price: e.target.value.trim() } })}
              />
              {item.targetOldPrice && <Typography.Text delete type="secondary">{item.targetOldPrice}</Typography.Text>}
            </Space>
          );
        },
      },
      {
        id: 'offerId',
        header: t('columns.offerId'),
        cell: ({ row }) =>
          row.original.state === 'ok' && row.original.sku !== null ? (
            <Input
              aria-label={`${t('columns.offerId')} ${row.original.sku}`}
              style={{ width: 150 }}
              maxLength={50}
              placeholder={t('offerIdPlaceholder')}
              value={edits[row.original.sku]?.offerId ?? ''}
              onChange={(e) => actor.send({ type: 'copy.edit', sku: row.original.sku!, edit: { offerId: e.target.value.trim() || undefined } })}
            />
          ) : null,
      },
      { id: 'state', header: t('columns.state'), cell: ({ row }) => <Tag color={row.original.state === 'ok' ? 'green' : 'red'}>{t(`states.${row.original.state}`)}</Tag> },
    ],
    [t, actor, edits, excluded],
  );
  if (!preview) return null;
  const rates = Object.entries(preview.rates).map(([code, rate]) => `1 ${code} = ${rate}`).join('，');
  const pricesValid = Object.values(edits).every((e) => e.price === undefined || (MONEY.test(e.price) && Number(e.price) > 0));
  return (
    <Card size="small">
      <Space direction="vertical" style={{ width: '100%' }}>
        {rates && <Typography.Text type="secondary">{t('rates', { date: preview.ratesDate, list: rates })}</Typography.Text>}
        <DataTable<CopySource> rowKey="input" columns={columns} rows={preview.items} total={preview.items.length} refresh={() => undefined} initialQuery={{ rows: 1000 }} />
        <Space>
          <Button
            type="primary"
            disabled={chosen === 0 || shopIds.length === 0 || !pricesValid}
            onClick={() => actor.send({ type: 'action.start', shopIds })}
          >
            {shopIds.length === 0 ? t('chooseShops') : t('start', { count: chosen, shops: shopIds.length })}
          </Button>
          <Button onClick={() => actor.send({ type: 'action.close' })}>{t('cancel')}</Button>
        </Space>
      </Space>
    </Card>
  );
}

function Outcome({ actor, step }: { actor: CopyActor; step: ReturnType<typeof selectStep> }) {
  const { t } = useTranslation('copy');
  const progress = useSelector(actor, selectProgress);
  const records = useSelector(actor, (s) => s.context.records);
  const error = useSelector(actor, (s) => s.context.error);
  const columns = useMemo<DataTableColumn<CopyRecord>[]>(
    () => [
      { id: 'image', header: t('columns.image'), cell: ({ row }) => (row.original.image ? <ProxiedImage src={row.original.image} width={40} height={40} /> : null) },
      { id: 'name', header: t('columns.name'), cell: ({ row }) => row.original.name },
      { id: 'sku', header: t('columns.sku'), cell: ({ row }) => row.original.sku },
      { id: 'shop', header: t('columns.shop'), cell: ({ row }) => row.original.shopName },
      { id: 'offerId', header: t('columns.offerId'), cell: ({ row }) => row.original.offerId },
      { id: 'price', header: t('columns.targetPrice'), cell: ({ row }) => `${row.original.price} ${row.original.currency}` },
      { id: 'status', header: t('columns.status'), cell: ({ row }) => <CopyStatusTag status={row.original.status} /> },
      { id: 'reason', header: t('columns.reason'), cell: ({ row }) => <CopyReasons errors={row.original.errors} /> },
    ],
    [t],
  );
  const percent = progress.chosen === 0 ? 0 : Math.round((progress.sent / progress.chosen) * 100);
  return (
    <Card size="small">
      <Space direction="vertical" style={{ width: '100%' }}>
        {step === 'running' && (
          <>
            <Typography.Text>{t('running', progress)}</Typography.Text>
            <Progress percent={percent} />
          </>
        )}
        {(step === 'following' || step === 'retrying') && <Alert type="info" showIcon message={t('following', progress)} />}
        {step === 'stopped' && (
          <Alert type="error" showIcon message={t('stopped', { reason: error ?? '' })} action={<Button onClick={() => actor.send({ type: 'action.retry' })}>{t('retry')}</Button>} />
        )}
        {step === 'outcome' && (
          <Alert
            type={progress.failed > 0 ? 'warning' : 'success'}
            showIcon
            message={t('outcome', progress)}
            action={
              <Space>
                {progress.failed > 0 && <Button onClick={() => actor.send({ type: 'action.retry' })}>{t('retryFailed', { count: progress.failed })}</Button>}
                <Button onClick={() => actor.send({ type: 'action.close' })}>{t('newCopy')}</Button>
              </Space>
            }
          />
        )}
        <DataTable<CopyRecord> rowKey="id" columns={columns} rows={records} total={records.length} refresh={() => undefined} initialQuery={{ rows: 1000 }} />
      </Space>
    </Card>
  );
}
