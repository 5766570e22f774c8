import { openPglite, type Database } from '../../../server/db/database';
import { syncEntity } from '../../../server/areas/sync/engine';
import { startSimulator } from './harness';

let sim: Awaited<ReturnType<typeof startSimulator>>;
let database: Database;
beforeAll(async () => {
  // History ends now, so a 90-day sync window holds every generated posting.
  sim = await startSimulator({ ordersPerShop: 1_200, productsPerShop: 300, anchor: Date.now() });
  database = await openPglite();
  await database.migrate();
  await database.query(`insert into users (id, username, password_hash, password_stamp) values (1, 'owner', 'x', 'x')`);
});
afterAll(async () => {
  await database.close();
  await sim.close();
});

async function addShop(clientId: string) {
  const [row] = await database.query<{ id: number }>(
    `insert into mp_shops (user_id, name, client_id, api_key_enc) values (1, $1, $2, 'unused') returning id`,
    [`shop ${clientId}`, clientId],
  );
  return row!.id;
}
const counts = async (shopId: number, entity: string) =>
  (await database.query<{ n: number; d: number }>(`select count(*)::int as n, count(distinct external_id)::int as d from mp_records where shop_id = $1 and entity = $2`, [shopId, entity]))[0]!;

describe('sync jobs', () => {
  it('a postings sync killed mid-way and restarted loses nothing and duplicates nothing', async () => {
    const shopId = await addShop('1001');
    const controller = new AbortController();
    let pages = 0;
    const first = await syncEntity(database, shopId, sim.client('1001'), 'postings', {
      pageSize: 100,
      signal: controller.signal,
      onProgress: () => {
        if (++pages === 4) controller.abort();
      },
    });
    expect(first.status).toBe('stopped');
    expect((await counts(shopId, 'postings')).n).toBe(400);
    // The stopped run gave its lease back: the next run resumes from the saved cursor at once. (A run killed with
    // its lease held is resumed once the lease ran out: tests/server/instances.test.ts.)
    const resumed = await syncEntity(database, shopId, sim.client('1001'), 'postings', { pageSize: 100 });
    expect(resumed.status).toBe('done');
    expect(await counts(shopId, 'postings')).toEqual({ n: 1_200, d: 1_200 });
  });

  it('ends complete through 429 storms, 5xx and timeouts, for every entity', async () => {
    const shopId = await addShop('1002');
    sim.simulator.fail('rateLimit', 3, { clientId: '1002' });
    sim.simulator.fail('serverError', 2, { clientId: '1002' });
    sim.simulator.fail('timeout', 1, { clientId: '1002' });
    const client = sim.client('1002', { timeoutMs: 500 });
    // Six failures in a row outlast one request's bounded retries: that run fails, keeps its cursor, and the
    // scheduler's next run finishes the job.
    const runs: string[] = [];
    for (const entity of ['warehouses', 'products', 'postings', 'returns', 'finance', 'chats', 'promotions'] as const) {
      let result = await syncEntity(database, shopId, client, entity, { pageSize: 100 });
      runs.push(result.status);
      if (result.status === 'failed') result = await syncEntity(database, shopId, client, entity, { pageSize: 100 });
      expect(result.status).toBe('done');
    }
    expect(runs[0]).toBe('failed');
    expect(await counts(shopId, 'postings')).toEqual({ n: 1_200, d: 1_200 });
    expect(await counts(shopId, 'products')).toEqual({ n: 300, d: 300 });
    expect(sim.simulator.control.faults).toEqual([]);
  });

  it('a second run fetches only what changed and stores the change', async () => {
    const shopId = await addShop('1003');
    const client = sim.client('1003');
    expect((await syncEntity(database, shopId, client, 'postings', { pageSize: 100 })).status).toBe('done');
    const { postingNumber } = sim.simulator.shop('1003').addPosting();
    const second = await syncEntity(database, shopId, client, 'postings', { pageSize: 100, now: () => new Date(Date.now() + 1_000) });
    expect(second.status).toBe('done');
    expect(second.stored).toBeLessThan(50);
    const [row] = await database.query<{ status: string }>(`select data->>'status' as status from mp_records where shop_id = $1 and external_id = $2`, [shopId, postingNumber]);
    expect(row?.status).toBe('awaiting_packaging');
  });

  it('hands each stored page to the hook with its own synced_at: what was synced from then on is that page alone', async () => {
    // Another seller's shop row on the simulator's shop 1001: its records are its own.
    await database.query(`insert into users (id, username, password_hash, password_stamp) values (2, 'second', 'x', 'x')`);
    const [shop] = await database.query<{ id: number }>(
      `insert into mp_shops (user_id, name, client_id, api_key_enc) values (2, 'shop 1001 again', '1001', 'unused') returning id`,
    );
    const shopId = shop!.id;
    const seen: { records: number; since: number }[] = [];
    const result = await syncEntity(database, shopId, sim.client('1001'), 'postings', {
      pageSize: 300,
      afterChunk: async (records, syncedAt) => {
        const [row] = await database.query<{ n: number }>(
          `select count(*)::int as n from mp_records where shop_id = $1 and entity = 'postings' and synced_at >= $2::timestamptz`,
          [shopId, syncedAt.toISOString()],
        );
        seen.push({ records, since: row!.n });
      },
    });
    expect(result.status).toBe('done');
    // Each page's projection reads that page's records, not every record stored before it.
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.reduce((sum, page) => sum + page.records, 0)).toBe(1_200);
    expect(seen.map((page) => page.since)).toEqual(seen.map((page) => page.records));
  });

  it('a key that stops working stops the shop with a visible reason', async () => {
    sim.simulator.addShop({ clientId: '4001', apiKey: 'sim-key-4001', orders: 10, products: 10 });
    const shopId = await addShop('4001');
    sim.simulator.shop('4001').config.keyState = 'deactivated';
    const result = await syncEntity(database, shopId, sim.client('4001'), 'products');
    expect(result.status).toBe('failed');
    const [shop] = await database.query<{ status: string; reason: { zh: string } }>(`select status, status_reason as reason from mp_shops where id = $1`, [shopId]);
    expect(shop!.status).toBe('keyFailed');
    expect(shop!.reason.zh).toContain('Api-Key已停用');
  });
});
