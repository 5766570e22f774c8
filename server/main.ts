import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/database';
import { buildApp } from './app';
import { DEMO_ACCOUNTS, demoAccountsTable, SeedError, seedForStart } from './demo/seed';
import { demoAppOptions, seedDemoData } from './demo/start';
import { demoStaffTable } from './demo/team';
import { backfillRollups } from './areas/analysis/rollups';
import { setPasswordHashCost } from './areas/session/passwords';
import { installProcessGuards, whenDatabaseAnswers } from './processGuards';

type Log = { error(object: unknown, message: string): void; fatal(object: unknown, message: string): void };
/** Where the process guards log: the console until the server's logger exists. */
let log: Log = { error: (object, message) => console.error(message, object), fatal: (object, message) => console.error(message, object) };
const waitLine = (line: string) => console.warn(line);

/** The only file that listens: configuration, migrations, seeding, listen, clean shutdown. */
async function main() {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // Before seeding: the first administrator's (or the demo accounts') hashes are made at the configured cost.
  setPasswordHashCost(config.passwordHashCost);

  installProcessGuards({ error: (object, message) => log.error(object, message), fatal: (object, message) => log.fatal(object, message) });
  // Started while the database is down (or restarting): wait for it, saying so, rather than exit.
  const database = await whenDatabaseAnswers('start', () => openDatabase(config), waitLine);
  try {
    // Instances started together take turns: one creates the first administrator (or the demo data), the others
    // find it there.
    await whenDatabaseAnswers('migrations', () =>
      database.exclusive('startup', async () => {
        await database.migrate();
        await seedForStart(database.db, config);
        // Sales rollups of the data stored before them (once per rollup definition).
        await backfillRollups(database);
      }),
    waitLine);
  } catch (error) {
    if (error instanceof SeedError) {
      console.error(error.message);
      await database.close();
      process.exit(1);
    }
    throw error;
  }

  // The sync scheduler keeps every active shop fresh in the background (the demo shops sync right after start).
  const app = await buildApp(config, { database, sync: { scheduler: {} }, ...(config.demo ? demoAppOptions() : {}) });
  log = app.log;
  database.availability.onChange((up, outageMs) => {
    if (up) app.log.warn({ outageMs }, `the database answers again after ${(outageMs / 1000).toFixed(1)} s`);
    else app.log.warn('the database cannot be reached; requests answer 503 and background work waits until it is back');
  });
  if (config.demo) await seedDemoData(app, (what, step) => whenDatabaseAnswers(what, step, waitLine));
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const where = database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)';
  console.log(`\nSeller Back Office: http://${shownHost}:${config.port}/  (database: ${where})`);
  if (config.demo) {
    console.log('\nDemo accounts:\n');
    console.log(demoAccountsTable(DEMO_ACCOUNTS));
    console.log('\nStaff of the demo seller (its organisation, /team/members):\n');
    console.log(demoStaffTable());
    console.log('');
  }
  if (config.captchaTestCode) console.log(`CAPTCHA_TEST_CODE is set: every captcha's answer is "${config.captchaTestCode}" (tests only).`);
}

main().catch((error: unknown) => {
  console.error('Failed to start:', error);
  process.exit(1);
});
