import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MarketData } from '../../../contract/research';
import { writeMarketFiles } from '../../../server/areas/research/files';
import { generateMarket } from '../../../server/areas/research/generate';
import { DATABASE_TARGETS, login, startTestApp, type Session, type TestApp } from '../harness';

type Envelope<T> = { code: number; msg: string; data: T };

/** A multipart body of files, in the order given, each part named `file` as the page sends them. */
function multipart(files: { name: string; text: string }[]) {
  const boundary = '----marketUploadTest';
  const parts = files.map(({ name, text }) =>
    Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n`), Buffer.from(text), Buffer.from('\r\n')]),
  );
  return { payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]), contentType: `multipart/form-data; boundary=${boundary}` };
}

describe.each(DATABASE_TARGETS)('market data upload ($kind)', (target) => {
  let test: TestApp;
  let admin: Session;
  const dir = mkdtempSync(join(tmpdir(), 'market-upload-'));
  let products: string;
  let keywords: string;
  const NOW = new Date('2026-06-15T09:00:00Z');

  const upload = async (session: Session, files: { name: string; text: string }[]) => {
    const { payload, contentType } = multipart(files);
    const response = await test.app.inject({ method: 'POST', url: '/api/search/market/import', headers: { ...session.headers, 'content-type': contentType }, payload });
    return { status: response.statusCode, body: response.json<Envelope<MarketData>>() };
  };
  const productCount = async () => (await test.database.query<{ n: number }>(`select count(*)::int as n from market_products`))[0]!.n;

  beforeAll(async () => {
    test = await startTestApp(target);
    await generateMarket(test.database, { products: 300, now: NOW });
    await writeMarketFiles(dir, 500, 'csv', NOW);
    products = readFileSync(join(dir, 'products.csv'), 'utf8');
    keywords = readFileSync(join(dir, 'keywords.csv'), 'utf8');
    admin = await login(test.app, 'admin', 'admin123');
  });
  afterAll(async () => {
    await test.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('replaces the market with the uploaded files and lists the import', async () => {
    const { status, body } = await upload(admin, [{ name: 'products.csv', text: products }, { name: 'keywords.csv', text: keywords }]);
    expect(status, JSON.stringify(body)).toBe(200);
    const keywordLines = keywords.trim().split('\n').length;
    expect(body.data.current).toMatchObject({ products: 500, keywords: keywordLines - 1, asOf: '2026-06-14', source: 'import:products.csv' });
    expect(body.data.imports[0]).toMatchObject({ status: 'done', userName: 'admin', lines: { products: 501, keywords: keywordLines }, errorCount: 0 });
    expect(await productCount()).toBe(500);
    const listed = await test.app.inject({ method: 'GET', url: '/api/search/market/data', headers: admin.headers });
    expect(listed.json<Envelope<MarketData>>().data.imports[0]!.id).toBe(body.data.imports[0]!.id);
  });

  it('names each refused line by file, number and field, and keeps the market as it was', async () => {
    const lines = products.split('\n');
    lines[4] = lines[4]!.replace(/,(CN|RU|[A-Z]{2}),/, ',China,');
    lines[6] = lines[6]!.split(',').slice(0, 5).join(',');
    const { status, body } = await upload(admin, [{ name: 'products.csv', text: lines.join('\n') }, { name: 'keywords.csv', text: keywords }]);
    expect(status).toBe(200);
    const failed = body.data.imports[0]!;
    expect(failed.status).toBe('failed');
    // The cut line's SKU is unknown to the import, so keywords ranking it are refused too, each by its line.
    expect(failed.errors.slice(0, 2)).toEqual([
      { file: 'products.csv', line: 5, message: expect.stringContaining('sellerCountry') },
      { file: 'products.csv', line: 7, message: expect.stringContaining('expected 15 fields') },
    ]);
    const cutSku = lines[6]!.split(',')[0]!;
    expect(failed.errors.slice(2).every((e) => e.file === 'keywords.csv' && e.message.includes(cutSku))).toBe(true);
    expect(failed.errorCount).toBe(failed.errors.length);
    expect(body.data.current).toMatchObject({ products: 500 });
    expect(await productCount()).toBe(500);
  });

  it('refuses an upload that does not start with the products file; a missing keywords file fails the import', async () => {
    const wrongFirst = await upload(admin, [{ name: 'keywords.csv', text: keywords }, { name: 'products.csv', text: products }]);
    expect(wrongFirst.status).toBe(400);
    expect(wrongFirst.body.msg).toContain('products.csv');
    const alone = await upload(admin, [{ name: 'products.csv', text: products }]);
    expect(alone.status).toBe(200);
    expect(alone.body.data.imports[0]).toMatchObject({ status: 'failed', message: expect.stringContaining('keywords.csv or keywords.jsonl') });
    expect(await productCount()).toBe(500);
  });

  it('is for administrators only', async () => {
    const analyst = await login(test.app, 'analyst', 'analyst123');
    expect((await upload(analyst, [{ name: 'products.csv', text: products }, { name: 'keywords.csv', text: keywords }])).status).toBe(401);
    expect((await test.app.inject({ method: 'GET', url: '/api/search/market/data', headers: analyst.headers })).statusCode).toBe(401);
  });
});
