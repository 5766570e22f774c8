import { buildApp } from '../../../server/app';
import { OZON_PRODUCTION_URL } from '../../../server/marketplace/ozon/client';
import type { OzonRequest } from '../../../server/marketplace/ozon/versions';
import { SIM_BODY_LIMIT } from '../../../server/marketplace/simulator/plugin';
import { SIM_BOUNDS } from '../../../server/marketplace/simulator/shop';
import { DATABASE_TARGETS, testConfig } from '../harness';
import { startSimulator } from './harness';

let sim: Awaited<ReturnType<typeof startSimulator>>;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());

/** A raw request, as any HTTP client (not ours) would send it. */
async function ozon(path: string, body: string | object, clientId = '1001') {
  const response = await fetch(`${sim.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'Client-Id': clientId, 'Api-Key': `sim-key-${clientId}`, 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('the simulator refuses what Ozon refuses, in Ozon\'s error shape', () => {
  it('checks each body against the official request schema: types, required fields, enum values', async () => {
    const visibility = await ozon('/v3/product/list', { filter: { visibility: 'SOMETIMES' }, limit: 10 });
    expect(visibility).toEqual({ status: 400, body: { code: 3, message: expect.stringContaining('filter.visibility must be one of ALL'), details: [] } });
    const warehouse = await ozon('/v2/products/stocks', { stocks: [{ offer_id: 'A', product_id: 1, stock: 1, warehouse_id: 'abc' }] });
    expect(warehouse.status).toBe(400);
    expect(warehouse.body.message).toContain('stocks.0.warehouse_id');
    const noProductId = await ozon('/v2/products/stocks', { stocks: [{ offer_id: 'A', stock: 1, warehouse_id: 1 }] });
    expect(noProductId.body.message).toContain('stocks.0.product_id is required');
    const noLimit = await ozon('/v4/posting/fbs/list', { filter: { since: '2025-01-01T00:00:00Z', to: '2025-02-01T00:00:00Z' } });
    expect(noLimit.body).toMatchObject({ code: 3, message: expect.stringContaining('limit is required') });
    const notADate = await ozon('/v4/posting/fbs/list', { filter: { since: 'yesterday', to: '2025-02-01T00:00:00Z' }, limit: 10 });
    expect(notADate.body.message).toContain('filter.since');
    // int64 as a string of digits is what Ozon's gateway accepts too.
    expect((await ozon('/v2/warehouse/list', { limit: '5' })).status).toBe(200);
  });

  it('answers malformed JSON, an over-long body and an unknown path as Ozon does', async () => {
    expect(await ozon('/v3/product/list', '{"limit": 1,')).toEqual({ status: 400, body: { code: 3, message: expect.any(String), details: [] } });
    const big = await ozon('/v3/product/list', { limit: 1, filter: { offer_id: ['x'.repeat(SIM_BODY_LIMIT)] } });
    expect(big).toEqual({ status: 413, body: { code: 13, message: expect.any(String), details: [] } });
    expect(await ozon('/v9/no/such/method', {})).toEqual({ status: 404, body: { code: 5, message: 'Not Found', details: [] } });
  });

  it('answers /v3/posting/fbs/get with the v3 price (a decimal string and currency_code)', async () => {
    const [posting] = (await sim.client('1001').postingFbsList({ filter: { since: new Date(Date.now() - 95 * 86_400_000).toISOString(), to: new Date().toISOString() }, limit: 1 })).postings;
    const got = await ozon('/v3/posting/fbs/get', { posting_number: posting!.posting_number });
    const product = (got.body.result as { products: { price: unknown; currency_code: unknown }[] }).products[0]!;
    expect(product.price).toMatch(/^\d+\.\d{2}$/);
    expect(product.currency_code).toBe(posting!.products[0]!.price.currency);
  });
});

describe('the simulator reads the fields Ozon defines for each call', () => {
  const day = 86_400_000;
  const unfulfilled = (filter: object) => ozon('/v4/posting/fbs/unfulfilled/list', { filter: { cutoff_from: new Date(Date.now() - 30 * day).toISOString(), cutoff_to: new Date(Date.now() + 5 * day).toISOString(), ...filter }, limit: 100 });

  it('filters the unfulfilled list by last_change_status_date, its name for the status-change window', async () => {
    const all = await unfulfilled({});
    expect(all.status).toBe(200);
    expect((all.body.postings as unknown[]).length).toBeGreaterThan(0);
    const future = { from: new Date(Date.now() + 10 * day).toISOString(), to: new Date(Date.now() + 20 * day).toISOString() };
    const none = await unfulfilled({ last_change_status_date: future });
    expect(none).toMatchObject({ status: 200, body: { postings: [], count: 0 } });
  });

  it('finds a posting\'s transactions by its number alone, as Ozon\'s filter allows', async () => {
    const [posting] = (await sim.client('1001').postingFbsList({ filter: { since: new Date(Date.now() - 20 * day).toISOString(), to: new Date().toISOString() }, limit: 1 })).postings;
    const found = await ozon('/v3/finance/transaction/list', { filter: { posting_number: posting!.posting_number }, page: 1, page_size: 10 });
    expect(found.status).toBe(200);
    const result = found.body.result as { operations: { posting: { posting_number: string } }[]; row_count: number };
    expect(result.row_count).toBe(1);
    expect(result.operations[0]!.posting.posting_number).toBe(posting!.posting_number);
  });

  it('types each handler\'s body as Ozon defines it: a field Ozon does not send is a type error', () => {
    const shop = sim.simulator.shop('1001');
    // @ts-expect-error `dir` is v3's sort field; the v4 list Ozon serves names it `sort_dir`.
    const body: OzonRequest<'postingFbsList'> = { filter: { since: new Date(Date.now() - day).toISOString(), to: new Date().toISOString() }, limit: 1, dir: 'DESC' };
    expect(shop.areas.postings.postingList({ kind: 'list', body }).postings.length).toBeLessThanOrEqual(1);
  });
});

describe('the simulator\'s switches', () => {
  const trigger = (body: object) =>
    fetch(`${sim.baseUrl}/__sim/trigger/message`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));

  it('sends a buyer\'s picture hosted elsewhere as an image message, img[<url>] after its text', async () => {
    const url = 'https://cdn.example.com/photos/damaged%20box.jpg?size=800';
    const sent = await trigger({ clientId: '1001', text: 'Вот фото коробки', imageUrl: url });
    expect(sent.status).toBe(200);
    const { chatId, messageId } = sent.body as { chatId: string; messageId: number };
    const history = await ozon('/v3/chat/history', { chat_id: chatId, direction: 'Backward', limit: 1 });
    expect(history.body.messages).toEqual([expect.objectContaining({ message_id: messageId, is_image: true, is_read: false, data: [`Вот фото коробки\nimg[${url}]`], user: expect.objectContaining({ type: 'customer' }) })]);
    // The picture alone, in the same chat.
    const alone = await trigger({ clientId: '1001', chatId, imageUrl: url });
    const last = await ozon('/v3/chat/history', { chat_id: chatId, direction: 'Backward', limit: 1 });
    expect(last.body.messages).toEqual([expect.objectContaining({ message_id: (alone.body as { messageId: number }).messageId, data: [`img[${url}]`] })]);
  });

  it('refuses a picture address that is not http(s) or would break the token, in Ozon\'s error shape', async () => {
    for (const imageUrl of ['javascript:alert(1)', 'ftp://example.com/a.png', 'https://example.com/a].png', 'not a url']) {
      expect([imageUrl, await trigger({ clientId: '1001', imageUrl })]).toEqual([imageUrl, { status: 400, body: { code: 3, message: expect.stringContaining('imageUrl'), details: [] } }]);
    }
  });
});

describe('the simulator\'s pictures', () => {
  it('keeps its own picture sent back through an import as its own, answered with each caller\'s address', async () => {
    const info = async () => ((await ozon('/v3/product/info/list', { offer_id: [offerId] }, '1002')).body.items as { images: string[] }[])[0]!.images;
    const [product] = sim.simulator.shop('1002').products;
    const offerId = product!.offerId;
    const before = await info();
    expect(before[1]).toMatch(new RegExp(`^${sim.baseUrl}/assets/img/[\\w-]+\\.png$`));
    // The server reaches its embedded simulator in process, as http://localhost: the card's pictures come back to it so.
    const asServerSees = before[1]!.replace(sim.baseUrl, 'http://localhost:80/sim/ozon');
    const design = 'https://app.example/api/edit/picture/AbCdEfGhIjKlMnOpQr.jpg';
    const sent = await ozon('/v1/product/pictures/import', { product_id: product!.id, images: [design, asServerSees] }, '1002');
    expect(sent.status).toBe(200);
    expect(await info()).toEqual([design, before[1]]);
    // A link elsewhere that only looks like one of its pictures stays as it was sent.
    const lookalike = 'https://cdn.example/elsewhere/assets/img/p1-1.png';
    await ozon('/v1/product/pictures/import', { product_id: product!.id, images: [lookalike] }, '1002');
    expect(await info()).toEqual([lookalike]);
  });
});

describe('nothing the simulator holds grows without bound', () => {
  it('refuses a sent file whose name is longer than the bound, and keeps a chat\'s newest messages only', async () => {
    const chatId = sim.simulator.shop('1002').addBuyerMessage().chatId;
    const long = await ozon('/v1/chat/send/file', { chat_id: chatId, name: `${'n'.repeat(SIM_BOUNDS.fileNameChars)}.png`, base64_content: 'aGk=' }, '1002');
    expect(long).toEqual({ status: 400, body: { code: 3, message: expect.stringContaining('name must be at most'), details: [] } });
    const shop = sim.simulator.shop('1002');
    for (let i = 0; i < SIM_BOUNDS.messagesPerChat + 50; i++) shop.areas.chat.chatSend({ chat_id: chatId, text: `m${i}` });
    const history = shop.areas.chat.chatHistory({ chat_id: chatId, limit: 1000, direction: 'Forward' });
    expect(history.messages).toHaveLength(SIM_BOUNDS.messagesPerChat);
    expect(history.messages.at(-1)!.data).toEqual([`m${SIM_BOUNDS.messagesPerChat + 49}`]);
  });

  it('keeps the newest label tasks only', () => {
    const shop = sim.simulator.shop('1003');
    const [posting] = shop.areas.postings.postingList({ kind: 'list', body: { filter: { since: new Date(Date.now() - 95 * 86_400_000).toISOString(), to: new Date().toISOString() }, limit: 1 } }).postings as { posting_number: string }[];
    const ids = Array.from({ length: SIM_BOUNDS.tasks + 1 }, () => Number(shop.areas.postings.labelCreate({ posting_number: [posting!.posting_number] }).result.tasks[0]!.task_id));
    expect(shop.areas.postings.labelTask(ids[0]!)).toBeUndefined();
    expect(shop.areas.postings.labelTask(ids.at(-1)!)).toBeDefined();
  });
});

describe('the simulator runs only when asked for', () => {
  const target = DATABASE_TARGETS[0]!;
  async function appWith(overrides: { production: boolean; ozonSimulator: boolean }) {
    const { database, dispose } = await target.open();
    await database.migrate();
    const config = { ...testConfig(), captchaTestCode: null, ...overrides };
    const app = await buildApp(config, { database, logger: false });
    await app.ready();
    return { app, close: async () => (await app.close(), await dispose()) };
  }

  it('is not mounted in production unless OZON_SIMULATOR is on; shops without a base URL then call Ozon itself', async () => {
    const { app, close } = await appWith({ production: true, ozonSimulator: false });
    try {
      expect(app.marketplace.simulator).toBeNull();
      const roles = await app.inject({ method: 'POST', url: '/sim/ozon/v1/roles', headers: { 'client-id': '1001', 'api-key': 'sim-key-1001' }, payload: {} });
      expect(roles.statusCode).toBe(404);
      const called: string[] = [];
      const realFetch = globalThis.fetch;
      globalThis.fetch = (async (input: string | URL | Request) => {
        called.push(String(input));
        throw new TypeError('offline');
      }) as typeof fetch;
      try {
        await app.marketplace.clientFor({ clientId: '1', apiKey: 'k', baseUrl: null }).roles().catch(() => undefined);
      } finally {
        globalThis.fetch = realFetch;
      }
      expect(called[0]).toBe(`${OZON_PRODUCTION_URL}/v1/roles`);
    } finally {
      await close();
    }
  });

  it('is mounted in production with OZON_SIMULATOR on, without its control endpoints', async () => {
    const { app, close } = await appWith({ production: true, ozonSimulator: true });
    try {
      expect(app.marketplace.simulator).not.toBeNull();
      const roles = await app.inject({ method: 'POST', url: '/sim/ozon/v1/roles', headers: { 'client-id': '1001', 'api-key': 'sim-key-1001' }, payload: {} });
      expect(roles.statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/sim/ozon/__sim/control' })).statusCode).toBe(404);
    } finally {
      await close();
    }
  });
});
