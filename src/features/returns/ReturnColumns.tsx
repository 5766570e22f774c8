import type { TFunction } from 'i18next';
import type { Lang } from '@contract/errors';
import type { ReturnRow } from '@contract/returns';
import { timeFormat } from '@/app/formats';
import { moneyText } from '@/app/money';
import { Money } from '@/components/money/Money';
import type { VirtualTableColumn } from '@/components/virtual-table/VirtualTable';

export type ReturnsT = TFunction<'returns'>;
/** A text keyed by a value Ozon names (a status, a reason), with Ozon's own words when it is not translated. */
type LooseT = (key: string, options: { defaultValue: string }) => string;
const loose = (t: ReturnsT) => t as unknown as LooseT;

export const statusLabel = (t: ReturnsT, row: Pick<ReturnRow, 'status' | 'statusName'>) => loose(t)(`statusNames.${row.status}`, { defaultValue: row.statusName || row.status });
export const reasonLabel = (t: ReturnsT, reason: string) => (reason ? loose(t)(`reasonNames.${reason}`, { defaultValue: reason }) : '—');
export const typeLabel = (t: ReturnsT, type: string) => loose(t)(`types.${type}`, { defaultValue: type });
/** An amount with its currency's sign, for a sentence (cells show `<Money>`, in the display currency). */
export const formatMoney = (amount: number, currency: string, lang: Lang) => moneyText(amount, currency, lang);

/** Where a status stands: to act on, under way, ended well, ended badly. */
export function statusTone(status: string): 'action' | 'moving' | 'done' | 'bad' {
  if (status === 'OnSellerApproval' || status === 'ReceivedBySeller' || status === 'ArrivedAtReturnPlace') return 'action';
  if (status === 'Rejected' || status === 'DisputeOpened' || status === 'Utilized') return 'bad';
  if (status === 'MovingToSeller' || status === 'MovingToOzon' || status === 'Approved') return 'moving';
  return 'done';
}

export function ReturnStatus({ t, row }: { t: ReturnsT; row: Pick<ReturnRow, 'status' | 'statusName'> }) {
  return <span className={`return-status return-status--${statusTone(row.status)}`} title={row.statusName}>{statusLabel(t, row)}</span>;
}

/** The list's columns: what came back and why, its state and money first; identifiers and dates after. */
export function returnColumns(t: ReturnsT, lang: Lang, withActions: boolean, onOpen: (row: ReturnRow) => void): VirtualTableColumn<ReturnRow>[] {
  const time = timeFormat(lang);
  const columns: VirtualTableColumn<ReturnRow>[] = [
    { id: 'productName', header: t('product'), width: 260, sortable: true, cell: (row) => (
        <a title={row.productName} onClick={(event) => (event.stopPropagation(), onOpen(row))}>
          {row.productName || '—'}
        </a>
      ),
    },
    { id: 'status', header: t('status'), width: lang === 'en' ? 190 : 150, sortable: true, cell: (row) => <ReturnStatus t={t} row={row} /> },
    { id: 'reason', header: t('reason'), width: 150, sortable: true, cell: (row) => <span title={row.reason}>{reasonLabel(t, row.reason)}</span> },
    { id: 'scheme', header: t('scheme'), width: 70, cell: (row) => <span className={`return-scheme return-scheme--${row.scheme}`}>{row.scheme}</span> },
    { id: 'amount', header: t('amount'), width: 120, align: 'right', sortable: true, cell: (row) => <Money amount={row.amount} currency={row.currency} /> },
    { id: 'quantity', header: t('quantity'), width: 60, align: 'right', sortable: true, cell: (row) => row.quantity },
    { id: 'postingNumber', header: t('postingNumber'), width: 170, sortable: true, cell: (row) => row.postingNumber },
    { id: 'returnedAt', header: t('returnedAt'), width: 150, sortable: true, cell: (row) => time.format(row.returnedAt) },
    { id: 'changedAt', header: t('changedAt'), width: 150, sortable: true, cell: (row) => time.format(row.changedAt) },
    { id: 'shopName', header: t('shop'), width: 160, sortable: true, cell: (row) => <span title={row.shopName}>{row.shopName}</span> },
    { id: 'offerId', header: t('offerId'), width: 140, cell: (row) => <span title={row.offerId}>{row.offerId}</span> },
    { id: 'sku', header: t('sku'), width: 110, cell: (row) => row.sku },
    { id: 'type', header: t('type'), width: 110, cell: (row) => typeLabel(t, row.type) },
    { id: 'returnId', header: t('returnId'), width: 130, cell: (row) => row.returnId },
  ];
  if (withActions) {
    columns.splice(2, 0, {
      id: 'actions',
      header: t('actions'),
      width: 110,
      cell: (row) => (row.actions ? <span className="return-todo">{t('needsAction')}</span> : null),
    });
  }
  return columns;
}
