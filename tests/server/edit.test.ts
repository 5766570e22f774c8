import sharp from 'sharp';
import { EDIT_MESSAGES, type Design, type DesignSummary, type EditImage, type PublishedImage } from '../../contract/edit';
import type { ProductInfo, ProductRow, SkuImageResult } from '../../contract/products';
import { multipart } from '../support/multipart';
import { DATABASE_TARGETS, login, startTestApp, type Session, type TestApp } from './harness';

type Envelope<T> = { code: number; msg: string; data: T };

const png = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#e4393c' } }).png().toBuffer();
const design = (objects: unknown[]) => JSON.stringify({ version: '6.9.1', objects, background: '#ffffff' });

describe.each(DATABASE_TARGETS)('image editing on $kind', (target) => {
  let t: TestApp;
  let seller: Session;
  let admin: Session;
  beforeEach(async () => {
    t = await startTestApp(target);
    seller = await login(t.app, 'seller', 'seller123');
    admin = await login(t.app, 'admin', 'admin123');
  });
  afterEach(async () => t.close());

  async function call<T>(session: Session, method: 'GET' | 'POST', url: string, body?: unknown) {
    const response = await t.app.inject({ method, url, headers: session.headers, ...(body === undefined ? {} : { payload: body as object }) });
    return { status: response.statusCode, body: response.json<Envelope<T>>() };
  }
  async function upload(session: Session, file: { name: string; bytes: Buffer; type?: string }, fields: Record<string, string> = {}) {
    const { payload, contentType } = multipart(fields, file);
    const response = await t.app.inject({ method: 'POST', url: '/api/edit/upload', headers: { ...session.headers, 'content-type': contentType }, payload });
    return { status: response.statusCode, body: response.json<Envelope<EditImage>>() };
  }

  it('saves a design, lists it with its preview and opens it to the same JSON; a save with its id replaces it', async () => {
    const json = design([{ type: 'Textbox', text: '新品上市 Новинка', left: 100, top: 80 }]);
    const thumbnail = `data:image/jpeg;base64,${(await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } }).jpeg().toBuffer()).toString('base64')}`;
    const saved = await call<DesignSummary>(seller, 'POST', '/api/edit/design/save', { name: ' 夏季主图 ', width: 1000, height: 1000, json, thumbnail });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ name: '夏季主图', width: 1000, height: 1000, thumbnail });

    const opened = await call<Design>(seller, 'GET', `/api/edit/design?id=${saved.body.data.id}`);
    expect(opened.body.data.json).toBe(json);

    const again = await call<DesignSummary>(seller, 'POST', '/api/edit/design/save', { id: saved.body.data.id, name: '夏季主图', width: 900, height: 1200, json: design([]) });
    expect(again.body.data).toMatchObject({ id: saved.body.data.id, width: 900, height: 1200 });
    const list = await call<{ list: DesignSummary[] }>(seller, 'GET', '/api/edit/designs');
    expect(list.body.data.list.map((d) => [d.id, d.height])).toEqual([[saved.body.data.id, 1200]]);
  });

  it("keeps each user's designs to that user: another's id reads, replaces and deletes nothing", async () => {
    const mine = await call<DesignSummary>(seller, 'POST', '/api/edit/design/save', { name: 'mine', width: 1000, height: 1000, json: design([]) });
    const id = mine.body.data.id;
    expect((await call(admin, 'GET', `/api/edit/design?id=${id}`)).status).toBe(404);
    const overwrite = await call(admin, 'POST', '/api/edit/design/save', { id, name: 'theirs', width: 1000, height: 1000, json: design([]) });
    expect(overwrite.status).toBe(404);
    expect((await call(admin, 'POST', '/api/edit/design/delete', { id })).status).toBe(404);
    expect((await call<{ list: DesignSummary[] }>(admin, 'GET', '/api/edit/designs')).body.data.list).toEqual([]);
    expect((await call<Design>(seller, 'GET', `/api/edit/design?id=${id}`)).body.data.name).toBe('mine');
    expect((await call(seller, 'POST', '/api/edit/design/delete', { id })).status).toBe(200);
    expect((await call(seller, 'GET', `/api/edit/design?id=${id}`)).body).toMatchObject({ code: 404, msg: EDIT_MESSAGES.designNotFound.zh });
  });

  it('refuses a design that is not JSON, a canvas side Ozon would refuse, and users without the follow role', async () => {
    const bad = await call(seller, 'POST', '/api/edit/design/save', { name: 'x', width: 1000, height: 1000, json: '{"objects": [' });
    expect(bad.body).toMatchObject({ code: 400, msg: EDIT_MESSAGES.designNotJson.zh });
    const huge = await call(seller, 'POST', '/api/edit/design/save', { name: 'x', width: 9000, height: 1000, json: design([]) });
    expect(huge.status).toBe(400);
    expect(huge.body.msg).toContain('width');
    const analyst = await login(t.app, 'analyst', 'analyst123');
    expect((await call(analyst, 'GET', '/api/edit/designs')).status).toBe(401);
  });

  it('stores an edited image within Ozon\'s rules and gives it back to its owner only', async () => {
    const bytes = await png(1000, 1000);
    const stored = await upload(seller, { name: 'main.png', bytes, type: 'image/png' }, { name: '主图.png' });
    expect(stored.status).toBe(200);
    expect(stored.body.data).toMatchObject({ name: '主图.png', width: 1000, height: 1000, contentType: 'image/png', size: bytes.length });
    const back = await t.app.inject({ method: 'GET', url: `/api/edit/image/${stored.body.data.id}`, headers: seller.headers });
    expect(back.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(back.rawPayload, bytes)).toBe(0);
    expect((await t.app.inject({ method: 'GET', url: `/api/edit/image/${stored.body.data.id}`, headers: admin.headers })).statusCode).toBe(404);
    expect((await call<{ list: EditImage[] }>(seller, 'GET', '/api/edit/images')).body.data.list).toHaveLength(1);
  });

  it('refuses, with the reason, a file that is not an image and sides Ozon refuses, whatever its name says', async () => {
    const text = await upload(seller, { name: 'photo.png', bytes: Buffer.from('not a picture at all'), type: 'image/png' });
    expect(text.body).toMatchObject({ code: 400, msg: EDIT_MESSAGES.notAnImage.zh });
    const gif = await upload(seller, { name: 'a.png', bytes: await sharp({ create: { width: 300, height: 300, channels: 3, background: '#000' } }).gif().toBuffer() });
    expect(gif.body.msg).toBe(EDIT_MESSAGES.notAnImage.zh);
    const small = await upload(seller, { name: 'small.png', bytes: await png(150, 600) });
    expect(small.body).toMatchObject({ code: 400, msg: EDIT_MESSAGES.imageTooSmall.zh });
    const long = await upload(seller, { name: 'long.png', bytes: await png(300, 7_700) });
    expect(long.body.msg).toBe(EDIT_MESSAGES.imageTooBig.zh);
    expect((await call<{ list: EditImage[] }>(seller, 'GET', '/api/edit/images')).body.data.list).toEqual([]);
  });
});

