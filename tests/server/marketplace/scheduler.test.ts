import type { Store } from '../../../contract/store';
import { dueEntities, DEFAULT_SYNC_INTERVALS } from '../../../server/areas/sync/scheduler';
import { createOzonSimulator } from '../../../server/marketplace/simulator/plugin';
import { seedDemoShops } from '../../../server/demo/shops';
import { DATABASE_TARGETS, login, startTestApp, type TestApp } from '../harness';

const BACKOFF = { baseMs: 60_000, maxMs: 3_600_000 };

describe('which jobs are due', () => {
  const now = Date.parse('2025-06-10T08:00:00Z');
  const job = (entity: 'postings' | 'products', status: string | null, finishedAgoMs: number | null, extra: { leaseInMs?: number; failures?: number } = {}) => ({
    shop_id: 1,
    entity,
    status,
    finished_at: finishedAgoMs === null ? null : new Date(now - finishedAgoMs),
    lease_until: extra.leaseInMs === undefined ? null : new Date(now + extra.leaseInMs),
    failures: extra.failures ?? 0,
  });

  it('runs never-synced entities, and each again after its own interval', () => {
    expect(dueEntities([job('postings', null, null), job('products', null, null)], now, DEFAULT_SYNC_INTERVALS, BACKOFF)).toEqual(['postings', 'products']);
    // Five minutes on: postings (every 2 min) are due again, products (every 30 min) are not.
    expect(dueEntities([job('postings', 'done', 5 * 60_000), job('products', 'done', 5 * 60_000)], now, DEFAULT_SYNC_INTERVALS, BACKOFF)).toEqual(['postings']);
  });

  it('resumes a running job only once its lease ran out (its process was killed)', () => {
    expect(dueEntities([job('postings', 'running', null, { leaseInMs: 30_000 })], now, DEFAULT_SYNC_INTERVALS, BACKOFF)).toEqual([]);
    expect(dueEntities([job('postings', 'running', null, { leaseInMs: -1 })], now, DEFAULT_SYNC_INTERVALS, BACKOFF)).toEqual(['postings']);
  });

  it('backs a failing job off longer after each failure', () => {
    const failedTwoMinutesAgo = (failures: number) => [job('postings', 'failed', 2 * 60_000, { failures })];
    expect(dueEntities(failedTwoMinutesAgo(1), now, DEFAULT_SYNC_INTERVALS, BACKOFF)).toEqual(['postings']);
    expect(dueEntities(failedTwoMinutesAgo(2), now, DEFAULT_SYNC_INTERVALS, BACKOFF)).toEqual(['postings']);
    expect(dueEntities(failedTwoMinutesAgo(3), now, DEFAULT_SYNC_INTERVALS, BACKOFF)).toEqual([]);
  });
});

