import { parseArgs } from 'node:util';
import { buildApp } from '../app';
import { ConfigError, loadConfig } from '../config';
import { openDatabase } from '../db/database';
import { readDemoScale, writeDemoScale } from '../marketplace/plugin';
import { DEMO_ACCOUNTS, seedDemoUsers } from './seed';
import { seedDemoShops } from './shops';

/**
 * `npm run seed [-- --flags]`: migrates the configured database and seeds demo data.
 * `--orders N` is the simulator's scale knob: demo shop 1001 holds N postings from now on (persisted in mp_settings,
 * so every later `npm start` serves that many), and they are synced into the database here. Sync keeps Ozon's
 * 50 requests/s at 100 postings a page, so a million postings take a few minutes.
 */
const USAGE = `Usage: npm run seed -- [--orders N] [--help]
Seeds the demo accounts, the welcome notice and the demo shops into the configured database (DATA_DIR or DATABASE_URL).
  --orders N   demo shop 1001 (simulator) holds N postings from now on, synced now; e.g. --orders 1000000`;

async function run() {
  const { values } = parseArgs({
    options: { help: { type: 'boolean', short: 'h', default: false }, orders: { type: 'string' } },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const orders = values.orders === undefined ? undefined : Number(values.orders);
  if (orders !== undefined && (!Number.isInteger(orders) || orders < 0 || orders > 10_000_000)) {
    console.error(`--orders must be a whole number from 0 to 10000000\n\n${USAGE}`);
    process.exit(1);
  }
  const config = loadConfig(process.env);
  const database = await openDatabase(config);
  try {
    await database.migrate();
    await seedDemoUsers(database.db);
    console.log(`Seeded ${DEMO_ACCOUNTS.length} demo accounts into ${database.kind === 'pglite' ? config.dataDir : 'PostgreSQL'}.`);
    if (orders !== undefined) {
      const scale = (await readDemoScale(database)) ?? { orders: {} };
      await writeDemoScale(database, { orders: { ...scale.orders, '1001': orders } });
    }
    if (config.ozonApiUrl) {
      console.log('OZON_API_URL is set: demo shops belong to the embedded simulator, none seeded.');
      return;
    }
    // The app as `npm start` builds it (same simulator, sized by the scale just saved), without listening.
    const app = await buildApp(config, { database, logger: false });
    try {
      const [shop1001] = await seedDemoShops(database, config.secretKey, app.marketplace.simulator!);
      if (orders === undefined || shop1001 === undefined) return;
      console.log(`Syncing ${orders} postings of demo shop 1001 ...`);
      let last = 0;
      const progress = setInterval(async () => {
        const [job] = await database.query<{ done: number }>(`select done from mp_sync_jobs where shop_id = $1 and entity = 'postings'`, [shop1001]);
        if (job && job.done !== last) console.log(`  ${(last = job.done)} postings`);
      }, 5_000);
      try {
        const results = await app.sync.runShop(shop1001, ['postings']);
        const result = results[0];
        if (result?.status !== 'done') throw new Error(`sync ended ${result?.status ?? 'without running'}: ${String(result?.error ?? '')}`);
        const [count] = await database.query<{ n: number }>(`select count(*)::int as n from mp_records where shop_id = $1 and entity = 'postings'`, [shop1001]);
        console.log(`Demo shop 1001 holds ${count?.n ?? 0} synced postings; the next npm start serves ${orders}.`);
      } finally {
        clearInterval(progress);
      }
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}

run().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
