import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { readSheet } from 'read-excel-file/node';
import type { OrderListPage, OrderPictures, OrderRow } from '../../contract/orders';
import type { Store } from '../../contract/store';
import { login, PGLITE_TARGET, startTestApp, type Session, type TestApp } from './harness';

/** The PDF's text as a reader gets it back, all pages. */
async function pdfText(pdf: Uint8Array): Promise<string> {
  const document = await getDocument({ data: pdf.slice(), useSystemFonts: false, isEvalSupported: false }).promise;
  const texts: string[] = [];
  for (let n = 1; n <= document.numPages; n++) {
    const content = await (await document.getPage(n)).getTextContent();
    texts.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  return texts.join('\n');
}

/** The order desk's files and pictures: a picking list read back from its PDF and its sheet, thumbnails by offer. */
describe('the order desk', () => {
  let t: TestApp;
  let seller: Session;
  let rows: OrderRow[];

  beforeAll(async () => {
    t = await startTestApp(PGLITE_TARGET, { app: { marketplace: { simulatorOptions: { ordersPerShop: 60, productsPerShop: 20 } } } });
    await t.app.ready();
    seller = await login(t.app, 'seller', 'seller123');
    const added = await t.app.inject({ method: 'POST', url: '/api/store/add', headers: seller.headers, payload: { name: '义乌小百货', clientId: '1001', apiKey: 'sim-key-1001' } });
    const storeId = added.json<{ data: Store }>().data.id;
    await t.app.sync.runShop(storeId, ['warehouses', 'postings', 'products']);
    const list = await t.app.inject({ method: 'GET', url: `/api/order/list?shopIds=${storeId}&rows=500`, headers: seller.headers });
    rows = list.json<{ data: OrderListPage }>().data.list;
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object, headers: Record<string, string> = seller.headers) => t.app.inject({ method: 'POST', url, headers, payload });

  /** The rows' products with their quantities summed, as a picking list must have them. */
  const summed = (picked: readonly OrderRow[]) => {
    const byOffer = new Map<string, { sku: string; offerId: string; name: string; quantity: number }>();
    for (const row of picked) {
      const key = `${row.offerId}|${row.sku}`;
      const line = byOffer.get(key) ?? { sku: row.sku, offerId: row.offerId, name: row.productName, quantity: 0 };
      line.quantity += row.quantity;
      byOffer.set(key, line);
    }
    return [...byOffer.values()];
  };

  it('answers the main picture of each product on screen, by shop and offer id, from the synced cards', async () => {
    expect(rows.length).toBeGreaterThan(20);
    const items = [...new Map(rows.map((row) => [row.offerId, { shopId: row.shopId, offerId: row.offerId }])).values()];
    const answer = await post('/api/order/pictures', { items: [...items, { shopId: rows[0]!.shopId, offerId: 'NO-SUCH-OFFER' }] });
    expect(answer.statusCode).toBe(200);
    const pictures = answer.json<{ data: OrderPictures }>().data;
    expect(pictures.length).toBeGreaterThan(0);
    expect(pictures.every((p) => p.url.startsWith('http') && items.some((i) => i.offerId === p.offerId))).toBe(true);
    expect(pictures.some((p) => p.offerId === 'NO-SUCH-OFFER')).toBe(false);
    // The picture is one the browser can load: the simulator serves it.
    const picture = await t.app.inject({ method: 'GET', url: new URL(pictures[0]!.url).pathname });
    expect(picture.statusCode).toBe(200);
  });

  it('prints the picking list of the selection as a PDF: each product once, its quantity summed, with its picture', async () => {
    // Several lines of the same product, so the sums are more than one row's quantity.
    const picked = rows.slice(0, 40);
    const expected = summed(picked);
    expect(expected.length).toBeLessThan(picked.length);
    const answer = await post('/api/order/picking-list', { ids: picked.map((row) => row.id), format: 'pdf' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toContain('application/pdf');
    expect(answer.headers['content-disposition']).toContain('picking-list.pdf');
    const text = await pdfText(new Uint8Array(answer.rawPayload));
    expect(text).toContain('拣货单');
    const postings = new Set(picked.map((row) => row.postingNumber)).size;
    const total = picked.reduce((sum, row) => sum + row.quantity, 0);
    expect(text.replace(/\s+/g, ' ')).toContain(`${postings} 个货件 · ${expected.length} 种商品 · 共 ${total} 件`);
    for (const line of expected) {
      expect(text).toContain(line.offerId);
      expect(text).toContain(line.sku);
    }
    // Each product's quantity right after its name on its line.
    const first = [...expected].sort((a, b) => b.quantity - a.quantity)[0]!;
    expect(text).toMatch(new RegExp(`${first.offerId}[^\\n]*?${first.quantity}`));
    // The pictures are in the file, not links to it.
    expect(answer.rawPayload.toString('latin1')).toContain('/Subtype /Image');
  });

  it('writes the same list as an Excel sheet in the reader\'s language, with a total row', async () => {
    const picked = rows.slice(0, 40);
    const expected = summed(picked);
    const answer = await post('/api/order/picking-list', { ids: picked.map((row) => row.id), format: 'xlsx' }, { ...seller.headers, 'accept-language': 'en' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-disposition']).toContain('picking-list.xlsx');
    const sheet = await readSheet(answer.rawPayload, 1, { trim: false });
    expect(sheet[0]).toEqual(['SKU', 'Offer ID', 'Product', 'Quantity', 'Postings', 'Shops', 'Picture']);
    const lines = sheet.slice(1, -1).map((row) => ({ sku: String(row[0]), offerId: String(row[1]), name: String(row[2]), quantity: Number(row[3]) }));
    expect(lines.sort((a, b) => a.offerId.localeCompare(b.offerId) || a.sku.localeCompare(b.sku))).toEqual(
      expected.sort((a, b) => a.offerId.localeCompare(b.offerId) || a.sku.localeCompare(b.sku)),
    );
    const totalRow = sheet[sheet.length - 1]!;
    expect(totalRow[3]).toBe(picked.reduce((sum, row) => sum + row.quantity, 0));
    expect(sheet.slice(1, -1).every((row) => String(row[6] ?? '').startsWith('http'))).toBe(true);
  });

  it('refuses rows of another seller as not found, and a user without orders', async () => {
    const other = await login(t.app, 'admin', 'admin123');
    const refused = await post('/api/order/picking-list', { ids: rows.slice(0, 3).map((row) => row.id), format: 'pdf' }, other.headers);
    expect(refused.statusCode).toBe(404);
    expect(refused.json<{ msg: string }>().msg).toBe('订单不存在');
    const pictures = await post('/api/order/pictures', { items: [{ shopId: rows[0]!.shopId, offerId: rows[0]!.offerId }] }, other.headers);
    expect(pictures.json<{ data: OrderPictures }>().data).toEqual([]);
    const analyst = await login(t.app, 'analyst', 'analyst123');
    expect((await post('/api/order/picking-list', { ids: [rows[0]!.id], format: 'xlsx' }, analyst.headers)).statusCode).toBe(401);
  });
});
