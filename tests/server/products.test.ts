import { decodeListFrame, rowsOfChunk } from '../../contract/listFrame';
import { PRODUCT_FRAME_TYPE, PRODUCT_LIST, PRODUCT_PICTURE_RETENTION_DAYS, PRODUCT_PICTURES_CAP, productRowSchema, type ProductInfo, type ProductLimits, type ProductOutcomes, type ProductPage, type ProductRow, type ProductWarehouse } from '../../contract/products';
import type { PushMessage } from '../../contract/push';
import type { Store } from '../../contract/store';
import sharp from 'sharp';
import { multipart } from '../support/multipart';
import type { PictureCleanup } from '../../server/areas/products/pictures';
import { DATABASE_TARGETS, login, startTestApp, type Session, type TestApp } from './harness';

describe.each(DATABASE_TARGETS)('products on $kind', (target) => {
  let t: TestApp;
  let seller: Session;
  let storeId: number;
  let cleanup: PictureCleanup;
  const pushed: PushMessage[] = [];

  beforeAll(async () => {
    t = await startTestApp(target, {
      app: {
        marketplace: { simulatorOptions: { ordersPerShop: 40, productsPerShop: 60, control: { taskDelayMs: 0 } } },
        products: { reuploadIntervalMs: 0, pictureCleanupIntervalMs: 0, onPictureCleanup: (c) => (cleanup = c) },
      },
    });
    await t.app.ready();
    seller = await login(t.app, 'seller', 'seller123');
    const toAccount = t.app.push.toAccount;
    t.app.push.toAccount = (accountId, message) => {
      if (accountId === seller.id) pushed.push(message);
      return toAccount(accountId, message);
    };
    const added = await post<Store>('/api/store/add', { name: '义乌小百货', clientId: '1001', apiKey: 'sim-key-1001' });
    storeId = added.body.data.id;
    await t.app.sync.runShop(storeId, ['warehouses', 'products']);
  });
  afterAll(() => t.close());

  const get = <T>(url: string, session: Session = seller) =>
    t.app.inject({ method: 'GET', url, headers: session.headers }).then((r) => ({ status: r.statusCode, body: r.json<{ data: T; msg: string }>(), raw: r }));
  const post = <T>(url: string, payload: unknown, session: Session = seller) =>
    t.app.inject({ method: 'POST', url, headers: session.headers, payload: payload as object }).then((r) => ({ status: r.statusCode, body: r.json<{ data: T; msg: string }>(), raw: r }));
  const all = async (query = '') => (await get<ProductPage>(`/api/ozonProduct/list?storeId=${storeId}&rows=200${query}`)).body.data;
  const pick = async (test: (row: ProductRow) => boolean) => {
    const row = (await all()).list.find(test);
    if (!row) throw new Error('no such product in the simulated shop');
    return row;
  };

  it('answers 401 to users whose roles do not reach products', async () => {
    for (const [name, password] of [['analyst', 'analyst123'], ['newbie', 'newbie123']] as const) {
      const other = await login(t.app, name, password);
      expect((await get(`/api/ozonProduct/list?storeId=${storeId}`, other)).status).toBe(401);
      expect((await get('/api/product/sync', other)).status).toBe(401);
      expect((await post('/api/price/update', { items: [{ id: 'x', price: 1 }] }, other)).status).toBe(401);
      expect((await post('/api/updateSkuImage', { id: 'x', images: ['https://a.example/1.jpg'] }, other)).status).toBe(401);
    }
  });

  it("lists a shop's synced products a page at a time; another user's shop is not found", async () => {
    const page = (await get<ProductPage>(`/api/ozonProduct/list?storeId=${storeId}&rows=10&page=2`)).body.data;
    expect(page.total).toBe(60);
    expect(page.list).toHaveLength(10);
    for (const row of page.list) expect(productRowSchema.parse(row)).toEqual(row);
    const admin = await login(t.app, 'admin', 'admin123');
    expect((await get(`/api/ozonProduct/list?storeId=${storeId}`, admin)).status).toBe(404);
    expect((await get<ProductRow[]>(`/api/product/search?q=SKU-1001`, admin)).body.data).toEqual([]);
  });

  it('filters, searches and sorts the pro list on the server', async () => {
    const archived = (await post<ProductPage>('/api/ozonProductPro/list', { statuses: ['archived'], rows: 100 })).body.data;
    expect(archived.list.every((row) => row.status === 'archived')).toBe(true);
    const byPrice = (await post<ProductPage>('/api/ozonProductPro/list', { sort: 'price', direction: 'asc', rows: 100 })).body.data.list;
    expect(byPrice.map((row) => row.price)).toEqual([...byPrice.map((row) => row.price)].sort((a, b) => a - b));
    const first = byPrice[0]!;
    const found = (await get<ProductRow[]>(`/api/product/search?q=${encodeURIComponent(first.offerId.toLowerCase())}`)).body.data;
    expect(found.map((row) => row.id)).toContain(first.id);
  });

  it('hands the browser its products as binary frames of the product list', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/product/sync?limit=25', headers: seller.headers });
    expect(response.headers['content-type']).toContain(PRODUCT_FRAME_TYPE);
    const bytes = response.rawPayload;
    const frame = decodeListFrame(PRODUCT_LIST, bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    expect(frame.chunk.n).toBe(25);
    expect(frame.hasMore).toBe(true);
    const rows = rowsOfChunk<ProductRow>(PRODUCT_LIST, frame.chunk);
    expect(rows[0]!.shopId).toBe(storeId);
  });

  it("shows a product's card with its warehouses and 30 days of sales", async () => {
    const row = await pick((r) => r.status === 'selling');
    const info = (await get<ProductInfo>(`/api/product/info?id=${encodeURIComponent(row.id)}`)).body.data;
    expect(info.row.id).toBe(row.id);
    expect(info.images.length).toBeGreaterThan(0);
    expect(info.attributes.length).toBeGreaterThan(0);
    expect(info.sales).toHaveLength(30);
    expect(info.stocks.length).toBeGreaterThan(0);
    expect((await get(`/api/product/info?id=nope`)).status).toBe(404);
  });

  it("refuses a price Ozon would refuse, per product, and sends the rest", async () => {
    const [a, b] = (await all()).list.filter((r) => r.status !== 'archived' && r.price > 500 && r.price < 9000);
    pushed.length = 0;
    const answer = await post<ProductOutcomes>('/api/price/update', {
      items: [
        // 5% of 1000 is 50: 1040 is too close.
        { id: a!.id, price: 1000, oldPrice: 1040 },
        { id: b!.id, price: 1000, oldPrice: 1050, minPrice: 900 },
        { id: 'missing', price: 10 },
      ],
    });
    expect(answer.status).toBe(200);
    const [gap, ok, missing] = answer.body.data.outcomes;
    expect(gap).toMatchObject({ id: a!.id, ok: false });
    expect(gap!.message).toContain('50');
    expect(ok).toEqual({ id: b!.id, ok: true, message: '' });
    expect(missing).toMatchObject({ ok: false });
    expect(pushed).toContainEqual({ type: 'products.changed' });
    const after = (await all()).list.find((r) => r.id === b!.id)!;
    expect([after.price, after.oldPrice, after.minPrice]).toEqual([1000, 1050, 900]);
  });

  it('refuses a minimum price above the price and an eleventh price change within the hour', async () => {
    const row = await pick((r) => r.status !== 'archived' && r.price > 500);
    const minAbove = await post<ProductOutcomes>('/api/price/update', { items: [{ id: row.id, price: 600, oldPrice: 0, minPrice: 700 }] });
    expect(minAbove.body.data.outcomes[0]!.ok).toBe(false);
    for (let k = 0; k < 10; k++) {
      const step = await post<ProductOutcomes>('/api/price/update', { items: [{ id: row.id, price: 600 + k, oldPrice: 0, minPrice: 0 }] });
      expect(step.body.data.outcomes[0]!.ok).toBe(true);
    }
    const eleventh = await post<ProductOutcomes>('/api/price/update', { items: [{ id: row.id, price: 700, oldPrice: 0, minPrice: 0 }] });
    expect(eleventh.body.data.outcomes[0]).toMatchObject({ ok: false });
    expect(eleventh.body.data.outcomes[0]!.message).toMatch(/10/);
  });

  it('a price batch resent after a crash sends nothing twice', async () => {
    const row = (await all()).list.filter((r) => r.status === 'selling' && r.price > 500).at(-1)!;
    const body = { batchId: 'batch-1', items: [{ id: row.id, price: 800, oldPrice: 0, minPrice: 0 }] };
    expect((await post<ProductOutcomes>('/api/price/update', body)).body.data.outcomes[0]!.ok).toBe(true);
    const before = await t.database.query<{ n: number | string }>(`select count(*) as n from product_sends where batch_id = 'batch-1'`);
    expect((await post<ProductOutcomes>('/api/price/update', body)).body.data.outcomes[0]!.ok).toBe(true);
    const after = await t.database.query<{ n: number | string }>(`select count(*) as n from product_sends where batch_id = 'batch-1'`);
    expect(Number(after[0]!.n)).toBe(Number(before[0]!.n));
  });

  it('sets stock per warehouse with one failing product, and refuses a second change within 30 s', async () => {
    const warehouses = (await get<ProductWarehouse[]>('/api/product/warehouses')).body.data.filter((w) => w.shopId === storeId);
    const warehouse = warehouses[0]!;
    // Named by their shop, so a picker over several shops can group them.
    expect(warehouses.every((w) => w.shopName === '义乌小百货' && w.name !== '')).toBe(true);
    const selling = await pick((r) => r.status === 'selling' && r.sku !== '');
    const moderating = (await all()).list.find((r) => r.status === 'moderating' || r.status === 'failed');
    const items = [{ id: selling.id, warehouseId: warehouse.warehouseId, stock: 17 }];
    if (moderating) items.push({ id: moderating.id, warehouseId: warehouse.warehouseId, stock: 3 });
    items.push({ id: selling.id, warehouseId: '999', stock: 1 });
    const answer = (await post<ProductOutcomes>('/api/product/stock', { items })).body.data.outcomes;
    expect(answer[0]).toEqual({ id: selling.id, ok: true, message: '' });
    for (const outcome of answer.slice(1)) expect(outcome.ok).toBe(false);
    const again = (await post<ProductOutcomes>('/api/product/stock', { items: [{ id: selling.id, warehouseId: warehouse.warehouseId, stock: 18 }] })).body.data.outcomes;
    expect(again[0]!.ok).toBe(false);
    expect(again[0]!.message).toMatch(/30/);
    const info = (await get<ProductInfo>(`/api/product/info?id=${encodeURIComponent(selling.id)}`)).body.data;
    expect(info.stocks.find((s) => s.warehouseId === warehouse.warehouseId)?.present).toBe(17);
  });

  it('archives, unarchives and deletes archived products without an SKU, each with its own verdict', async () => {
    const selling = await pick((r) => r.status === 'selling');
    const archived = (await post<ProductOutcomes>('/api/product/archive', { ids: [selling.id] })).body.data.outcomes;
    expect(archived).toEqual([{ id: selling.id, ok: true, message: '' }]);
    expect((await all()).list.find((r) => r.id === selling.id)!.status).toBe('archived');
    const twice = (await post<ProductOutcomes>('/api/product/archive', { ids: [selling.id] })).body.data.outcomes;
    expect(twice[0]!.ok).toBe(false);
    const hasSku = (await post<ProductOutcomes>('/api/product/deleteArchive', { ids: [selling.id] })).body.data.outcomes;
    expect(hasSku[0]!.ok).toBe(false);
    const back = (await post<ProductOutcomes>('/api/product/unarchive', { ids: [selling.id] })).body.data.outcomes;
    expect(back[0]!.ok).toBe(true);
    expect((await all()).list.find((r) => r.id === selling.id)!.status).not.toBe('archived');
  });

  it("replaces a product's pictures through Ozon's import and reports their states", async () => {
    const row = await pick((r) => r.status === 'selling');
    const answer = await post<{ id: string; pictures: { url: string; state: string }[] }>('/api/updateSkuImage', {
      id: row.id,
      images: ['https://cdn.example.com/a.jpg', 'https://cdn.example.com/b.jpg'],
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.pictures.map((p) => p.url)).toEqual(['https://cdn.example.com/a.jpg', 'https://cdn.example.com/b.jpg']);
    const bad = await post('/api/updateSkuImage', { id: row.id, images: ['not a url'] });
    expect(bad.status).toBe(400);
  });

  it('puts new pictures first and keeps the card\'s others when asked to keep them', async () => {
    const row = await pick((r) => r.status === 'selling' && r.id !== '');
    const first = ['https://cdn.example.com/k1.jpg', 'https://cdn.example.com/k2.jpg'];
    expect((await post('/api/updateSkuImage', { id: row.id, images: first })).status).toBe(200);
    const kept = await post<{ pictures: { url: string; primary: boolean }[] }>('/api/updateSkuImage', { id: row.id, images: ['https://cdn.example.com/new.jpg', first[1]], keep: true });
    expect(kept.body.data.pictures.map((p) => p.url)).toEqual(['https://cdn.example.com/new.jpg', first[1], first[0]]);
    expect(kept.body.data.pictures[0]!.primary).toBe(true);
    expect((await all()).list.find((r) => r.id === row.id)!.image).toBe('https://cdn.example.com/new.jpg');
    expect((await get<ProductInfo>(`/api/product/info?id=${encodeURIComponent(row.id)}`)).body.data.images).toEqual(kept.body.data.pictures.map((p) => p.url));
  });

  it("counts picture changes against Ozon's daily update quota and refuses one past it before sending", async () => {
    const row = await pick((r) => r.status === 'selling');
    const area = t.app.marketplace.simulator!.shop('1001').areas.products;
    const usage = async () => (await get<ProductLimits>('/api/product/limit')).body.data[0]!.dailyUpdate;
    const before = await usage();
    expect((await post('/api/updateSkuImage', { id: row.id, images: ['https://cdn.example.com/q1.jpg'] })).status).toBe(200);
    expect((await usage()).usage).toBe(before.usage + 1);

    const saved = [...area.updates];
    area.updates.push(...Array.from({ length: before.limit - area.updates.length }, () => Date.now()));
    try {
      const refused = await post('/api/updateSkuImage', { id: row.id, images: ['https://cdn.example.com/q2.jpg'] });
      expect(refused.status).toBe(429);
      expect(refused.body.msg).toBe(`Ozon每日更新商品额度不足：剩余0个，本次需要1个，将于${before.resetAt.slice(0, 16).replace('T', ' ')} UTC重置`);
      // Nothing reached Ozon: the card keeps the picture it had.
      expect(t.app.marketplace.simulator!.shop('1001').productById.get(Number(row.productId))!.images).toEqual(['https://cdn.example.com/q1.jpg']);
      const english = await t.app.inject({ method: 'POST', url: '/api/updateSkuImage', headers: { ...seller.headers, 'accept-language': 'en' }, payload: { id: row.id, images: ['https://cdn.example.com/q2.jpg'] } });
      expect(english.json<{ msg: string }>().msg).toContain("Ozon's daily limit for product updates is short: 0 left, 1 needed");
    } finally {
      area.updates.splice(0, area.updates.length, ...saved);
    }
  });

  it('stores an uploaded picture at a public address Ozon can fetch; refuses what is not a picture', async () => {
    const png = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#36c' } }).png().toBuffer();
    const upload = (file: { name: string; bytes: Buffer; type?: string } | null, session: Session = seller) => {
      const body = multipart({ name: '主图.png' }, file);
      return t.app.inject({ method: 'POST', url: '/api/product/image/upload', headers: { ...session.headers, 'content-type': body.contentType }, payload: body.payload });
    };
    const stored = await upload({ name: 'main.png', bytes: png, type: 'image/png' });
    expect(stored.statusCode).toBe(200);
    const { url, width } = stored.json<{ data: { url: string; width: number } }>().data;
    expect(width).toBe(400);
    // Served without a session, the very bytes.
    const served = await t.app.inject({ method: 'GET', url: new URL(url).pathname });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(served.rawPayload, png)).toBe(0);
    // Not in the image editor's list of the seller's own uploads.
    const images = (await get<{ list: { name: string }[] }>('/api/edit/images')).body.data.list;
    expect(images.some((image) => image.name === '主图.png')).toBe(false);

    const text = await upload({ name: 'notes.png', bytes: Buffer.from('not a picture'), type: 'image/png' });
    expect(text.statusCode).toBe(400);
    expect(text.json<{ msg: string }>().msg).toBeTruthy();
    expect((await upload(null)).statusCode).toBe(400);
    const analyst = await login(t.app, 'analyst', 'analyst123');
    expect((await upload({ name: 'main.png', bytes: png, type: 'image/png' }, analyst)).statusCode).toBe(401);
  });

  describe('uploaded product pictures', () => {
    const png = () => sharp({ create: { width: 300, height: 300, channels: 3, background: '#c63' } }).png().toBuffer();
    const upload = async (name: string) => {
      const body = multipart({ name }, { name, bytes: await png(), type: 'image/png' });
      return t.app.inject({ method: 'POST', url: '/api/product/image/upload', headers: { ...seller.headers, 'content-type': body.contentType }, payload: body.payload });
    };
    const mine = async () => (await t.database.query<{ n: number | string }>(`select count(*) as n from edit_images where user_id = $1 and origin = 'product'`, [seller.id]))[0]!.n;
    /** Pictures stored as if uploaded long ago (size as given, a few bytes each). */
    const fill = (count: number, size: number) =>
      t.database.query(
        `insert into edit_images (user_id, name, content_type, width, height, size, bytes, created_at, origin, public_token)
         select $1, 'old.png', 'image/png', 300, 300, $3, '\\x00'::bytea, now(), 'product', 'filler' || g || md5(random()::text) from generate_series(1, $2) g`,
        [seller.id, count, size],
      );
    afterEach(() => t.database.query(`delete from edit_images where user_id = $1 and origin = 'product' and name = 'old.png'`, [seller.id]));

    it('refuses an upload past the per-seller count or size, with the limits in the message', async () => {
      const have = Number(await mine());
      await fill(PRODUCT_PICTURES_CAP.count - have, 1);
      const full = await upload('one-more.png');
      expect(full.statusCode).toBe(400);
      expect(full.json<{ msg: string }>().msg).toContain(`最多${PRODUCT_PICTURES_CAP.count}张、共500 MB`);
      expect(full.json<{ msg: string }>().msg).toContain(`${PRODUCT_PICTURE_RETENTION_DAYS}天`);
      expect(Number(await mine())).toBe(PRODUCT_PICTURES_CAP.count);

      await t.database.query(`delete from edit_images where user_id = $1 and origin = 'product' and name = 'old.png'`, [seller.id]);
      await fill(1, PRODUCT_PICTURES_CAP.bytes - 100);
      const big = await t.app.inject({
        method: 'POST',
        url: '/api/product/image/upload',
        headers: { ...seller.headers, 'accept-language': 'en', 'content-type': multipart({ name: 'x.png' }, { name: 'x.png', bytes: await png(), type: 'image/png' }).contentType },
        payload: multipart({ name: 'x.png' }, { name: 'x.png', bytes: await png(), type: 'image/png' }).payload,
      });
      expect(big.statusCode).toBe(400);
      expect(big.json<{ msg: string }>().msg).toContain('at most 1000 pictures, 500 MB in all');
      // With room again, the upload goes.
      await t.database.query(`delete from edit_images where user_id = $1 and origin = 'product' and name = 'old.png'`, [seller.id]);
      expect((await upload('fits.png')).statusCode).toBe(200);
    });

    it('removes, after the retention period, the uploaded pictures no card and no unfinished job refers to', async () => {
      const urlOf = async (name: string) => {
        const answer = await upload(name);
        expect(answer.statusCode).toBe(200);
        return answer.json<{ data: { url: string } }>().data.url;
      };
      const onCard = await urlOf('on-card.png');
      const inReupload = await urlOf('in-reupload.png');
      const unused = await urlOf('unused.png');
      const recent = await urlOf('recent.png');
      // A card carries one (sent to Ozon, as the card's pictures now stand); an unfinished re-upload's stored card another.
      const row = await pick((r) => r.status === 'selling');
      expect((await post('/api/updateSkuImage', { id: row.id, images: [onCard] })).status).toBe(200);
      const other = await pick((r) => r.status === 'selling' && r.id !== row.id);
      await t.database.query(
        `insert into reupload_items (user_id, shop_id, batch_id, row_id, old_product_id, old_offer_id, new_offer_id, name, step, failed_step, card)
         values ($1, $2, 'pictures', $3, $4, $5, $5 || '-R1', 'x', 'failed', 'importing', $6::jsonb)`,
        [seller.id, storeId, other.id, other.productId, other.offerId, JSON.stringify({ item: { images: [inReupload] }, minPrice: 0, stocks: [], sku: '' })],
      );
      const names = ['on-card.png', 'in-reupload.png', 'unused.png', 'recent.png'];
      const ages = { 'on-card.png': 40, 'in-reupload.png': 40, 'unused.png': 31, 'recent.png': 29 };
      for (const [name, days] of Object.entries(ages)) {
        await t.database.query(`update edit_images set created_at = $4::timestamptz - ($3 || ' days')::interval where user_id = $1 and name = $2`, [seller.id, name, String(days), t.clock.now().toISOString()]);
      }
      expect(await cleanup.tick()).toBe(1);
      const left = await t.database.query<{ name: string }>(`select name from edit_images where user_id = $1 and name = any($2::text[]) order by name`, [seller.id, names]);
      expect(left.map((r) => r.name)).toEqual(['in-reupload.png', 'on-card.png', 'recent.png']);
      expect((await t.app.inject({ method: 'GET', url: new URL(unused).pathname })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: new URL(onCard).pathname })).statusCode).toBe(200);
      expect(recent).toBeTruthy();

      // Once the re-upload is done and the card carries other pictures, both go at the next cleanup.
      await t.database.query(`update reupload_items set step = 'done' where batch_id = 'pictures'`);
      expect((await post('/api/updateSkuImage', { id: row.id, images: ['https://cdn.example.com/other.jpg'] })).status).toBe(200);
      expect(await cleanup.tick()).toBe(2);
    });
  });
});
