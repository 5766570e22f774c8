import { createOzonClient } from '../../../server/marketplace/ozon/client';
import { OzonError } from '../../../server/marketplace/ozon/errors';
import { startSimulator } from './harness';

const DAY = 86_400_000;
let sim: Awaited<ReturnType<typeof startSimulator>>;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());

const since = () => new Date(Date.now() - 95 * DAY).toISOString();
const to = () => new Date(Date.now() + DAY).toISOString();

describe('Ozon client against the simulator: keys and warehouses', () => {
  it('checks a key and reads its roles and expiry', async () => {
    const { roles, expiresAt } = await sim.client('1001').roles();
    expect(roles.map((r) => r.name)).toContain('Admin');
    expect(Date.parse(expiresAt!)).toBeGreaterThan(Date.now());
  });

  it('refuses a wrong Client-Id/Api-Key pair with a clear message', async () => {
    const bad = sim.client('1001', { apiKey: 'wrong' });
    const error = await bad.roles().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OzonError);
    expect((error as OzonError).kind).toBe('invalidKey');
    expect((error as OzonError).text('zh')).toContain('Api-Key无效');
    expect((error as OzonError).text('en')).toContain('Invalid Api-Key');
    const unknownShop = await sim.client('9999').roles().catch((e: unknown) => e);
    expect((unknownShop as OzonError).kind).toBe('invalidKey');
  });

  it('pages warehouses with a cursor', async () => {
    const first = await sim.client('1003').warehouseList({ limit: 2 });
    expect(first.warehouses).toHaveLength(2);
    expect(first.has_next).toBe(true);
    const second = await sim.client('1003').warehouseList({ limit: 2, cursor: first.cursor });
    expect(second.warehouses).toHaveLength(1);
    expect(second.has_next).toBe(false);
    expect(new Set([...first.warehouses, ...second.warehouses].map((w) => w.warehouse_id)).size).toBe(3);
  });
});

