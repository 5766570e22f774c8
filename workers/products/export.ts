import { csvText } from '../../contract/csv';
import { createSheetWriter } from '../../contract/xlsx';
import type { ProductColumn, ProductRow } from '../../contract/products';
import { yieldToEventLoop, type ListEngine } from '../lists/engine';
import type { ListQuery } from '../lists/types';

/** A column of an export: its header, and the texts a coded value is written as (a status's name). */
export type ProductExportColumn = { id: ProductColumn; header: string; labels?: Record<string, string> };
export type ExportProgress = (done: number, total: number) => void;
type Engine = Pick<ListEngine<ProductRow, ListQuery<object>>, 'window'>;

export const CSV_TYPE = 'text/csv;charset=utf-8';
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Rows per slice of an export: the worker answers other messages between slices. */
const EXPORT_SLICE = 5_000;


const TIME_COLUMNS: ReadonlySet<ProductColumn> = new Set(['createdAt', 'changedAt', 'updatedAt']);
const isTime = (id: ProductColumn): id is 'createdAt' | 'changedAt' | 'updatedAt' => TIME_COLUMNS.has(id);
/** A cell's value as exported: its label when the column names one, else the value itself. */
const exportValue = (row: ProductRow, column: ProductExportColumn): string | number => {
  const value = row[column.id];
  return column.labels?.[String(value)] ?? value;
};

const DAY_MS = 86_400_000;
const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

/**
 * `Date.prototype.toISOString`'s text of epoch ms, faster: the day's part is kept per day (an export's rows share
 * days) and the time of day is put together from tables. Half a million rows' two dates took over a second through a
 * Date each.
 */
function isoTimes(): (ms: number) => string {
  const days = new Map<number, string>();
  const date = new Date(0);
  return (ms) => {
    if (!Number.isFinite(ms)) return '';
    const day = Math.floor(ms / DAY_MS);
    let prefix = days.get(day);
    if (prefix === undefined) {
      date.setTime(day * DAY_MS);
      prefix = date.toISOString().slice(0, 11);
      if (prefix.length !== 11) return new Date(ms).toISOString();
      days.set(day, prefix);
    }
    let rest = ms - day * DAY_MS;
    const milli = rest % 1000;
    rest = (rest - milli) / 1000;
    const second = rest % 60;
    rest = (rest - second) / 60;
    const minute = rest % 60;
    const hour = (rest - minute) / 60;
    return `${prefix}${TWO_DIGITS[hour]}:${TWO_DIGITS[minute]}:${TWO_DIGITS[second]}.${THREE_DIGITS[milli]}Z`;
  };
}

/**
 * `String(value)` of a number, faster for whole numbers of cents (every money value): V8 finds the shortest digits of
 * a fraction slowly (four million took over a second), while whole numbers print fast. The same text either way.
 */
export function numberText(value: number): string {
  if (Number.isInteger(value) || !(Math.abs(value) < 1e13)) return String(value);
  const cents = Math.round(value * 100);
  if (cents / 100 !== value) return String(value);
  const negative = cents < 0;
  const whole = Math.abs(cents);
  const fraction = whole % 100;
  const text = `${(whole - fraction) / 100}.${fraction % 10 === 0 ? fraction / 10 : TWO_DIGITS[fraction]}`;
  return negative ? `-${text}` : text;
}

/**
 * Each column's CSV text of a row, chosen once per export: numbers as they are (never quoted), times as ISO 8601 UTC,
 * labelled values through their already quoted labels, texts through csvText (quoted, and neutralised as formulas).
 */
function csvCells(columns: readonly ProductExportColumn[]): ((row: ProductRow) => string)[] {
  return columns.map(({ id, labels }) => {
    if (isTime(id)) {
      const iso = isoTimes();
      return (row) => iso(row[id]);
    }
    if (labels) {
      const quoted = new Map(Object.entries(labels).map(([value, label]) => [value, csvText(label)]));
      return (row) => {
        const value = String(row[id]);
        return quoted.get(value) ?? csvText(value);
      };
    }
    return (row) => {
      const value = row[id];
      return typeof value === 'number' ? numberText(value) : csvText(String(value));
    };
  });
}

/** Column widths (characters) in the workbook; others get 14. */
const XLSX_WIDTHS: Partial<Record<ProductColumn, number>> = { name: 48, offerId: 22, shopName: 20, createdAt: 18, changedAt: 18, updatedAt: 18 };

/** Hands `write` the result's rows a slice at a time, reporting progress and letting other messages in between. */
async function exportSlices(engine: Engine, handle: number, onProgress: ExportProgress | undefined, write: (rows: ProductRow[]) => void) {
  let total = engine.window(handle, 0, 0).total;
  for (let start = 0; start < total; start += EXPORT_SLICE) {
    const window = engine.window(handle, start, EXPORT_SLICE);
    total = window.total;
    write(window.rows);
    onProgress?.(Math.min(total, start + window.rows.length), total);
    await yieldToEventLoop();
  }
}

/** The result `handle` as CSV (UTF-8 with a BOM, so Excel reads Chinese and Cyrillic). */
export async function exportCsv(engine: Engine, handle: number, columns: readonly ProductExportColumn[], onProgress?: ExportProgress): Promise<Blob> {
  const encoder = new TextEncoder();
  const parts: Uint8Array<ArrayBuffer>[] = [encoder.encode('\uFEFF' + columns.map((c) => csvText(c.header)).join(',') + '\r\n')];
  const cells = csvCells(columns);
  await exportSlices(engine, handle, onProgress, (rows) => {
    // Each line built by concatenation (no array per row or per cell), the slice's lines joined into one flat string.
    const lines: string[] = new Array(rows.length + 1);
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      let line = cells[0]!(row);
      for (let c = 1; c < cells.length; c++) line += ',' + cells[c]!(row);
      lines[r] = line;
    }
    lines[rows.length] = '';
    parts.push(encoder.encode(lines.join('\r\n')));
  });
  return new Blob(parts, { type: CSV_TYPE });
}

/** The result `handle` as a one-sheet workbook: numbers as numbers, dates as Excel date-times. */
export async function exportXlsx(engine: Engine, handle: number, columns: readonly ProductExportColumn[], sheetName: string, onProgress?: ExportProgress): Promise<Blob> {
  const sheet = createSheetWriter(
    sheetName,
    columns.map((c) => c.header),
    columns.map((c) => XLSX_WIDTHS[c.id] ?? 14),
  );
  await exportSlices(engine, handle, onProgress, (rows) => sheet.addRows(rows.map((row) => columns.map((c) => (isTime(c.id) ? new Date(row[c.id]) : exportValue(row, c))))));
  return new Blob(sheet.finishParts(), { type: XLSX_TYPE });
}
