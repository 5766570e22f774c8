import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MarketData } from '../../../contract/research';
import { writeMarketFiles } from '../../../server/areas/research/files';
import { generateMarket } from '../../../server/areas/research/generate';
import { ALL_DATABASE_TARGETS, login, startTestApp, type Session, type TestApp } from '../harness';

type Envelope<T> = { code: number; msg: string; data: T };

/** A multipart body of files, in the order given, each part named `file` as the page sends them. */
function multipart(files: { name: string; text: string }[]) {
  const boundary = '----marketUploadTest';
  const parts = files.map(({ name, text }) =>
    Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n`), Buffer.from(text), Buffer.from('\r\n')]),
  );
  return { payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]), contentType: `multipart/form-data; boundary=${boundary}` };
}

describe.each(ALL_DATABASE_TARGETS)('market data upload ($kind)', (target) => {
  let test: TestApp;
  let admin: Session;
  const dir = mkdtempSync(join(tmpdir(), 'market-upload-'));
  let products: string;
  let keywords: string;
  const NOW = new Date('2026-06-15T09:00:00Z');

  const upload = async (session: Session, files: { name: string; text: string }[]) => {
    const { payload, contentType } = multipart(files);
    const response = await test.app.inject({ method: 'POST', url: '/api/search/market/import', headers: { ...session.headers, 'content-type': contentType, 'accept-language': 'en' }, payload });
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

    // The same import read by a Chinese and a Brazilian administrator: every reason in the reader's language.
    const readIn = async (language: string) =>
      (await test.app.inject({ method: 'GET', url: '/api/search/market/data', headers: { ...admin.headers, 'accept-language': language } })).json<Envelope<MarketData>>().data.imports[0]!;
    const zh = await readIn('zh-CN,zh;q=0.9');
    expect(zh.id).toBe(failed.id);
    expect(zh.message).toBe(`${failed.errorCount}行被拒绝，市场数据未改变`);
    expect(zh.errors.slice(0, 2).map((e) => e.message)).toEqual(['sellerCountry：须为两位大写国家代码（CN、RU…）', '应有15个字段，实际为5个（该行可能被截断）']);
    expect(zh.errors[2]!.message).toMatch(/^topSkus：\d+ 不是本次导入的商品$/);
    const pt = await readIn('pt-BR');
    expect(pt.message).toBe(`${failed.errorCount} linhas recusadas; o mercado não foi alterado`);
    expect(pt.errors[0]!.message).toBe('sellerCountry: deve ser um código de país de duas letras (CN, RU …)');
    expect((await readIn('en-US')).errors[1]!.message).toBe('expected 15 fields, found 5 (the line may be cut short)');
  });

  it('shows an import stored before reasons were kept in three languages as it was written', async () => {
    await test.database.query(
      `insert into market_imports (status, errors, message, finished_at) values ('failed', $1, to_jsonb($2::text), now())`,
      [JSON.stringify([{ file: 'products.csv', line: 3, message: 'price: must be above 0' }]), '1 lines refused; the market was not changed'],
    );
    const listed = (await test.app.inject({ method: 'GET', url: '/api/search/market/data', headers: { ...admin.headers, 'accept-language': 'zh-CN' } })).json<Envelope<MarketData>>();
    expect(listed.data.imports[0]).toMatchObject({ message: '1 lines refused; the market was not changed', errors: [{ file: 'products.csv', line: 3, message: 'price: must be above 0' }] });
  });

  it('refuses an upload that does not start with the products file; a missing keywords file fails the import', async () => {
    const wrongFirst = await upload(admin, [{ name: 'keywords.csv', text: keywords }, { name: 'products.csv', text: products }]);
    expect(wrongFirst.status).toBe(400);
    expect(wrongFirst.body.msg).toContain('products.csv');
    const alone = await upload(admin, [{ name: 'products.csv', text: products }]);
    expect(alone.status).toBe(200);
    expect(alone.body.data.imports[0]).toMatchObject({ status: 'failed', message: expect.stringContaining('keywords.csv or keywords.jsonl') });
    const inChinese = await test.app.inject({ method: 'GET', url: '/api/search/market/data', headers: { ...admin.headers, 'accept-language': 'zh' } });
    expect(inChinese.json<Envelope<MarketData>>().data.imports[0]!.message).toBe('导入中断：第二个文件须为 keywords.csv 或 keywords.jsonl；市场数据未改变');
    expect(await productCount()).toBe(500);
  });

  it('is for administrators only', async () => {
    const analyst = await login(test.app, 'analyst', 'analyst123');
    expect((await upload(analyst, [{ name: 'products.csv', text: products }, { name: 'keywords.csv', text: keywords }])).status).toBe(401);
    expect((await test.app.inject({ method: 'GET', url: '/api/search/market/data', headers: analyst.headers })).statusCode).toBe(401);
  });
});
