import type { AttributeValuesPage, CardDraft, CategoryAttribute, CategoryNode, CreateTask } from '../../contract/create';
import { emptyCard } from '../../contract/ozonCard';
import type { Store } from '../../contract/store';
import { BRAND_DICTIONARY, COLOUR_VALUE_BASE } from '../../server/marketplace/simulator/catalog';
import { DATABASE_TARGETS, login, startTestApp, type Session, type TestApp } from './harness';

const EARPHONES = { categoryId: 17028630, typeId: 94751 };

/** A card Ozon takes: two colour variants of one model. */
function goodCard(prefix: string): CardDraft {
  return {
    ...emptyCard('CNY'),
    ...EARPHONES,
    name: 'Беспроводные наушники TWS X1',
    attributes: [
      { id: 85, values: [{ dictionaryValueId: BRAND_DICTIONARY[1]!.id, value: BRAND_DICTIONARY[1]!.value }] },
      { id: 8229, values: [{ dictionaryValueId: EARPHONES.typeId, value: 'Беспроводные наушники' }] },
      { id: 9048, values: [{ value: 'X1' }] },
      { id: 4383, values: [{ value: '45' }] },
    ],
    images: ['https://cdn.example.com/x1-black.jpg', 'https://cdn.example.com/x1-white.jpg'],
    depth: 120,
    width: 80,
    height: 40,
    weight: 150,
    vat: '0',
    variants: [
      { offerId: `${prefix}-BLACK`, price: '199', oldPrice: '259', barcode: '', attributes: [{ id: 10096, values: [{ dictionaryValueId: COLOUR_VALUE_BASE, value: 'черный' }] }] },
      { offerId: `${prefix}-WHITE`, price: '199', oldPrice: '', barcode: '', attributes: [{ id: 10096, values: [{ dictionaryValueId: COLOUR_VALUE_BASE + 1, value: 'белый' }] }] },
    ],
  };
}

