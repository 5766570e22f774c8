import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateMarket } from '../../../server/areas/research/generate';
import { writeMarketFiles } from '../../../server/areas/research/files';
import { importMarket, type ImportSources } from '../../../server/areas/research/importer';
import { parseLine } from '../../../server/areas/research/importFormat';
import type { Database } from '../../../server/db/database';
import { ALL_DATABASE_TARGETS } from '../harness';

const NOW = new Date('2026-06-15T09:00:00Z');

async function* linesOf(text: string, breakAfter?: number): AsyncGenerator<string> {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (const [index, line] of lines.entries()) {
    if (breakAfter !== undefined && index >= breakAfter) throw new Error('the upload was interrupted');
    yield line;
  }
}

function sources(dir: string, format: 'csv' | 'jsonl', edit: { products?: (text: string) => string; keywords?: (text: string) => string } = {}, breakAfter?: number): ImportSources {
  const read = (entity: 'products' | 'keywords') => {
    const text = readFileSync(join(dir, `${entity}.${format}`), 'utf8');
    return edit[entity] ? edit[entity](text) : text;
  };
  return {
    products: { name: `products.${format}`, format, lines: linesOf(read('products'), breakAfter) },
    keywords: { name: `keywords.${format}`, format, lines: linesOf(read('keywords')) },
  };
}

describe('a refused line\'s reason', () => {
  const good = { sku: 7, name: 'Кружка', categoryId: 1, typeId: 2, brand: '', sellerId: 3, sellerName: 'Shop', sellerCountry: 'CN', price: 10, rating: 4.5, reviews: 1, firstSeen: '2026-01-01', from: '2026-06-01', sales: [1, 2], prices: [10, 10] };
  const reason = (change: Record<string, unknown>) => {
    const parsed = parseLine('products', { ...good, ...change });
    return parsed.ok ? null : parsed.message;
  };

  it('comes from the catalogue in zh, en and pt for every kind of problem', () => {
    expect(parseLine('products', good).ok).toBe(true);
    expect(reason({ sku: 'abc' })).toEqual({ zh: 'sku：应为数字', en: 'sku: must be a number', pt: 'sku: deve ser um número' });
    expect(reason({ price: 0 })).toEqual({ zh: 'price：须大于0', en: 'price: must be above 0', pt: 'price: deve ser maior que 0' });
    expect(reason({ price: 20_000_000 })).toEqual({ zh: 'price：不能大于10,000,000', en: 'price: must be at most 10,000,000', pt: 'price: deve ser no máximo 10.000.000' });
    expect(reason({ rating: 7 })?.en).toBe('rating: must be at most 5');
    expect(reason({ name: 'x'.repeat(501) })?.zh).toBe('name：最多500个字符');
    expect(reason({ name: ' ' })?.en).toBe('name: must not be empty');
    expect(reason({ reviews: 1.5 })?.pt).toBe('reviews: deve ser um número inteiro');
    expect(reason({ firstSeen: '2026-02-30x' })?.zh).toBe('firstSeen：须为 yyyy-mm-dd 格式的日期');
    expect(reason({ sales: [] })?.en).toBe('sales: must hold at least one day');
    expect(reason({ prices: [10] })?.zh).toBe('prices：天数须与 sales 相同');
    expect(parseLine('keywords', { keyword: 'k', categoryId: null, results: 1, from: '2026-06-01', frequency: [1], topSkus: Array.from({ length: 101 }, (_, i) => i + 1) })).toEqual({
      ok: false,
      message: { zh: 'topSkus：最多100项', en: 'topSkus: must hold at most 100 items', pt: 'topSkus: deve ter no máximo 100 itens' },
    });
    expect(parseLine('products', 5)).toEqual({ ok: false, message: { zh: '应为JSON对象', en: 'must be a JSON object', pt: 'deve ser um objeto JSON' } });
  });
});

