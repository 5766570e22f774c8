import { csvText } from '../contract/csv';
import { createSheetWriter, type SheetCell } from '../contract/xlsx';
import type { ApiFailure } from './api';
import { CSV_TYPE, numberText, XLSX_TYPE } from './products/export';

/**
 * A research list's export (hot, new, Chinese-seller and potential products, keywords), written here in the worker:
 * the server answers the list's query page after page in its sort (RESEARCH_ENDPOINTS.*Export, under the list's own
 * role; its first page counts the rows and refuses more than EXPORT_MAX_ROWS), each page goes into the file as it
 * comes (the products export's CSV and workbook writers), and the page hears the progress between pages. Cancel
 * aborts the page being asked and stops.
 */

export type ExportFormat = 'xlsx' | 'csv';
/** A column of the file: the row's field and the header the page gives it (in the UI's language). `day`: epoch ms written as yyyy-mm-dd. */
export type ResearchExportColumn = { id: string; header: string; day?: boolean };
export type ExportPage<Row, Cursor> = { total: number | null; rows: Row[]; next: Cursor | null };
export type ExportProgress = (done: number, total: number) => void;

const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function cellOf(row: Record<string, unknown>, column: ResearchExportColumn): SheetCell {
  const value = row[column.id];
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return column.day ? dayText(value) : value;
  return String(value);
}

/** Writes what `page` answers, page after page until it names no next one, as the format's file. */
export async function exportPages<Row extends object, Cursor>(
  page: (after: Cursor | undefined) => Promise<ExportPage<Row, Cursor>>,
  format: ExportFormat,
  columns: readonly ResearchExportColumn[],
  sheetName: string,
  signal: AbortSignal,
  onProgress?: ExportProgress,
): Promise<Blob> {
  const encoder = new TextEncoder();
  const csv: Uint8Array<ArrayBuffer>[] = [];
  const sheet = format === 'xlsx' ? createSheetWriter(sheetName, columns.map((c) => c.header), columns.map((c) => (c.id === 'name' || c.id === 'keyword' ? 48 : 14))) : null;
  if (!sheet) csv.push(encoder.encode('\uFEFF' + columns.map((c) => csvText(c.header)).join(',') + '\r\n'));
  let after: Cursor | undefined;
  let total = 0;
  let done = 0;
  for (;;) {
    if (signal.aborted) throw { type: 'Aborted', code: 0, message: 'cancelled', silent: true } satisfies ApiFailure;
    const answer = await page(after);
    if (answer.total !== null) total = answer.total;
    const cells = answer.rows.map((row) => columns.map((column) => cellOf(row as Record<string, unknown>, column)));
    if (sheet) sheet.addRows(cells);
    else
      csv.push(
        encoder.encode(
          cells.map((line) => line.map((cell) => (cell === null ? '' : typeof cell === 'number' ? numberText(cell) : csvText(String(cell)))).join(',') + '\r\n').join(''),
        ),
      );
    done += answer.rows.length;
    onProgress?.(done, Math.max(total, done));
    if (!answer.next) break;
    after = answer.next;
  }
  return sheet ? new Blob(sheet.finishParts(), { type: XLSX_TYPE }) : new Blob(csv, { type: CSV_TYPE });
}
