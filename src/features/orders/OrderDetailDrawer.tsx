import { Descriptions, Drawer } from 'antd';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { OrderRow } from '@contract/orders';
import type { Lang } from '@contract/errors';
import { PostingReturns } from '@/components/returns/PostingReturns';
import { formatAmount, formatTime, StatusTag } from './OrderColumns';

type OrderDetailDrawerProps = { row: OrderRow | null; lang: Lang; onClose: () => void };

/** Memoised: closed, it has nothing to show again when the list's counts change. */
export const OrderDetailDrawer = memo(function OrderDetailDrawer({ row, lang, onClose }: OrderDetailDrawerProps) {
  const { t } = useTranslation('orders');
  return (
    <Drawer open={row !== null} onClose={onClose} title={t('detail')} size="large" destroyOnHidden>
      {row && row.source === 'ozon' && row.postingNumber && <PostingReturns shopId={row.shopId} postingNumber={row.postingNumber} lang={lang} />}
      {row && (
        <Descriptions column={1} bordered size="small">
          <Descriptions.Item label={t('postingNumber')}>{row.postingNumber || '—'}</Descriptions.Item>
          <Descriptions.Item label={t('orderNumber')}>{row.orderNumber}</Descriptions.Item>
          <Descriptions.Item label={t('source')}>{row.source === 'manual' ? t('manual') : t('ozon')}</Descriptions.Item>
          <Descriptions.Item label={t('shop')}>{row.shopName || '—'}</Descriptions.Item>
          <Descriptions.Item label={t('status')}>
            <StatusTag status={row.status} />
            {/* Ozon's substatus codes are not for sellers' eyes; only our own EUB hand-over mark is. */}
            {row.substatus === 'eub' && <span>{t('eub')}</span>}
          </Descriptions.Item>
          <Descriptions.Item label={t('productName')}>{row.productName}</Descriptions.Item>
          <Descriptions.Item label={t('sku')}>{row.sku}</Descriptions.Item>
          <Descriptions.Item label={t('offerId')}>{row.offerId}</Descriptions.Item>
          <Descriptions.Item label={t('quantity')}>{row.quantity}</Descriptions.Item>
          <Descriptions.Item label={t('amount')}>{formatAmount(row, lang)}</Descriptions.Item>
          <Descriptions.Item label={t('warehouse')}>{row.warehouseName || '—'}</Descriptions.Item>
          <Descriptions.Item label={t('inProcessAt')}>{formatTime(row.inProcessAt, lang)}</Descriptions.Item>
          <Descriptions.Item label={t('shipmentDate')}>{formatTime(row.shipmentDate, lang)}</Descriptions.Item>
          <Descriptions.Item label={t('trackingNumber')}>{row.trackingNumber || '—'}</Descriptions.Item>
        </Descriptions>
      )}
    </Drawer>
  );
});
