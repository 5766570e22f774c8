import { readSheet } from 'read-excel-file/node';
import { exportPages, type ExportPage, type ResearchExportColumn } from '../../../workers/researchExport';

type Row = { sku: number; name: string; price: number; growth: number | null; firstSeen: number };
const rows: Row[] = Array.from({ length: 50_000 }, (_, i) => ({
  sku: 1_000_000 + i,
  name: i === 3 ? '=HYPERLINK("x")' : `商品 ${i}, "Ткань"`,
  price: 100 + (i % 500) + 0.5,
  growth: i % 7 === 0 ? null : (i % 200) - 100,
  firstSeen: Date.UTC(2025, 4, 1 + (i % 30)),
}));
const columns: ResearchExportColumn[] = [
  { id: 'sku', header: 'SKU' },
  { id: 'name', header: '商品' },
  { id: 'price', header: '价格' },
  { id: 'growth', header: '增长' },
  { id: 'firstSeen', header: '首次发现', day: true },
];
/** The server's pages: 5,000 rows after the cursor (an offset here). */
const pages = (asked: number[]) => async (after: number | undefined): Promise<ExportPage<Row, number>> => {
  const from = after ?? 0;
  asked.push(from);
  const next = from + 5_000;
  return { total: after === undefined ? rows.length : null, rows: rows.slice(from, next), next: next < rows.length ? next : null };
};

describe('a research export written in the worker', () => {
  it('writes 50,000 rows as a workbook a spreadsheet library reads back: the header, then the rows in order', async () => {
    const progress: [number, number][] = [];
    const file = await exportPages(pages([]), 'xlsx', columns, '热销商品', new AbortController().signal, (done, total) => progress.push([done, total]));
    expect(progress).toHaveLength(10);
    expect(progress[0]).toEqual([5_000, 50_000]);
    expect(progress.at(-1)).toEqual([50_000, 50_000]);
    const sheet = await readSheet(Buffer.from(await file.arrayBuffer()));
    expect(sheet[0]).toEqual(['SKU', '商品', '价格', '增长', '首次发现']);
    expect(sheet).toHaveLength(50_001);
    for (const i of [0, 3, 7, 12_345, 49_999]) {
      const row = rows[i]!;
      expect(sheet[i + 1]).toEqual([row.sku, row.name, row.price, row.growth, new Date(row.firstSeen).toISOString().slice(0, 10)]);
    }
  });

  it('writes CSV with a BOM, quoted texts, formulas neutralised and empty cells for missing figures', async () => {
    const few = async (): Promise<ExportPage<Row, number>> => ({ total: 8, rows: rows.slice(0, 8), next: null });
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await (await exportPages(few, 'csv', columns, 'x', new AbortController().signal)).arrayBuffer());
    const lines = text.split('\r\n');
    expect(text.startsWith('\uFEFFSKU,商品,价格,增长,首次发现\r\n')).toBe(true);
    expect(lines[1]).toBe('1000000,"商品 0, ""Ткань""",100.5,,2025-05-01');
    expect(lines[4]).toBe(`1000003,"'=HYPERLINK(""x"")",103.5,-97,2025-05-04`);
    expect(lines).toHaveLength(10);
  });

  it('stops at a cancel: no further page is asked, and the export rejects as aborted', async () => {
    const asked: number[] = [];
    const controller = new AbortController();
    const serve = pages(asked);
    const running = exportPages(serve, 'csv', columns, 'x', controller.signal, (done) => done >= 10_000 && controller.abort());
    await expect(running).rejects.toMatchObject({ type: 'Aborted' });
    expect(asked).toEqual([0, 5_000]);
  });
});
