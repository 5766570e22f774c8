import { Tag } from 'antd';
import type { OrderRow } from '@contract/orders';
import type { Lang } from '@/components/dialog/texts';
import type { VirtualTableColumn } from '@/components/virtual-table/VirtualTable';
import { ORDER_TEXTS, STATUS_TEXTS } from './texts';

const STATUS_COLORS: Partial<Record<OrderRow['status'], string>> = {
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
  return new Date(value).toLocaleString(lang === 'zh' ? 'zh-CN' : 'en-GB', { dateStyle: 'short', timeStyle: 'short' });
}

export function formatAmount(row: Pick<OrderRow, 'amount' | 'currency'>, lang: Lang): string {
  return `${row.amount.toLocaleString(lang === 'zh' ? 'zh-CN' : 'en', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${row.currency}`;
}

export function StatusTag({ status, lang }: { status: OrderRow['status']; lang: Lang }) {
  return <Tag color={STATUS_COLORS[status]}>{STATUS_TEXTS[lang][status] ?? status}</Tag>;
}

export function orderColumns(lang: Lang): VirtualTableColumn<OrderRow>[] {
  const t = ORDER_TEXTS[lang];
  return [
    { id: 'postingNumber', header: t.postingNumber, width: 170, sortable: true, cell: (row) => <a>{row.postingNumber || '—'}</a> },
    { id: 'orderNumber', header: t.orderNumber, width: 140, sortable: true, cell: (row) => row.orderNumber },
    { id: 'shopName', header: t.shop, width: 150, sortable: true, cell: (row) => row.shopName || '—' },
    { id: 'status', header: t.status, width: 130, sortable: true, cell: (row) => <StatusTag status={row.status} lang={lang} /> },
    { id: 'productName', header: t.productName, width: 240, sortable: true, cell: (row) => <span title={row.productName}>{row.productName}</span> },
    { id: 'sku', header: t.sku, width: 120, sortable: true, cell: (row) => row.sku },
    { id: 'offerId', header: t.offerId, width: 140, sortable: true, cell: (row) => row.offerId },
    { id: 'quantity', header: t.quantity, width: 70, align: 'right', sortable: true, cell: (row) => row.quantity },
    { id: 'amount', header: t.amount, width: 130, align: 'right', sortable: true, cell: (row) => formatAmount(row, lang) },
    { id: 'inProcessAt', header: t.inProcessAt, width: 150, sortable: true, cell: (row) => formatTime(row.inProcessAt, lang) },
    { id: 'shipmentDate', header: t.shipmentDate, width: 150, sortable: true, cell: (row) => formatTime(row.shipmentDate, lang) },
    { id: 'warehouseName', header: t.warehouse, width: 150, sortable: true, cell: (row) => row.warehouseName || '—' },
    { id: 'trackingNumber', header: t.trackingNumber, width: 160, sortable: true, cell: (row) => row.trackingNumber || '—' },
  ];
}
