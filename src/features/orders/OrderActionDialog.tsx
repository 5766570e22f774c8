import { Alert, Button, Form, Input, InputNumber, Modal, Progress, Select, Space, Spin, Typography } from 'antd';
import { useSelector } from '@xstate/react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CANCEL_REASON_OTHER, type Warehouse } from '@contract/orders';
import {
  selectCanRetry,
  selectChoices,
  selectProgress,
  selectStep,
  selectSummary,
  selectUnfinished,
  type OrderActionKind,
  type OrderActionParams,
  type ActionChoice,
  type OrderActionsSnapshot,
} from '@machines/orderActionsMachine';
import type { ActorRefFrom } from 'xstate';
import type { orderActionsMachine } from '@machines/orderActionsMachine';
import { everyShopHasWarehouse, pickerShopsKey, ShopWarehousePicker, type PickerShop, type PickerWarehouse, type WarehouseByShop } from '@/components/warehouse-picker/ShopWarehousePicker';

export type OrderActionsRef = ActorRefFrom<typeof orderActionsMachine>;

type OrderActionDialogProps = { actor: OrderActionsRef; warehouses: () => Promise<Warehouse[]> };

const selectKind = (snapshot: OrderActionsSnapshot) => snapshot.context.kind;

/**
 * The order action's one dialog: it shows the machine's step (gathering the selection, confirm, progress, Ozon's
 * label wait, each posting's outcome) and sends the user's answers as events. Nothing here decides.
 */
export function OrderActionDialog({ actor, warehouses }: OrderActionDialogProps) {
  const { t } = useTranslation('orders');
  const step = useSelector(actor, selectStep);
  const kind = useSelector(actor, selectKind);
  if (step === 'idle' || kind === null) return null;
  const send = actor.send;
  const cancel = () => send({ type: step === 'empty' || step === 'failed' || step === 'outcome' ? 'action.close' : 'action.cancel' });
  // While it runs, closing the dialog stops the action (between chunks): what was done stays done.
  return (
    <Modal open title={t(`actions.titles.${kind}`)} onCancel={cancel} footer={null} maskClosable={false} destroyOnHidden width={560}>
      <div className="order-action" data-step={step}>
        {step === 'preparing' && <Preparing onCancel={cancel} />}
        {step === 'empty' && <Empty kind={kind} onClose={cancel} />}
        {step === 'failed' && <PrepareFailed actor={actor} />}
        {step === 'confirming' && <Confirming actor={actor} kind={kind} warehouses={warehouses} />}
        {step === 'running' && <Running actor={actor} />}
        {step === 'waitingForLabels' && <WaitingForLabels actor={actor} />}
        {step === 'outcome' && <Outcome actor={actor} kind={kind} />}
      </div>
    </Modal>
  );
}

function Footer({ children }: { children: React.ReactNode }) {
  return <div className="order-action__footer"><Space>{children}</Space></div>;
}

function Preparing({ onCancel }: { onCancel: () => void }) {
  const { t } = useTranslation('orders');
  return (
    <>
      <Spin /> <Typography.Text>{t('actions.preparing')}</Typography.Text>
      <Footer><Button onClick={onCancel}>{t('cancel')}</Button></Footer>
    </>
  );
}

const EMPTY_KEYS = {
  ship: 'actions.emptyShip',
  tracking: 'actions.emptyTracking',
  labels: 'actions.emptyLabels',
  stock: 'actions.emptyStock',
  cancel: 'actions.emptyCancel',
  pickingPdf: 'actions.emptyPicking',
  pickingXlsx: 'actions.emptyPicking',
} as const;

function Empty({ kind, onClose }: { kind: OrderActionKind; onClose: () => void }) {
  const { t } = useTranslation('orders');
  return (
    <>
      <Alert type="info" showIcon title={t(EMPTY_KEYS[kind])} />
      <Footer><Button onClick={onClose}>{t('actions.close')}</Button></Footer>
    </>
  );
}

