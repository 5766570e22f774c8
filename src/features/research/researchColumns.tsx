import type { TFunction } from 'i18next';
import type { Lang } from '@contract/errors';
import type { MarketProductRow, Period } from '@contract/research';
import type { VirtualTableColumn } from '@/components/virtual-table/VirtualTable';
import { formatCount, formatDay, formatGrowth, formatRub } from './format';
import { ScoreBar } from './ScoreParts';

/**
 * The result table's columns; the figures of the chosen period, the score's parts on the potential page. A sortable
 * column is one the server sorts the whole market by (PRODUCT_SORTS): its header runs the query again in that order.
 */
export function researchColumns(t: TFunction<'research'>, lang: Lang, period: Period, potential: boolean): VirtualTableColumn<MarketProductRow>[] {
  const columns: VirtualTableColumn<MarketProductRow>[] = [
    { id: 'name', header: t('columns.name'), width: 300, cell: (row) => <a title={row.name}>{row.name}</a> },
    { id: 'brand', header: t('columns.brand'), width: 120, cell: (row) => row.brand },
    {
      id: 'sellerName',
      header: t('columns.seller'),
      width: 190,
      cell: (row) => (
        <span title={row.sellerName}>
          <span className={`research-country research-country--${row.sellerCountry === 'CN' ? 'cn' : 'other'}`}>{row.sellerCountry}</span> {row.sellerName}
        </span>
      ),
    },
    { id: 'price', header: t('columns.price'), width: 110, align: 'right', sortable: true, cell: (row) => formatRub(lang, row.price) },
    { id: `sales${period}`, header: t('columns.sales', { n: period }), width: 110, align: 'right', sortable: true, cell: (row) => formatCount(lang, row[`sales${period}`]) },
    { id: `revenue${period}`, header: t('columns.revenue', { n: period }), width: 140, align: 'right', sortable: true, cell: (row) => formatRub(lang, row[`revenue${period}`]) },
    {
      id: 'growth',
      header: t('columns.growth'),
      width: 100,
      align: 'right',
      sortable: true,
      cell: (row) => <span className={row.growth !== null && row.growth > 0 ? 'research-up' : row.growth !== null && row.growth < 0 ? 'research-down' : ''}>{formatGrowth(row.growth)}</span>,
    },
    { id: 'rating', header: t('columns.rating'), width: 80, align: 'right', sortable: true, cell: (row) => (row.rating === null ? '—' : row.rating.toFixed(1)) },
    { id: 'reviews', header: t('columns.reviews'), width: 90, align: 'right', sortable: true, cell: (row) => formatCount(lang, row.reviews) },
    { id: 'firstSeen', header: t('columns.firstSeen'), width: 110, sortable: true, cell: (row) => formatDay(row.firstSeen) },
  ];
  if (!potential) return columns;
  return [
    columns[0]!,
    { id: 'potentialScore', header: t('columns.score'), width: 90, align: 'right', sortable: true, cell: (row) => <strong>{row.potentialScore.toFixed(1)}</strong> },
    { id: 'parts', header: t('columns.parts'), width: 220, cell: (row) => <ScoreBar row={row} /> },
    ...columns.slice(1),
  ];
}
