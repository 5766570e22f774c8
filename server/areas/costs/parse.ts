import { parse } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { readSheet } from 'read-excel-file/node';
import { COST_IMPORT_COLUMNS, COST_IMPORT_MAX_LINES, COST_MESSAGES, OFFER_ID_MAX } from '../../../contract/costs';
import type { Localized } from '../../../contract/errors';
import { ApiError } from '../../http/errors';
import { rezipWithin } from '../../http/zip';

/**
 * Reads a cost price file: CSV (UTF-8, or GB18030 as Chinese Excel saves it; comma, semicolon or tab) or XLSX (the
 * first sheet). The first line is the header naming the offer id and cost columns (contract/costs.ts
 * COST_IMPORT_COLUMNS, any order, other columns ignored). Each later line is a cost or a reason it is not.
 */
export type CostLine = { line: number; offerId: string } & ({ cost: number; problem?: undefined } | { cost?: undefined; problem: Localized });

type Cell = string | number | boolean | Date | null | undefined;

const fail = (key: keyof typeof COST_MESSAGES) => new ApiError(400, COST_MESSAGES[key], 'file');

export function kindOf(fileName: string): 'csv' | 'xlsx' | null {
  const ext = fileName.toLowerCase().split('.').pop();
  return ext === 'csv' || ext === 'txt' ? 'csv' : ext === 'xlsx' ? 'xlsx' : null;
}

function decodeText(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return iconv.decode(bytes, 'gb18030');
  }
}

function csvRows(bytes: Buffer): Cell[][] {
  const text = decodeText(bytes).replace(/^\uFEFF/, '');
  const header = text.slice(0, text.indexOf('\n') >>> 0);
  const delimiter = [',', ';', '\t'].map((d) => [d, header.split(d).length] as const).sort((a, b) => b[1] - a[1])[0]![0];
  try {
    return parse(text, { delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, trim: true }) as string[][];
  } catch {
    throw fail('fileUnreadable');
  }
}

/** What a cost sheet's XLSX may unpack to (its XML): far above any sheet of COST_IMPORT_MAX_LINES lines. */
export const COST_XLSX_UNZIPPED_MAX_BYTES = 64 * 1024 * 1024;

async function xlsxRows(bytes: Buffer): Promise<Cell[][]> {
  try {
    // Unpacked within the budget first: the reader's own unzip believes what the zip says.
    return (await readSheet(Buffer.from(rezipWithin(bytes, COST_XLSX_UNZIPPED_MAX_BYTES)))) as Cell[][];
  } catch {
    throw fail('fileUnreadable');
  }
}

const normal = (cell: Cell) => String(cell ?? '').trim().toLowerCase().replace(/\s+/g, ' ');

/** A cost written as 12.5, "12,50", "1 234.50" or "¥12.5": roubles with at most two decimals. */
export function parseCost(cell: Cell): number | null {
  if (typeof cell === 'number') return Number.isFinite(cell) && cell >= 0 && cell < 10_000_000 && Math.round(cell * 100) === Math.round(cell * 100 * 1e6) / 1e6 ? Math.round(cell * 100) / 100 : null;
  // Spaces, and the rouble, yuan and dollar signs and words (руб., 元) a seller's sheet may carry.
  const text = String(cell ?? '').trim().replace(/[\s\u00a0\u20bd\u00a5$]|\u0440\u0443\u0431\.?|\u5143/g, '').replace(',', '.');
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(text)) return null;
  return Number(text);
}

export async function readCostFile(fileName: string, bytes: Buffer): Promise<CostLine[]> {
  const kind = kindOf(fileName);
  if (!kind) throw fail('fileType');
  const rows = kind === 'csv' ? csvRows(bytes) : await xlsxRows(bytes);
  const header = (rows[0] ?? []).map(normal);
  const offerColumn = header.findIndex((h) => (COST_IMPORT_COLUMNS.offerId as readonly string[]).includes(h));
  const costColumn = header.findIndex((h) => (COST_IMPORT_COLUMNS.cost as readonly string[]).includes(h));
  if (offerColumn < 0 || costColumn < 0) throw fail('noHeader');
  if (rows.length - 1 > COST_IMPORT_MAX_LINES) throw fail('tooManyLines');
  const lines: CostLine[] = [];
  rows.slice(1).forEach((row, i) => {
    const line = i + 2;
    if (row.every((cell) => normal(cell) === '')) return;
    const offerCell = row[offerColumn];
    const offerId = typeof offerCell === 'number' ? String(offerCell) : String(offerCell ?? '').trim();
    if (!offerId) return lines.push({ line, offerId, problem: COST_MESSAGES.offerIdMissing });
    if (offerId.length > OFFER_ID_MAX) return lines.push({ line, offerId: offerId.slice(0, OFFER_ID_MAX), problem: COST_MESSAGES.offerIdTooLong });
    const cost = parseCost(row[costColumn]);
    if (cost === null) return lines.push({ line, offerId, problem: COST_MESSAGES.costInvalid });
    lines.push({ line, offerId, cost });
  });
  return lines;
}
