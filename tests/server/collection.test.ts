import type { CollectAnswer, CollectionItem, CollectionPage, UploadPage, UploadRecord } from '../../contract/collection';
import type { Store } from '../../contract/store';
import { DATABASE_TARGETS, login, startTestApp, type Session, type TestApp } from './harness';

const RULE = { currency: 'CNY', markup: '2', shipping: '10', fixed: '0', rounding: 'cent' } as const;
const LINK_1688 = 'https://detail.1688.com/offer/712345678901.html?spm=a2615.2177701';
const LINK_OZON = 'https://www.ozon.ru/product/besprovodnye-naushniki-tws-x9-chernye-1789012345/?at=xyz';
/** The simulator's wireless-earphones type, with its brand and type dictionary values. */
const EARPHONES = { categoryId: 17028630, typeId: 94751 };
const BRAND = { id: 85, complexId: 0, values: [{ dictionaryValueId: 5_000_001, value: 'Baseus' }] };
const TYPE = { id: 8229, complexId: 0, values: [{ dictionaryValueId: 94751, value: 'Беспроводные наушники' }] };
const BOX = { depth: 120, width: 80, height: 40, weight: 60 };

describe.each(DATABASE_TARGETS)('collection and uploads on $kind', (target) => {
  let t: TestApp;
  let seller: Session;
  let admin: Session;
  let shops: number[];

  beforeAll(async () => {
    t = await startTestApp(target, {
      app: { marketplace: { simulatorOptions: { ordersPerShop: 10, productsPerShop: 20, control: { taskDelayMs: 0, labelReadyDelayMs: 0 } } } },
    });
    await t.app.ready();
    seller = await login(t.app, 'seller', 'seller123');
    admin = await login(t.app, 'admin', 'admin123');
    shops = [];
    for (const clientId of ['1001', '1002']) {
      const added = await post<Store>('/api/store/add', { name: `店 ${clientId}`, clientId, apiKey: `sim-key-${clientId}` });
      shops.push(added.body.data.id);
    }
  });
  afterAll(() => t.close());

  const get = <T>(url: string, session: Session = seller, lang = 'zh') =>
    t.app.inject({ method: 'GET', url, headers: { ...session.headers, 'accept-language': lang } }).then((r) => ({ status: r.statusCode, body: r.json<{ data: T; msg: string }>() }));
  const post = <T>(url: string, payload: unknown, session: Session = seller, lang = 'zh') =>
    t.app
      .inject({ method: 'POST', url, headers: { ...session.headers, 'accept-language': lang }, payload: payload as object })
      .then((r) => ({ status: r.statusCode, body: r.json<{ data: T; msg: string }>() }));

  it('answers 401 outside the collection roles and 402 without a session, on every call', async () => {
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/collection/list'],
      ['POST', '/api/collection/update', { id: 1, title: 'x' }],
      ['POST', '/api/collection/delete', { ids: [1] }],
      ['POST', '/api/collection/upload', { ids: [1], shopIds: [1], rule: RULE }],
      ['POST', '/api/CollectProduct', { url: LINK_1688 }],
      ['GET', '/api/upload/list'],
      ['POST', '/api/upload/delete', { ids: [1] }],
      ['POST', '/api/upload/formatUrl', { urls: ['//a.example/x.jpg'] }],
    ];
    const analyst = await login(t.app, 'analyst', 'analyst123');
    const newbie = await login(t.app, 'newbie', 'newbie123');
    for (const [method, url, payload] of calls) {
      for (const other of [analyst, newbie]) {
        const answer = await t.app.inject({ method: method as 'GET', url, headers: other.headers, payload: payload as object });
        expect(answer.statusCode, `${url} as another role`).toBe(401);
      }
      expect((await t.app.inject({ method: method as 'GET', url, payload: payload as object })).statusCode, `${url} signed out`).toBe(402);
    }
  });

  it('collects a 1688 offer by its link: title, full-size pictures, CNY price, variants and the page’s attributes', async () => {
    const answer = await post<CollectAnswer>('/api/CollectProduct', { url: LINK_1688 });
    expect(answer.status).toBe(200);
    const { item, created, path } = answer.body.data;
    expect(created).toBe(true);
    expect(path).toBe(`/collection/collection-list?id=${item.id}`);
    expect(item).toMatchObject({ site: '1688', sourceId: '712345678901', url: 'https://detail.1688.com/offer/712345678901.html', via: 'link', price: '23.80', currency: 'CNY' });
    expect(item.title).toBe('跨境爆款TWS蓝牙耳机 无线降噪运动入耳式 大电量 厂家直销');
    // The page's resize suffixes are gone and the one picture listed twice is kept once.
    expect(item.images).toEqual(['O1CN01tws01.jpg', 'O1CN01tws02.jpg', 'O1CN01tws03.jpg'].map((f) => `http://localhost/sim/sources/1688/offer/712345678901_files/${f}`));
    expect(item.variants.map((v) => [v.name, v.price, v.selected])).toEqual([
      ['黑色 / 标准版', '23.80', true],
      ['黑色 / 降噪版', '31.50', true],
      ['白色 / 标准版', '23.80', true],
      ['白色 / 降噪版', '31.50', false],
      ['粉色 / 标准版', '22.90', true],
    ]);
    expect(item.variants[0]).toMatchObject({ key: '5101234560001', props: { 颜色: '黑色', 规格: '标准版' }, image: expect.stringMatching(/O1CN01black\.jpg$/) });
    expect(item.attributes).toContainEqual({ name: '型号', value: 'TWS-X9' });
    // What the page gives is pre-filled for Ozon: model name, annotation, weight in grams.
    expect(item.ozonAttributes).toEqual([
      { id: 9048, complexId: 0, values: [{ value: 'TWS-X9' }] },
      { id: 4191, complexId: 0, values: [{ value: expect.stringContaining('蓝牙5.3芯片') }] },
      { id: 4383, complexId: 0, values: [{ value: '48' }] },
    ]);
    // The served picture is there for the browser to show.
    const picture = await t.app.inject({ method: 'GET', url: '/sim/sources/1688/offer/712345678901_files/O1CN01tws01.jpg' });
    expect(picture.headers['content-type']).toContain('image/svg+xml');
  });

  it('collects an Ozon card by its link with its roubles price, colours and characteristics', async () => {
    const { item } = (await post<CollectAnswer>('/api/CollectProduct', { url: LINK_OZON })).body.data;
    expect(item).toMatchObject({ site: 'ozon', sourceId: '1789012345', price: '1299.00', currency: 'RUB', url: 'https://www.ozon.ru/product/besprovodnye-naushniki-tws-x9-chernye-1789012345/' });
    expect(item.images).toHaveLength(3);
    expect(item.variants.map((v) => [v.key, v.name, v.price])).toEqual([
      ['1789012345', 'черный', '1299.00'],
      ['1789012346', 'белый', '1349.00'],
    ]);
    expect(item.attributes.slice(0, 2)).toEqual([
      { name: 'Бренд', value: 'Soundtek' },
      { name: 'Тип', value: 'Беспроводные наушники' },
    ]);
  });

  it('says clearly why a link cannot be collected', async () => {
    const invalid = await post('/api/CollectProduct', { url: 'https://example.com/item/1' }, seller, 'en');
    expect(invalid).toMatchObject({ status: 400, body: { msg: 'This is not an Ozon or 1688 product link' } });
    const missing = await post('/api/CollectProduct', { url: 'https://detail.1688.com/offer/100000000001.html' });
    expect(missing).toMatchObject({ status: 400, body: { msg: '来源网站上找不到该商品页' } });
  });

  it('takes a product the plugin read, and refreshes a product collected again without losing the seller’s edits', async () => {
    const product = {
      site: '1688',
      sourceId: '600000000001',
      url: 'https://detail.1688.com/offer/600000000001.html',
      title: '收纳盒 桌面整理',
      images: ['https://cbu01.alicdn.com/img/ibank/O1CN01box.jpg_220x220.jpg'],
      price: '8.5',
      currency: 'CNY',
      variants: [
        { key: 'a', name: '大号', props: { 尺寸: '大号' }, price: '9.5', image: null, stock: 10 },
        { key: 'b', name: '小号', props: { 尺寸: '小号' }, price: '7.5', image: null, stock: 5 },
      ],
      attributes: [{ name: '材质', value: 'PP' }],
    };
    const first = await post<CollectAnswer>('/api/CollectProduct', { product });
    expect(first.body.data).toMatchObject({ created: true, item: { via: 'plugin', price: '8.50', images: ['https://cbu01.alicdn.com/img/ibank/O1CN01box.jpg'] } });
    const id = first.body.data.item.id;
    await post('/api/collection/update', { id, title: '桌面收纳盒', variants: [{ key: 'b', selected: false }] });
    const again = await post<CollectAnswer>('/api/CollectProduct', { product: { ...product, price: '8.8', variants: [{ ...product.variants[0], price: '9.9' }, product.variants[1]] } });
    expect(again.body.data.created).toBe(false);
    expect(again.body.data.item).toMatchObject({ id, title: '桌面收纳盒', price: '8.80' });
    expect(again.body.data.item.variants.map((v) => [v.key, v.price, v.selected])).toEqual([
      ['a', '9.9', true],
      ['b', '7.5', false],
    ]);
    expect((await post('/api/CollectProduct', { product: { ...product, sourceId: 'abc' } })).status).toBe(400);
  });

  it('lists, filters and changes only the caller’s items', async () => {
    const page = await get<CollectionPage>('/api/collection/list?rows=50');
    expect(page.body.data.total).toBe(3);
    expect((await get<CollectionPage>('/api/collection/list?site=ozon')).body.data.total).toBe(1);
    expect((await get<CollectionPage>('/api/collection/list?search=蓝牙')).body.data.total).toBe(1);
    expect((await get<CollectionPage>('/api/collection/list', admin)).body.data.total).toBe(0);
    const item = page.body.data.list.find((i) => i.sourceId === '712345678901')!;
    expect((await post('/api/collection/update', { id: item.id, title: '别人的' }, admin)).status).toBe(404);
    expect((await post('/api/collection/update', { id: item.id, variants: [{ key: 'nope', selected: true }] })).status).toBe(400);
    expect((await post('/api/collection/update', { id: item.id, categoryId: EARPHONES.categoryId })).status).toBe(400);
    const changed = await post<CollectionItem>('/api/collection/update', {
      id: item.id,
      title: 'TWS蓝牙耳机 X9',
      images: ['https://cbu01.alicdn.com/img/ibank/O1CN01new.jpg_.webp', item.images[1]],
      ...EARPHONES,
      ozonAttributes: [BRAND, TYPE, ...item.ozonAttributes],
      dimensions: BOX,
      variants: [{ key: '5101234560002', selected: false }],
    });
    expect(changed.status, changed.body.msg).toBe(200);
    expect(changed.body.data).toMatchObject({ title: 'TWS蓝牙耳机 X9', ...EARPHONES, dimensions: BOX });
    expect(changed.body.data.images[0]).toBe('https://cbu01.alicdn.com/img/ibank/O1CN01new.jpg');
    expect(changed.body.data.variants.filter((v) => v.selected)).toHaveLength(3);
    expect((await get<CollectionPage>('/api/collection/list?state=mapped')).body.data.list.map((i) => i.id)).toEqual([item.id]);
  });

  it('uploads the selected variants into two shops at the template’s price and follows Ozon to listed or its reason', async () => {
    const items = (await get<CollectionPage>('/api/collection/list?rows=50')).body.data.list;
    const earphones = items.find((i) => i.sourceId === '712345678901')!;
    const ozonCard = items.find((i) => i.site === 'ozon')!;
    const notReady = await post('/api/collection/upload', { ids: [earphones.id, ozonCard.id], shopIds: shops, rule: RULE }, seller, 'en');
    expect(notReady).toMatchObject({ status: 400, body: { msg: expect.stringContaining('has no Ozon category yet') } });
    expect(notReady.body.msg).toContain('Беспроводные наушники TWS X9');
    // The Ozon card is mapped without a brand: refused before anything is sent, naming the item and the attribute.
    await post('/api/collection/update', { id: ozonCard.id, ...EARPHONES, ozonAttributes: [TYPE], dimensions: BOX });
    const noBrand = await post('/api/collection/upload', { ids: [earphones.id, ozonCard.id], shopIds: shops, rule: RULE }, seller, 'en');
    expect([noBrand.status, noBrand.body.msg]).toEqual([400, `"${ozonCard.title.slice(0, 40)}": "Brand" is required`]);
    expect(t.app.marketplace.simulator!.shop('1001').productByOffer.has('1688-712345678901-5101234560001')).toBe(false);
    // A brand Ozon's dictionary does not hold passes our checks: Ozon's import refuses it with its reason.
    const unknownBrand = { id: 85, complexId: 0, values: [{ dictionaryValueId: 999, value: 'NoName' }] };
    expect((await post('/api/collection/update', { id: ozonCard.id, ozonAttributes: [TYPE, unknownBrand] })).status).toBe(200);
    expect((await post('/api/collection/upload', { ids: [earphones.id], shopIds: [shops[0]], rule: RULE }, admin)).status).toBe(404);

    const uploaded = await post<{ list: UploadRecord[] }>('/api/collection/upload', { ids: [earphones.id, ozonCard.id], shopIds: shops, rule: RULE });
    expect(uploaded.status, uploaded.body.msg).toBe(200);
    // Three selected variants of the earphones and two of the Ozon card, into two shops.
    expect(uploaded.body.data.list).toHaveLength(10);
    expect(uploaded.body.data.list.every((r) => r.status === 'importing')).toBe(true);
    const black = uploaded.body.data.list.find((r) => r.offerId === '1688-712345678901-5101234560001')!;
    // 23.80 CNY × 2 + 10.
    expect(black).toMatchObject({ price: '57.60', currency: 'CNY', variant: '黑色 / 标准版', name: 'TWS蓝牙耳机 X9 黑色 / 标准版' });

    const history = await get<UploadPage>('/api/upload/list?rows=50', seller, 'en');
    expect(history.body.data).toMatchObject({ total: 10, unsettled: 0 });
    const byItem = (itemId: number) => history.body.data.list.filter((r) => r.itemId === itemId);
    expect(byItem(earphones.id).map((r) => r.status)).toEqual(Array(6).fill('listed'));
    const refused = byItem(ozonCard.id);
    expect(refused.map((r) => r.status)).toEqual(['failed', 'failed', 'failed', 'failed']);
    expect(refused[0]!.errors[0]).toMatchObject({ code: 'error_attribute_value_out_of_range', attributeId: 85, message: expect.stringContaining('"Бренд"') });
    const card = t.app.marketplace.simulator!.shop('1002').productByOffer.get('1688-712345678901-5101234560001')!;
    expect(card).toMatchObject({ price: 57.6, name: 'TWS蓝牙耳机 X9 黑色 / 标准版' });
    expect(card.images[0]).toMatch(/O1CN01black\.jpg$/);
    expect((await get<UploadPage>('/api/upload/list?status=failed')).body.data.total).toBe(4);
    expect((await get<CollectionPage>(`/api/collection/list?id=${earphones.id}`)).body.data.list[0]).toMatchObject({ uploads: 6, lastStatus: 'listed' });
  });

  it('keeps per-variant attributes per variant, checks them against the type, and sends each with its variant', async () => {
    const items = (await get<CollectionPage>('/api/collection/list?rows=50')).body.data.list;
    const earphones = items.find((i) => i.sourceId === '712345678901')!;
    const [first, second] = earphones.variants.filter((v) => v.selected);
    const colour = (id: number, value: string) => [{ id: 10096, complexId: 0, values: [{ dictionaryValueId: id, value }] }];
    const saved = await post<CollectionItem>('/api/collection/update', {
      id: earphones.id,
      variants: [
        { key: first!.key, selected: true, ozonAttributes: colour(61570, 'черный') },
        { key: second!.key, selected: true, ozonAttributes: colour(61571, 'белый') },
      ],
    });
    expect(saved.status, saved.body.msg).toBe(200);
    const byKey = new Map(saved.body.data.variants.map((v) => [v.key, v.ozonAttributes]));
    expect(byKey.get(first!.key)).toEqual(colour(61570, 'черный'));
    expect(byKey.get(second!.key)).toEqual(colour(61571, 'белый'));
    // Collected again from the page: the seller's per-variant values stay.
    const again = await post<CollectAnswer>('/api/CollectProduct', { url: LINK_1688 });
    expect(again.body.data.item.variants.find((v) => v.key === first!.key)!.ozonAttributes).toEqual(colour(61570, 'черный'));

    // An attribute the type does not have, or a free text where Ozon wants a dictionary value: refused, naming it.
    const unknown = await post('/api/collection/update', { id: earphones.id, ozonAttributes: [...earphones.ozonAttributes, { id: 999_999, complexId: 0, values: [{ value: 'x' }] }] }, seller, 'en');
    expect([unknown.status, unknown.body.msg]).toEqual([400, `"${earphones.title.slice(0, 40)}": This category has no attribute 999999`]);
    const typed = await post('/api/collection/update', { id: earphones.id, variants: [{ key: first!.key, selected: true, ozonAttributes: [{ id: 10096, complexId: 0, values: [{ value: 'black' }] }] }] }, seller, 'en');
    expect(typed.status).toBe(400);
    expect(typed.body.msg).toBe(`"${earphones.title.slice(0, 40)}", variant "${first!.name}": Pick "Colour" from Ozon's values`);

    const uploaded = await post<{ list: UploadRecord[] }>('/api/collection/upload', { ids: [earphones.id], shopIds: [shops[0]], rule: RULE });
    expect(uploaded.status, uploaded.body.msg).toBe(200);
    const shop = t.app.marketplace.simulator!.shop('1001');
    const colourOf = (key: string) => shop.productByOffer.get(`1688-712345678901-${key}`)!.attributes.find((a) => a.id === 10096)?.values;
    expect(colourOf(first!.key)).toEqual([{ dictionary_value_id: 61570, value: 'черный' }]);
    expect(colourOf(second!.key)).toEqual([{ dictionary_value_id: 61571, value: 'белый' }]);
    // The shared ones go with every variant.
    expect(shop.productByOffer.get(`1688-712345678901-${second!.key}`)!.attributes.find((a) => a.id === 85)?.values).toEqual([{ dictionary_value_id: 5_000_001, value: 'Baseus' }]);
  });

  it('deletes only the caller’s records; an item’s uploads outlive it', async () => {
    const history = (await get<UploadPage>('/api/upload/list?rows=50')).body.data.list;
    expect((await post<{ count: number }>('/api/upload/delete', { ids: [history[0]!.id] }, admin)).body.data.count).toBe(0);
    expect((await post<{ count: number }>('/api/upload/delete', { ids: [history[0]!.id] })).body.data.count).toBe(1);
    const items = (await get<CollectionPage>('/api/collection/list?rows=50')).body.data.list;
    expect((await post<{ count: number }>('/api/collection/delete', { ids: items.map((i) => i.id) }, admin)).body.data.count).toBe(0);
    expect((await post<{ count: number }>('/api/collection/delete', { ids: items.map((i) => i.id) })).body.data.count).toBe(3);
    const after = (await get<UploadPage>('/api/upload/list?rows=50')).body.data;
    expect(after.total).toBe(12);
    expect(after.list.every((r) => r.itemId === null)).toBe(true);
  });

  it('normalises picture links from the sources', async () => {
    const answer = await post<{ urls: (string | null)[] }>('/api/upload/formatUrl', {
      urls: ['//cbu01.alicdn.com/img/ibank/O1CN01x.jpg_220x220q90.jpg', 'https://cdn1.ozone.ru/s3/multimedia-1-a/wc250/7012345678.jpg', 'javascript:alert(1)', 'img/a.png'],
      base: 'https://detail.1688.com/offer/1.html',
    });
    expect(answer.body.data.urls).toEqual([
      'https://cbu01.alicdn.com/img/ibank/O1CN01x.jpg',
      'https://cdn1.ozone.ru/s3/multimedia-1-a/7012345678.jpg',
      null,
      'https://detail.1688.com/offer/img/a.png',
    ]);
  });
});