describe.each(DATABASE_TARGETS)('creating products from Ozon categories on $kind', (target) => {
  let t: TestApp;
  let admin: Session;
  let seller: Session;
  let adminShop: number;

  beforeAll(async () => {
    t = await startTestApp(target, {
      app: { marketplace: { simulatorOptions: { ordersPerShop: 5, productsPerShop: 20, control: { taskDelayMs: 0, labelReadyDelayMs: 0 } } } },
    });
    await t.app.ready();
    admin = await login(t.app, 'admin', 'admin123');
    seller = await login(t.app, 'seller', 'seller123');
  });
  afterAll(() => t.close());

  const get = <T>(url: string, session: Session = admin, lang = 'zh') =>
    t.app.inject({ method: 'GET', url, headers: { ...session.headers, 'accept-language': lang } }).then((r) => ({ status: r.statusCode, body: r.json<{ data: T; msg: string }>() }));
  const post = <T>(url: string, payload: unknown, session: Session = admin, lang = 'zh') =>
    t.app
      .inject({ method: 'POST', url, headers: { ...session.headers, 'accept-language': lang }, payload: payload as object })
      .then((r) => ({ status: r.statusCode, body: r.json<{ data: T; msg: string }>() }));

  it('asks for a shop before Ozon can be asked, then answers the tree down to leaf types in the caller’s language', async () => {
    const none = await get('/api/description-category/tree');
    expect(none.status).toBe(400);
    expect(none.body.msg).toBe('请先在“店铺管理”中添加一个Ozon店铺');
    adminShop = (await post<Store>('/api/store/add', { name: '管理员店', clientId: '1003', apiKey: 'sim-key-1003' })).body.data.id;

    const zh = await get<CategoryNode[]>('/api/description-category/tree');
    expect(zh.status).toBe(200);
    const electronics = zh.body.data.find((c) => c.categoryId === 17027000)!;
    expect(electronics.name).toBe('电子产品');
    const audio = electronics.children.find((c) => c.categoryId === EARPHONES.categoryId)!;
    expect(audio.types.map((x) => x.name)).toEqual(['无线耳机', '便携音箱']);
    const en = await get<CategoryNode[]>('/api/description-category/tree', admin, 'en');
    expect(en.body.data[0]!.name).toBe('Electronics');
  });

  it('answers a type’s attributes: required, dictionary, several values, per variant', async () => {
    const answer = await post<CategoryAttribute[]>('/api/description-category/attribute', { ...EARPHONES, shopId: adminShop });
    expect(answer.status).toBe(200);
    const byId = new Map(answer.body.data.map((a) => [a.id, a]));
    expect(byId.get(85)).toMatchObject({ name: '品牌', isRequired: true, dictionaryId: 28732849, isCollection: false, isAspect: false });
    expect(byId.get(10096)).toMatchObject({ isCollection: true, isAspect: true, maxValueCount: 10 });
    expect(byId.get(9048)).toMatchObject({ isRequired: true, dictionaryId: 0 });
    expect((await post('/api/description-category/attribute', { categoryId: 17028630, typeId: 1 })).status).toBe(400);
  });

  it('pages a 40,000-value dictionary by last value id, and searches it', async () => {
    const first = await post<AttributeValuesPage>('/api/description-category/attribute/values', { ...EARPHONES, attributeId: 85, limit: 100 });
    expect(first.body.data.values).toHaveLength(100);
    expect(first.body.data.hasNext).toBe(true);
    const next = await post<AttributeValuesPage>('/api/description-category/attribute/values', { ...EARPHONES, attributeId: 85, limit: 100, lastValueId: first.body.data.values[99]!.id });
    expect(next.body.data.values[0]!.id).toBe(BRAND_DICTIONARY[100]!.id);
    const found = await post<AttributeValuesPage>('/api/description-category/attribute/values', { ...EARPHONES, attributeId: 85, search: 'novatech pro' });
    expect(found.body.data.values.map((v) => v.value)).toContain('Novatech Pro');
    expect((await post('/api/description-category/attribute/values', { ...EARPHONES, attributeId: 85, limit: 5000 })).status).toBe(400);
  });

  it('keeps creation to administrators, and the category calls to the listing roles', async () => {
    const card = goodCard('ROLE');
    expect((await post('/api/CreateProduct', { shopId: 1, card }, seller)).status).toBe(401);
    expect((await post('/api/create/status', { shopId: 1, taskId: 1, offerIds: ['x'] }, seller)).status).toBe(401);
    expect((await post('/api/create/template', { shopId: 1, product: '1' }, seller)).status).toBe(401);
    // A seller fills the same form for collected items: the category calls are theirs too, with their own shop.
    const sellerShop = (await post<Store>('/api/store/add', { name: '卖家店', clientId: '1001', apiKey: 'sim-key-1001' }, seller)).body.data.id;
    expect((await get('/api/description-category/tree', seller)).status).toBe(200);
    for (const [name, password] of [['analyst', 'analyst123'], ['newbie', 'newbie123']] as const) {
      const other = await login(t.app, name, password);
      expect((await get('/api/description-category/tree', other)).status).toBe(401);
      expect((await post('/api/description-category/attribute', EARPHONES, other)).status).toBe(401);
    }
    // Another user's shop is not the admin's to create in.
    expect((await post('/api/CreateProduct', { shopId: sellerShop, card })).status).toBe(404);
    expect((await post('/api/description-category/attribute', { ...EARPHONES, shopId: sellerShop })).status).toBe(404);
  });

  it('refuses a card Ozon would refuse, naming the field, and sends nothing', async () => {
    const card = goodCard('MISS');
    const missing = { ...card, attributes: card.attributes.filter((a) => a.id !== 85) };
    const refused = await post<{ field: string }>('/api/CreateProduct', { shopId: adminShop, card: missing });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe('「品牌」为必填属性');
    expect(refused.body.data.field).toBe('card.attr.85');
    const gap = await post<{ field: string }>('/api/CreateProduct', { shopId: adminShop, card: { ...card, variants: [{ ...card.variants[0]!, oldPrice: '200' }] } }, admin, 'en');
    expect(gap.body.data.field).toBe('card.variants.0.oldPrice');
    expect(gap.body.msg).toMatch(/^The old price must be at least 20 above the price/);
    const twice = await post<{ field: string }>('/api/CreateProduct', { shopId: adminShop, card: { ...card, variants: [card.variants[0]!, card.variants[0]!] } });
    expect(twice.body.data.field).toBe('card.variants.1.offerId');
    expect(t.app.marketplace.simulator!.shop('1003').productByOffer.has('MISS-BLACK')).toBe(false);
  });

  it('creates the variants of a model and follows Ozon’s import to listed', async () => {
    const created = await post<CreateTask>('/api/CreateProduct', { shopId: adminShop, card: goodCard('X1') });
    expect(created.status).toBe(200);
    expect(created.body.data.items.map((i) => [i.offerId, i.status])).toEqual([
      ['X1-BLACK', 'importing'],
      ['X1-WHITE', 'importing'],
    ]);
    const onOzon = t.app.marketplace.simulator!.shop('1003').productByOffer.get('X1-WHITE')!;
    expect(onOzon.attributes.find((a) => a.id === 9048)?.values).toEqual([{ value: 'X1' }]);
    expect(onOzon.images[0]).toBe('https://cdn.example.com/x1-black.jpg');
    const settled = await post<CreateTask>('/api/create/status', { shopId: adminShop, taskId: created.body.data.taskId, offerIds: ['X1-BLACK', 'X1-WHITE'] });
    expect(settled.body.data.items.map((i) => i.status)).toEqual(['listed', 'listed']);
    expect(settled.body.data.items[0]!.productId).toBeGreaterThan(0);
  });

  it('shows Ozon’s import errors against the attribute they concern', async () => {
    const card = goodCard('BAD');
    // Not a brand of Ozon's dictionary: only Ozon's import can tell.
    card.attributes = card.attributes.map((a) => (a.id === 85 ? { id: 85, values: [{ dictionaryValueId: 1, value: 'Nobrand' }] } : a));
    const created = await post<CreateTask>('/api/CreateProduct', { shopId: adminShop, card });
    expect(created.status).toBe(200);
    const settled = await post<CreateTask>('/api/create/status', { shopId: adminShop, taskId: created.body.data.taskId, offerIds: ['BAD-BLACK', 'BAD-WHITE'] });
    const [black] = settled.body.data.items;
    expect(black!.status).toBe('failed');
    expect(black!.errors[0]).toMatchObject({ code: 'error_attribute_value_out_of_range', field: 'attr.85', attributeId: 85 });
    expect(black!.errors[0]!.message).toMatch(/^「Бренд」/);
  });

  it('fills the form from an existing product of the shop (backup listing)', async () => {
    const product = t.app.marketplace.simulator!.shop('1003').products[0]!;
    const card = await post<CardDraft>('/api/create/template', { shopId: adminShop, product: product.offerId });
    expect(card.status).toBe(200);
    expect(card.body.data).toMatchObject({ categoryId: product.categoryId, typeId: product.typeId, name: product.name });
    expect(card.body.data.variants[0]!.offerId).toBe('');
    expect(card.body.data.images.length).toBeGreaterThan(0);
    const byId = await post<CardDraft>('/api/create/template', { shopId: adminShop, product: String(product.id) });
    expect(byId.body.data.name).toBe(product.name);
    const none = await post('/api/create/template', { shopId: adminShop, product: 'NO-SUCH-OFFER' });
    expect(none.status).toBe(404);
  });
});
