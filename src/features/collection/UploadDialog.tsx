import { Alert, Button, Modal, Result, Select, Space, Typography } from 'antd';
import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { CollectionItem } from '@contract/collection';
import type { PriceRule, PriceTemplate } from '@contract/copy';
import type { Store } from '@contract/store';
import { selectUpload, type collectionActionMachine } from '@machines/collectionActionMachine';
import type { ActorRefFrom } from 'xstate';
import { useDataClient } from '@/app/dataClient';

/** Without a saved template: the source price in CNY × 1.5, up to the next amount ending in 9. */
const DEFAULT_RULE: PriceRule = { currency: 'CNY', markup: '1.5', shipping: '0', fixed: '0', rounding: 'upTo9' };

const ruleOf = (template: PriceTemplate): PriceRule => ({
  currency: template.currency,
  markup: template.markup,
  shipping: template.shipping,
  fixed: template.fixed,
  rounding: template.rounding,
  ...(template.oldPriceFactor ? { oldPriceFactor: template.oldPriceFactor } : {}),
});

/** What an item still needs before Ozon can take it. */
export const isReady = (item: CollectionItem) =>
  item.typeId !== null && item.dimensions !== null && item.images.length > 0 && (item.variants.length === 0 || item.variants.some((v) => v.selected));

type UploadDialogProps = { actor: ActorRefFrom<typeof collectionActionMachine>; items: CollectionItem[]; onDone: () => void };

/** Shops and price template for an upload, then its outcome: the records go on following Ozon on the history page. */
export function UploadDialog({ actor, items, onDone }: UploadDialogProps) {
  const { t } = useTranslation('collection');
  const client = useDataClient();
  const upload = useSelector(actor, selectUpload);
  const [shops, setShops] = useState<Store[] | null>(null);
  const [shopIds, setShopIds] = useState<number[]>([]);
  const [templates, setTemplates] = useState<PriceTemplate[]>([]);
  const [templateId, setTemplateId] = useState<number | 0>(0);
  const open = upload !== null;

  useEffect(() => {
    if (!open) return;
    void client.store.list().then(setShops, () => setShops([]));
    void client.copy.templates().then((list) => {
      setTemplates(list);
      setTemplateId(list.find((x) => x.isDefault)?.id ?? 0);
    }, () => setTemplates([]));
  }, [client, open]);

  useEffect(() => {
    if (upload?.state === 'uploaded') onDone();
  }, [upload?.state, onDone]);

  if (!upload) return null;
  const chosen = items.filter((i) => upload.ids.includes(i.id));
  const notReady = chosen.filter((i) => !isReady(i));
  const template = templates.find((x) => x.id === templateId);
  const rule = template ? ruleOf(template) : DEFAULT_RULE;
  const close = () => actor.send({ type: upload.state === 'confirming' ? 'action.cancel' : 'action.close' });

  return (
    <Modal
      open
      title={t('uploadDialog.title', { count: upload.ids.length })}
      onCancel={close}
      maskClosable={false}
      footer={
        upload.state === 'confirming' ? (
          <Space>
            <Button onClick={close}>{t('editor.cancel')}</Button>
            <Button type="primary" disabled={shopIds.length === 0 || notReady.length > 0} onClick={() => actor.send({ type: 'action.confirm', shopIds, rule })}>
              {t('uploadDialog.confirm')}
            </Button>
          </Space>
        ) : upload.state === 'uploading' ? null : (
          <Button onClick={close}>{t('uploadDialog.close')}</Button>
        )
      }
    >
      {upload.state === 'confirming' && (
        <Space direction="vertical" style={{ width: '100%' }}>
          {notReady.length > 0 && <Alert type="warning" showIcon message={t('uploadDialog.notReady', { titles: notReady.map((i) => `「${i.title.slice(0, 30)}」`).join('、') })} />}
          <Typography.Text strong>{t('uploadDialog.shops')}</Typography.Text>
          {shops && shops.length === 0 ? (
            <Alert type="info" showIcon message={t('uploadDialog.noShops')} />
          ) : (
            <Select
              aria-label={t('uploadDialog.shops')}
              mode="multiple"
              style={{ width: '100%' }}
              placeholder={t('uploadDialog.shopsPlaceholder')}
              value={shopIds}
              onChange={setShopIds}
              loading={shops === null}
              options={(shops ?? []).map((s) => ({ value: s.id, label: s.name }))}
            />
          )}
          <Typography.Text strong>{t('uploadDialog.template')}</Typography.Text>
          <Select
            aria-label={t('uploadDialog.template')}
            style={{ width: '100%' }}
            value={templateId}
            onChange={setTemplateId}
            options={[{ value: 0, label: t('uploadDialog.defaultRule', { markup: DEFAULT_RULE.markup, currency: DEFAULT_RULE.currency }) }, ...templates.map((x) => ({ value: x.id, label: x.name }))]}
          />
          <Typography.Text type="secondary">{t('uploadDialog.ruleLine', rule)}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('uploadDialog.templatesHint')}
          </Typography.Text>
        </Space>
      )}
      {upload.state === 'uploading' && <Result status="info" title={t('uploadDialog.uploading')} />}
      {upload.state === 'uploaded' && (
        <Result
          status="success"
          title={t('uploadDialog.uploaded', { count: upload.records.length })}
          extra={
            <Link href="/collection/upload-history" onClick={close}>
              {t('uploadDialog.toHistory')}
            </Link>
          }
        />
      )}
      {upload.state === 'uploadFailed' && (
        <Result
          status="error"
          title={t('uploadDialog.failed', { reason: upload.reason ?? '' })}
          extra={<Button onClick={() => actor.send({ type: 'action.retry' })}>{t('uploadDialog.retry')}</Button>}
        />
      )}
    </Modal>
  );
}