/** Typed failures of the preparing step, worded here. */
const PREPARE_FAILURES: Partial<Record<string, 'actions.selectionChanged' | 'actions.noCommonReason'>> = {
  // A whole-result selection whose result was replaced (a sync came in): its rows can no longer be read.
  StaleHandle: 'actions.selectionChanged',
  NoCommonReason: 'actions.noCommonReason',
};

function PrepareFailed({ actor }: { actor: OrderActionsRef }) {
  const { t } = useTranslation('orders');
  const error = useSelector(actor, (s) => s.context.error);
  return (
    <>
      <Alert type="error" showIcon title={t('actions.prepareFailed')} description={PREPARE_FAILURES[error ?? ''] ? t(PREPARE_FAILURES[error!]!) : error} />
      <Footer>
        <Button onClick={() => actor.send({ type: 'action.close' })}>{t('actions.close')}</Button>
        <Button type="primary" onClick={() => actor.send({ type: 'action.retry' })}>{t('retry')}</Button>
      </Footer>
    </>
  );
}

const CONFIRM_KEYS = {
  ship: 'actions.confirmShip',
  tracking: 'actions.confirmTracking',
  labels: 'actions.confirmLabels',
  stock: 'actions.confirmStock',
  cancel: 'actions.confirmCancel',
  pickingPdf: 'actions.confirmLabels',
  pickingXlsx: 'actions.confirmLabels',
} as const;

type ConfirmValues = { trackingNumber?: string; warehouseByShop?: WarehouseByShop; stock?: number; reasonId?: number; message?: string };

function paramsOf(kind: OrderActionKind, values: ConfirmValues): OrderActionParams {
  if (kind === 'tracking') return { trackingNumber: (values.trackingNumber ?? '').trim() };
  if (kind === 'stock') return { warehouseByShop: values.warehouseByShop ?? {}, stock: values.stock ?? 0 };
  if (kind === 'cancel') return { reasonId: values.reasonId ?? 0, message: (values.message ?? '').trim() };
  return {};
}

/** What will be done, to how many, in which shops; the tracking number or the stock when the action needs one. */
function Confirming({ actor, kind, warehouses }: { actor: OrderActionsRef; kind: OrderActionKind; warehouses: () => Promise<Warehouse[]> }) {
  const { t } = useTranslation('orders');
  const summary = useSelector(actor, selectSummary, (a, b) => a.count === b.count && a.omitted === b.omitted && a.shops.length === b.shops.length);
  const [form] = Form.useForm<ConfirmValues>();
  const confirm = (values: ConfirmValues) => actor.send({ type: 'action.confirm', params: paramsOf(kind, values) });
  return (
    <Form form={form} layout="vertical" onFinish={confirm}>
      <Typography.Paragraph>{t(CONFIRM_KEYS[kind], { count: summary.count })}</Typography.Paragraph>
      <ul className="order-action__shops" aria-label={t('shop')}>
        {summary.shops.map((shop) => (
          <li key={shop.name}>{t('actions.shopLine', { shop: shop.name || t('actions.noShop'), count: shop.count })}</li>
        ))}
      </ul>
      {summary.omitted > 0 && <Alert type="warning" showIcon title={t('actions.omitted', { count: summary.omitted })} />}
      {kind === 'tracking' && (
        <Form.Item name="trackingNumber" label={t('trackingNumber')} rules={[{ required: true, whitespace: true, message: t('required') }]}>
          <Input maxLength={60} autoFocus />
        </Form.Item>
      )}
      {kind === 'stock' && <StockFields actor={actor} warehouses={warehouses} />}
      {kind === 'cancel' && <CancelFields actor={actor} />}
      <Footer>
        <Button onClick={() => actor.send({ type: 'action.cancel' })}>{t('cancel')}</Button>
        <Button type="primary" danger={kind === 'cancel'} htmlType="submit">
          {kind === 'cancel' ? t('actions.cancelConfirm') : t('confirm')}
        </Button>
      </Footer>
    </Form>
  );
}