describe.each(DATABASE_TARGETS)('the sync scheduler and the shop page calls on $kind', (target) => {
  let t: TestApp;
  const simulator = createOzonSimulator({ ordersPerShop: 300, productsPerShop: 120, anchor: Date.now(), control: { labelReadyDelayMs: 0, taskDelayMs: 0 } });
  beforeAll(async () => {
    // A scheduler that never ticks on its own: the test ticks it.
    t = await startTestApp(target, { app: { marketplace: { simulator }, sync: { scheduler: { tickMs: 3_600_000, maxShopsAtOnce: 2 } } } });
    await t.app.ready();
    // start() looks once at once (demo shops sync right after start). Under load that look could still be reading
    // the shops when the first test adds its own, and start one of them: it is over before any shop exists.
    expect(await t.app.syncScheduler!.tick()).toEqual([]);
  });
  afterAll(() => t.close());

  const storesOf = async (headers: Record<string, string>) => (await t.app.inject({ method: 'GET', url: '/api/store/list', headers })).json<{ data: Store[] }>().data;

  it('syncs the demo shops side by side within their limits, and leaves synced shops alone until they are due', async () => {
    const ids = await seedDemoShops(t.database, t.config.secretKey, simulator);
    expect(ids).toHaveLength(2);
    // The demo administrator's shop (1004) is seeded too: three shops, two at a time.
    const all = (await t.database.query<{ id: number }>(`select id from mp_shops order by id`)).map((r) => r.id);
    expect(all).toHaveLength(3);
    const started = await t.app.syncScheduler!.tick();
    expect(started).toHaveLength(2);
    // Not twice, and not the third beside them: the two are busy and the limit is two.
    expect(await t.app.syncScheduler!.tick()).toEqual([]);
    await Promise.all(started.map((id) => t.app.sync.runShop(id, [])));
    while (t.app.sync.busyShops().length) await new Promise((r) => setTimeout(r, 50));
    // A slot is free: the shop that waited starts.
    const waited = all.filter((id) => !started.includes(id));
    expect(await t.app.syncScheduler!.tick()).toEqual(waited);
    await Promise.all(waited.map((id) => t.app.sync.runShop(id, [])));
    while (t.app.sync.busyShops().length) await new Promise((r) => setTimeout(r, 50));

    const seller = await login(t.app, 'seller', 'seller123');
    const stores = await storesOf(seller.headers);
    expect(stores.map((s) => s.clientId)).toEqual(['1001', '1002']);
    for (const store of stores) {
      expect(store.sync.map((j) => j.status)).toEqual(['done', 'done', 'done', 'done', 'done', 'done', 'done']);
      expect(store.sync.find((j) => j.entity === 'postings')!.total).toBe(300);
      expect(store.sync.find((j) => j.entity === 'products')!.total).toBe(120);
    }
    // Each postings chunk was projected into the orders table as it committed: every posting has its order rows.
    const [projected] = await t.database.query<{ postings: number }>(
      `select count(distinct posting_number)::int as postings from orders where shop_id = any($1::int[])`,
      [ids],
    );
    expect(projected!.postings).toBe(600);
    expect(await t.app.syncScheduler!.tick()).toEqual([]);
    // Seeding again changes nothing.
    expect(await seedDemoShops(t.database, t.config.secretKey, simulator)).toEqual(ids);
  });

  it('resumes a job whose process was killed once its lease runs out', async () => {
    const [id] = await seedDemoShops(t.database, t.config.secretKey, simulator);
    await t.database.query(`update mp_sync_jobs set status = 'running', lease_until = now() + interval '1 hour', finished_at = null where shop_id = $1 and entity = 'postings'`, [id]);
    expect(await t.app.syncScheduler!.tick()).toEqual([]);
    await t.database.query(`update mp_sync_jobs set lease_until = now() - interval '1 second' where shop_id = $1 and entity = 'postings'`, [id]);
    expect(await t.app.syncScheduler!.tick()).toEqual([id]);
    await t.app.sync.runShop(id!, []);
    while (t.app.sync.busyShops().length) await new Promise((r) => setTimeout(r, 50));
    const [job] = await t.database.query<{ status: string }>(`select status from mp_sync_jobs where shop_id = $1 and entity = 'postings'`, [id]);
    expect(job!.status).toBe('done');
  });

  it('archives a shop\'s taken-down products and its error products in one click each', async () => {
    const seller = await login(t.app, 'seller', 'seller123');
    const [store] = await storesOf(seller.headers);
    const shop = simulator.shop('1001');
    const removed = shop.products.filter((p) => p.state === 'removed' && !p.archived).length;
    const failed = shop.products.filter((p) => p.state === 'failed' && !p.archived).length;
    expect(removed + failed).toBeGreaterThan(0);

    const down = await t.app.inject({ method: 'POST', url: '/api/removeDownToArch', headers: seller.headers, payload: { id: store!.id } });
    expect(down.json<{ data: { archived: number } }>().data.archived).toBe(removed);
    expect(shop.products.filter((p) => p.state === 'removed' && !p.archived)).toHaveLength(0);
    expect(shop.products.filter((p) => p.state === 'failed' && !p.archived)).toHaveLength(failed);

    const fail = await t.app.inject({ method: 'POST', url: '/api/removeFailToArch', headers: seller.headers, payload: { id: store!.id } });
    expect(fail.json<{ data: { archived: number } }>().data.archived).toBe(failed);
    expect(shop.products.filter((p) => p.state === 'failed' && !p.archived)).toHaveLength(0);
  });

  it('refuses another seller\'s shop and users without the shop role', async () => {
    const [id] = await seedDemoShops(t.database, t.config.secretKey, simulator);
    const admin = await login(t.app, 'admin', 'admin123');
    const foreign = await t.app.inject({ method: 'POST', url: '/api/removeDownToArch', headers: admin.headers, payload: { id } });
    expect(foreign.statusCode).toBe(404);
    const analyst = await login(t.app, 'analyst', 'analyst123');
    const refused = await t.app.inject({ method: 'POST', url: '/api/store/sync', headers: analyst.headers, payload: { id } });
    expect(refused.statusCode).toBe(401);
  });
});
