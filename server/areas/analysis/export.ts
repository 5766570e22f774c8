import { ANALYSIS_EXPORT_COLUMNS, type AnalysisSku } from '../../../contract/analysis';
import type { Lang } from '../../../contract/errors';
import { csvText } from '../../../contract/csv';
import { writeXlsx, type SheetCell } from '../../../contract/xlsx';

type Column = keyof typeof ANALYSIS_EXPORT_COLUMNS;
const COLUMNS = Object.keys(ANALYSIS_EXPORT_COLUMNS) as Column[];
const WIDTHS: Partial<Record<Column, number>> = { sku: 14, offerId: 16, name: 40, shop: 24 };

/** The export's rows: one a SKU, money in the orders' currency, margin as a fraction (formatted by the sheet). */
function cells(sku: AnalysisSku, shopName: (id: number) => string, currency: string): SheetCell[] {
  return COLUMNS.map((column) => {
    if (column === 'shop') return shopName(sku.shopId);
    if (column === 'currency') return currency;
    if (column === 'cost' && sku.costMissing) return null;
    return sku[column];
  });
}

export function skuSheet(skus: readonly AnalysisSku[], shopName: (id: number) => string, currency: string, lang: Lang) {
  return {
    header: COLUMNS.map((column) => ANALYSIS_EXPORT_COLUMNS[column][lang]),
    rows: skus.map((sku) => cells(sku, shopName, currency)),
  };
}

export function skuXlsx(sheetName: string, sheet: ReturnType<typeof skuSheet>): Uint8Array {
  return writeXlsx(sheetName, sheet.header, sheet.rows, COLUMNS.map((column) => WIDTHS[column] ?? 12));
}

/** CSV with a byte order mark, so Excel reads the Chinese names as UTF-8. */
export function skuCsv(sheet: ReturnType<typeof skuSheet>): string {
  // Numbers as they are; texts quoted and neutralised as formulas (a shop named =HYPERLINK(...)).
  const cell = (v: SheetCell) => (v === null ? '' : typeof v === 'number' ? String(v) : csvText(String(v)));
  return `\ufeff${[sheet.header, ...sheet.rows].map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`;
}