describe('FBS postings', () => {
  it('pages the whole posting list with a cursor, each posting once, in time order', async () => {
    const client = sim.client('1001');
    const seen: string[] = [];
    let cursor = '';
    let previous = '';
    for (;;) {
      const page = await client.postingFbsList({ filter: { since: since(), to: to() }, limit: 100, cursor });
      for (const p of page.postings) {
        expect(p.in_process_at >= previous).toBe(true);
        previous = p.in_process_at;
        seen.push(p.posting_number);
      }
      if (!page.has_next) break;
      cursor = page.cursor;
    }
    expect(seen).toHaveLength(1_200);
    expect(new Set(seen).size).toBe(1_200);
  });

  it('filters by status and lists unfulfilled postings in a cutoff window', async () => {
    const client = sim.client('1001');
    const delivered = await client.postingFbsList({ filter: { since: since(), to: to(), statuses: ['delivered'] }, limit: 50 });
    expect(delivered.postings.length).toBeGreaterThan(0);
    expect(delivered.postings.every((p) => p.status === 'delivered')).toBe(true);
    const unfulfilled = await client.postingFbsUnfulfilledList({
      filter: { cutoff_from: new Date(Date.now() - 30 * DAY).toISOString(), cutoff_to: new Date(Date.now() + 30 * DAY).toISOString() },
      limit: 100,
    });
    expect(unfulfilled.count).toBeGreaterThan(0);
    expect(unfulfilled.postings.every((p) => ['awaiting_packaging', 'awaiting_deliver', 'awaiting_registration', 'acceptance_in_progress', 'awaiting_approve'].includes(p.status))).toBe(true);
    // Without a window Ozon answers nothing; so does the simulator.
    expect((await client.postingFbsUnfulfilledList({ filter: {}, limit: 10 })).postings).toHaveLength(0);
  });

  it('ships a posting once, then refuses a second ship; labels come as a real PDF', async () => {
    const client = sim.client('1002');
    const list = await client.postingFbsList({ filter: { since: since(), to: to(), statuses: ['awaiting_packaging'] }, limit: 5 });
    const posting = list.postings[0]!;
    const detail = await client.postingFbsGet(posting.posting_number, { financial_data: true });
    expect(detail.status).toBe('awaiting_packaging');
    const shipped = await client.postingFbsShip({
      posting_number: posting.posting_number,
      packages: [{ products: posting.products.map((p) => ({ product_id: p.sku, quantity: p.quantity })) }],
    });
    expect(shipped.result).toEqual([posting.posting_number]);
    expect((await client.postingFbsGet(posting.posting_number)).status).toBe('awaiting_deliver');
    const again = await client
      .postingFbsShip({ posting_number: posting.posting_number, packages: [{ products: posting.products.map((p) => ({ product_id: p.sku, quantity: p.quantity })) }] })
      .catch((e: unknown) => e);
    expect((again as OzonError).kind).toBe('badRequest');
    expect((again as OzonError).ozonMessage).toBe('POSTING_ALREADY_SHIPPED');

    const label = await client.packageLabel([posting.posting_number]);
    expect(label.contentType).toBe('application/pdf');
    expect(Buffer.from(label.bytes.slice(0, 5)).toString()).toBe('%PDF-');

    const [task] = await client.packageLabelCreate([posting.posting_number]);
    const state = await client.packageLabelGet(task!.task_id);
    expect(state.status).toBe('completed');
    const file = await fetch(state.file_url!);
    expect(file.headers.get('content-type')).toContain('application/pdf');
  });

  it('refuses a ship with a wrong quantity and a posting in the wrong status', async () => {
    const client = sim.client('1002');
    const list = await client.postingFbsList({ filter: { since: since(), to: to(), statuses: ['awaiting_packaging'] }, limit: 5 });
    const posting = list.postings[1]!;
    const wrong = await client
      .postingFbsShip({ posting_number: posting.posting_number, packages: [{ products: [{ product_id: posting.products[0]!.sku, quantity: 99 }] }] })
      .catch((e: unknown) => e);
    expect((wrong as OzonError).ozonMessage).toBe('HAS_INCORRECT_PRODUCT_QUANTITY');
    const registering = await client.postingFbsList({ filter: { since: since(), to: to(), statuses: ['awaiting_registration'] }, limit: 1 });
    const p = registering.postings[0]!;
    const bad = await client.postingFbsShip({ posting_number: p.posting_number, packages: [{ products: p.products.map((x) => ({ product_id: x.sku, quantity: x.quantity })) }] }).catch((e: unknown) => e);
    expect((bad as OzonError).ozonMessage).toBe('HAS_INCORRECT_STATUS');
  });

  it('cancels with a reason, and sets tracking numbers with a verdict per posting', async () => {
    const client = sim.client('1002');
    const list = await client.postingFbsList({ filter: { since: since(), to: to(), statuses: ['awaiting_packaging'] }, limit: 5 });
    const posting = list.postings[2]!;
    const [reasons] = await client.postingFbsCancelReasons([posting.posting_number]);
    expect(reasons!.reasons.length).toBeGreaterThan(0);
    expect(await client.postingFbsCancel({ posting_number: posting.posting_number, cancel_reason_id: reasons!.reasons[0]!.id })).toBe(true);
    expect((await client.postingFbsGet(posting.posting_number)).status).toBe('cancelled');
    const tracking = await client.setTrackingNumbers([
      { posting_number: list.postings[3]!.posting_number, tracking_number: 'LP00123456789CN' },
      { posting_number: '1-0001-1', tracking_number: 'X' },
    ]);
    expect(tracking.map((t) => t.result)).toEqual([true, false]);
    expect((await client.postingFbsGet(list.postings[3]!.posting_number)).tracking_number).toBe('LP00123456789CN');
  });

  it('holds labels back until 45 s after ship', async () => {
    const client = sim.client('1003');
    sim.simulator.control.labelReadyDelayMs = 45_000;
    try {
      const list = await client.postingFbsList({ filter: { since: since(), to: to(), statuses: ['awaiting_packaging'] }, limit: 1 });
      const p = list.postings[0]!;
      await client.postingFbsShip({ posting_number: p.posting_number, packages: [{ products: p.products.map((x) => ({ product_id: x.sku, quantity: x.quantity })) }] });
      const error = await client.packageLabel([p.posting_number]).catch((e: unknown) => e);
      expect((error as OzonError).ozonMessage).toContain("The next postings aren't ready");
    } finally {
      sim.simulator.control.labelReadyDelayMs = 0;
    }
  });
});

