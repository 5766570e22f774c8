import { Tag } from 'antd';
import type { OrderRow } from '@contract/orders';
import type { GroupedRow } from '@workers/lists/types';
import { timeFormat } from '@/app/formats';
import { Money } from '@/components/money/Money';
import type { Lang } from '@contract/errors';
import type { VirtualTableColumn } from '@/components/virtual-table/VirtualTable';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { FBS_STATUSES } from '@contract/fbsStatuses';

type StatusColor = 'orange' | 'gold' | 'blue' | 'green' | 'red' | 'default';

const STATUS_COLORS: Partial<Record<OrderRow['status'], StatusColor>> = {
  awaiting_packaging: 'orange',
  awaiting_deliver: 'gold',
  delivering: 'blue',
  delivered: 'green',
  cancelled: 'default',
  not_accepted: 'red',
  arbitration: 'red',
  client_arbitration: 'red',
};

export function formatTime(value: number | null, lang: Lang): string {
  if (value === null) return '—';
  return timeFormat(lang).format(value);
}

/** An amount with its currency sign, in the display currency (src/components/money). */
export function formatAmount(row: Pick<OrderRow, 'amount' | 'currency'>) {
  return <Money amount={row.amount} currency={row.currency} />;
}

/** The status as antd's Tag, for places that show one order (the detail drawer). */
export function StatusTag({ status }: { status: OrderRow['status'] }) {
  const { t } = useTranslation('orders');
  return <Tag color={STATUS_COLORS[status]}>{t(`statuses.${status}`, { defaultValue: status })}</Tag>;
}

/**
 * The status in a list cell: a plain span styled like antd's Tag in the same colours (orders.css). antd's Tag is a
 * component with hooks and a style registration per instance; a scrolling list renders dozens of them a frame.
 */
export function StatusLabel({ status, text }: { status: OrderRow['status']; text: string }) {
  return <span className={`order-status order-status--${STATUS_COLORS[status] ?? 'default'}`}>{text}</span>;
}

/**
 * The list's columns, most used first so they show without a sideways scroll on a laptop: what the order is, its
 * state, what and how much; the identifiers a seller searches by come after. Entered orders lead with the order
 * number (they may have no posting) and have no Ozon shop or ship-by date.
 */
export function orderColumns(t: TFunction<'orders'>, lang: Lang, mode: 'orders' | 'records' = 'orders'): VirtualTableColumn<OrderRow>[] {
  // Looked up once per language, not per cell: a scrolling list renders dozens of status cells a frame.
  const statusNames = new Map<string, string>(FBS_STATUSES.map((status) => [status, t(`statuses.${status}`)]));
  const link = (text: string) => <a>{text || '—'}</a>;
  const columns: Record<string, VirtualTableColumn<OrderRow>> = {
    postingNumber: { id: 'postingNumber', header: t('postingNumber'), width: 170, sortable: true, cell: (row) => (mode === 'orders' ? link(row.postingNumber) : row.postingNumber || '—') },
    orderNumber: { id: 'orderNumber', header: t('orderNumber'), width: 150, sortable: true, cell: (row) => (mode === 'records' ? link(row.orderNumber) : row.orderNumber) },
    // English status names are longer ("Awaiting shipment"): a narrower column would cut them.
    status: { id: 'status', header: t('status'), width: lang === 'en' ? 180 : 110, sortable: true, cell: (row) => <StatusLabel status={row.status} text={statusNames.get(row.status) ?? row.status} /> },
    productName: {
      id: 'productName',
      header: t('productName'),
      width: 260,
      sortable: true,
      // In the posting view a row is a posting: its first line's product, and how many products it holds.
      cell: (row: GroupedRow<OrderRow>) =>
        (row.groupRows ?? 1) > 1 ? (
          <span title={row.productName}>
            <span className="order-lines">{t('lines', { count: row.groupRows })}</span> {row.productName}
          </span>
        ) : (
          <span title={row.productName}>{row.productName}</span>
        ),
    },
    quantity: { id: 'quantity', header: t('quantity'), width: 70, align: 'right', sortable: true, cell: (row) => row.quantity },
    amount: { id: 'amount', header: t('amount'), width: 130, align: 'right', sortable: true, cell: (row) => formatAmount(row) },
    shopName: { id: 'shopName', header: t('shop'), width: 190, sortable: true, cell: (row) => <span title={row.shopName}>{row.shopName || '—'}</span> },
    inProcessAt: { id: 'inProcessAt', header: t('inProcessAt'), width: 150, sortable: true, cell: (row) => formatTime(row.inProcessAt, lang) },
    shipmentDate: { id: 'shipmentDate', header: t('shipmentDate'), width: 150, sortable: true, cell: (row) => formatTime(row.shipmentDate, lang) },
    trackingNumber: { id: 'trackingNumber', header: t('trackingNumber'), width: 170, sortable: true, cell: (row) => row.trackingNumber || '—' },
    sku: { id: 'sku', header: t('sku'), width: 120, sortable: true, cell: (row) => row.sku || '—' },
    offerId: { id: 'offerId', header: t('offerId'), width: 150, sortable: true, cell: (row) => <span title={row.offerId}>{row.offerId || '—'}</span> },
    warehouseName: { id: 'warehouseName', header: t('warehouse'), width: 150, sortable: true, cell: (row) => <span title={row.warehouseName}>{row.warehouseName || '—'}</span> },
  };
  const order =
    mode === 'orders'
      ? ['postingNumber', 'status', 'productName', 'quantity', 'amount', 'shopName', 'inProcessAt', 'shipmentDate', 'trackingNumber', 'orderNumber', 'sku', 'offerId', 'warehouseName']
      : ['orderNumber', 'status', 'productName', 'quantity', 'amount', 'inProcessAt', 'trackingNumber', 'postingNumber', 'sku', 'offerId', 'warehouseName'];
  return order.map((id) => columns[id]!);
}
