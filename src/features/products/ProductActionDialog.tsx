import { Alert, Button, Checkbox, Form, InputNumber, List, Modal, Progress, Space, Typography } from 'antd';
import { useSelector } from '@xstate/react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { message as catalogue, type Lang } from '@contract/errors';
import { checkPrice } from '@contract/productRules';
import type { ProductRow, ProductWarehouse } from '@contract/products';
import {
  selectProductFailures,
  selectProductProgress,
  selectProductStep,
  selectQuotaShortfalls,
  selectWithinQuota,
  type productActionsMachine,
} from '@machines/productActionsMachine';
import { everyShopHasWarehouse, ShopWarehousePicker, type PickerShop, type WarehouseByShop } from '@/components/warehouse-picker/ShopWarehousePicker';
import { ImagePicker } from './ImagePicker';
import { QuotaTable } from './QuotaTable';

export type ProductActionsRef = ActorRefFrom<typeof productActionsMachine>;

/** Ozon's price rules as the seller types: the reason in the user's language, or null. */
export function priceProblem(price: number | null, oldPrice: number | null, lang: Lang): string | null {
  if (price === null) return null;
  const refusal = checkPrice({ price, oldPrice: oldPrice ?? 0 });
  return refusal ? catalogue(refusal.key, lang, refusal.params) : null;
}

/** The selection's shops with their counts, as a string so the selector's answer compares by value. */
function shopsOf(subjects: readonly { shopId: number; shopName: string }[]): string {
  const shops = new Map<number, PickerShop>();
  for (const s of subjects) {
    const line = shops.get(s.shopId) ?? { shopId: s.shopId, shopName: s.shopName || `#${s.shopId}`, count: 0 };
    line.count += 1;
    shops.set(s.shopId, line);
  }
  return JSON.stringify([...shops.values()]);
}

type DialogProps = {
  actor: ProductActionsRef;
  lang: Lang;
  warehouses: ProductWarehouse[];
  /** The image action's upload: stores a picked file and answers its public address. */
  uploadImage: (file: File) => Promise<string>;
};