describe('products', () => {
  it('pages the product list with last_id and reads info, attributes, prices and stocks', async () => {
    const client = sim.client('1001');
    const ids: number[] = [];
    let lastId = '';
    for (;;) {
      const page = await client.productList({ limit: 100, last_id: lastId });
      ids.push(...page.items.map((i) => i.product_id));
      if (!page.last_id) break;
      lastId = page.last_id;
    }
    expect(ids).toHaveLength(300);
    expect(new Set(ids).size).toBe(300);
    const info = await client.productInfoList({ product_id: ids.slice(0, 10) });
    expect(info).toHaveLength(10);
    expect(info[0]!.images[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sim\/ozon\/assets\/img\/.+\.png$/);
    const image = await fetch(info[0]!.images[0]!);
    expect(image.headers.get('content-type')).toBe('image/png');
    const attributes = await client.productInfoAttributes({ filter: { product_id: ids.slice(0, 3) }, limit: 10 });
    expect(attributes.result.map((r) => r.id).sort()).toEqual(ids.slice(0, 3).sort());
    expect(attributes.result[0]!.attributes.some((a) => a.id === 85)).toBe(true);
    const prices = await client.productInfoPrices({ filter: {}, limit: 200 });
    expect(prices.items).toHaveLength(200);
    const rest = await client.productInfoPrices({ filter: {}, limit: 200, cursor: prices.cursor });
    expect(rest.items).toHaveLength(100);
    const stocks = await client.productInfoStocks({ filter: { product_id: ids.slice(0, 5) }, limit: 100 });
    expect(stocks.items).toHaveLength(5);
    expect((await client.productInfoLimit()).daily_create.limit).toBeGreaterThan(0);
  });

  it('imports a card as an async task, then finds it; an invalid card fails per item', async () => {
    const client = sim.client('1003');
    const tree = await client.categoryTree('ZH_HANS');
    expect(tree[0]!.category_name).toBe('电子产品');
    const sub = tree[0]!.children[0]!;
    const type = sub.children.find((c) => c.type_id)!;
    const attributes = await client.categoryAttributes({ description_category_id: sub.description_category_id!, type_id: type.type_id! });
    const required = attributes.filter((a) => a.is_required);
    expect(required.length).toBeGreaterThan(0);
    const taskId = await client.productImport([
      {
        offer_id: 'NEW-1',
        name: 'Новый товар',
        description_category_id: sub.description_category_id!,
        type_id: type.type_id!,
        price: '500',
        attributes: await Promise.all(
          required.map(async (a) => {
            if (a.dictionary_id === 0) return { id: a.id, values: [{ value: 'x' }] };
            const page = await client.categoryAttributeValues({ description_category_id: sub.description_category_id!, type_id: type.type_id!, attribute_id: a.id, limit: 1 });
            return { id: a.id, values: [{ dictionary_value_id: page.result[0]!.id, value: page.result[0]!.value }] };
          }),
        ),
      },
      { offer_id: 'NEW-2', name: 'Без категории', description_category_id: 1, type_id: 1, price: '500', attributes: [] },
    ]);
    const info = await client.productImportInfo(taskId);
    expect(info.items.map((i) => i.status)).toEqual(['imported', 'failed']);
    expect(info.items[1]!.errors.length).toBeGreaterThan(0);
    const found = await client.productInfoList({ offer_id: ['NEW-1'] });
    expect(found[0]!.name).toBe('Новый товар');

    const someSku = (await sim.client('1001').productInfoList({ product_id: [100100001, 100100002, 100100003, 100100004] })).find((p) => p.sku > 0)!.sku;
    const bySku = await client.productImportBySku([{ sku: someSku, offer_id: 'COPY-A' }, { sku: 42 }]);
    expect(bySku.unmatched_sku_list).toEqual([42]);
    expect((await client.productImportInfo(bySku.task_id)).items[0]!.status).toBe('imported');
  });

  it('pages a dictionary of tens of thousands of values by last_value_id and searches it', async () => {
    const client = sim.client('1003');
    const leaf = { description_category_id: 17028630, type_id: 94751 };
    const seen = new Set<number>();
    let last: number | undefined;
    let pages = 0;
    for (;;) {
      const page = await client.categoryAttributeValues({ ...leaf, attribute_id: 85, limit: 2000, last_value_id: last });
      for (const v of page.result) seen.add(v.id);
      pages++;
      last = page.result[page.result.length - 1]?.id;
      if (!page.has_next) break;
    }
    expect(seen.size).toBeGreaterThan(40_000);
    expect(pages).toBe(Math.ceil(seen.size / 2000));
    const found = await client.categoryAttributeValuesSearch({ ...leaf, attribute_id: 85, value: 'xiaomi', limit: 10 });
    expect(found.map((v) => v.value)).toContain('Xiaomi');
    const colours = await client.categoryAttributeValues({ ...leaf, attribute_id: 10096, limit: 100, language: 'ZH_HANS' });
    expect(colours.result.map((v) => v.info)).toContain('黑色');
    // A page past Ozon's limit and an attribute without a dictionary are refused as Ozon refuses them.
    await expect(client.categoryAttributeValues({ ...leaf, attribute_id: 85, limit: 2001 })).rejects.toBeInstanceOf(OzonError);
    await expect(client.categoryAttributeValues({ ...leaf, attribute_id: 9048, limit: 10 })).rejects.toBeInstanceOf(OzonError);
  });

  it("names the attribute of each import error, and refuses an SKU whose owner forbids copying", async () => {
    const client = sim.client('1003');
    const taskId = await client.productImport([
      {
        offer_id: 'ATTR-1',
        name: 'Наушники',
        description_category_id: 17028630,
        type_id: 94751,
        price: '900',
        attributes: [
          { id: 85, values: [{ dictionary_value_id: 1, value: 'Нет такого' }] },
          { id: 8229, values: [{ dictionary_value_id: 94751, value: 'Беспроводные наушники' }] },
          { id: 4383, values: [{ value: 'тяжёлый' }] },
        ],
      },
    ]);
    const [item] = (await client.productImportInfo(taskId)).items;
    expect(item!.status).toBe('failed');
    expect(item!.errors.map((e) => [e.attribute_id, e.code]).sort()).toEqual([
      [4383, 'error_attribute_value_not_number'],
      [85, 'error_attribute_value_out_of_range'],
      [9048, 'error_attribute_values_empty'],
    ]);
    const forbidden = (await sim.client('1001').productInfoList({ product_id: [100100007, 100100017, 100100027] })).find((p) => p.sku > 0)!;
    const bySku = await client.productImportBySku([{ sku: forbidden.sku, offer_id: 'COPY-NO' }]);
    const [refused] = (await client.productImportInfo(bySku.task_id)).items;
    expect(refused).toMatchObject({ offer_id: 'COPY-NO', status: 'failed' });
    expect(refused!.errors[0]!.code).toBe('SKU_COPY_FORBIDDEN');
  });

  it('archives, restores at most 10 auto-archived cards a day, and deletes only archived cards without SKU', async () => {
    const client = sim.client('1002');
    const autoArchived = (await client.productInfoList({ product_id: (await client.productList({ filter: { visibility: 'ARCHIVED' }, limit: 1000 })).items.map((i) => i.product_id) }))
      .filter((p) => p.is_autoarchived)
      .map((p) => p.id);
    const onSale = (await client.productList({ filter: { visibility: 'VISIBLE' }, limit: 3 })).items.map((i) => i.product_id);
    expect(await client.productArchive(onSale)).toBe(true);
    expect((await client.productList({ filter: { product_id: onSale }, limit: 10 })).items.every((i) => i.archived)).toBe(true);
    expect(await client.productUnarchive(onSale)).toBe(true);
    expect(autoArchived.length).toBeGreaterThan(10);
    const error = await client.productUnarchive(autoArchived.slice(0, 11)).catch((e: unknown) => e);
    expect((error as OzonError).ozonMessage).toBe('restore limit exceeded');
    expect(await client.productUnarchive(autoArchived.slice(0, 10))).toBe(true);
    const verdicts = await client.productsDelete([`SKU-1002-00001`, 'NO-SUCH']);
    expect(verdicts.every((v) => !v.is_deleted && v.error)).toBe(true);
  });

  it('updates prices under the gap and 10-an-hour rules, each item with its own verdict', async () => {
    const client = sim.client('1001');
    const [p] = await client.productInfoList({ product_id: [100100010] });
    const results = await client.productImportPrices([
      { offer_id: p!.offer_id, price: '1000', old_price: '1200' },
      { offer_id: p!.offer_id, price: '1000', old_price: '1010' },
      { offer_id: 'NO-SUCH', price: '10' },
    ]);
    expect(results.map((r) => r.updated)).toEqual([true, false, false]);
    expect(results[1]!.failures[0]!.code).toBe('discount_too_small');
    for (let i = 0; i < 9; i++) await client.productImportPrices([{ product_id: p!.id, price: String(900 + i) }]);
    const eleventh = await client.productImportPrices([{ product_id: p!.id, price: '800' }]);
    expect(eleventh[0]!.updated).toBe(false);
    expect(eleventh[0]!.failures[0]!.texts.zh).toContain('10次');
  });

  it('sets stock once per 30 s per product and warehouse', async () => {
    const client = sim.client('1001');
    const { warehouses } = await client.warehouseList({ limit: 10 });
    const visible = await client.productList({ filter: { visibility: 'VISIBLE' }, limit: 1 });
    const { product_id: productId, offer_id: offerId } = visible.items[0]!;
    const first = await client.productsStocks([{ offer_id: offerId, product_id: productId, stock: 7, warehouse_id: warehouses[0]!.warehouse_id }]);
    expect(first[0]!.updated).toBe(true);
    const second = await client.productsStocks([
      { offer_id: offerId, product_id: productId, stock: 8, warehouse_id: warehouses[0]!.warehouse_id },
      { offer_id: offerId, product_id: productId, stock: 8, warehouse_id: 1 },
    ]);
    expect(second.map((r) => r.failures[0]?.code)).toEqual(['TOO_MANY_REQUESTS', 'WAREHOUSE_NOT_FOUND']);
    const pics = await client.productPicturesImport({ product_id: productId, images: ['https://example.com/a.png'] });
    expect(pics[0]!.url).toBe('https://example.com/a.png');
  });
});

describe('promotions, returns, chats, analytics, finance', () => {
  it('lists actions and moves a candidate into an action and out again', async () => {
    const client = sim.client('1001');
    const actions = await client.actions();
    expect(actions.length).toBeGreaterThan(0);
    const action = actions[0]!;
    const candidates = await client.actionCandidates({ action_id: action.id, limit: 5 });
    const c = candidates.products[0]!;
    const activated = await client.actionProductsActivate({ action_id: action.id, products: [{ product_id: c.id, action_price: c.max_action_price }, { product_id: 1, action_price: 1 }] });
    expect(activated.product_ids).toEqual([c.id]);
    expect(activated.rejected.map((r) => r.product_id)).toEqual([1]);
    expect((await client.actionProducts({ action_id: action.id, limit: 1000 })).products.map((p) => p.id)).toContain(c.id);
    expect((await client.actionProductsDeactivate({ action_id: action.id, product_ids: [c.id] })).product_ids).toEqual([c.id]);
  });

  it('pages returns with last_id', async () => {
    const client = sim.client('1001');
    const first = await client.returnsList({ limit: 10 });
    expect(first.returns).toHaveLength(10);
    expect(first.has_next).toBe(true);
    const next = await client.returnsList({ limit: 10, last_id: first.returns[9]!.id });
    expect(next.returns[0]!.id).toBeGreaterThan(first.returns[9]!.id);
  });

  it('lists chats, reads history, sends, marks read, starts a chat for a posting, and sees a new buyer message', async () => {
    const client = sim.client('1001');
    const list = await client.chatList({ limit: 5 });
    expect(list.chats).toHaveLength(5);
    const chatId = list.chats.find((c) => c.chat.chat_status === 'Opened')!.chat.chat_id;
    await client.chatSendMessage(chatId, '您好，已发货');
    const history = await client.chatHistory({ chat_id: chatId, limit: 1 });
    expect(history.messages[0]!.data[0]).toBe('您好，已发货');
    const { messageId } = sim.simulator.shop('1001').addBuyerMessage(chatId, 'Где мой заказ?');
    const unread = await client.chatList({ filter: { unread_only: true }, limit: 100 });
    expect(unread.chats.map((c) => c.chat.chat_id)).toContain(chatId);
    expect(await client.chatRead(chatId, String(messageId))).toBe(0);
    const postings = await client.postingFbsList({ filter: { since: since(), to: to() }, limit: 1 });
    expect(await client.chatStart(postings.postings[0]!.posting_number)).toBeTruthy();
  });

  it('answers analytics by day and finance transactions by page', async () => {
    const client = sim.client('1001');
    const today = new Date().toISOString().slice(0, 10);
    const weekAgo = new Date(Date.now() - 6 * DAY).toISOString().slice(0, 10);
    const analytics = await client.analyticsData({ date_from: weekAgo, date_to: today, dimension: ['day'], metrics: ['revenue', 'ordered_units'], limit: 100 });
    expect(analytics.data).toHaveLength(7);
    expect(analytics.totals).toHaveLength(2);
    const finance = await client.financeTransactionList({ filter: { date: { from: new Date(Date.now() - 30 * DAY).toISOString(), to: new Date().toISOString() } }, page: 1, page_size: 50 });
    expect(finance.operations).toHaveLength(50);
    expect(finance.row_count).toBeGreaterThan(50);
    expect(finance.page_count).toBe(Math.ceil(finance.row_count / 50));
  });
});

describe('answers that renamed their fields (2026)', () => {
  it('reads a list total from `total_items` as well as from `total`', async () => {
    const answer = (result: object) => async () => new Response(JSON.stringify({ result }), { headers: { 'content-type': 'application/json' } });
    const client = (result: object) => createOzonClient({ baseUrl: 'http://ozon.test', clientId: '1', apiKey: 'k', fetch: answer(result) });
    const items = [{ product_id: 1, offer_id: 'A' }];
    expect((await client({ items, total_items: 7, last_id: '' }).productList({ limit: 1 })).total).toBe(7);
    expect((await client({ items, total: 5, last_id: '' }).productList({ limit: 1 })).total).toBe(5);
    expect((await client({ products: [], total_items: 3 }).actionProducts({ action_id: 1 })).total).toBe(3);
  });
});
