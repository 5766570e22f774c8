import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import type { Lang } from '@contract/errors';
import { PRODUCT_STATUSES, PRODUCT_VISIBILITIES, type ProductRow } from '@contract/products';
import { timeFormat } from '@/app/formats';
import { Money } from '@/components/money/Money';
import type { VirtualTableColumn } from '@/components/virtual-table/VirtualTable';
import { pictureUrl } from '@/components/pictureUrl';

export const STATUS_COLORS: Record<ProductRow['status'], string> = {
  selling: 'green',
  notSelling: 'default',
  moderating: 'blue',
  failed: 'red',
  archived: 'default',
};

/** A price or revenue with its currency, in the display currency (src/components/money); none: '—'. */
export const formatMoney = (value: number, currency: string) => (value > 0 ? <Money amount={value} currency={currency} /> : '—');

export { pictureUrl };

/** The price cell being edited: that row's id and its editor. */
export type PriceEditing = { id: string; editor: (row: ProductRow) => ReactNode } | null;

/**
 * The list's columns, most used first: what the product is and its state, prices (the price edited in its cell),
 * stock and sales; identifiers and dates after. `onEditPrice` turns a row's price cell into its editor, `editing`.
 */
export function productColumns(
  t: TFunction<'products'>,
  lang: Lang,
  onEditPrice: (row: ProductRow) => void,
  editing: PriceEditing = null,
): VirtualTableColumn<ProductRow>[] {
  const statusNames = new Map<string, string>(PRODUCT_STATUSES.map((s) => [s, t(`statuses.${s}`)]));
  const visibilityNames = new Map<string, string>(PRODUCT_VISIBILITIES.map((v) => [v, t(`visibilities.${v}`)]));
  const time = timeFormat(lang);
  return [
    {
      id: 'image',
      header: t('image'),
      width: 64,
      // Sized before it loads (no layout shift) and decoded off the main thread: a fast scroll brings dozens a frame.
      cell: (row) =>
        row.image ? <img className="product-thumb" src={pictureUrl(row.image)} alt="" width={40} height={40} loading="lazy" decoding="async" /> : <span className="product-thumb product-thumb--none" />,
    },
    { id: 'name', header: t('name'), width: 280, sortable: true, cell: (row) => <span title={row.name}>{row.name || '—'}</span> },
    { id: 'offerId', header: t('offerId'), width: 150, sortable: true, cell: (row) => <span title={row.offerId}>{row.offerId}</span> },
    {
      id: 'status',
      header: t('status'),
      width: lang === 'en' ? 130 : 100,
      sortable: true,
      cell: (row) => (
        <span className={`product-status product-status--${STATUS_COLORS[row.status]}`}>
          {statusNames.get(row.status) ?? row.status}
          {row.errorCount > 0 ? <span className="product-errors" title={t('hasErrors')}>!</span> : null}
        </span>
      ),
    },
    {
      id: 'price',
      header: t('price'),
      width: 140,
      align: 'right',
      sortable: true,
      cell: (row) =>
        editing?.id === row.id ? (
          editing.editor(row)
        ) : (
        <button type="button" className="product-price" aria-label={`${t('editPrice')} ${row.offerId}`} onClick={(event) => (event.stopPropagation(), onEditPrice(row))}>
          {formatMoney(row.price, row.currency)}
        </button>
        ),
    },
    { id: 'oldPrice', header: t('oldPrice'), width: 120, align: 'right', sortable: true, cell: (row) => (row.oldPrice > 0 ? <s>{formatMoney(row.oldPrice, row.currency)}</s> : '—') },
    { id: 'minPrice', header: t('minPrice'), width: 120, align: 'right', sortable: true, cell: (row) => formatMoney(row.minPrice, row.currency) },
    { id: 'fbsStock', header: t('fbsStock'), width: 100, align: 'right', sortable: true, cell: (row) => row.fbsStock },
    { id: 'fboStock', header: t('fboStock'), width: 100, align: 'right', sortable: true, cell: (row) => row.fboStock },
    { id: 'units30d', header: t('units30d'), width: 100, align: 'right', sortable: true, cell: (row) => row.units30d },
    { id: 'revenue30d', header: t('revenue30d'), width: 130, align: 'right', sortable: true, cell: (row) => formatMoney(row.revenue30d, row.currency) },
    { id: 'shopName', header: t('shop'), width: 160, sortable: true, cell: (row) => <span title={row.shopName}>{row.shopName}</span> },
    { id: 'sku', header: t('sku'), width: 120, sortable: true, cell: (row) => row.sku || '—' },
    { id: 'visibility', header: t('visibility'), width: 110, sortable: true, cell: (row) => visibilityNames.get(row.visibility) ?? row.visibility },
    { id: 'moderation', header: t('moderation'), width: 110, sortable: true, cell: (row) => row.moderation || '—' },
    { id: 'createdAt', header: t('createdAt'), width: 150, sortable: true, cell: (row) => time.format(row.createdAt) },
    { id: 'changedAt', header: t('changedAt'), width: 150, sortable: true, cell: (row) => time.format(row.changedAt) },
  ];
}
