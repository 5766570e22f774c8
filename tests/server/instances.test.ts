import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { openPostgres, type Database } from '../../server/db/database';
import { seedForStart } from '../../server/demo/seed';
import { createPostgresDatabase } from './harness';

/**
 * Several server instances on one PostgreSQL database (issue 27): they start together, a push made on one reaches
 * the sockets of the others, and a background job never runs on two of them at once. PostgreSQL only: the embedded
 * PGlite database belongs to one process.
 */
const url = process.env.TEST_DATABASE_URL;
if (!url) console.warn('instances.test.ts: skipped, TEST_DATABASE_URL is not set (several instances need a PostgreSQL server)');

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sharedDatabase(): Promise<string> {
  const created = await createPostgresDatabase(url!);
  cleanups.push(() => created.drop());
  return created.url;
}

async function open(databaseUrl: string): Promise<Database> {
  const database = await openPostgres(databaseUrl);
  cleanups.push(() => database.close());
  return database;
}

const MIGRATIONS = (JSON.parse(readFileSync(new URL('../../server/db/migrations/meta/_journal.json', import.meta.url), 'utf8')) as { entries: unknown[] }).entries.length;

describe.skipIf(!url)('several instances on one PostgreSQL', () => {
  it('start together: each migrates without error, the schema is made once, one first administrator', async () => {
    const databaseUrl = await sharedDatabase();
    const instances = await Promise.all([1, 2, 3].map(() => open(databaseUrl)));
    const config = { demo: false, adminPassword: 'Admin12345' };
    await Promise.all(
      instances.map((database) =>
        database.exclusive('startup', async () => {
          await database.migrate();
          await seedForStart(database.db, config);
        }),
      ),
    );
    const [first] = instances;
    expect(await first!.query(`select count(*)::int as n from drizzle.__drizzle_migrations`)).toEqual([{ n: MIGRATIONS }]);
    expect(await first!.query(`select username from users where 'admin' = any(roles)`)).toEqual([{ username: 'admin' }]);
  });
});
