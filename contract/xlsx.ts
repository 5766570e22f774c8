import { strToU8, Zip, ZipDeflate } from 'fflate';

/**
 * A one-sheet Excel workbook (Office Open XML) written as a stream: the header row first, then rows in slices, each
 * slice deflated into the zip as it comes, so a caller can report progress between slices and never holds the whole
 * sheet's XML (half a million product rows are a few hundred MB of XML, a few tens of MB zipped). Strings are written
 * inline (no shared-string table), numbers as numbers, `Date`s as Excel date-times; the header is bold and frozen.
 * Excel, WPS and LibreOffice open it. The server's exports and the worker's both write with it.
 */
export type SheetCell = string | number | Date | null;

/** Control characters other than tab and line breaks: XML 1.0 cannot carry them. */
// eslint-disable-next-line no-control-regex -- these characters are what it removes
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const escapeXml = (text: string) => text.replace(/[&<>"]/g, (c) => ESCAPES[c]!).replace(CONTROL, '');

const HEADER_STYLE = 1;
const DATE_STYLE = 2;
const MS_PER_DAY = 86_400_000;
/** Excel's day 0 is 1899-12-30: the serial of 1970-01-01 is 25569. */
const EPOCH_SERIAL = 25_569;

/** Excel stores a date-time as days since 1899-12-30 in the reader's wall-clock time: the writer's local time here. */
const excelSerial = (date: Date) => (date.getTime() - date.getTimezoneOffset() * 60_000) / MS_PER_DAY + EPOCH_SERIAL;

function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** `ref` is the cell's address (B7); an empty cell is left out. */
function cellXml(value: SheetCell, ref: string, style: string): string {
  if (value === null || value === '') return '';
  if (typeof value === 'number') return Number.isFinite(value) ? `<c r="${ref}"${style}><v>${value}</v></c>` : '';
  if (value instanceof Date) return Number.isFinite(value.getTime()) ? `<c r="${ref}" s="${DATE_STYLE}"><v>${excelSerial(value)}</v></c>` : '';
  return `<c r="${ref}" t="inlineStr"${style}><is><t xml:space="preserve">${escapeXml(value)}</t></is></c>`;
}

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const DOC_RELS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const SHEETML = 'application/vnd.openxmlformats-officedocument.spreadsheetml';

const fixedParts = (sheetName: string): Record<string, string> => ({
  '[Content_Types].xml': `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="${SHEETML}.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="${SHEETML}.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="${SHEETML}.styles+xml"/></Types>`,
  '_rels/.rels': `${XML}<Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="${DOC_RELS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  'xl/workbook.xml': `${XML}<workbook xmlns="${MAIN}" xmlns:r="${DOC_RELS}"><sheets><sheet name="${escapeXml(sheetName.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31))}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  'xl/_rels/workbook.xml.rels': `${XML}<Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="${DOC_RELS}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${DOC_RELS}/styles" Target="styles.xml"/></Relationships>`,
  // Styles: 0 plain, 1 bold (header), 2 date and time (numFmt 22, "yyyy/m/d h:mm" in a Chinese Excel).
  'xl/styles.xml': `${XML}<styleSheet xmlns="${MAIN}"><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/><xf numFmtId="22" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs></styleSheet>`,
});

export type SheetWriter = {
  /** Appends rows after those already written. */
  addRows(rows: readonly (readonly SheetCell[])[]): void;
  /** Closes the sheet and answers the workbook's bytes. */
  finish(): Uint8Array;
  /** Closes the sheet and answers the workbook's bytes as the parts written (a Blob of them copies them once). */
  finishParts(): Uint8Array<ArrayBuffer>[];
};

/** A workbook of one sheet named `sheetName` whose first row is `header`; `widths` in characters, per column. */
export function createSheetWriter(sheetName: string, header: readonly string[], widths: readonly number[] = []): SheetWriter {
  const chunks: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, data) => {
    if (error) failure = error;
    else chunks.push(data);
  });
  for (const [name, text] of Object.entries(fixedParts(sheetName))) {
    const part = new ZipDeflate(name, { level: 6 });
    zip.add(part);
    part.push(strToU8(text), true);
  }
  const sheet = new ZipDeflate('xl/worksheets/sheet1.xml', { level: 1 });
  zip.add(sheet);
  let rowCount = 0;
  const letters: string[] = [];
  const rowXml = (cells: readonly SheetCell[], style: string) => {
    rowCount += 1;
    let xml = `<row r="${rowCount}">`;
    for (let c = 0; c < cells.length; c++) xml += cellXml(cells[c]!, (letters[c] ??= columnName(c)) + rowCount, style);
    return xml + '</row>';
  };
  const cols = widths.length ? `<cols>${widths.map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`).join('')}</cols>` : '';
  sheet.push(
    strToU8(
      `${XML}<worksheet xmlns="${MAIN}"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>${cols}<sheetData>${rowXml(header, ` s="${HEADER_STYLE}"`)}`,
    ),
  );
  const finishParts = () => {
    sheet.push(strToU8('</sheetData></worksheet>'), true);
    zip.end();
    if (failure) throw failure;
    return chunks as Uint8Array<ArrayBuffer>[];
  };
  return {
    addRows(rows) {
      if (rows.length) sheet.push(strToU8(rows.map((cells) => rowXml(cells, '')).join('')));
    },
    finish: () => joinBytes(finishParts()),
    finishParts,
  };
}

/** Parts of a file written one after another, as one array. */
export function joinBytes(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}

/** A whole sheet at once: `createSheetWriter` for rows already in hand. */
export function writeXlsx(sheetName: string, header: readonly string[], rows: readonly (readonly SheetCell[])[], widths: readonly number[] = []): Uint8Array {
  const writer = createSheetWriter(sheetName, header, widths);
  writer.addRows(rows);
  return writer.finish();
}