describe.each(ALL_DATABASE_TARGETS)('market import ($kind)', (target) => {
  let database: Database;
  let dispose: () => Promise<void>;
  const dirs: Record<'csv' | 'jsonl', string> = { csv: mkdtempSync(join(tmpdir(), 'market-csv-')), jsonl: mkdtempSync(join(tmpdir(), 'market-jsonl-')) };
  const marketDigest = async () =>
    (await database.query<{ d: string }>(
      `select md5((select string_agg(p::text, ',' order by sku) from market_products p) || (select string_agg(k.keyword, ',' order by keyword) from market_keywords k)
        || (select string_agg(h::text, ',' order by sku) from market_product_history h)) as d`,
    ))[0]!.d;

  beforeAll(async () => {
    ({ database, dispose } = await target.open());
    await database.migrate();
    await writeMarketFiles(dirs.csv, 800, 'csv', NOW);
    await writeMarketFiles(dirs.jsonl, 800, 'jsonl', NOW);
  });
  afterAll(async () => {
    await dispose();
    for (const dir of Object.values(dirs)) rmSync(dir, { recursive: true, force: true });
  });

  it.each(['csv', 'jsonl'] as const)('loads good %s files to the same market the generator makes', async (format) => {
    await generateMarket(database, { products: 800, now: NOW });
    const generated = await marketDigest();
    await generateMarket(database, { products: 300, now: NOW });
    const progress: string[] = [];
    const result = await importMarket(database, sources(dirs[format], format), { onProgress: (p) => progress.push(p.step) });
    expect(result).toMatchObject({ status: 'done', summary: { products: 800, keywords: 240, asOf: '2026-06-14' } });
    expect(await marketDigest()).toBe(generated);
    expect(progress).toEqual(expect.arrayContaining(['building', 'indexing', 'swapping']));
    const [job] = await database.query<{ status: string }>(`select status from market_imports order by id desc limit 1`);
    expect(job!.status).toBe('done');
  });

  it('refuses malformed lines, naming each by file, line and field, and keeps the previous market', async () => {
    await generateMarket(database, { products: 300, now: NOW });
    const before = await marketDigest();
    const result = await importMarket(
      database,
      sources(dirs.csv, 'csv', {
        products: (text) => {
          const lines = text.split('\n');
          lines[3] = lines[3]!.replace(/,CN,|,RU,|,[A-Z]{2},/, ',China,');
          lines[5] = lines[5]!.split(',').slice(0, 4).join(',');
          lines[7] = lines[2]!;
          lines[9] = lines[9]!.replace(/,(\d+);/, ',-3;');
          return lines.join('\n');
        },
        keywords: (text) => text.replace('\n', '\n"unclosed,1,2\n'),
      }),
    );
    expect(result.status).toBe('failed');
    if (result.status !== 'failed') return;
    const english = result.errors.map((error) => ({ ...error, message: error.message.en }));
    expect(english).toEqual([
      { file: 'products.csv', line: 4, message: 'sellerCountry: must be a two-letter country code (CN, RU …)' },
      { file: 'products.csv', line: 6, message: 'expected 15 fields, found 4 (the line may be cut short)' },
      { file: 'products.csv', line: 8, message: expect.stringMatching(/^sku: \d+ appears on an earlier line$/) },
      { file: 'products.csv', line: 10, message: 'sales: must not be negative' },
      { file: 'keywords.csv', line: 2, message: 'a quoted field is not closed (the line may be cut short)' },
      // Line 8 took the place of this SKU's line.
      { file: 'keywords.csv', line: 65, message: 'topSkus: 1600000007 is not a product of this import' },
    ]);
    expect(result.message).toEqual({ zh: '6行被拒绝，市场数据未改变', en: '6 lines refused; the market was not changed', pt: '6 linhas recusadas; o mercado não foi alterado' });
    // Every reason reads in each language, from the catalogue, with the file's own field names kept.
    expect(result.errors[0]!.message).toEqual({ zh: 'sellerCountry：须为两位大写国家代码（CN、RU…）', en: 'sellerCountry: must be a two-letter country code (CN, RU …)', pt: 'sellerCountry: deve ser um código de país de duas letras (CN, RU …)' });
    expect(result.errors[1]!.message.zh).toBe('应有15个字段，实际为4个（该行可能被截断）');
    expect(result.errors[3]!.message.pt).toBe('sales: não pode ser negativo');
    expect(await marketDigest()).toBe(before);
    const tables = await database.query<{ n: number }>(`select count(*)::int as n from pg_tables where tablename like 'market%next' or tablename like 'market_stage%'`);
    expect(tables[0]!.n).toBe(0);
  });

  it('keeps the previous market when a file ends mid-line or its stream breaks', async () => {
    await generateMarket(database, { products: 300, now: NOW });
    const before = await marketDigest();
    const cut = await importMarket(database, sources(dirs.jsonl, 'jsonl', { products: (text) => text.slice(0, Math.floor(text.length / 2)) }));
    expect(cut.status).toBe('failed');
    expect(cut.status === 'failed' && cut.errors[0]).toEqual({ file: 'products.jsonl', line: 400, message: expect.objectContaining({ en: 'not a JSON object (the line may be cut short)', zh: '不是JSON对象（该行可能被截断）' }) });
    const broken = await importMarket(database, sources(dirs.jsonl, 'jsonl', {}, 500));
    expect(broken).toMatchObject({ status: 'failed', message: { en: 'the import stopped: the upload was interrupted; the market was not changed', zh: '导入中断：the upload was interrupted；市场数据未改变' } });
    expect(await marketDigest()).toBe(before);
    const jobs = await database.query<{ status: string }>(`select status from market_imports order by id desc limit 2`);
    expect(jobs.map((job) => job.status)).toEqual(['failed', 'failed']);
  });

  it('refuses a keyword ranking a product the import does not hold, and series ending on different days', async () => {
    const keywords = readFileSync(join(dirs.jsonl, 'keywords.jsonl'), 'utf8').split('\n');
    const first = JSON.parse(keywords[0]!) as { topSkus: number[]; from: string };
    first.topSkus = [42];
    const second = JSON.parse(keywords[1]!) as { from: string };
    second.from = '2026-01-01';
    const dir = mkdtempSync(join(tmpdir(), 'market-bad-'));
    writeFileSync(join(dir, 'keywords.jsonl'), [JSON.stringify(first), JSON.stringify(second), ...keywords.slice(2)].join('\n'));
    writeFileSync(join(dir, 'products.jsonl'), readFileSync(join(dirs.jsonl, 'products.jsonl')));
    const result = await importMarket(database, sources(dir, 'jsonl'));
    rmSync(dir, { recursive: true, force: true });
    expect(result).toMatchObject({
      status: 'failed',
      errors: [
        { file: 'keywords.jsonl', line: 1, message: { en: 'topSkus: 42 is not a product of this import', zh: 'topSkus：42 不是本次导入的商品', pt: 'topSkus: 42 não é um produto desta importação' } },
        { file: 'keywords.jsonl', line: 2, message: expect.objectContaining({ en: 'from: the series ends on 2026-03-31, the import\'s other series on 2026-06-14: every series must end on the same day' }) },
      ],
    });
  });
});