/** A warehouse per shop of the selection (stock goes to the offer's own shop's warehouse), then the stock. */
function StockFields({ actor, warehouses }: { actor: OrderActionsRef; warehouses: () => Promise<Warehouse[]> }) {
  const { t } = useTranslation('orders');
  const lines = useSelector(actor, (s) => pickerShopsKey(s.context.subjects));
  const shops = useMemo(() => JSON.parse(lines) as PickerShop[], [lines]);
  const [options, setOptions] = useState<PickerWarehouse[]>([]);
  useEffect(() => {
    let live = true;
    void warehouses()
      .then((list) => live && setOptions(list.map((w) => ({ shopId: w.storeId, warehouseId: w.warehouseId, name: w.name }))))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [warehouses]);
  return (
    <>
      <Form.Item
        name="warehouseByShop"
        label={t('warehouse')}
        rules={[{ validator: async (_, value?: WarehouseByShop) => { if (!everyShopHasWarehouse(shops, options, value)) throw new Error(t('actions.warehousePerShop')); } }]}
      >
        <ShopWarehousePicker shops={shops} warehouses={options} />
      </Form.Item>
      <Form.Item name="stock" label={t('stock')} rules={[{ required: true, message: t('required') }]}>
        <InputNumber min={0} max={1_000_000} precision={0} style={{ width: '100%' }} />
      </Form.Item>
    </>
  );
}

/** A reason in the user's language when it is one Ozon's docs name, else Ozon's own words. */
function useReasonTitle() {
  const { t } = useTranslation('orders');
  return (reason: ActionChoice) => t(`actions.cancelReasons.${reason.id}` as 'actions.cancelReasons.352', { defaultValue: reason.title });
}

/** Ozon's reasons every selected posting shares; "other" needs the seller's words. */
function CancelFields({ actor }: { actor: OrderActionsRef }) {
  const { t } = useTranslation('orders');
  const choices = useSelector(actor, selectChoices);
  const title = useReasonTitle();
  const reasonId = Form.useWatch<number | undefined>('reasonId');
  return (
    <>
      <Alert type="warning" showIcon title={t('actions.cancelWarning')} className="order-action__warning" />
      <Form.Item name="reasonId" label={t('actions.cancelReason')} rules={[{ required: true, message: t('required') }]}>
        <Select options={choices.map((reason) => ({ value: reason.id, label: title(reason) }))} />
      </Form.Item>
      <Form.Item
        name="message"
        label={t('actions.cancelMessage')}
        required={reasonId === CANCEL_REASON_OTHER}
        dependencies={['reasonId']}
        rules={[
          ({ getFieldValue }) => ({
            validator: async (_, value: string | undefined) => {
              if (getFieldValue('reasonId') === CANCEL_REASON_OTHER && !value?.trim()) throw new Error(t('actions.cancelMessageRequired'));
            },
          }),
        ]}
      >
        <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 4 }} />
      </Form.Item>
    </>
  );
}

const sameProgress = (a: ReturnType<typeof selectProgress>, b: ReturnType<typeof selectProgress>) =>
  a.finished === b.finished && a.total === b.total && a.failed === b.failed && a.pending === b.pending;

function Running({ actor }: { actor: OrderActionsRef }) {
  const { t } = useTranslation('orders');
  const { finished, total } = useSelector(actor, selectProgress, sameProgress);
  return (
    <>
      <Progress percent={total ? Math.floor((finished / total) * 100) : 0} status="active" />
      <Typography.Text role="status">{t('actions.running', { finished, total })}</Typography.Text>
      <Footer><Button onClick={() => actor.send({ type: 'action.cancel' })}>{t('actions.stop')}</Button></Footer>
    </>
  );
}

/** Seconds until `dueAt`, ticking once a second. */
function useSecondsUntil(dueAt: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [dueAt]);
  return dueAt === null ? 0 : Math.max(0, Math.ceil((dueAt - now) / 1_000));
}

