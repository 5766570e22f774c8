import type { ProductLimits, ProductPage, ProductRow } from '../../contract/products';
import type { ReuploadAnswer, ReuploadHistory, ReuploadItems } from '../../contract/reupload';
import type { Store } from '../../contract/store';
import type { OzonClient } from '../../server/marketplace/ozon/client';
import { advanceReuploads, reuploadStatus, startReupload } from '../../server/areas/products/reupload';
import { createReuploadRunner, type ReuploadRunner } from '../../server/areas/products/reuploadRunner';
import { createLeases } from '../../server/db/leases';
import type { ProductsDeps } from '../../server/areas/products/service';
import { clientForShop } from '../../server/areas/store/service';
import { DATABASE_TARGETS, login, startTestApp, type Session, type TestApp } from './harness';

describe.each(DATABASE_TARGETS)('delist and re-upload on $kind', (target) => {
  let t: TestApp;
  let seller: Session;
  let storeId: number;
  let runner: ReuploadRunner;

  beforeAll(async () => {
    t = await startTestApp(target, {
      app: {
        marketplace: { simulatorOptions: { ordersPerShop: 10, productsPerShop: 120, control: { taskDelayMs: 0 } } },
        // The runner's timer is off: each test makes its passes by hand.
        products: { reuploadIntervalMs: 0, onReuploadRunner: (r) => (runner = r) },
      },
    });
    await t.app.ready();
    seller = await login(t.app, 'seller', 'seller123');
    const added = await post<Store>('/api/store/add', { name: '义乌小百货', clientId: '1001', apiKey: 'sim-key-1001' });
    storeId = added.body.data.id;
    await t.app.sync.runShop(storeId, ['warehouses', 'products']);
  });
  afterAll(() => t.close());

  const get = <T>(url: string, session: Session = seller) =>
    t.app.inject({ method: 'GET', url, headers: session.headers }).then((r) => ({ status: r.statusCode, body: r.json<{ data: T; msg: string }>() }));
  const post = <T>(url: string, payload: unknown, session: Session = seller) =>
    t.app.inject({ method: 'POST', url, headers: session.headers, payload: payload as object }).then((r) => ({ status: r.statusCode, body: r.json<{ data: T; msg: string }>() }));
  /** The batch as the page reads it, after one pass of the server's runner. */
  const afterPass = async (batchId: string) => {
    await runner.tick();
    return (await post<ReuploadItems>('/api/product/reUpload/status', { batchId })).body.data.items;
  };
  const rows = async () => (await get<ProductPage>(`/api/ozonProduct/list?storeId=${storeId}&rows=200`)).body.data.list;
  const sim = () => t.app.marketplace.simulator!.shop('1001');
  const depsWith = (wrap: (client: OzonClient) => OzonClient): ProductsDeps => ({
    database: t.database,
    now: () => new Date(),
    clientFor: async (userId, shopId) => wrap((await clientForShop({ database: t.database, secretKey: t.config.secretKey, clientFor: t.app.marketplace.clientFor }, userId, shopId)).client),
  });
  const used = new Set<string>();
  /** Products not re-uploaded by an earlier test. */
  const pick = async (test: (row: ProductRow) => boolean, count = 1) => {
    const found = (await rows()).filter((r) => !used.has(r.id) && !/-R\d+$/.test(r.offerId) && test(r)).slice(0, count);
    if (found.length < count) throw new Error('not enough such products in the simulated shop');
    for (const r of found) used.add(r.id);
    return found;
  };

  it('answers 401 to users whose roles do not reach products', async () => {
    const analyst = await login(t.app, 'analyst', 'analyst123');
    expect((await post('/api/product/reUpload', { batchId: 'b', ids: ['x'] }, analyst)).status).toBe(401);
    expect((await post('/api/product/reUpload/status', { batchId: 'b' }, analyst)).status).toBe(401);
    expect((await get('/api/product/reUpload/history', analyst)).status).toBe(401);
    expect((await get('/api/product/limit', analyst)).status).toBe(401);
  });

  it("shows each shop's daily create and update quotas from Ozon", async () => {
    const limits = (await get<ProductLimits>('/api/product/limit')).body.data;
    expect(limits).toHaveLength(1);
    expect(limits[0]).toMatchObject({ shopId: storeId, error: null, dailyCreate: { limit: 1000 }, total: { limit: 50_000, usage: 120 } });
    expect(limits[0]!.dailyCreate.resetAt).not.toBe('');
  });

  it('re-uploads a selling card and a card without an SKU to the end: new offer ids, old cards archived or deleted, prices and stocks back', async () => {
    const [selling] = await pick((r) => r.status === 'selling' && r.sku !== '' && r.fbsStock > 0);
    const [noSku] = await pick((r) => r.status === 'failed' && r.sku === '');
    const oldMin = sim().productById.get(Number(selling!.productId))!.minPrice;
    const answer = (await post<ReuploadAnswer>('/api/product/reUpload', { batchId: 'batch-a', ids: [selling!.id, noSku!.id, 'nope'] })).body.data;
    expect(answer.refused).toEqual([{ id: 'nope', ok: false, message: '商品不存在' }]);
    // Taken, not yet moved: nothing on Ozon changes in the request itself.
    expect(answer.items.map((i) => [i.rowId, i.newOfferId, i.step])).toEqual([
      [selling!.id, `${selling!.offerId}-R1`, 'reading'],
      [noSku!.id, `${noSku!.offerId}-R1`, 'reading'],
    ]);
    expect(sim().productById.get(Number(selling!.productId))!.archived).toBe(false);
    const items = await afterPass('batch-a');
    expect(items.map((i) => i.step)).toEqual(['done', 'done']);
    const [a, b] = items;
    expect(a!.oldCard).toBe('archived');
    expect(b!.oldCard).toBe('deleted');
    // On Ozon: the old card with its SKU archived, the one without deleted, each new card made once.
    expect(sim().productById.get(Number(selling!.productId))!.archived).toBe(true);
    expect(sim().productById.get(Number(noSku!.productId))).toBeUndefined();
    const fresh = sim().productByOffer.get(a!.newOfferId)!;
    expect(fresh.name).toBe(selling!.name);
    expect(fresh.price).toBe(selling!.price);
    expect(fresh.minPrice).toBe(oldMin);
    // In the list: the new cards with their stock, the old ones archived or gone.
    const after = await rows();
    const newRow = after.find((r) => r.offerId === a!.newOfferId)!;
    expect(newRow).toMatchObject({ status: 'selling', fbsStock: selling!.fbsStock, price: selling!.price });
    expect(after.find((r) => r.id === selling!.id)!.status).toBe('archived');
    expect(after.find((r) => r.id === noSku!.id)).toBeUndefined();
    expect(after.find((r) => r.offerId === b!.newOfferId)).toBeDefined();
  });

  it('refuses a product under moderation and one already under way in another batch; a batch sent again resumes, not repeats', async () => {
    // The simulated shop's cards under moderation may all be settled by now: one is marked so in the list.
    const [moderating] = await pick((r) => r.status === 'notSelling' || r.status === 'selling');
    await t.database.query(`update products set status = 'moderating' where id = $1`, [moderating!.id]);
    const [one] = await pick((r) => r.status === 'notSelling' || r.status === 'selling');
    t.app.marketplace.simulator!.control.taskDelayMs = 60_000;
    try {
      const first = (await post<ReuploadAnswer>('/api/product/reUpload', { batchId: 'batch-b', ids: [moderating!.id, one!.id] })).body.data;
      expect(first.refused.map((r) => r.id)).toEqual([moderating!.id]);
      expect(first.refused[0]!.message).toContain('审核');
      expect((await afterPass('batch-b'))[0]!.step).toBe('importing');
      const other = (await post<ReuploadAnswer>('/api/product/reUpload', { batchId: 'batch-c', ids: [one!.id] })).body.data;
      expect(other.items).toEqual([]);
      expect(other.refused[0]!.message).toContain('另一批');
      const again = (await post<ReuploadAnswer>('/api/product/reUpload', { batchId: 'batch-b', ids: [one!.id] })).body.data;
      expect(again.items.map((i) => i.id)).toEqual([first.items[0]!.id]);
      const history = (await get<ReuploadHistory>('/api/product/reUpload/history')).body.data;
      expect(history.openBatches).toContainEqual({ batchId: 'batch-b', unsettled: 1, total: 1 });
    } finally {
      t.app.marketplace.simulator!.control.taskDelayMs = 0;
    }
    // The import task ends; the new card is then under moderation until Ozon's time for it comes.
    const [imported] = await afterPass('batch-b');
    expect(imported).toMatchObject({ step: 'moderating', oldCard: 'archived' });
    sim().productByOffer.get(imported!.newOfferId)!.readyAt = 0;
    expect((await afterPass('batch-b'))[0]!.step).toBe('done');
    expect([...sim().productByOffer.keys()].filter((o) => o.startsWith(`${one!.offerId}-R`))).toHaveLength(1);
  });

  it('refuses products past the daily create quota with the quota in the message', async () => {
    const area = sim().areas.products;
    const saved = [...area.creates];
    const now = Date.now();
    area.creates.push(...Array.from({ length: 999 - area.creates.length }, () => now));
    try {
      const [x, y] = await pick((r) => r.status === 'selling' || r.status === 'notSelling', 2);
      const answer = (await post<ReuploadAnswer>('/api/product/reUpload', { batchId: 'batch-quota', ids: [x!.id, y!.id] })).body.data;
      expect(answer.items.map((i) => i.rowId)).toEqual([x!.id]);
      expect(answer.refused).toHaveLength(1);
      expect(answer.refused[0]!.message).toContain('1000');
    } finally {
      area.creates.splice(0, area.creates.length, ...saved);
    }
  });

  it('takes a batch of many to the end with no browser asking, and two instances passing at once make each card once', async () => {
    const picked = await pick((r) => r.status === 'selling' || r.status === 'notSelling', 30);
    const answer = (await post<ReuploadAnswer>('/api/product/reUpload', { batchId: 'batch-many', ids: picked.map((r) => r.id) })).body.data;
    expect(answer.items).toHaveLength(30);
    // Two server instances, each with its own runner and lease owner, pass at once: one holds the runner's lease.
    const other = createReuploadRunner({ deps: depsWith((client) => client), leases: createLeases(t.database), intervalMs: 0, notify: () => undefined, log: { error: () => undefined } });
    await Promise.all([runner.tick(), other.tick()]);
    await other.stop();
    await runner.tick();
    const items = (await post<ReuploadItems>('/api/product/reUpload/status', { batchId: 'batch-many' })).body.data.items;
    expect(items.map((i) => i.step)).toEqual(picked.map(() => 'done'));
    for (const row of picked) {
      expect([...sim().productByOffer.keys()].filter((o) => o.startsWith(`${row.offerId}-R`))).toEqual([`${row.offerId}-R1`]);
    }
    const history = (await get<ReuploadHistory>('/api/product/reUpload/history')).body.data;
    expect(history.openBatches.find((b) => b.batchId === 'batch-many')).toBeUndefined();
  });

  // A crash right after each Ozon call went out, before its answer was stored: the resumed batch loses no card and makes none twice.
  const CRASH_POINTS = ['productInfoAttributes', 'productArchive', 'productsDelete', 'productImport', 'productImportInfo', 'productImportPrices', 'productsStocks'] as const;
  it.each(CRASH_POINTS)('resumes after a crash right after %s', async (method) => {
    const withMin = method === 'productImportPrices';
    const [row] = await pick((r) => (method === 'productsDelete' ? r.sku === '' && r.status === 'failed' : r.status === 'selling' && r.fbsStock > 0 && (!withMin || r.minPrice > 0)));
    const deps = depsWith((client) => crashingAfter(client, method));
    const batchId = `crash-${method}`;
    await startReupload(deps, seller.id, { batchId, ids: [row!.id] }, 'zh');
    await expect(advanceReuploads(deps, { batchId }, 20)).rejects.toThrow('crash');
    // The crashed instance's hold on the row runs out; the next pass (another instance, or this one restarted) resumes it.
    await t.database.query(`update reupload_items set lease_until = null where batch_id = $1`, [batchId]);
    await runner.tick();
    const { items } = await reuploadStatus(depsWith((client) => client), seller.id, batchId, 'zh');
    expect(items[0]).toMatchObject({ step: 'done', newOfferId: `${row!.offerId}-R1` });
    expect([...sim().productByOffer.keys()].filter((o) => o.startsWith(`${row!.offerId}-R`))).toEqual([`${row!.offerId}-R1`]);
    const stored = await t.database.query<{ card: { item: { name: string } } }>(`select card from reupload_items where batch_id = $1`, [batchId]);
    expect(stored[0]!.card.item.name).toBe(row!.name);
  });

  it("fails a product Ozon refuses at import with Ozon's reason, and a retry from that step finishes it", async () => {
    const [row] = await pick((r) => r.status === 'selling');
    const area = sim().areas.products;
    const saved = [...area.creates];
    area.creates.push(...Array.from({ length: 1000 }, () => Date.now()));
    // The quota could not be read beforehand: Ozon's import refuses the card instead.
    const deps = depsWith((client) => new Proxy(client, { get: (target, key, receiver) => (key === 'productInfoLimit' ? () => Promise.reject(new Error('down')) : Reflect.get(target, key, receiver)) }));
    await startReupload(deps, seller.id, { batchId: 'batch-fail', ids: [row!.id] }, 'zh');
    await advanceReuploads(deps, { batchId: 'batch-fail' }, 20);
    const { items } = await reuploadStatus(deps, seller.id, 'batch-fail', 'zh');
    area.creates.splice(0, area.creates.length, ...saved);
    const failed = items[0]!;
    expect(failed).toMatchObject({ step: 'failed', failedStep: 'importing', oldCard: 'archived' });
    expect(failed.errors.map((e) => e.message)).toEqual(['已超出每日商品创建或更新额度']);
    const resumed = (await post<ReuploadItems>('/api/product/reUpload/retry', { batchId: 'batch-fail', ids: [failed.id] })).body.data.items[0]!;
    expect(resumed).toMatchObject({ step: 'importing', errors: [] });
    expect((await afterPass('batch-fail'))[0]).toMatchObject({ step: 'done', errors: [] });
    expect((await post('/api/product/reUpload/retry', { batchId: 'batch-fail', ids: [failed.id] })).status).toBe(400);
    const history = (await get<ReuploadHistory>('/api/product/reUpload/history?step=done')).body.data;
    expect(history.list.map((i) => i.id)).toContain(failed.id);
  });
});

/** The client, but the named call crashes the process right after Ozon took it (once). */
function crashingAfter(client: OzonClient, method: keyof OzonClient): OzonClient {
  let crashed = false;
  return new Proxy(client, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (key !== method || typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        if (!crashed) {
          crashed = true;
          throw new Error('crash');
        }
        return result;
      };
    },
  });
}
