import { Alert, Button, Descriptions, Drawer, Space, Table, Typography } from 'antd';
import { memo, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CANCELLABLE_STATUSES, type OrderRow, type PostingDetail } from '@contract/orders';
import type { Lang } from '@contract/errors';
import type { OrderActionKind } from '@machines/orderActionsMachine';
import { PostingReturns } from '@/components/returns/PostingReturns';
import { formatAmount, formatTime, StatusTag } from './OrderColumns';
import { PostingParties, usePostingDetail } from './PostingParties';

type OrderDetailDrawerProps = {
  row: OrderRow | null;
  lang: Lang;
  onClose: () => void;
  /** Every line of the row's posting, from the worker's cache. */
  postingLines: (id: string) => Promise<OrderRow[]>;
  /** Ozon's details of the posting (buyer, address, commission). */
  postingDetail: (id: string) => Promise<PostingDetail>;
  /** Starts a batch action on this posting (the page's order-actions actor: it confirms, runs and reports). */
  onAction?: (kind: OrderActionKind, ids: string[]) => void;
};

/** What can be done to a posting in its status (Ozon's FBS flow); entered orders have no Ozon label. */
function actionsFor(row: OrderRow): OrderActionKind[] {
  const kinds: OrderActionKind[] = [];
  if (row.status === 'awaiting_packaging') kinds.push('ship');
  if (row.source === 'ozon' && ['awaiting_deliver', 'delivering', 'driver_pickup', 'delivered'].includes(row.status)) kinds.push('labels');
  if (row.status === 'awaiting_deliver' || row.status === 'delivering') kinds.push('tracking');
  if (row.source === 'ozon') kinds.push('stock');
  if (row.source === 'ozon' && CANCELLABLE_STATUSES.includes(row.status)) kinds.push('cancel');
  return kinds;
}

/**
 * The whole posting behind the row clicked: its facts, every product line with the posting's totals, and what can be
 * done to it now. Memoised: closed, it has nothing to show again when the list's counts change.
 */