/** Ozon has no label yet: its reason, a countdown to the next fetch (the machine fetches by itself), fetch now or stop. */
function WaitingForLabels({ actor }: { actor: OrderActionsRef }) {
  const { t } = useTranslation('orders');
  const reason = useSelector(actor, (s) => s.context.labelsReason);
  const dueAt = useSelector(actor, (s) => s.context.labelsDueAt);
  const seconds = useSecondsUntil(dueAt);
  return (
    <>
      <Alert type="warning" showIcon title={reason} />
      <Typography.Paragraph className="order-action__countdown" role="timer">{t('actions.waitingLabels', { seconds })}</Typography.Paragraph>
      <Footer>
        <Button onClick={() => actor.send({ type: 'action.cancel' })}>{t('actions.stopWaiting')}</Button>
        <Button type="primary" onClick={() => actor.send({ type: 'action.fetchNow' })}>{t('actions.fetchNow')}</Button>
      </Footer>
    </>
  );
}

/** Postings shown per reason; the rest are counted. */
const SHOWN_PER_REASON = 20;

/** How it went: what was done, and each posting not done grouped under its reason, with a retry of those. */
function Outcome({ actor, kind }: { actor: OrderActionsRef; kind: OrderActionKind }) {
  const { t } = useTranslation('orders');
  const progress = useSelector(actor, selectProgress, sameProgress);
  const unfinished = useSelector(actor, selectUnfinished, (a, b) => a.length === b.length && a.every((u, i) => u.reason === b[i]!.reason));
  const canRetry = useSelector(actor, selectCanRetry);
  const groups = useMemo(() => {
    const byReason = new Map<string, string[]>();
    for (const { subject, reason } of unfinished) {
      const text = reason ?? t('actions.notRun');
      byReason.set(text, [...(byReason.get(text) ?? []), subject.ref]);
    }
    return [...byReason];
  }, [unfinished, t]);
  return (
    <>
      <Typography.Paragraph>
        {[
          progress.done > 0 && <Typography.Text key="done" strong>{t(`actions.done.${kind}`, { count: progress.done })}</Typography.Text>,
          progress.failed > 0 && <Typography.Text key="failed" type="danger" strong>{t('actions.failedCount', { count: progress.failed })}</Typography.Text>,
          progress.pending > 0 && <Typography.Text key="pending" type="secondary">{t('actions.cancelledCount', { count: progress.pending })}</Typography.Text>,
        ]
          .filter(Boolean)
          .flatMap((part, i) => (i === 0 ? [part] : [' · ', part]))}
      </Typography.Paragraph>
      {groups.length > 0 && (
        <section className="order-action__failures" aria-label={t(kind === 'stock' ? 'actions.failedStockHeader' : 'actions.failedHeader')}>
          <Typography.Text type="secondary">{t(kind === 'stock' ? 'actions.failedStockHeader' : 'actions.failedHeader')}</Typography.Text>
          {groups.map(([reason, refs]) => (
            <div key={reason} className="order-action__failure">
              <Typography.Text type="danger">{reason}</Typography.Text>
              <Typography.Paragraph className="order-action__refs" copyable={{ text: refs.join('\n') }}>
                {refs.slice(0, SHOWN_PER_REASON).join('、')}
                {refs.length > SHOWN_PER_REASON ? ` … +${refs.length - SHOWN_PER_REASON}` : ''}
              </Typography.Paragraph>
            </div>
          ))}
        </section>
      )}
      <Footer>
        <Button onClick={() => actor.send({ type: 'action.close' })}>{t('actions.close')}</Button>
        {canRetry && (
          <Button type="primary" onClick={() => actor.send({ type: 'action.retry' })}>
            {t('actions.retryFailed', { count: progress.failed + progress.pending })}
          </Button>
        )}
      </Footer>
    </>
  );
}
