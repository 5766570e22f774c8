import { Alert, Button, Descriptions, Drawer, Empty, Image, Skeleton, Space, Typography, type DescriptionsProps } from 'antd';
import { memo, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import type { Lang } from '@contract/errors';
import { RFBS_ACTIONS, type ReturnDetail, type ReturnRow, type RfbsAction } from '@contract/returns';
import { isApiFailure } from '@workers/api';
import type { DataClient } from '@workers/client';
import { timeFormat } from '@/app/formats';
import { getHref } from '@/app/routes';
import { Money } from '@/components/money/Money';
import { ProxiedImage } from '@/components/picture/ProxiedImage';
import { formatMoney, reasonLabel, ReturnStatus, typeLabel, type ReturnsT } from './ReturnColumns';

type ReturnDrawerProps = {
  client: DataClient;
  row: ReturnRow | null;
  lang: Lang;
  /** Bumped when the return changed (a decision was taken): the details are read again. */
  version: number;
  onClose: () => void;
  /** rFBS decisions offered in the drawer (the new list); absent: none. */
  onAction?: (row: ReturnRow, action: RfbsAction) => void;
};

type Loaded = { key: string; detail: ReturnDetail } | { key: string; error: string };

export const ORDER_LIST_PATH = '/order-manager/order-list';

/** One return: the product, why and when it came back, money, where it is, the buyer's photos and the original order. */
export const ReturnDrawer = memo(function ReturnDrawer({ client, row, lang, version, onClose, onAction }: ReturnDrawerProps) {
  const { t } = useTranslation('returns');
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [, navigate] = useLocation();
  const id = row?.id ?? null;
  const key = `${id}:${version}:${row?.updatedAt ?? 0}`;
  useEffect(() => {
    if (id === null) return undefined;
    let current = true;
    client.returns.detail(id).then(
      (detail) => current && setLoaded({ key, detail }),
      (failure: unknown) => current && setLoaded({ key, error: isApiFailure(failure) ? failure.message : String(failure) }),
    );
    return () => {
      current = false;
    };
  }, [client, id, key]);
  const shown = loaded && loaded.key === key ? loaded : loaded && row && 'detail' in loaded && loaded.detail.row.id === row.id ? loaded : null;
  const detail = shown && 'detail' in shown ? shown.detail : null;
  const current = detail?.row ?? row;
  const time = timeFormat(lang);
  const allowed = current ? (current.actions.split(',').filter(Boolean) as RfbsAction[]) : [];
  return (
    <Drawer open={row !== null} onClose={onClose} title={current ? `${t('detail')} · ${current.postingNumber}` : t('detail')} size="large" destroyOnHidden>
      {current && (
        <Space direction="vertical" size="large" style={{ width: '100%' }} data-testid="return-drawer">
          <Typography.Title level={5} style={{ margin: 0 }}>{current.productName}</Typography.Title>
          {onAction && current.scheme === 'rFBS' && (
            <div className="return-actions" role="group" aria-label={t('actions')}>
              {allowed.length === 0 ? (
                <Typography.Text type="secondary">{t('rfbs.none')}</Typography.Text>
              ) : (
                RFBS_ACTIONS.filter((a) => allowed.includes(a)).map((action) => (
                  <Button key={action} type={action === 'verify' || action === 'receive' || action === 'returnMoney' ? 'primary' : 'default'} danger={action === 'reject'} onClick={() => onAction(current, action)}>
                    {t(`rfbs.${action}`)}
                  </Button>
                ))
              )}
            </div>
          )}
          <Descriptions column={2} bordered size="small">
            <Descriptions.Item label={t('status')}><ReturnStatus t={t} row={current} /></Descriptions.Item>
            <Descriptions.Item label={t('scheme')}>{current.scheme} · {typeLabel(t, current.type)}</Descriptions.Item>
            <Descriptions.Item label={t('reason')}>{reasonLabel(t, current.reason)}</Descriptions.Item>
            <Descriptions.Item label={t('quantity')}>{current.quantity}</Descriptions.Item>
            <Descriptions.Item label={t('amount')}>{<Money amount={current.amount} currency={current.currency} />}</Descriptions.Item>
            <Descriptions.Item label={t('shop')}>{current.shopName}</Descriptions.Item>
            <Descriptions.Item label={t('offerId')}>{current.offerId}</Descriptions.Item>
            <Descriptions.Item label={t('sku')}>{current.sku}</Descriptions.Item>
            <Descriptions.Item label={t('returnedAt')}>{time.format(current.returnedAt)}</Descriptions.Item>
            <Descriptions.Item label={t('changedAt')}>{time.format(current.changedAt)}</Descriptions.Item>
            <Descriptions.Item label={t('returnId')}>{current.returnId}</Descriptions.Item>
            <Descriptions.Item label={t('orderNumber')}>{current.orderNumber}</Descriptions.Item>
          </Descriptions>
          {!shown ? (
            <Skeleton active />
          ) : 'error' in shown ? (
            <Alert type="error" showIcon title={t('loadFailed')} description={shown.error} />
          ) : (
            <Details detail={shown.detail} lang={lang} onOpenOrder={() => {
                onClose();
                navigate(getHref(ORDER_LIST_PATH, { search: current.postingNumber }));
              }} />
          )}
        </Space>
      )}
    </Drawer>
  );
});

/** The facts Ozon gave about this return, only those it gave (antd draws an empty row for a missing item). */
function facts(detail: ReturnDetail, lang: Lang, t: ReturnsT): DescriptionsProps['items'] {
  const rfbs = detail.row.scheme === 'rFBS';
  const money = (m: { amount: number; currency: string } | null) => (m ? <Money amount={m.amount} currency={m.currency} /> : null);
  const rows: [string, ReactNode][] = [
    [t('priceWithoutCommission'), money(detail.priceWithoutCommission)],
    [t('commission'), money(detail.commission)],
    [t('place'), detail.place],
    [t('targetPlace'), detail.targetPlace],
    [t('storage'), detail.storage ? t('storageDays', { days: detail.storage.days, sum: formatMoney(detail.storage.sum.amount, detail.storage.sum.currency, lang) }) : null],
    [t('barcode'), detail.barcode],
    [t('opened'), detail.opened === null ? null : detail.opened ? t('yes') : t('no')],
    [t('buyer'), rfbs ? detail.buyerName : null],
    [t('buyerComment'), rfbs ? detail.comment || '—' : null],
    [t('defect'), rfbs && detail.isDefect !== null ? (detail.isDefect ? t('yes') : t('no')) : null],
    [t('returnMethod'), rfbs ? detail.returnMethod : null],
    [t('trackingNumber'), rfbs ? detail.trackingNumber : null],
    [t('moneyReturnState'), rfbs ? detail.moneyReturnState : null],
    [t('rejectionComment'), rfbs ? detail.rejectionComment : null],
  ];
  return rows.filter(([, value]) => value !== null && value !== '').map(([label, children]) => ({ key: label, label, children }));
}

function Details({ detail, lang, onOpenOrder }: { detail: ReturnDetail; lang: Lang; onOpenOrder: () => void }) {
  const { t } = useTranslation('returns');
  const { row } = detail;
  const rfbs = row.scheme === 'rFBS';
  return (
    <>
      <section>
        <Typography.Title level={5}>{t('order')}</Typography.Title>
        <Space>
          <Typography.Text copyable>{row.postingNumber}</Typography.Text>
          {detail.orderRowId ? (
            <Button type="link" onClick={onOpenOrder}>{t('openOrder')}</Button>
          ) : (
            <Typography.Text type="secondary">{t('noOrder')}</Typography.Text>
          )}
        </Space>
      </section>
      <Descriptions column={1} bordered size="small" items={facts(detail, lang, t)} />
      {rfbs && (
        <section>
          <Typography.Title level={5}>{t('photos')}</Typography.Title>
          {detail.photos.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noPhotos')} />
          ) : (
            <Image.PreviewGroup>
              <Space wrap>{detail.photos.map((url) => <ProxiedImage key={url} src={url} width={96} height={96} />)}</Space>
            </Image.PreviewGroup>
          )}
        </section>
      )}
    </>
  );
}