/** The batch action's steps: confirm with its values, progress, and each product's outcome with Ozon's reason. */
export function ProductActionDialog({ actor, lang, warehouses, uploadImage }: DialogProps) {
  const { t } = useTranslation('products');
  const step = useSelector(actor, selectProductStep);
  const kind = useSelector(actor, (s) => s.context.kind) ?? 'price';
  const count = useSelector(actor, (s) => s.context.subjects.length);
  const omitted = useSelector(actor, (s) => s.context.omitted);
  const notApplicable = useSelector(actor, (s) => s.context.notApplicable);
  const error = useSelector(actor, (s) => s.context.error);
  const progress = useSelector(actor, selectProductProgress);
  const failures = useSelector(actor, selectProductFailures);
  const quotas = useSelector(actor, (s) => s.context.quotas);
  const short = useSelector(actor, selectQuotaShortfalls);
  const fitting = useSelector(actor, selectWithinQuota);
  const shopLines = useSelector(actor, (s) => shopsOf(s.context.subjects));
  const [price, setPrice] = useState<number | null>(null);
  const [oldPrice, setOldPrice] = useState<number | null>(0);
  const [warehouseByShop, setWarehouseByShop] = useState<WarehouseByShop>({});
  const [stock, setStock] = useState<number | null>(null);
  const [images, setImages] = useState<string[]>([]);
  const [keep, setKeep] = useState(true);
  useEffect(() => {
    // Cleared as a new action gets ready, before its fields mount (a shop's only warehouse is chosen as they do).
    if (step === 'preparing') {
      setPrice(null);
      setOldPrice(0);
      setStock(null);
      setWarehouseByShop({});
      setImages([]);
      setKeep(true);
    }
  }, [step]);
  const shops = useMemo(() => JSON.parse(shopLines) as PickerShop[], [shopLines]);
  const action = t(`actions.${kind}`);
  const problem = kind === 'price' ? priceProblem(price, oldPrice, lang) : null;
  const ready =
    kind === 'price' ? price !== null && problem === null : kind === 'stock' ? everyShopHasWarehouse(shops, warehouses, warehouseByShop) && stock !== null : kind === 'image' ? images.length > 0 : true;
  const confirm = () =>
    actor.send({
      type: 'action.confirm',
      fit: short.length > 0,
      params:
        kind === 'price'
          ? { price: price!, oldPrice: oldPrice ?? 0 }
          : kind === 'stock'
            ? { warehouseByShop, stock: stock! }
            : kind === 'image'
              ? { images, keep }
              : {},
    });
  const close = () => actor.send({ type: step === 'confirming' || step === 'preparing' ? 'action.cancel' : 'action.close' });

  const footer =
    step === 'confirming'
      ? [
          <Button key="cancel" onClick={close}>{t('cancel')}</Button>,
          <Button key="run" type="primary" disabled={!ready || (short.length > 0 && fitting === 0)} onClick={confirm}>
            {short.length > 0 ? t('quota.sendFitting', { count: fitting }) : t('confirm.run')}
          </Button>,
        ]
      : step === 'outcome'
        ? [
            progress.failed > 0 ? <Button key="retry" onClick={() => actor.send({ type: 'action.retry' })}>{t('confirm.retryFailed')}</Button> : null,
            <Button key="close" type="primary" onClick={close}>{t('confirm.close')}</Button>,
          ]
        : step === 'running'
          ? null
          : [<Button key="close" onClick={close}>{t('confirm.close')}</Button>];

  return (
    <Modal open={step !== 'idle'} title={t('confirm.title', { action, count })} onCancel={step === 'running' ? undefined : close} closable={step !== 'running'} footer={footer} destroyOnHidden>
      {step === 'preparing' && <Typography.Text>{t('confirm.preparing')}</Typography.Text>}
      {step === 'empty' && <Alert type="info" showIcon title={notApplicable > 0 ? t('confirm.emptyBecause', { reason: t(`confirm.reason.${kind}`) }) : t('confirm.empty')} />}
      {step === 'failed' && <Alert type="error" showIcon title={error} action={<Button onClick={() => actor.send({ type: 'action.retry' })}>{t('retry')}</Button>} />}
      {step === 'confirming' && (
        <Form layout="vertical">
          {omitted > 0 && <Alert type="warning" showIcon title={t('confirm.omitted', { count: omitted })} style={{ marginBottom: 12 }} />}
          {notApplicable > 0 && (
            <Alert type="info" showIcon title={t('confirm.notApplicable', { count: notApplicable, reason: t(`confirm.reason.${kind}`) })} style={{ marginBottom: 12 }} />
          )}
          {quotas.length > 0 && (
            <Space direction="vertical" style={{ width: '100%', marginBottom: 12 }}>
              <QuotaTable title={t('quota.update')} lines={quotas} />
              {short.map((q) => (
                <Alert key={q.shopId} type={fitting === 0 ? 'error' : 'warning'} showIcon title={t('quota.shortIn', { shop: q.shopName, reason: q.reason })} description={fitting === 0 ? t('quota.noneFit') : t('quota.fitNote', { count: fitting })} />
              ))}
            </Space>
          )}
          {kind === 'price' && (
            <>
              <Form.Item label={t('confirm.price')}>
                <InputNumber aria-label={t('confirm.price')} min={0} precision={2} value={price} onChange={(value) => setPrice(value)} style={{ width: 200 }} />
              </Form.Item>
              <Form.Item label={t('confirm.oldPrice')} validateStatus={problem ? 'error' : undefined} help={problem}>
                <InputNumber aria-label={t('confirm.oldPrice')} min={0} precision={2} value={oldPrice} onChange={(value) => setOldPrice(value)} style={{ width: 200 }} />
              </Form.Item>
            </>
          )}
          {kind === 'stock' && (
            <>
              <Form.Item label={t('confirm.warehouse')}>
                <ShopWarehousePicker shops={shops} warehouses={warehouses} value={warehouseByShop} onChange={setWarehouseByShop} />
              </Form.Item>
              <Form.Item label={t('confirm.stock')}>
                <InputNumber aria-label={t('confirm.stock')} min={0} max={999_999} precision={0} value={stock} onChange={(value) => setStock(value)} style={{ width: 200 }} />
              </Form.Item>
            </>
          )}
          {kind === 'image' && (
            <>
              <Form.Item label={t('imageAction.pictures')}>
                <ImagePicker value={images} onChange={setImages} upload={uploadImage} />
              </Form.Item>
              <Form.Item>
                <Checkbox checked={keep} onChange={(event) => setKeep(event.target.checked)}>{t('imageAction.keep')}</Checkbox>
              </Form.Item>
              {!keep && <Alert type="warning" showIcon title={t('imageAction.replaceWarning')} />}
            </>
          )}
        </Form>
      )}
      {(step === 'running' || step === 'outcome') && (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Progress percent={progress.total ? Math.round(((progress.done + progress.failed) / progress.total) * 100) : 0} status={step === 'outcome' && progress.failed > 0 && progress.done === 0 ? 'exception' : undefined} />
          <Typography.Text role="status">
            {step === 'running'
              ? t('confirm.running', { done: progress.done + progress.failed, count: progress.total })
              : t('confirm.outcome', { done: progress.done, failed: progress.failed })}
          </Typography.Text>
          {failures.length > 0 && (
            <List
              size="small"
              bordered
              data-testid="product-action-failures"
              style={{ maxHeight: 360, overflow: 'auto' }}
              dataSource={failures}
              renderItem={({ subject, reason }) => (
                <List.Item>
                  <Typography.Text strong>{subject.label}</Typography.Text>
                  <Typography.Text type="danger">{reason}</Typography.Text>
                </List.Item>
              )}
            />
          )}
        </Space>
      )}
    </Modal>
  );
}

type PriceEditorProps = { row: ProductRow | null; lang: Lang; onSave: (row: ProductRow, price: number, oldPrice: number) => void; onClose: () => void };

/** The inline price editor of one product: Ozon's rules checked as the seller types, the reason shown at once. */
export function PriceEditor({ row, lang, onSave, onClose }: PriceEditorProps) {
  const { t } = useTranslation('products');
  const [price, setPrice] = useState<number | null>(null);
  const [oldPrice, setOldPrice] = useState<number | null>(null);
  useEffect(() => {
    setPrice(row?.price ?? null);
    setOldPrice(row?.oldPrice ?? 0);
  }, [row]);
  const problem = priceProblem(price, oldPrice, lang);
  return (
    <Modal
      open={row !== null}
      title={row ? `${t('editPrice')} · ${row.offerId}` : t('editPrice')}
      onCancel={onClose}
      okText={t('save')}
      cancelText={t('cancel')}
      okButtonProps={{ disabled: price === null || problem !== null }}
      onOk={() => row && price !== null && onSave(row, price, oldPrice ?? 0)}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item label={`${t('price')} (${row?.currency ?? ''})`}>
          <InputNumber aria-label={t('price')} min={0} precision={2} value={price} onChange={(value) => setPrice(value)} style={{ width: 200 }} autoFocus />
        </Form.Item>
        <Form.Item label={t('oldPrice')} validateStatus={problem ? 'error' : undefined} help={<span data-testid="price-problem">{problem}</span>}>
          <InputNumber aria-label={t('oldPrice')} min={0} precision={2} value={oldPrice} onChange={(value) => setOldPrice(value)} style={{ width: 200 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