export const OrderDetailDrawer = memo(function OrderDetailDrawer({ row, lang, onClose, postingLines, postingDetail, onAction }: OrderDetailDrawerProps) {
  const { t } = useTranslation('orders');
  const [lines, setLines] = useState<{ of: string; rows: OrderRow[] } | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!row) return;
    let live = true;
    setFailed(false);
    postingLines(row.id).then(
      (rows) => live && setLines({ of: row.id, rows: rows.length > 0 ? rows : [row] }),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [row, postingLines]);
  const items = row && lines?.of === row.id ? lines.rows : row ? [row] : [];
  const quantity = items.reduce((sum, line) => sum + line.quantity, 0);
  const amount = items.reduce((sum, line) => sum + line.amount, 0);
  const kinds = row ? actionsFor(row) : [];
  const ids = items.map((line) => line.id);
  const { state: detail, retry: retryDetail } = usePostingDetail(row, postingDetail);
  const money = detail.status === 'ready' && detail.detail.products.length > 0 ? moneyOf(detail.detail) : null;

  return (
    <Drawer
      open={row !== null}
      onClose={onClose}
      title={row ? t('detailTitle', { posting: row.postingNumber || row.orderNumber }) : t('detail')}
      size="large"
      destroyOnHidden
      extra={
        row && onAction && kinds.length > 0 ? (
          <Space wrap>
            {kinds.map((kind) => (
              <Button key={kind} type={kind === 'ship' ? 'primary' : 'default'} danger={kind === 'cancel'} onClick={() => onAction(kind, ids)}>
                {t(`actions.${kind}`)}
              </Button>
            ))}
          </Space>
        ) : null
      }
    >
      {row && (
        <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="order-detail">
          <Descriptions column={2} bordered size="small">
            <Descriptions.Item label={t('postingNumber')}>{row.postingNumber || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('status')}>
              <StatusTag status={row.status} />
              {/* Ozon's substatus codes are not for sellers' eyes; only our own EUB hand-over mark is. */}
              {row.substatus === 'eub' && <span>{t('eub')}</span>}
            </Descriptions.Item>
            <Descriptions.Item label={t('orderNumber')}>{row.orderNumber}</Descriptions.Item>
            <Descriptions.Item label={t('source')}>{row.source === 'manual' ? t('manual') : t('ozon')}</Descriptions.Item>
            <Descriptions.Item label={t('shop')}>{row.shopName || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('warehouse')}>{row.warehouseName || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('trackingNumber')} span={2}>
              {row.trackingNumber ? <Typography.Text copyable>{row.trackingNumber}</Typography.Text> : t('noTracking')}
            </Descriptions.Item>
          </Descriptions>

          <PostingParties state={detail} onRetry={retryDetail} />

          <section aria-label={t('timeline')}>
            <Typography.Title level={5}>{t('timeline')}</Typography.Title>
            <ol className="order-timeline">
              <TimelineStep label={t('inProcessAt')} time={row.inProcessAt} lang={lang} />
              <TimelineStep label={t('shipmentDate')} time={row.shipmentDate} lang={lang} />
              <TimelineStep label={t('deliveringDate')} time={row.deliveringDate} lang={lang} />
            </ol>
          </section>

          <section aria-label={t('items')}>
            <Typography.Title level={5}>{t('itemsCount', { count: items.length })}</Typography.Title>
            {failed && <Alert type="warning" showIcon title={t('itemsFailed')} />}
            <Table<OrderRow>
              size="small"
              rowKey="id"
              pagination={false}
              dataSource={items}
              columns={[
                { title: t('productName'), dataIndex: 'productName', ellipsis: true },
                // The offer id under the SKU: with Ozon's money columns, a column of its own left the name no room.
                {
                  title: `${t('sku')} / ${t('offerId')}`,
                  key: 'sku',
                  width: 150,
                  render: (_, line) => (
                    <>
                      {line.sku}
                      <div className="order-drawer__percent">{line.offerId}</div>
                    </>
                  ),
                },
                { title: t('quantity'), dataIndex: 'quantity', width: 60, align: 'right' },
                { title: t('amount'), key: 'amount', width: 120, align: 'right', render: (_, line) => formatAmount(line) },
                ...(money
                  ? [
                      {
                        title: t('commission'),
                        key: 'commission',
                        width: 110,
                        align: 'right' as const,
                        render: (_: unknown, line: OrderRow) => <Commission line={money.bySku.get(line.sku)} />,
                      },
                      {
                        title: t('payout'),
                        key: 'payout',
                        width: 110,
                        align: 'right' as const,
                        render: (_: unknown, line: OrderRow) => {
                          const product = money.bySku.get(line.sku);
                          return product?.payout != null ? formatAmount({ amount: product.payout, currency: product.currency }) : '—';
                        },
                      },
                    ]
                  : []),
              ]}
              summary={() => (
                <Table.Summary.Row>
                  <Table.Summary.Cell index={0} colSpan={2}>
                    <strong>{t('postingTotal')}</strong>
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={2} align="right">
                    <strong>{quantity}</strong>
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={3} align="right">
                    <strong data-testid="posting-total">{formatAmount({ amount, currency: row.currency })}</strong>
                  </Table.Summary.Cell>
                  {money && (
                    <>
                      <Table.Summary.Cell index={4} align="right">
                        <strong data-testid="posting-commission">{money.commission === null ? '—' : formatAmount({ amount: money.commission, currency: money.currency })}</strong>
                      </Table.Summary.Cell>
                      <Table.Summary.Cell index={5} align="right">
                        <strong data-testid="posting-payout">{money.payout === null ? '—' : formatAmount({ amount: money.payout, currency: money.currency })}</strong>
                      </Table.Summary.Cell>
                    </>
                  )}
                </Table.Summary.Row>
              )}
            />
          </section>
          {row.source === 'ozon' && row.postingNumber && <PostingReturns shopId={row.shopId} postingNumber={row.postingNumber} lang={lang} />}
        </Space>
      )}
    </Drawer>
  );
});

type ProductMoney = PostingDetail['products'][number];

/** Ozon's money per product (by SKU) and the posting's totals; a total is null when Ozon left a product's out. */
function moneyOf(detail: PostingDetail) {
  const sum = (pick: (p: ProductMoney) => number | null) =>
    detail.products.every((p) => pick(p) !== null) ? Math.round(detail.products.reduce((total, p) => total + pick(p)!, 0) * 100) / 100 : null;
  return {
    bySku: new Map(detail.products.map((p) => [p.sku, p])),
    commission: sum((p) => p.commission),
    payout: sum((p) => p.payout),
    currency: detail.products[0]!.currency,
  };
}

function Commission({ line }: { line: ProductMoney | undefined }) {
  if (!line || line.commission === null) return <>—</>;
  return (
    <>
      {formatAmount({ amount: line.commission, currency: line.currency })}
      {line.commissionPercent !== null && <div className="order-drawer__percent">{line.commissionPercent}%</div>}
    </>
  );
}

function TimelineStep({ label, time, lang }: { label: string; time: number | null; lang: Lang }) {
  return (
    <li className={time === null ? 'order-timeline__step is-pending' : 'order-timeline__step'}>
      <span className="order-timeline__label">{label}</span>
      <span className="order-timeline__time">{formatTime(time, lang)}</span>
    </li>
  );
}