describe.each(DATABASE_TARGETS)('a designer picture put on a product on $kind', (target) => {
  let t: TestApp;
  let seller: Session;
  let storeId: number;
  beforeAll(async () => {
    t = await startTestApp(target, { app: { marketplace: { simulatorOptions: { ordersPerShop: 5, productsPerShop: 8, control: { taskDelayMs: 0 } } } } });
    await t.app.ready();
    seller = await login(t.app, 'seller', 'seller123');
    const added = await t.app.inject({ method: 'POST', url: '/api/store/add', headers: seller.headers, payload: { name: '义乌小百货', clientId: '1001', apiKey: 'sim-key-1001' } });
    storeId = added.json<Envelope<{ id: number }>>().data.id;
    await t.app.sync.runShop(storeId, ['warehouses', 'products']);
  });
  afterAll(() => t.close());

  const post = async <T>(url: string, payload: unknown, session: Session = seller) => {
    const response = await t.app.inject({ method: 'POST', url, headers: session.headers, payload: payload as object });
    return { status: response.statusCode, body: response.json<Envelope<T>>() };
  };

  it('gives a stored image one public address Ozon fetches, and /updateSkuImage makes it the main picture of the card', async () => {
    const bytes = await png(900, 1200);
    const { payload, contentType } = multipart({ name: '主图' }, { name: '主图.png', bytes, type: 'image/png' });
    const stored = (await t.app.inject({ method: 'POST', url: '/api/edit/upload', headers: { ...seller.headers, 'content-type': contentType }, payload })).json<Envelope<EditImage>>().data;

    const published = await post<PublishedImage>('/api/edit/image/publish', { id: stored.id });
    expect(published.status).toBe(200);
    expect(published.body.data.url).toMatch(/^http:\/\/[^/]+\/api\/edit\/picture\/[A-Za-z0-9_-]{16,64}\.png$/);
    // A second product, or a retry, gets the same address.
    expect((await post<PublishedImage>('/api/edit/image/publish', { id: stored.id })).body.data.url).toBe(published.body.data.url);

    // Anyone (Ozon) reads it without a session, byte for byte.
    const publicRead = await t.app.inject({ method: 'GET', url: new URL(published.body.data.url).pathname });
    expect(publicRead.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(publicRead.rawPayload, bytes)).toBe(0);

    // Another user can neither publish it nor learn its address.
    const admin = await login(t.app, 'admin', 'admin123');
    expect((await post('/api/edit/image/publish', { id: stored.id }, admin)).body).toMatchObject({ code: 404, msg: EDIT_MESSAGES.imageNotFound.zh });

    const products = (await t.app.inject({ method: 'GET', url: `/api/ozonProduct/list?storeId=${storeId}&rows=5`, headers: seller.headers })).json<Envelope<{ list: ProductRow[] }>>().data.list;
    const product = products.find((row) => row.image)!;
    const info = (await t.app.inject({ method: 'GET', url: `/api/product/info?id=${encodeURIComponent(product.id)}`, headers: seller.headers })).json<Envelope<ProductInfo>>().data;
    const images = [published.body.data.url, ...info.images.filter((url) => url !== product.image)];
    const answer = await post<SkuImageResult>('/api/updateSkuImage', { id: product.id, images });
    expect(answer.status).toBe(200);
    expect(answer.body.data.pictures[0]).toEqual({ url: published.body.data.url, state: 'imported', primary: true });
    const after = (await t.app.inject({ method: 'GET', url: `/api/product/info?id=${encodeURIComponent(product.id)}`, headers: seller.headers })).json<Envelope<ProductInfo>>().data;
    expect(after.row.image).toBe(published.body.data.url);
  });
});
