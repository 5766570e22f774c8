import { parseArgs } from 'node:util';
import { buildApp } from '../app';
import { ConfigError, loadConfig } from '../config';
import { openDatabase, type Database } from '../db/database';
import { readDemoScale, writeDemoScale } from '../marketplace/plugin';
import { generateMarket } from '../areas/research/generate';
import { seedOrders } from './orders-seed';
import { seedProducts } from './products-seed';
import { analyzeRollups, backfillRollups, rollupUser } from '../areas/analysis/rollups';
import { DEMO_ACCOUNTS, seedDemoUsers } from './seed';
import { seedDemoShops } from './shops';

/**
 * `npm run seed [-- --flags]`: migrates the configured database and seeds demo data.
 * `--orders N` writes N orders for the demo `seller` straight into the orders table (server/demo/orders-seed.ts,
 * set-based SQL: a million in about a minute), spread over the seller's demo shops. They are not postings of the
 * simulator: Ozon actions on them (ship, labels) answer as for unknown postings.
 * `--postings N` is the simulator's scale knob (the former --orders): demo shop 1001 holds N postings from now on
 * (persisted in mp_settings, so every later `npm start` serves that many), synced into the database here. Sync keeps
 * Ozon's 50 requests/s at 100 postings a page: about 15 s per 5,000 postings, hours for a million.
 */
const USAGE = `Usage: npm run seed -- [--orders N] [--products N] [--postings N] [--market N] [--help]
Seeds the demo accounts, the welcome notice and the demo shops into the configured database (DATA_DIR or DATABASE_URL).
  --orders N     adds N generated orders for the demo seller directly into the orders table (fast: ~1 min per
                 million); they appear in /order-manager/order-list but are not postings of the simulator, so
                 shipping or printing labels for them fails like for an unknown posting; e.g. --orders 1000000
  --products N   adds N generated products for the demo seller directly into the products table (SEED-… offer
                 ids; Ozon does not know them, so actions on them are refused per product); e.g. --products 500000
  --postings N   demo shop 1001 (simulator) holds N postings from now on, synced now through the Ozon API
                 (real postings: ship and labels work; slow: ~15 s per 5,000 postings)
  --market N     replaces the market research data with a generated market of N products and 0.3 N keywords
                 (deterministic; the previous market stays until the new one is whole); e.g. --market 1000000`;

async function run() {
  const { values } = parseArgs({
    options: { help: { type: 'boolean', short: 'h', default: false }, orders: { type: 'string' }, products: { type: 'string' }, postings: { type: 'string' }, market: { type: 'string' } },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const count = (flag: 'orders' | 'products' | 'postings' | 'market') => {
    const text = values[flag];
    const value = text === undefined ? undefined : Number(text);
    if (value !== undefined && (!Number.isInteger(value) || value < 0 || value > 10_000_000)) {
      console.error(`--${flag} must be a whole number from 0 to 10000000\n\n${USAGE}`);
      process.exit(1);
    }
    return value;
  };
  const orders = count('orders');
  const products = count('products');
  const postings = count('postings');
  const market = count('market');
  const config = loadConfig(process.env);
  const database = await openDatabase(config);
  try {
    await database.migrate();
    await seedDemoUsers(database.db);
    console.log(`Seeded ${DEMO_ACCOUNTS.length} demo accounts into ${database.kind === 'pglite' ? config.dataDir : 'PostgreSQL'}.`);
    if (market !== undefined) await seedMarket(database, market);
    if (postings !== undefined) {
      const scale = (await readDemoScale(database)) ?? { orders: {} };
      await writeDemoScale(database, { orders: { ...scale.orders, '1001': postings } });
    }
    if (!config.ozonSimulator) {
      console.log('The Ozon simulator is off (OZON_API_URL set, or production without OZON_SIMULATOR=on): demo shops belong to it, none seeded.');
      if (orders !== undefined) await seedSellerOrders(database, orders);
      if (products !== undefined) await seedSellerProducts(database, products);
      return;
    }
    // The app as `npm start` builds it (same simulator, sized by the scale just saved), without listening.
    const app = await buildApp(config, { database, logger: false });
    try {
      const [shop1001] = await seedDemoShops(database, config.secretKey, app.marketplace.simulator!);
      if (orders !== undefined) await seedSellerOrders(database, orders);
      if (products !== undefined) await seedSellerProducts(database, products);
      if (postings === undefined || shop1001 === undefined) return;
      console.log(`Syncing ${postings} postings of demo shop 1001 ...`);
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
        console.log(`Demo shop 1001 holds ${count?.n ?? 0} synced postings; the next npm start serves ${postings}.`);
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

/** --orders: the rows go to the demo seller's shops (or shop 0 when the seller has none). */
async function seedSellerOrders(database: Database, count: number): Promise<void> {
  const [seller] = await database.query<{ id: number }>(`select id from users where username = 'seller'`);
  if (!seller) throw new Error('The demo seller does not exist');
  const shops = await database.query<{ id: number; name: string }>(`select id, name from mp_shops where user_id = $1 order by client_id`, [seller.id]);
  const started = Date.now();
  let reported = 0;
  const inserted = await seedOrders(database, {
    userId: seller.id,
    shops: shops.length > 0 ? shops : [{ id: 0, name: '' }],
    count,
    onProgress: (done) => {
      if (done - reported >= 100_000 || done === count) console.log(`  ${(reported = done)} / ${count} orders`);
    },
  });
  console.log(`Seeded ${inserted} orders for the demo seller in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  const rolled = Date.now();
  // A fresh data directory is rolled up whole and marked so: the server's start then has nothing left to roll up (it
  // redid the whole million, minutes before it answered). A directory already marked rolls up the seller again.
  if ((await backfillRollups(database)) === 0) {
    await rollupUser(database, seller.id);
    await analyzeRollups(database);
  }
  console.log(`Rolled the demo seller's sales up by day in ${((Date.now() - rolled) / 1000).toFixed(1)} s.`);
}

/** --products: the rows go to the demo seller's shops. */
async function seedSellerProducts(database: Database, count: number): Promise<void> {
  const [seller] = await database.query<{ id: number }>(`select id from users where username = 'seller'`);
  if (!seller) throw new Error('The demo seller does not exist');
  const shops = await database.query<{ id: number; name: string }>(`select id, name from mp_shops where user_id = $1 order by client_id`, [seller.id]);
  if (shops.length === 0) throw new Error('The demo seller has no shop to hold products');
  const started = Date.now();
  let reported = 0;
  const inserted = await seedProducts(database, {
    userId: seller.id,
    shops,
    count,
    onProgress: (done) => {
      if (done - reported >= 100_000 || done === count) console.log(`  ${(reported = done)} / ${count} products`);
    },
  });
  console.log(`Seeded ${inserted} products for the demo seller in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

async function seedMarket(database: Database, products: number): Promise<void> {
  const started = Date.now();
  const summary = await generateMarket(database, {
    products,
    onProgress: (step, done, total) => console.log(`  market ${step}: ${done} / ${total} (${((Date.now() - started) / 1000).toFixed(1)} s)`),
  });
  console.log(`Market: ${summary.products} products and ${summary.keywords} keywords as of ${summary.asOf} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

run().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
