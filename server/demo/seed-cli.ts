import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config';
import { openDatabase } from '../db/database';
import { DEMO_ACCOUNTS, seedDemoUsers } from './seed';

/**
 * `npm run seed [-- --flags]`: migrates the configured database and seeds demo data. For now only the demo users
 * and the welcome notice; later areas add their flags here (e.g. `--orders 1000000` for a big demo shop).
 */
const USAGE = `Usage: npm run seed -- [--help]
Seeds the demo accounts and the welcome notice into the configured database (DATA_DIR or DATABASE_URL).`;

async function run() {
  const { values } = parseArgs({ options: { help: { type: 'boolean', short: 'h', default: false } }, strict: true });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const config = loadConfig(process.env);
  const database = await openDatabase(config);
  try {
    await database.migrate();
    await seedDemoUsers(database.db);
    console.log(`Seeded ${DEMO_ACCOUNTS.length} demo accounts into ${database.kind === 'pglite' ? config.dataDir : 'PostgreSQL'}.`);
  } finally {
    await database.close();
  }
}

run().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
