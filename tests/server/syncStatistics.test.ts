import type { SyncService } from '../../server/areas/sync/service';
import type { Database } from '../../server/db/database';
import { simulatedShops, startSimulator } from './marketplace/harness';
import { PGLITE_TARGET } from './harness';

/** What a sync of products, postings, returns and finance transactions fills. */
const SYNCED_TABLES = ['mp_records', 'products', 'orders', 'returns', 'sales_daily', 'sales_daily_totals', 'sales_sku_weekly', 'sales_sku_span'];

type TableStatistics = { table: string; tuples: number; rows: number; analyses: number };

async function statistics(database: Database): Promise<Map<string, TableStatistics>> {
  const rows = await database.query<Omit<TableStatistics, 'rows'>>(
    `select c.relname as table, c.reltuples::float8 as tuples, coalesce(s.analyze_count, 0)::int as analyses
     from pg_class c left join pg_stat_user_tables s on s.relid = c.oid where c.oid = any($1::regclass[])`,
    [SYNCED_TABLES],
  );
  const counted = await Promise.all(rows.map(async (row) => ({ ...row, rows: Number((await database.query<{ n: string }>(`select count(*) as n from ${row.table}`))[0]!.n) })));
  return new Map(counted.map((row) => [row.table, row]));
}

// PGlite runs no autovacuum: the sync analyzes what it filled. PostgreSQL's autovacuum does it there, on its own time.
describe.each([PGLITE_TARGET])('planner statistics of synced tables ($kind)', (target) => {
  let sim: Awaited<ReturnType<typeof startSimulator>>;
  let database: Database;
  let dispose: () => Promise<void>;
  let sync: SyncService;
  let shops: number[];

  beforeAll(async () => {
    sim = await startSimulator({ ordersPerShop: 300, productsPerShop: 80, anchor: Date.now() });
    ({ database, dispose } = await target.open());
    await database.migrate();
    await database.query(`insert into users (id, username, password_hash, password_stamp) values (1, 'owner', 'x', 'x')`);
    ({ shops, sync } = await simulatedShops(database, sim, ['1001', '1002'], 100));
  }, 60_000);
  afterAll(async () => {
    await sync.stop();
    await dispose();
    await sim.close();
  });

  it('a shop\'s first sync leaves every table it filled analyzed, with its row count', async () => {
    const before = await statistics(database);
    for (const table of SYNCED_TABLES) expect(before.get(table), table).toMatchObject({ tuples: -1, rows: 0 });
    const results = await sync.runShop(shops[0]!, ['products', 'postings', 'returns', 'finance']);
    expect(results.map((r) => r.status)).toEqual(['done', 'done', 'done', 'done']);
    const after = await statistics(database);
    for (const table of SYNCED_TABLES) {
      const row = after.get(table)!;
      expect(row.rows, table).toBeGreaterThan(0);
      // The planner's row count is the table's, not the "never analyzed" guess.
      expect(row.tuples, table).toBe(row.rows);
    }
  }, 120_000);

  it('a later sync that changes little leaves the statistics; another shop\'s first sync brings its rows in', async () => {
    const before = await statistics(database);
    expect((await sync.runShop(shops[0]!, ['postings'])).map((r) => r.status)).toEqual(['done']);
    const again = await statistics(database);
    expect(again.get('orders')!.analyses).toBe(before.get('orders')!.analyses);
    expect(again.get('sales_daily')!.analyses).toBe(before.get('sales_daily')!.analyses);

    expect((await sync.runShop(shops[1]!, ['postings'])).map((r) => r.status)).toEqual(['done']);
    const second = await statistics(database);
    expect(second.get('orders')!.rows).toBeGreaterThan(before.get('orders')!.rows);
    expect(second.get('orders')!.tuples).toBe(second.get('orders')!.rows);
    expect(second.get('sales_daily')!.tuples).toBe(second.get('sales_daily')!.rows);
  }, 120_000);
});
