import { Alert, Button, Checkbox, Form, InputNumber, List, Modal, Progress, Space, Typography } from 'antd';
import { useSelector } from '@xstate/react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { Lang } from '@contract/errors';
import type { ProductWarehouse } from '@contract/products';
import {
  selectProductFailures,
  selectProductProgress,
  selectProductStep,
  selectQuotaShortfalls,
  selectWithinQuota,
  type productActionsMachine,
} from '@machines/productActionsMachine';
import { everyShopHasWarehouse, pickerShopsKey, ShopWarehousePicker, type PickerShop, type WarehouseByShop } from '@/components/warehouse-picker/ShopWarehousePicker';
import { ImagePicker } from './ImagePicker';
import { priceProblem } from './priceRules';
import { QuotaTable } from './QuotaTable';

export type ProductActionsRef = ActorRefFrom<typeof productActionsMachine>;

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
  const shopLines = useSelector(actor, (s) => pickerShopsKey(s.context.subjects));
  const [price, setPrice] = useState<number | null>(null);
  const [oldPrice, setOldPrice] = useState<number | null>(0);
  // null: each card keeps its own minimum price.
  const [minPrice, setMinPrice] = useState<number | null>(null);
  const aboveMinimum = useSelector(actor, (s) => s.context.subjects.filter((subject) => (subject.minPrice ?? 0) > 0).map((subject) => subject.minPrice!).join(','));
  const [warehouseByShop, setWarehouseByShop] = useState<WarehouseByShop>({});
  const [stock, setStock] = useState<number | null>(null);
  const [images, setImages] = useState<string[]>([]);
  const [keep, setKeep] = useState(true);
  useEffect(() => {
    // Cleared as a new action gets ready, before its fields mount (a shop's only warehouse is chosen as they do).
    if (step === 'preparing') {
      setPrice(null);
      setOldPrice(0);
      setMinPrice(null);
      setStock(null);
      setWarehouseByShop({});
      setImages([]);
      setKeep(true);
    }
  }, [step]);
  const shops = useMemo(() => JSON.parse(shopLines) as PickerShop[], [shopLines]);
  const action = t(`actions.${kind}`);
  const problem = kind === 'price' ? priceProblem(price, oldPrice, minPrice, lang) : null;
  // Cards left with their own minimum price that the new price would fall under: Ozon refuses them.
  const underMinimum = kind === 'price' && minPrice === null && price !== null ? aboveMinimum.split(',').filter((m) => m !== '' && Number(m) > price).length : 0;
  const ready =
    kind === 'price' ? price !== null && problem === null : kind === 'stock' ? everyShopHasWarehouse(shops, warehouses, warehouseByShop) && stock !== null : kind === 'image' ? images.length > 0 : true;
  const confirm = () =>
    actor.send({
      type: 'action.confirm',
      fit: short.length > 0,
      params:
        kind === 'price'
          ? { price: price!, oldPrice: oldPrice ?? 0, ...(minPrice === null ? {} : { minPrice }) }
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
              <Form.Item label={t('confirm.oldPrice')}>
                <InputNumber aria-label={t('confirm.oldPrice')} min={0} precision={2} value={oldPrice} onChange={(value) => setOldPrice(value)} style={{ width: 200 }} />
              </Form.Item>
              <Form.Item
                label={t('confirm.minPrice')}
                validateStatus={problem ? 'error' : underMinimum > 0 ? 'warning' : undefined}
                help={<span data-testid="price-problem">{problem ?? (underMinimum > 0 ? t('confirm.underMinimum', { count: underMinimum }) : t('priceRules'))}</span>}
              >
                <InputNumber aria-label={t('confirm.minPrice')} min={0} precision={2} value={minPrice} onChange={(value) => setMinPrice(value)} placeholder={t('confirm.keepMinPrice')} style={{ width: 200 }} />
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
